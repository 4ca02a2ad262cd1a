package fen

import "testing"

// FuzzParse checks that Parse never panics and that what it accepts survives
// a round trip through Shredder-FEN. The committed corpus in
// testdata/fuzz/FuzzParse holds the dialects; the seeds below the edge
// cases.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		stdPlacement + " w KQkq - 0 1",
		sp0Placement + " w HFhf - 0 1",
		"4k3/8/8/8/8/8/8/4K1RR w KG - 0 1",
		"r3k2r/8/8/8/8/8/4K3/R6R w KQkqAH - 0 1",
		stdPlacement + ` w KQkq - bm e4; id "x";`,
		stdPlacement + " w KQkq - 0 1;",
		stdPlacement + " w KQkq -;",
		stdPlacement + " w KQkq - 99999999999 1",
		stdPlacement + " w KQkq - -1 +1",
		"rnbqkbnr/pppppppp/44/8/8/332/PPPPPPPP/RNBQKBNR w KQkq e3 0 0",
		"8/8/8/8/8/8/8/8 b - - 0 1",
		"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBN♖ w KQ-kq - 0 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		p.Start()
		p.StartError()
		out := p.Format(Shredder)
		q, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) ok, but Parse of its Format(Shredder) %q: %v", s, out, err)
		}
		if q.Board != p.Board || q.Turn != p.Turn || q.Castling != p.Castling || q.EnPassant != p.EnPassant {
			t.Fatalf("Parse(%q) = %+v\nParse(%q) = %+v", s, p, out, q)
		}
		if x := p.Format(XFEN); x != q.Format(XFEN) {
			t.Fatalf("X-FEN of %q differs after a Shredder round trip: %q, %q", s, x, q.Format(XFEN))
		}
		if _, err := RewriteCastling(s, XFEN); err != nil {
			t.Fatalf("RewriteCastling(%q): %v, though Parse accepts it", s, err)
		}
	})
}
