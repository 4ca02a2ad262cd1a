package annotate

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
)

func benchInput(b *testing.B) []byte {
	var files []string
	if root := sharedtest.Root(); root != "" {
		files, _ = filepath.Glob(filepath.Join(root, "realdata", "tcec", "*.pgn"))
	}
	if len(files) == 0 {
		files, _ = filepath.Glob("../testdata/*.pgn")
	}
	var one []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		one = append(one, data...)
		if !bytes.HasSuffix(one, []byte("\n\n")) {
			one = append(one, '\n', '\n')
		}
	}
	var all []byte
	for len(all) < 8<<20 {
		all = append(all, one...)
	}
	return all
}

// BenchmarkRun annotates about 8 MB of real games to io.Discard and
// reports the throughput and the allocations per game.
func BenchmarkRun(b *testing.B) {
	data := benchInput(b)
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
