package position

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/frctool/frctool/fen"
)

// keyOf sets a board up from fen and plays the moves.
func keyOf(t *testing.T, f string, moves string) Key {
	t.Helper()
	b, err := ParseFEN(f)
	if err != nil {
		t.Fatalf("%s: %v", f, err)
	}
	for _, m := range strings.Fields(moves) {
		if _, err := b.Play(m); err != nil {
			t.Fatalf("%s %s: %v", f, moves, err)
		}
	}
	return b.Key()
}

func TestKey(t *testing.T) {
	const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	tests := []struct {
		name           string
		fenA, movesA   string
		fenB, movesB   string
		equal          bool
		wantATurnBlack bool
	}{
		{name: "transposition", fenA: start, movesA: "Nf3 Nf6 Nc3", fenB: start, movesB: "Nc3 Nf6 Nf3", equal: true, wantATurnBlack: true},
		{name: "knights back to the start", fenA: start, movesA: "Nf3 Nf6 Ng1 Ng8", fenB: start, equal: true},
		{name: "move counters do not count", fenA: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", fenB: "4k3/8/8/8/8/8/8/4K3 w - - 37 80", equal: true},
		{name: "side to move", fenA: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", fenB: "4k3/8/8/8/8/8/8/4K3 b - - 0 1"},
		{name: "castling rights lost by a rook going and coming back", fenA: start, movesA: "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8", fenB: start},
		{name: "castling rights per rook", fenA: "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", fenB: "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w Bgb - 0 1"},
		{name: "en passant square with no pawn to take", fenA: start, movesA: "e4", fenB: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", equal: true, wantATurnBlack: true},
		{name: "en passant capture possible", fenA: "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1", movesA: "e4", fenB: "4k3/8/8/8/4Pp2/8/8/4K3 b - - 0 1", wantATurnBlack: true},
		{name: "en passant capture pinned", fenA: "8/8/8/8/k4p1R/8/4P3/4K3 w - - 0 1", movesA: "e4", fenB: "8/8/8/8/k3Pp1R/8/8/4K3 b - - 0 1", equal: true, wantATurnBlack: true},
		{name: "pieces differ", fenA: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", fenB: "4k3/8/8/8/8/8/8/3RK3 w - - 0 1"},
		{name: "colours differ", fenA: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", fenB: "3qk3/8/8/8/8/8/8/4K3 w - - 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := keyOf(t, tt.fenA, tt.movesA), keyOf(t, tt.fenB, tt.movesB)
			if (a == b) != tt.equal {
				t.Errorf("keys equal = %v, want %v", a == b, tt.equal)
			}
			if (a.Hash() == b.Hash()) != tt.equal {
				t.Errorf("hashes equal = %v, want %v", a.Hash() == b.Hash(), tt.equal)
			}
			if got := a.Turn() == Black; got != tt.wantATurnBlack {
				t.Errorf("Turn() black = %v, want %v", got, tt.wantATurnBlack)
			}
		})
	}
}

// TestKeyMatchesFEN plays random games from random Chess960 starts and
// checks that two positions have one key exactly when their FENs agree on
// the first four fields, which give the en passant square only when a
// capture is legal.
func TestKeyMatchesFEN(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	byKey := map[Key]string{}
	byFEN := map[string]Key{}
	for game := 0; game < 200; game++ {
		b, err := Start(rng.IntN(960))
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 80; ply++ {
			k := b.Key()
			f := strings.Join(strings.Fields(b.FEN(fen.Shredder))[:4], " ")
			if old, ok := byKey[k]; ok && old != f {
				t.Fatalf("one key for %q and %q", old, f)
			}
			if old, ok := byFEN[f]; ok && old != k {
				t.Fatalf("two keys for %q", f)
			}
			byKey[k], byFEN[f] = f, k
			moves := b.LegalMoves()
			if len(moves) == 0 {
				break
			}
			b.Push(moves[rng.IntN(len(moves))])
		}
	}
	if len(byKey) < 10000 {
		t.Errorf("only %d positions seen", len(byKey))
	}
}

// TestKeyHashSpreads checks that the hashes of many positions close to
// each other (random games' first plies) differ in their low and high
// halves alike: hash tables place keys by any part of the hash.
func TestKeyHashSpreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := map[Key]bool{}
	for game := 0; game < 2000; game++ {
		b, err := Start(rng.IntN(960))
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 12; ply++ {
			keys[b.Key()] = true
			moves := b.LegalMoves()
			if len(moves) == 0 {
				break
			}
			b.Push(moves[rng.IntN(len(moves))])
		}
	}
	tests := []struct {
		name string
		part func(uint64) uint64
		// most is the most keys one value may have: with n keys and
		// 2^16 values, a few per value.
		most int
	}{
		{"low 16 bits", func(h uint64) uint64 { return h & 0xffff }, 8},
		{"high 16 bits", func(h uint64) uint64 { return h >> 48 }, 8},
		{"whole hash", func(h uint64) uint64 { return h }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			count := map[uint64]int{}
			for k := range keys {
				count[tt.part(k.Hash())]++
			}
			for v, n := range count {
				if n > tt.most {
					t.Fatalf("%d of %d keys hash to %#x", n, len(keys), v)
				}
			}
		})
	}
}

// TestKeyAppendFEN holds AppendFEN to Board.FEN in Shredder style on the
// positions of random games from random arrays (castling rights lost one
// rook at a time, en passant squares with and without a capture) and on
// positions set up by hand.
func TestKeyAppendFEN(t *testing.T) {
	tests := []struct {
		name string
		fen  string
	}{
		{"no castling, no pieces but kings", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"inner rooks", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 3 17"},
		{"en passant capture possible", "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1"},
		{"en passant capture pinned", "8/8/8/8/k3Pp1R/8/8/4K3 b - e3 0 1"},
		{"black to move, black's rights only", "r3k2r/8/8/8/8/8/8/4K3 b ah - 12 40"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			want := b.FEN(fen.Shredder)
			if got := string(b.Key().AppendFEN(nil, b.HalfMoveClock(), b.FullMoveNumber())); got != want {
				t.Errorf("AppendFEN = %q, want %q", got, want)
			}
		})
	}
	t.Run("random games", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 6))
		for game := 0; game < 300; game++ {
			b, err := Start(rng.IntN(960))
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 100; ply++ {
				want := b.FEN(fen.Shredder)
				if got := string(b.Key().AppendFEN(nil, b.HalfMoveClock(), b.FullMoveNumber())); got != want {
					t.Fatalf("AppendFEN = %q, want %q", got, want)
				}
				moves := b.LegalMoves()
				if len(moves) == 0 {
					break
				}
				b.Push(moves[rng.IntN(len(moves))])
			}
		}
	})
}

// BenchmarkKeyAppendFEN writes the FENs of random games' positions.
func BenchmarkKeyAppendFEN(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	var keys []Key
	for len(keys) < 1000 {
		bd, err := Start(rng.IntN(960))
		if err != nil {
			b.Fatal(err)
		}
		for ply := 0; ply < 40; ply++ {
			keys = append(keys, bd.Key())
			moves := bd.LegalMoves()
			if len(moves) == 0 {
				break
			}
			bd.Push(moves[rng.IntN(len(moves))])
		}
	}
	var buf []byte
	for i := 0; b.Loop(); i++ {
		buf = keys[i%len(keys)].AppendFEN(buf[:0], 0, 1)
	}
}
