package tree

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/pgn"
)

// benchArchive is a lichess-shaped archive of random games from every
// start position: the worst case for a tree, whose positions are nearly
// all new after a few plies.
func benchArchive() []byte {
	return archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Lichess}, 16<<20)
}

// BenchmarkBuild builds the trees of 16 MB of games, 12 plies deep, and
// reports the throughput, the positions held per game and the memory
// they take (NodeBytes states it).
//
//	go test ./tree/ -run '^$' -bench Build
func BenchmarkBuild(b *testing.B) {
	data := benchArchive()
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var f *Forest
			for b.Loop() {
				var err error
				if f, err = NewForest(Options{}); err != nil {
					b.Fatal(err)
				}
				if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), f, RunOptions{Jobs: jobs}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(f.Len())/float64(f.Summary.Games), "positions/game")
			// What the trees hold: the heap with the forest, less the heap
			// without it.
			positions := f.Len()
			var with, without runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&with)
			runtime.KeepAlive(f)
			f = nil
			runtime.GC()
			runtime.ReadMemStats(&without)
			b.ReportMetric(float64(with.HeapAlloc-without.HeapAlloc)/float64(positions), "bytes/position")
		})
	}
}

// BenchmarkWrite writes the trees of BenchmarkBuild's games.
func BenchmarkWrite(b *testing.B) {
	f, err := NewForest(Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(benchArchive())), f, RunOptions{}); err != nil {
		b.Fatal(err)
	}
	for _, format := range []struct {
		name  string
		write func(io.Writer, WalkOptions) error
	}{{"csv", f.WriteCSV}, {"json", f.WriteJSON}} {
		b.Run(format.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := format.write(io.Discard, WalkOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(f.Len())*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
