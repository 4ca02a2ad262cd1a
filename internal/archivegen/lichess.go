package archivegen

import (
	"math"
	"strconv"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/position"
)

// timeControl is a TimeControl tag's value as lichess writes it, with the
// share of games played at it. Base and increment are in seconds; "-" is correspondence, whose
// games carry no clock.
type timeControl struct {
	text      string
	base, inc int
	weight    int
}

var timeControls = []timeControl{
	{"180+2", 180, 2, 25}, {"180+0", 180, 0, 14}, {"60+0", 60, 0, 14},
	{"300+3", 300, 3, 10}, {"600+5", 600, 5, 10}, {"600+0", 600, 0, 8},
	{"900+10", 900, 10, 7}, {"120+1", 120, 1, 6}, {"30+0", 30, 0, 3},
	{"-", 0, 0, 3},
}

var timeControlWeight = func() (n int) {
	for _, tc := range timeControls {
		n += tc.weight
	}
	return n
}()

// timeControl draws a time control by its share of games.
func (g *Generator) timeControl() timeControl {
	w := g.rng.IntN(timeControlWeight)
	for _, tc := range timeControls {
		if w -= tc.weight; w < 0 {
			return tc
		}
	}
	return timeControls[0]
}

// titles are the players' titles lichess shows; bots have "BOT".
var titles = []string{"GM", "IM", "FM", "CM", "NM", "WGM", "WIM", "LM"}

var syllables = []string{
	"ka", "ro", "mi", "zen", "tor", "ba", "li", "chess", "knight", "pawn",
	"rook", "fi", "sher", "an", "dro", "vel", "mo", "xi", "qu", "tal",
	"gam", "bit", "mat", "e", "lo", "ra", "nus", "dek", "sa", "vi",
}

// player appends a user name of 2 to most syllables, often with a
// number.
func (g *Generator) player(dst []byte, most int, bot bool) []byte {
	start := len(dst)
	for i := g.rng.IntN(most-1) + 2; i > 0; i-- {
		dst = append(dst, pick(g, syllables)...)
	}
	if g.chance(0.4) {
		dst[start] -= 'a' - 'A'
	}
	switch {
	case bot:
		dst = append(dst, "_bot"...)
	case g.chance(0.2):
		dst = append(dst, '_')
		fallthrough
	case g.chance(0.4):
		dst = strconv.AppendInt(dst, int64(g.rng.IntN(2000)), 10)
	}
	return dst
}

const siteLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// appendDate appends a date of 2015..2025 in PGN's form, YYYY.MM.DD.
func (g *Generator) appendDate(dst []byte) []byte {
	y, m, d := 2015+g.rng.IntN(11), 1+g.rng.IntN(12), 1+g.rng.IntN(28)
	dst = strconv.AppendInt(dst, int64(y), 10)
	dst = append(dst, '.', '0'+byte(m/10), '0'+byte(m%10), '.', '0'+byte(d/10), '0'+byte(d%10))
	return dst
}

// appendClock appends seconds as lichess's %clk does: H:MM:SS.
func appendClock(dst []byte, s int) []byte {
	h, m := s/3600, s/60%60
	s %= 60
	dst = strconv.AppendInt(dst, int64(h), 10)
	return append(dst, ':', '0'+byte(m/10), '0'+byte(m%10), ':', '0'+byte(s/10), '0'+byte(s%10))
}

// rating draws a lichess Chess960 rating.
func (g *Generator) rating() int {
	return max(600, min(3000, int(1500+g.rng.NormFloat64()*300)))
}

// plies draws a game length: a few plies at least, the mean asked for, and
// a long tail as resignations and time losses make.
func (g *Generator) plies() int {
	const least = 2
	mean := float64(g.opt.MeanPlies - least)
	return least + min(int(g.rng.ExpFloat64()*mean), int(8*mean))
}

// appendTime appends seconds since midnight as HH:MM:SS.
func appendTime(dst []byte, s int) []byte {
	h, m := s/3600, s/60%60
	s %= 60
	return append(dst, '0'+byte(h/10), '0'+byte(h%10), ':', '0'+byte(m/10), '0'+byte(m%10), ':', '0'+byte(s/10), '0'+byte(s%10))
}

