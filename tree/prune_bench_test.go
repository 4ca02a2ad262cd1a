package tree

import (
	"testing"
)

// BenchmarkPrune times one pruning of a forest of random games' trees
// down to half its positions, as a forest at its bound prunes again and
// again: the forest is built anew, untimed, before each.
//
//	go test ./tree/ -run '^$' -bench Prune -cpu 1
func BenchmarkPrune(b *testing.B) {
	lines := walkedLines(b, 64<<20)
	positions := 0
	for b.Loop() {
		b.StopTimer()
		f := forestOf(b, Options{}, lines)
		positions = f.Len()
		b.StartTimer()
		f.prune(positions / 2)
	}
	b.ReportMetric(float64(positions), "positions")
}
