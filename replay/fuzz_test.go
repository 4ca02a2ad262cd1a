package replay

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// FuzzSetUpRemembered replays the games of any input on one Replayer,
// which sets starts up from the boards it set up before, and each on a
// new Replayer, which parses every FEN: the two must agree on every game,
// its start, the moves played, the final position and the problems.
// Seeds are the project's PGN fixtures and testdata/fuzz/FuzzSetUpRemembered.
//
//	go test ./replay/ -run '^$' -fuzz FuzzSetUpRemembered -fuzztime 60s
func FuzzSetUpRemembered(f *testing.F) {
	sharedtest.SeedFixtures(f, "validate/*.pgn", "dialects.pgn")
	same := "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. f4 f5 2. Rf3 Rf6 3. O-O O-O *\n\n"
	f.Add([]byte(same + same + "[Event \"x\"]\n\n1. e4 e5 *\n\n" + same))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := pgn.NewReader(bytes.NewReader(in))
		shared := New(Options{Variations: true})
		for n := 1; ; n++ {
			g, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			st := startpos.Classify(g).Start
			got := replayed(shared, g, st)
			if want := replayed(New(Options{Variations: true}), g, st); got != want {
				t.Fatalf("game %d, replayed on one Replayer:\n%s\non a new one:\n%s", n, got, want)
			}
		}
	})
}

// replayed sets g up and plays it on r, and says what came of it.
func replayed(r *Replayer, g *pgn.Game, st startpos.Start) string {
	line, err := r.SetUp(g, st)
	if err != nil {
		return fmt.Sprintf("set-up failed at line %d: %v", line, err)
	}
	start := r.board.FEN(fen.Shredder)
	res := r.Play(g)
	final := "none"
	if res.Final != nil {
		final = res.Final.FEN(fen.Shredder)
	}
	return fmt.Sprintf("start %s, %d plies (%d main), failed %v, final %s, problems %v", start, res.Plies, res.MainPlies, res.Failed, final, res.Problems)
}