// appendLichess appends a game as lichess exports it.
func (g *Generator) appendLichess(dst []byte) ([]byte, Record) {
	rec := Record{SP: g.startSP()}
	rec.FEN = rec.SP != numbering.StandardSP || g.opt.Dialects && g.chance(0.2)
	tc := g.timeControl()
	rated := g.chance(0.75)
	var bot, title [2]bool
	for i := range 2 {
		bot[i] = g.chance(0.03)
		title[i] = bot[i] || g.chance(0.02)
	}
	// The moves come first, since the Result and Termination tags depend
	// on them; they are written after the tags.
	var end ending
	g.moveText, end = g.playLichess(g.moveText[:0], rec.SP, tc)
	rec.Moves, rec.Result, rec.Marker = g.moves, end.result, true

	switch {
	case !rated:
		dst = appendTag(dst, "Event", "Casual Chess960 game")
	case tc.text != "-" && g.chance(0.1):
		dst = appendTag(dst, "Event", "Hourly Chess960 Arena")
	default:
		dst = appendTag(dst, "Event", "Rated Chess960 game")
	}
	dst = append(dst, `[Site "https://lichess.org/`...)
	for range 8 {
		dst = append(dst, siteLetters[g.rng.IntN(len(siteLetters))])
	}
	dst = append(dst, "\"]\n[Date \""...)
	dateAt := len(dst)
	dst = g.appendDate(dst)
	dateEnd := len(dst)
	dst = append(dst, "\"]\n"...)
	dst = appendTag(dst, "Round", "-")
	dst = append(dst, `[White "`...)
	dst = g.player(dst, 4, bot[0])
	dst = append(dst, "\"]\n[Black \""...)
	dst = g.player(dst, 4, bot[1])
	dst = append(dst, "\"]\n"...)
	dst = appendTag(dst, "Result", end.result)
	dst = append(dst, `[UTCDate "`...)
	dst = append(dst, dst[dateAt:dateEnd]...)
	dst = append(dst, "\"]\n[UTCTime \""...)
	dst = appendTime(dst, g.rng.IntN(24*3600))
	dst = append(dst, "\"]\n"...)

	white := g.rating()
	black := max(600, min(3000, white+int(g.rng.NormFloat64()*150)))
	dst = append(dst, `[WhiteElo "`...)
	dst = strconv.AppendInt(dst, int64(white), 10)
	dst = append(dst, "\"]\n[BlackElo \""...)
	dst = strconv.AppendInt(dst, int64(black), 10)
	dst = append(dst, "\"]\n"...)
	if rated {
		gain := 2 + g.rng.IntN(10)
		var diff [2]int
		switch end.result {
		case "1-0":
			diff = [2]int{gain, -gain}
		case "0-1":
			diff = [2]int{-gain, gain}
		default:
			d := g.rng.IntN(5) - 2
			diff = [2]int{d, -d}
		}
		for i, name := range [2]string{`[WhiteRatingDiff "`, `[BlackRatingDiff "`} {
			dst = append(dst, name...)
			if diff[i] >= 0 {
				dst = append(dst, '+')
			}
			dst = strconv.AppendInt(dst, int64(diff[i]), 10)
			dst = append(dst, "\"]\n"...)
		}
	}
	for i, name := range [2]string{"WhiteTitle", "BlackTitle"} {
		switch {
		case bot[i]:
			dst = appendTag(dst, name, "BOT")
		case title[i]:
			dst = appendTag(dst, name, pick(g, titles))
		}
	}
	dst = appendTag(dst, "Variant", g.variant(rec.FEN))
	dst = appendTag(dst, "TimeControl", tc.text)
	dst = appendTag(dst, "ECO", "?")
	dst = appendTag(dst, "Termination", end.termination)
	if rec.FEN {
		setUpFirst := g.opt.Dialects && g.chance(0.1)
		noSetUp := g.opt.Dialects && g.chance(0.2)
		if setUpFirst && !noSetUp {
			dst = appendTag(dst, "SetUp", "1")
		}
		dst = append(dst, `[FEN "`...)
		dst = g.appendFEN(dst, rec.SP)
		dst = append(dst, "\"]\n"...)
		if !setUpFirst && !noSetUp {
			dst = appendTag(dst, "SetUp", "1")
		}
	}
	dst = append(dst, '\n')
	dst = append(dst, g.moveText...)
	return append(dst, '\n', '\n'), rec
}

