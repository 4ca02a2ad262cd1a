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
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
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
				if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), f, pipeline.Options{Jobs: jobs}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(f.Len())/float64(f.Summary.Games), "positions/game")
			// What the trees hold: the heap with the forest, less the heap
			// without it, and the chunks in the forest's arena.
			positions := f.Len()
			var arenaBytes int
			for _, s := range f.stores {
				if a := s.nodes.mem; a != nil {
					arenaBytes += a.used
				}
			}
			var with, without runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&with)
			runtime.KeepAlive(f)
			f = nil
			runtime.GC()
			runtime.ReadMemStats(&without)
			b.ReportMetric((float64(with.HeapAlloc)-float64(without.HeapAlloc)+float64(arenaBytes))/float64(positions), "bytes/position")
		})
	}
}

// BenchmarkWrite writes the trees of BenchmarkBuild's games.
func BenchmarkWrite(b *testing.B) { benchmarkWrite(b, benchArchive()) }

// benchmarkWrite builds the trees of the games of data and times writing
// them in each format, per position and per row.
func benchmarkWrite(b *testing.B, data []byte) {
	f, err := NewForest(Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), f, pipeline.Options{}); err != nil {
		b.Fatal(err)
	}
	var rows int64
	for _, t := range f.Trees() {
		for _, n := range t.Nodes(WalkOptions{}) {
			rows += int64(len(n.Moves))
		}
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
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows)/float64(b.N), "ns/row")
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// BenchmarkAdd adds the lines of 64 MB of random games to a forest
// bounded to two fifths of their positions, as 256 MB are by the default
// bound, on one goroutine: the work the stores' goroutines share, apart
// from replaying the games.
//
//	go test ./tree/ -run '^$' -bench Add
func BenchmarkAdd(b *testing.B) {
	lines := walkedLines(b, 64<<20)
	bound := forestOf(b, Options{}, lines).Len() * 2 / 5
	b.ResetTimer()
	for b.Loop() {
		forestOf(b, Options{MaxNodes: bound}, lines)
	}
	b.ReportMetric(float64(len(lines))*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// walkedLine is a game's line as a Walker makes it, with its SP.
type walkedLine struct {
	line Line
	sp   int
}

// forestOf returns a forest of opts with the lines added, one by one.
func forestOf(b *testing.B, opts Options, lines []walkedLine) *Forest {
	b.Helper()
	f, err := NewForest(opts)
	if err != nil {
		b.Fatal(err)
	}
	for i := range lines {
		if err := f.Add(&lines[i].line, lines[i].sp); err != nil {
			b.Fatal(err)
		}
	}
	return f
}

// walkedLines returns the lines of size bytes of lichess-like games, as
// Run's workers hand them to be added.
func walkedLines(b *testing.B, size int) []walkedLine {
	b.Helper()
	f, err := NewForest(Options{})
	if err != nil {
		b.Fatal(err)
	}
	var lines []walkedLine
	w := f.NewWalker()
	r := pgn.NewReader(bytes.NewReader(archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Lichess}, size)))
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
			lines = append(lines, walkedLine{l, sp})
		}
	}
	return lines
}
