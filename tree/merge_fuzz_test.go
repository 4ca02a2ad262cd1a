package tree

import (
	"bytes"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
)

// FuzzMergeEqualsOneRun cuts an archive in two at a game and builds a
// forest of each part; the parts written as JSON and merged must be the
// forest of one run over the archive, document for document.
func FuzzMergeEqualsOneRun(f *testing.F) {
	f.Add([]byte("[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Result \"0-1\"]\n\n1. Nf3 Nc6 2. e4 e5 0-1\n\n[Result \"*\"]\n\n1. e4 c5 *\n"), uint8(1), uint8(3))
	f.Add([]byte("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n[SetUp \"1\"]\n[Result \"1/2-1/2\"]\n\n1. g3 g6 2. f4 O-O 1/2-1/2\n"), uint8(0), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, cut, depth uint8) {
		if sharedtest.LoneCR(data) {
			t.Skip()
		}
		games, err := pgn.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		if len(games) > 0 {
			k = int(cut) % (len(games) + 1)
		}
		at := 0
		for _, g := range games[:k] {
			at += len(g.Raw)
		}
		opts := Options{Depth: int(depth%12) + 1}
		whole, _ := build(t, data, opts, 2)
		first, _ := build(t, data[:at], opts, 1)
		second, _ := build(t, data[at:], opts, 2)
		m := merged(t, []*Forest{first, second})
		if got, want := jsonOf(t, m), jsonOf(t, whole); got != want {
			t.Fatalf("cut at game %d of %d: merged document\n%.800s\nwant\n%.800s", k, len(games), got, want)
		}
	})
}
