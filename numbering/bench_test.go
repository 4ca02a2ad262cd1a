package numbering

import (
	"math/rand/v2"
	"testing"
)

// The conversions are table look-ups; these benchmarks show they take a few
// nanoseconds and allocate nothing. The sinks keep the compiler from
// discarding the calls.
var (
	sinkRank Rank
	sinkInt  int
	sinkErr  error
)

func BenchmarkFromSP(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sinkRank, sinkErr = FromSP(i % Count)
	}
}

func BenchmarkFromFritz9(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sinkRank, sinkErr = FromFritz9(1 + i%Count)
	}
}

func BenchmarkRankSP(b *testing.B) {
	ranks := allRanks()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sinkInt = ranks[i%Count].SP()
	}
}

// BenchmarkRankSPShuffled asks for the ranks in no order, as the games of
// an archive do: a look-up cannot lean on its neighbour's cache lines.
func BenchmarkRankSPShuffled(b *testing.B) {
	ranks := allRanks()
	rand.New(rand.NewPCG(960, 518)).Shuffle(len(ranks), func(i, j int) { ranks[i], ranks[j] = ranks[j], ranks[i] })
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sinkInt = ranks[i%Count].SP()
	}
}

// BenchmarkRankSPInvalid asks for eight squares that are, but for 24 of
// the 960, no start.
func BenchmarkRankSPInvalid(b *testing.B) {
	ranks := allRanks()
	for i := range ranks {
		ranks[i][i%8] = "RNBQKP"[i%6] // mostly a piece too many, sometimes a pawn
		ranks[i][(i+3)%8] = "RNBQKP"[(i/6)%6]
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sinkInt = ranks[i%Count].SP()
	}
}

func BenchmarkRankFritz9(b *testing.B) {
	ranks := allRanks()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sinkInt = ranks[i%Count].Fritz9()
	}
}

func BenchmarkSPToFritz9(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sinkInt, sinkErr = SPToFritz9(i % Count)
	}
}

func BenchmarkFritz9ToSP(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sinkInt, sinkErr = Fritz9ToSP(1 + i%Count)
	}
}

func BenchmarkParseRank(b *testing.B) {
	texts := make([]string, Count)
	for i, r := range allRanks() {
		texts[i] = r.String()
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sinkRank, sinkErr = ParseRank(texts[i%Count])
	}
}

func allRanks() []Rank {
	ranks := make([]Rank, Count)
	for sp := range ranks {
		ranks[sp], _ = FromSP(sp)
	}
	return ranks
}
