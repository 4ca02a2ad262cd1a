package annotate

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// BenchmarkRun annotates about 8 MB of real games to io.Discard and
// reports the throughput and the allocations per game, with the numbers
// alone and with --plycount --final-fen, which replay every move.
func BenchmarkRun(b *testing.B) {
	data := sharedtest.Games(b, 8<<20)
	for _, bc := range []struct {
		name string
		opts Options
		jobs int
	}{
		{"jobs=1", Options{}, 1},
		{"jobs=2", Options{}, 2},
		{"replay/jobs=1", Options{PlyCount: true, FinalFEN: true}, 1},
		{"replay/jobs=2", Options{PlyCount: true, FinalFEN: true}, 2},
	} {
		opts, run := bc.opts, pipeline.Options{Jobs: bc.jobs}
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var sum Summary
			for b.Loop() {
				sum = Summary{}
				if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), io.Discard, opts, run, &sum); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			// allocations per game: measured separately, on one run
			allocs := testing.AllocsPerRun(1, func() {
				Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), io.Discard, opts, run, nil)
			})
			b.ReportMetric(allocs/float64(sum.Games), "allocs/game")
			b.ReportMetric(float64(sum.Games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
