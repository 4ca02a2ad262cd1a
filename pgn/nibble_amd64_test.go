//go:build !purego

package pgn

import (
	"math/rand/v2"
	"testing"
)

// TestIndexNibble holds the vector loop to a byte loop: one member at
// every offset of buffers of every length from 32 to 160 (so that the
// last, overlapping block is read at every alignment), none at all, and
// random bytes.
func TestIndexNibble(t *testing.T) {
	if !vectorScan {
		t.Skip("no vector loop here")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range nibbleSetCases {
		t.Run(c.name, func(t *testing.T) {
			var members, others []byte
			for b := range 256 {
				if c.in(byte(b)) {
					members = append(members, byte(b))
				} else {
					others = append(others, byte(b))
				}
			}
			want := func(b []byte) int {
				for i, x := range b {
					if c.in(x) {
						return i
					}
				}
				return len(b)
			}
			buf := make([]byte, 160)
			for n := 32; n <= len(buf); n++ {
				b := buf[:n]
				for i := range b {
					b[i] = others[rng.IntN(len(others))]
				}
				if got := indexNibble(b, c.set); got != n {
					t.Fatalf("no member in %q: got %d, want %d", b, got, n)
				}
				for k := range b {
					keep := b[k]
					b[k] = members[rng.IntN(len(members))]
					if got := indexNibble(b, c.set); got != k {
						t.Fatalf("member %#02x at %d of %d: got %d", b[k], k, n, got)
					}
					b[k] = keep
				}
				for range 20 {
					for i := range b {
						b[i] = byte(rng.Uint32())
					}
					if got, want := indexNibble(b, c.set), want(b); got != want {
						t.Fatalf("%q: got %d, want %d", b, got, want)
					}
				}
			}
		})
	}
}
