package pgn_test

import (
	"bytes"
	"io"
	"strconv"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/pgn"
)

// plyGames is the number of games each CountPlies benchmark counts per
// iteration: more than the caches hold, as in a run over an archive.
const plyGames = 4000

// plyShape is one input of BenchmarkCountPlies: the movetexts of a set of
// games and the plies each has, -1 where that is not known.
type plyShape struct {
	name      string
	movetexts func(b *testing.B) (movetexts [][]byte, plies []int)
}

var plyShapes = []plyShape{
	// Lichess exports as stats meets them: a clock comment after every
	// move, a move number before every move, lines wrapped at 80 columns.
	{"lichess", func(*testing.B) ([][]byte, []int) { return lichessMovetexts(lichessClocks) }},
	// The same games without comments, as lichess exports games played
	// without a clock: only White's moves are numbered.
	{"bare", func(*testing.B) ([][]byte, []int) { return lichessMovetexts(lichessBare) }},
	// The same games with the short comments of engine matches, as
	// cutechess and fastchess write them: "{+0.31/11 0.30s}".
	{"short", func(*testing.B) ([][]byte, []int) { return lichessMovetexts(shortComments) }},
	// The same games with an engine's long comment after every move and
	// every move on a line of its own, as in TCEC's archives: most bytes
	// are in comments.
	{"engine", func(*testing.B) ([][]byte, []int) { return lichessMovetexts(engineComments) }},
	// The real TCEC archives, where the shared folder has them.
	{"tcec", func(b *testing.B) ([][]byte, []int) {
		r := pgn.NewReader(bytes.NewReader(tcecGames(b)))
		var all []byte
		var ends, plies []int
		for len(ends) < plyGames {
			g, err := r.Next()
			if err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			all = append(all, g.Raw...)
			ends = append(ends, len(all)-len(g.Movetext()), len(all))
			plies = append(plies, -1)
		}
		return cut(all, ends), plies
	}},
}

// The ways lichessMovetexts writes a game's moves.
const (
	lichessClocks = iota
	lichessBare
	shortComments
	engineComments
)

// lichessMovetexts returns the movetexts of plyGames generated lichess
// games, written as style says, and the plies of each. The games lie one
// after another in memory, tags and all, as in a batch of a reader.
func lichessMovetexts(style int) ([][]byte, []int) {
	gen := archivegen.New(archivegen.Options{Seed: 1, Shape: archivegen.Lichess})
	var all []byte
	var ends, plies []int
	for range plyGames {
		start := len(all)
		var rec archivegen.Record
		all, rec = gen.AppendGame(all)
		g, err := pgn.NewReader(bytes.NewReader(all[start:])).Next()
		if err != nil {
			panic(err)
		}
		mt := g.Movetext()
		if style != lichessClocks {
			mt = rewrite(mt, style)
			all = append(all[:len(all)-len(g.Movetext())], mt...)
		}
		ends = append(ends, len(all)-len(mt), len(all))
		plies = append(plies, len(rec.Moves))
	}
	return cut(all, ends), plies
}

// cut returns the slices of all between ends[0] and ends[1], ends[2]
// and ends[3], and so on.
func cut(all []byte, ends []int) [][]byte {
	var s [][]byte
	for i := 0; i < len(ends); i += 2 {
		s = append(s, all[ends[i]:ends[i+1]])
	}
	return s
}

// rewrite writes the moves and result of a lichess movetext again without
// its clock comments: bare, or with a made-up engine comment after every
// move whose principal variation is the game's next moves.
func rewrite(mt []byte, style int) []byte {
	var moves []string
	var result string
	s := pgn.NewMovetextScanner(mt)
	for s.Next() {
		switch s.Kind() {
		case pgn.TokenMove:
			moves = append(moves, string(s.Text()))
		case pgn.TokenResult:
			result = string(s.Text())
		}
	}
	var out []byte
	lineStart := 0
	add := func(tok string) {
		if len(out) > lineStart {
			if len(out)-lineStart+1+len(tok) > 80 && style != engineComments {
				out = append(out, '\n')
				lineStart = len(out)
			} else {
				out = append(out, ' ')
			}
		}
		out = append(out, tok...)
	}
	for i, m := range moves {
		if i%2 == 0 {
			add(strconv.Itoa(i/2+1) + ".")
		}
		add(m)
		switch style {
		case shortComments:
			add("{" + strconv.FormatFloat(float64(i%7)*0.13-0.4, 'f', 2, 64) + "/" + strconv.Itoa(8+i%15) + " " +
				strconv.FormatFloat(float64(i%97)*0.031, 'f', 2, 64) + "s}")
		case engineComments:
			c := "{d=" + strconv.Itoa(20+i%17) + ", sd=" + strconv.Itoa(40+i%13) + ", mt=" + strconv.Itoa(30000+i*977%9000) +
				", tl=" + strconv.Itoa(1700000-i*3001) + ", s=173945, n=" + strconv.Itoa(6866301+i*12345) + ", pv="
			for j := i; j < len(moves) && j < i+20; j++ {
				if j > i {
					c += " "
				}
				c += moves[j]
			}
			c += ", tb=0, h=17.2, ph=0.0, wv=0.75, R50=50, Rd=-11, Rr=-11, mb=+0+0+0+0+0,}"
			add(c)
			out = append(out, '\n')
			lineStart = len(out)
		}
	}
	add(result)
	return append(out, '\n', '\n')
}

// BenchmarkCountPlies counts the plies of each shape's games, reporting
// the movetext bytes per second and the time per game.
func BenchmarkCountPlies(b *testing.B) {
	for _, shape := range plyShapes {
		b.Run(shape.name, func(b *testing.B) {
			mts, plies := shape.movetexts(b)
			size := 0
			for i, mt := range mts {
				size += len(mt)
				if got := pgn.CountPlies(mt); plies[i] >= 0 && got != plies[i] {
					b.Fatalf("game %d: CountPlies = %d, the generator played %d", i+1, got, plies[i])
				}
			}
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, mt := range mts {
					pgn.CountPlies(mt)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(mts)), "ns/game")
			b.ReportMetric(float64(size)/float64(len(mts)), "B/game")
		})
	}
}
