package fields

import (
	"strconv"

	"github.com/frctool/frctool/pgn"
)

// Date is a PGN date, "YYYY.MM.DD", whose month and day may be unknown
// ("??"). A zero Month or Day is unknown; a Date with a known day has a
// known month, and every Date that ParseDate returns has a known year.
type Date struct {
	Year, Month, Day int
}

// ParseDate reads a date as PGN writes it, "2024.05.17", with "??" (or
// "?") for unknown parts, and the shorter forms "2024.05" and "2024" that
// people type. A '-' or '/' may stand for the '.'. Blanks around it are
// ignored. A day given with an unknown month is dropped, since it tells
// nothing on its own.
//
// ok is false when v is no such date, when a month or day is out of range,
// and when the year is unknown ("????.??.??"): such a date cannot be
// compared with anything.
func ParseDate(v []byte) (d Date, ok bool) {
	v = trimBlanks(v)
	var parts [3]int
	n := 0
	for i := 0; ; {
		if n == 3 {
			return Date{}, false
		}
		j := i
		for j < len(v) && v[j] != '.' && v[j] != '-' && v[j] != '/' {
			j++
		}
		p, good := datePart(v[i:j], n == 0)
		if !good {
			return Date{}, false
		}
		parts[n] = p
		n++
		if j == len(v) {
			break
		}
		i = j + 1
	}
	d = Date{Year: parts[0], Month: parts[1], Day: parts[2]}
	if d.Year == 0 || d.Month > 12 || d.Day > 31 || d.Month > 0 && d.Day > daysIn(d.Year, d.Month) {
		// A day the month does not have ("2023.02.29") is no date: read
		// as one it became another (March 1st) in a typed column.
		return Date{}, false
	}
	if d.Month == 0 {
		d.Day = 0
	}
	return d, true
}

// daysIn returns the days of month m of year y, in the Gregorian calendar.
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// datePart reads one part of a date: digits (four for a year, one or two
// otherwise), or question marks for unknown, which give 0.
func datePart(p []byte, year bool) (int, bool) {
	if len(p) == 0 {
		return 0, false
	}
	max := 2
	if year {
		max = 4
	}
	if len(p) > max {
		return 0, false
	}
	if p[0] == '?' {
		for _, c := range p {
			if c != '?' {
				return 0, false
			}
		}
		return 0, true
	}
	if year && len(p) != 4 {
		return 0, false
	}
	n := 0
	for _, c := range p {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n > 0
}

// String returns the date as PGN writes it: "2024.05.??".
func (d Date) String() string {
	return string(d.AppendPGN(nil))
}

// AppendPGN appends the date as PGN writes it to b.
func (d Date) AppendPGN(b []byte) []byte {
	if d.Year <= 0 || d.Year > MaxYear {
		b = append(b, "????"...)
	} else {
		b = append(b, byte('0'+d.Year/1000), byte('0'+d.Year/100%10), byte('0'+d.Year/10%10), byte('0'+d.Year%10))
	}
	for _, p := range [2]int{d.Month, d.Day} {
		b = append(b, '.')
		if p <= 0 || p > 99 {
			b = append(b, "??"...)
		} else {
			b = append(b, byte('0'+p/10), byte('0'+p%10))
		}
	}
	return b
}

// Compare compares d with ref at ref's precision: a reference with an
// unknown day stands for its whole month, and one with an unknown month
// for its whole year, so "2024.05.17" equals the reference "2024.05".
//
// Where d lacks a part that ref has, the order is decided only if an
// earlier part decides it: "2024.??.??" is after "2023.05.01", but is
// neither before, after nor equal to "2024.05.01", and ok is then false.
// A selection treats such a comparison as false, since the game's date
// may or may not satisfy it.
func (d Date) Compare(ref Date) (cmp int, ok bool) {
	dp := [3]int{d.Year, d.Month, d.Day}
	rp := [3]int{ref.Year, ref.Month, ref.Day}
	for i := range dp {
		switch {
		case rp[i] == 0:
			return 0, true
		case dp[i] == 0:
			return 0, false
		case dp[i] < rp[i]:
			return -1, true
		case dp[i] > rp[i]:
			return 1, true
		}
	}
	return 0, true
}

// GameDate returns the date the game was played: the Date tag, or the
// UTCDate tag when Date gives no year (lichess writes both; some servers
// write only UTCDate or leave Date as "????.??.??").
func GameDate(g *pgn.Game) (Date, bool) {
	_, d, ok := gameDate(g)
	return d, ok
}

// Year returns the year of GameDate.
func Year(g *pgn.Game) (int, bool) {
	d, ok := GameDate(g)
	return d.Year, ok
}

// trimBlanks trims spaces and tabs, which hand-edited tags carry.
func trimBlanks(v []byte) []byte {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	for len(v) > 0 && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = v[:len(v)-1]
	}
	return v
}

// ParseNumber reads a decimal number, "-12", "2000", "0.05", as tags and
// expressions write them (no exponent, no hexadecimal, no "+" sign).
// Blanks around it are ignored.
func ParseNumber(v []byte) (float64, bool) {
	v = trimBlanks(v)
	neg := false
	if len(v) > 0 && v[0] == '-' {
		neg, v = true, v[1:]
	}
	dot := -1
	for i, c := range v {
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && dot < 0 && i > 0 && i+1 < len(v):
			dot = i
		default:
			return 0, false
		}
	}
	if len(v) == 0 {
		return 0, false
	}
	if dot >= 0 || len(v) > 15 {
		return parseFloat(v, neg)
	}
	n := 0
	for _, c := range v {
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return float64(n), true
}

// parseFloat converts digits already checked to be a decimal number; the
// rare fraction or long number is left to strconv for exact rounding.
func parseFloat(v []byte, neg bool) (float64, bool) {
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}
