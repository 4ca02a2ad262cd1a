package position

import (
	"testing"
)

// BenchmarkPerft measures move generation and make/unmake on one core:
//
//	go test ./position/ -run '^$' -bench Perft -cpu 1
func BenchmarkPerft(b *testing.B) {
	cases := []struct {
		name  string
		fen   string
		depth int
	}{
		{"start/5", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5},
		{"kiwipete/4", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4},
		{"chess960-id0/5", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1", 5},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			board := mustParse(b, tc.fen)
			var nodes uint64
			for b.Loop() {
				nodes += board.Perft(tc.depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

func BenchmarkParseMove(b *testing.B) {
	board := mustParse(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	for b.Loop() {
		if _, err := board.ParseMove("Nxf7"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlayPop(b *testing.B) {
	board := mustParse(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := board.Play("O-O"); err != nil {
			b.Fatal(err)
		}
		board.Pop()
	}
}

func BenchmarkSAN(b *testing.B) {
	board := mustParse(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	moves := board.LegalMoves()
	buf := make([]byte, 0, 16)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range moves {
			buf = board.AppendSAN(buf[:0], m)
		}
	}
	b.ReportMetric(float64(b.N*len(moves))/b.Elapsed().Seconds(), "moves/s")
}
