package annotate

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
)

// BenchmarkRun annotates about 8 MB of real games to io.Discard and
// reports the throughput and the allocations per game.
func BenchmarkRun(b *testing.B) {
	data := sharedtest.Games(b, 8<<20)
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var sum Summary
			for b.Loop() {
				sum = Summary{}
				if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), io.Discard, Options{}, jobs, &sum, Hooks{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			// allocations per game: measured separately, on one run
			allocs := testing.AllocsPerRun(1, func() {
				Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), io.Discard, Options{}, jobs, nil, Hooks{})
			})
			b.ReportMetric(allocs/float64(sum.Games), "allocs/game")
			b.ReportMetric(float64(sum.Games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
