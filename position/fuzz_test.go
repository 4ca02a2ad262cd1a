package position

import (
	"testing"

	"github.com/frctool/frctool/fen"
)

// FuzzParseMove checks that reading any text in any position never panics,
// and that a move it accepts is legal (or a null move out of check), survives a SAN round trip and is
// taken back exactly by Pop. Seeds are in testdata/fuzz/FuzzParseMove.
//
//	go test ./position/ -run '^$' -fuzz FuzzParseMove -fuzztime 60s
func FuzzParseMove(f *testing.F) {
	for _, p := range sanPositions {
		for _, text := range []string{"O-O", "O-O-O", "0-0+", "Nf3", "e8=Q#", "exd6", "e1h1", "Qa1b2!?", "--"} {
			f.Add(p, text)
		}
	}
	f.Fuzz(func(t *testing.T, record, text string) {
		b, err := ParseFEN(record)
		if err != nil {
			return
		}
		before := b.FEN(fen.Shredder)
		m, err := b.ParseMove(text)
		if err != nil {
			if _, ok := err.(*MoveError); !ok {
				t.Fatalf("ParseMove(%q) error %v is a %T, not a *MoveError", text, err, err)
			}
			return
		}
		if m == NullMove && b.InCheck() {
			t.Fatalf("%s: ParseMove(%q) passes the turn in check", before, text)
		}
		if m != NullMove && !b.IsLegal(m) {
			t.Fatalf("%s: ParseMove(%q) = %v, which is not legal", before, text, m)
		}
		san := b.SAN(m)
		if back, err := b.ParseMove(san); err != nil || back != m {
			t.Fatalf("%s: %q -> %v -> SAN %q -> %v, %v", before, text, m, san, back, err)
		}
		b.Push(m)
		b.LegalMoves()
		if b.Pop() != m || b.FEN(fen.Shredder) != before {
			t.Fatalf("%s: Push/Pop of %v left %s", before, m, b.FEN(fen.Shredder))
		}
	})
}
