package tree

import (
	"bytes"
	"io"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// BenchmarkPrune times one pruning of a forest of random games' trees
// down to three quarters of its positions, as a forest at its bound
// prunes again and again: the forest is built anew, untimed, before each.
//
//	go test ./tree/ -run '^$' -bench Prune -cpu 1
func BenchmarkPrune(b *testing.B) {
	type added struct {
		line Line
		sp   int
	}
	var lines []added
	f, err := NewForest(Options{})
	if err != nil {
		b.Fatal(err)
	}
	w := f.NewWalker()
	r := pgn.NewReader(bytes.NewReader(archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Lichess}, 64<<20)))
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		c := startpos.Classify(g)
		var l Line
		if fate, sp, _, _ := w.Walk(g, &c, &l); fate == Added {
			lines = append(lines, added{l, sp})
		}
	}
	positions := 0
	for b.Loop() {
		b.StopTimer()
		f, err := NewForest(Options{})
		if err != nil {
			b.Fatal(err)
		}
		for i := range lines {
			if err := f.Add(&lines[i].line, lines[i].sp); err != nil {
				b.Fatal(err)
			}
		}
		positions = f.Len()
		b.StartTimer()
		f.prune(positions * 3 / 4)
	}
	b.ReportMetric(float64(positions), "positions")
}
