package annotate

import (
	"bytes"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
)

// FuzzAnnotate checks, on any input, that annotating with every option
// never panics, keeps every game, and that a second run changes nothing:
// the tags, PlyCount and the final-position comment are each written once
// and then found again. Seeds are the project's PGN fixtures and
// testdata/fuzz/FuzzAnnotate.
//
//	go test ./annotate/ -run '^$' -fuzz FuzzAnnotate -fuzztime 60s
func FuzzAnnotate(f *testing.F) {
	sharedtest.SeedFixtures(f, "validate/*.pgn", "dialects.pgn")
	f.Add([]byte("[Event \"x\"]\n\n1. e4 e5 { \"8/8/8/8/8/8/8/K6k w - - 0 1\" }\n*"))
	f.Add([]byte("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\r\n\r\n1. f4 f5 2. Rf3 Rf6 3. O-O O-O 1/2-1/2 {x}"))
	opts := Options{PlyCount: true, FinalFEN: true, Variant: true}
	f.Fuzz(func(t *testing.T, in []byte) {
		once, sum, _ := annotateBytes(t, in, opts, 1)
		twice, sum2, _ := annotateBytes(t, once, opts, 1)
		if !bytes.Equal(once, twice) {
			t.Fatalf("a second run changed the output:\n%q\n%q", once, twice)
		}
		if sum.Games != sum2.Games {
			t.Fatalf("%d games in the first output, %d in the second", sum.Games, sum2.Games)
		}
	})
}
