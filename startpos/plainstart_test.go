package startpos

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
)

// parsed is what the parser makes of a FEN: the SP of a start array with
// one back rank, or ok false.
func parsed(v []byte) (sp int, ok bool) {
	p, err := fen.ParseBytes(v)
	if err != nil {
		return 0, false
	}
	s := p.Start()
	if !s.Array || s.DFRC() {
		return 0, false
	}
	return s.White, true
}

// TestPlainStart holds the fast path to the parser: on every start array
// in the forms it takes it must give the parser's SP, and on any other
// text, random mutations of those included, it must either decline or
// agree with the parser.
func TestPlainStart(t *testing.T) {
	var valid [][]byte
	for sp := range numbering.Count {
		r, _ := numbering.FromSP(sp)
		for _, tail := range []string{" w KQkq - 0 1", " w - - 0 1"} {
			v := []byte(r.Black() + "/pppppppp/8/8/8/8/PPPPPPPP/" + r.String() + tail)
			got, ok := plainStart(v)
			if !ok || got != sp {
				t.Fatalf("plainStart(%s) = %d, %v; want %d", v, got, ok, sp)
			}
			valid = append(valid, v)
		}
	}
	for _, tc := range []struct{ name, fen string }{
		{"Black to move", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"},
		{"two back ranks (DFRC)", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"not an array", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1"},
		{"bishops on one colour", "rbqbknnr/pppppppp/8/8/8/8/PPPPPPPP/RBQBKNNR w KQkq - 0 1"},
		{"Shredder castling", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"},
		{"later counters", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 9"},
		{"no counters", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"},
		{"a pawn moved", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
		{"German letters", "tsldklst/pppppppp/8/8/8/8/PPPPPPPP/TSLDKLST w KQkq - 0 1"},
		{"White's rank in lower case", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/rnbqkbnr w KQkq - 0 1"},
		{"Black's rank in upper case", "RNBQKBNR/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"one of Black's pieces in upper case", "rnbqkbnR/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		// Black's bytes are White's with the lower-case bit set, as for
		// pieces, but White's are no pieces.
		{"bytes that are no pieces, in both ranks", "1-3;=?`\x7f/pppppppp/8/8/8/8/PPPPPPPP/1\r\x13\x1b\x1d\x1f@\x7f w KQkq - 0 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp, ok := plainStart([]byte(tc.fen))
			if want, wantOK := parsed([]byte(tc.fen)); ok && (!wantOK || sp != want) {
				t.Errorf("plainStart = %d, the parser %d, %v", sp, want, wantOK)
			}
			if ok {
				t.Errorf("plainStart took %q, which is not in its plain forms", tc.fen)
			}
		})
	}
	rng := rand.New(rand.NewPCG(7, 7))
	const alphabet = "rnbqkpRNBQKP12345678/ wb-KQkqHAha0e3"
	for range 200000 {
		v := append([]byte(nil), valid[rng.IntN(len(valid))]...)
		for range 1 + rng.IntN(2) {
			v[rng.IntN(len(v))] = alphabet[rng.IntN(len(alphabet))]
		}
		if sp, ok := plainStart(v); ok {
			if want, wantOK := parsed(v); !wantOK || sp != want {
				t.Fatalf("plainStart(%s) = %d, the parser %d, %v", v, sp, want, wantOK)
			}
		}
	}
}

// TestTrimFEN holds trimFEN, which tells most values unchanged by their
// two end bytes, to what it must equal: TrimSpace, then every ';' at the
// end with the blanks before it. Every value of up to four bytes from
// ASCII and Unicode blanks, the bytes next to the printable range, ';' and
// pieces of UTF-8 is tried, alone and around a FEN.
func TestTrimFEN(t *testing.T) {
	want := func(v []byte) []byte {
		v = bytes.TrimSpace(v)
		for bytes.HasSuffix(v, []byte(";")) {
			v = bytes.TrimSpace(v[:len(v)-1])
		}
		return v
	}
	pieces := []string{" ", "\t", "\n", "\v", "\f", "\r", ";", "!", "~", "\x7f", "\x80", "\x20\x20", "\u00a0", "\u0085", "\u2003", "\xc2", "r", "1"}
	var values [][]byte
	var grow func(prefix string, depth int)
	grow = func(prefix string, depth int) {
		values = append(values, []byte(prefix))
		if depth == 4 {
			return
		}
		for _, p := range pieces {
			grow(prefix+p, depth+1)
		}
	}
	grow("", 0)
	const fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	for _, v := range values {
		for _, in := range [][]byte{v, []byte(string(v) + fen), []byte(fen + string(v)), []byte(string(v) + fen + string(v))} {
			if got, w := trimFEN(in), want(in); !bytes.Equal(got, w) {
				t.Fatalf("trimFEN(%q) = %q, want %q", in, got, w)
			}
		}
	}
}
