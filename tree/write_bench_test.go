package tree

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
)

// BenchmarkWriteLarge writes the trees of 128 MB of random games, whose
// positions take many times the size of the caches, as a run on a large
// archive writes them. Building them takes a few seconds, so it runs only
// when FRCTOOL_BENCH_LARGE is set:
//
//	FRCTOOL_BENCH_LARGE=1 go test ./tree/ -run '^$' -bench WriteLarge -cpu 1
func BenchmarkWriteLarge(b *testing.B) {
	if os.Getenv("FRCTOOL_BENCH_LARGE") == "" {
		b.Skip("FRCTOOL_BENCH_LARGE is not set")
	}
	benchmarkWrite(b, archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Lichess}, 128<<20))
}

// figureMix are the figures of rows of random games, with the precision
// each is written at: four rates, two ratings and a mean year.
func figureMix() ([]float64, []int) {
	rng := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	var precs []int
	for range 1000 {
		for _, prec := range [...]int{4, 4, 4, 4, 0, 0, 1} {
			x := rng.Float64()
			switch prec {
			case 0:
				x = 1200 + 1500*x
			case 1:
				x = 2015 + 10*x
			}
			xs, precs = append(xs, x), append(precs, prec)
		}
	}
	return xs, precs
}

// BenchmarkAppendFixed writes the figures of CSV rows.
func BenchmarkAppendFixed(b *testing.B) {
	xs, precs := figureMix()
	var buf []byte
	for b.Loop() {
		buf = buf[:0]
		for i, x := range xs {
			buf = append(appendFixed(buf, x, precs[i]), ',')
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(xs))/float64(b.N), "ns/figure")
}

// BenchmarkAppendJSONFixed writes the figures of JSON moves, with the
// precisions of the JSON document, and strconv's way for comparison.
func BenchmarkAppendJSONFixed(b *testing.B) {
	xs, precs := figureMix()
	for i, p := range precs {
		precs[i] = map[int]int{4: 4, 0: 1, 1: 2}[p]
	}
	for _, way := range []struct {
		name   string
		append func([]byte, float64, int) []byte
	}{
		{"fixed", appendJSONFixed},
		{"strconv", func(dst []byte, x float64, prec int) []byte {
			return strconv.AppendFloat(dst, rounded(x, prec), 'f', -1, 64)
		}},
	} {
		b.Run(way.name, func(b *testing.B) {
			var buf []byte
			for b.Loop() {
				buf = buf[:0]
				for i, x := range xs {
					buf = append(way.append(buf, x, precs[i]), ',')
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(xs))/float64(b.N), "ns/figure")
		})
	}
}
