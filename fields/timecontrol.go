package fields

import "bytes"

// Speed is a game's speed class, as lichess estimates it from the clock.
type Speed uint8

// The speed classes, fastest first.
const (
	UnknownSpeed Speed = iota
	UltraBullet
	Bullet
	Blitz
	Rapid
	Classical
	Correspondence
)

var speedNames = [...]string{
	UnknownSpeed:   "unknown",
	UltraBullet:    "ultrabullet",
	Bullet:         "bullet",
	Blitz:          "blitz",
	Rapid:          "rapid",
	Classical:      "classical",
	Correspondence: "correspondence",
}

// speedText holds the names as bytes, so that a Value can carry one
// without allocating. Written out, not converted from speedNames, so that
// start-up does nothing; TestNamesAsText holds the two together.
var speedText = [len(speedNames)][]byte{
	UnknownSpeed:   []byte("unknown"),
	UltraBullet:    []byte("ultrabullet"),
	Bullet:         []byte("bullet"),
	Blitz:          []byte("blitz"),
	Rapid:          []byte("rapid"),
	Classical:      []byte("classical"),
	Correspondence: []byte("correspondence"),
}

// String returns the speed's name in lower case: "blitz".
func (s Speed) String() string {
	if int(s) < len(speedNames) {
		return speedNames[s]
	}
	return speedNames[UnknownSpeed]
}

// ParseSpeed returns the speed named by String's words, "unknown" aside.
func ParseSpeed(name string) (Speed, bool) {
	for s := UltraBullet; s <= Correspondence; s++ {
		if speedNames[s] == name {
			return s, true
		}
	}
	return UnknownSpeed, false
}

// SpeedOf classifies a clock of base seconds plus inc seconds a move by
// lichess's estimate of a game's duration, base + 40 × inc: under 30 s
// ultrabullet, under 180 s bullet, under 480 s blitz, under 1500 s rapid,
// classical otherwise.
func SpeedOf(base, inc float64) Speed {
	switch est := base + 40*inc; {
	case est < 30:
		return UltraBullet
	case est < 180:
		return Bullet
	case est < 480:
		return Blitz
	case est < 1500:
		return Rapid
	}
	return Classical
}

// secondsPerDay is the time a move may take, or more, in correspondence
// chess: chess.com writes daily games as "1/86400" (a day a move).
const secondsPerDay = 86400

// TimeControl reads a TimeControl tag value. Seconds may be decimals, as
// engine matches write "10+0.05".
//
//   - "180+2": 180 s plus 2 s a move; "60": 60 s and no increment.
//   - "-": no clock, correspondence chess (lichess); base and inc are 0.
//   - "40/7200:3600", "40/7200+30:1800+30": several periods; base and inc
//     are those of the first one, which sets the game's pace.
//   - "1/86400", and any first period of a day or more a move: daily
//     (correspondence) chess, base the period's seconds.
//   - "3d", "2 days": days a move, correspondence.
//   - "*180" (sandclock): base 180, no increment.
//
// ok is false for "?", an empty value and anything else.
func TimeControl(v []byte) (base, inc float64, speed Speed, ok bool) {
	v = trimBlanks(v)
	if len(v) == 1 && v[0] == '-' {
		return 0, 0, Correspondence, true
	}
	if days, ok := dayForm(v); ok {
		return days * secondsPerDay, 0, Correspondence, true
	}
	if i := bytes.IndexByte(v, ':'); i >= 0 {
		v = v[:i]
	}
	if len(v) > 0 && v[0] == '*' {
		b, ok := nonNegative(v[1:])
		if !ok {
			return 0, 0, UnknownSpeed, false
		}
		return b, 0, SpeedOf(b, 0), true
	}
	moves := 0.0
	if i := bytes.IndexByte(v, '/'); i >= 0 {
		m, ok := nonNegative(v[:i])
		if !ok || m == 0 {
			return 0, 0, UnknownSpeed, false
		}
		moves, v = m, v[i+1:]
	}
	b, i := v, bytes.IndexByte(v, '+')
	if i >= 0 {
		b = v[:i]
		if inc, ok = nonNegative(v[i+1:]); !ok {
			return 0, 0, UnknownSpeed, false
		}
	}
	if base, ok = nonNegative(b); !ok {
		return 0, 0, UnknownSpeed, false
	}
	if moves > 0 && base/moves >= secondsPerDay {
		return base, inc, Correspondence, true
	}
	return base, inc, SpeedOf(base, inc), true
}

// dayForm reads "3d", "3 d", "1 day", "2 days": days a move.
func dayForm(v []byte) (float64, bool) {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	unit := trimBlanks(v[i:])
	switch string(unit) {
	case "d", "day", "days":
		n, ok := ParseNumber(v[:i])
		return n, ok && n > 0
	}
	return 0, false
}

// nonNegative reads a number of seconds or moves.
func nonNegative(v []byte) (float64, bool) {
	if len(v) == 0 || v[0] == '-' {
		return 0, false
	}
	return ParseNumber(v)
}