// ending is how a game ended.
type ending struct {
	result      string
	termination string
}

// lineWidth is where lichess wraps its movetext.
const lineWidth = 80

// wrapped appends the movetext's tokens to a slice, breaking lines before
// the token that would pass lineWidth.
type wrapped struct {
	b         []byte
	lineStart int
}

// open starts a token: it appends the space that separates it from the
// previous one and returns where the token starts.
func (w *wrapped) open() int {
	if len(w.b) > w.lineStart {
		w.b = append(w.b, ' ')
	}
	return len(w.b)
}

// close ends the token begun at start, moving it to a line of its own
// when the line got too long.
func (w *wrapped) close(start int) {
	if len(w.b)-w.lineStart > lineWidth && start > w.lineStart {
		w.b[start-1] = '\n'
		w.lineStart = start
	}
}

// playLichess plays a random game from sp and appends its movetext, with
// the clock comments of tc, and its result to dst. g.moves holds the
// moves afterwards.
func (g *Generator) playLichess(dst []byte, sp int, tc timeControl) ([]byte, ending) {
	b := &g.board
	r, _ := numbering.FromSP(sp)
	if err := b.SetPosition(fen.StartPosition(r, r)); err != nil {
		panic("archivegen: start position: " + err.Error())
	}
	b.SetChess960(sp != numbering.StandardSP)
	g.moves = g.moves[:0]
	clocks := [2]int{tc.base, tc.base}
	w := wrapped{b: dst, lineStart: len(dst)}
	plies := g.plies()
	clock := tc.text != "-"
	for ply := 0; ply < plies; ply++ {
		legal := b.LegalMoves()
		if len(legal) == 0 {
			break
		}
		m := legal[g.rng.IntN(len(legal))]
		side := ply & 1
		// Black's moves get a number only after a comment, as in PGN's
		// export format.
		if side == 0 || clock {
			at := w.open()
			w.b = strconv.AppendInt(w.b, int64(ply/2+1), 10)
			if side == 0 {
				w.b = append(w.b, '.')
			} else {
				w.b = append(w.b, "..."...)
			}
			w.close(at)
		}
		at := w.open()
		w.b = b.AppendSAN(w.b, m)
		w.close(at)
		b.Push(m)
		g.moves = append(g.moves, m)
		if !clock {
			continue
		}
		if ply >= 2 {
			// Each side's first move is free, as on lichess; then a
			// move takes up to 8% of the time left.
			think := int(math.Round(float64(clocks[side]) * g.rng.Float64() * 0.08))
			clocks[side] = max(0, clocks[side]-think) + tc.inc
		}
		at = w.open()
		w.b = append(w.b, "{ [%clk "...)
		w.b = appendClock(w.b, clocks[side])
		w.b = append(w.b, "] }"...)
		w.close(at)
	}
	end := ending{termination: "Normal"}
	switch {
	case b.IsCheckmate():
		end.result = "1-0"
		if b.Turn() == position.White {
			end.result = "0-1"
		}
	case b.IsStalemate():
		end.result = "1/2-1/2"
	default:
		switch x := g.rng.IntN(100); {
		case x < 49:
			end.result = "1-0"
		case x < 95:
			end.result = "0-1"
		default:
			end.result = "1/2-1/2"
		}
		if tc.text != "-" && end.result != "1/2-1/2" && g.chance(0.2) {
			end.termination = "Time forfeit"
		}
	}
	at := w.open()
	w.b = append(w.b, end.result...)
	w.close(at)
	return w.b, end
}
