package validate

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// BenchmarkRun validates about 8 MB of real games and reports the
// throughput, plies replayed per second and allocations per game.
//
//	go test ./validate/ -run '^$' -bench Run
func BenchmarkRun(b *testing.B) {
	data := sharedtest.Games(b, 8<<20)
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var sum Summary
			for b.Loop() {
				sum = Summary{}
				if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), Options{}, pipeline.Options{Jobs: jobs}, &sum); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if sum.Failed > 0 || sum.Checked == 0 {
				b.Fatalf("the benchmark's games do not validate: %s", &sum)
			}
			allocs := testing.AllocsPerRun(1, func() {
				Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), Options{}, pipeline.Options{Jobs: jobs}, nil)
			})
			b.ReportMetric(allocs/float64(sum.Games), "allocs/game")
			b.ReportMetric(float64(sum.Plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
		})
	}
}
