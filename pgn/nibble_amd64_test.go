//go:build !purego

package pgn

import (
	"math/rand/v2"
	"testing"
)

// TestIndexNibble holds the vector loop to a byte loop: one member at
// every offset of buffers of every length from 32 to 160 (so that the
// last, overlapping block is read at every alignment), none at all, and
// random bytes. Members follow each buffer in memory, after one byte that
// is not, so that a read past its end would be seen.
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
			buf := make([]byte, 160+32)
			for n := 32; n <= 160; n++ {
				b := buf[:n]
				for i := range buf[:n+1] {
					buf[i] = others[rng.IntN(len(others))]
				}
				for i := n + 1; i < len(buf); i++ {
					buf[i] = members[rng.IntN(len(members))]
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

// TestClassify64 holds classify64's masks to the sets' own test, byte by
// byte, with every byte value at every offset.
func TestClassify64(t *testing.T) {
	if !vectorScan {
		t.Skip("no vector loop here")
	}
	var b [64]byte
	for v := range 256 {
		for i := range b {
			b[i] = byte(v + i*37)
		}
		for si, s := range nibbleSetCases {
			u := nibbleSetCases[(si+1)%len(nibbleSetCases)]
			inS, inU := classify64(&b, s.set, u.set)
			for i, x := range b {
				if got, want := inS>>i&1 == 1, s.in(x); got != want {
					t.Fatalf("%s: byte %#02x at %d: %v, want %v", s.name, x, i, got, want)
				}
				if got, want := inU>>i&1 == 1, u.in(x); got != want {
					t.Fatalf("%s: byte %#02x at %d: %v, want %v", u.name, x, i, got, want)
				}
			}
		}
	}
}

// TestPlyClasses holds plyClasses' seven masks to the classes spelled out
// here, byte by byte, with every byte value at every offset.
func TestPlyClasses(t *testing.T) {
	if !vectorScan {
		t.Skip("no vector loop here")
	}
	classes := [7]func(c byte) bool{
		func(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' },
		func(c byte) bool { return '0' <= c && c <= '9' || c == '.' },
		func(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' || c == 0x1a },
		func(c byte) bool {
			return c <= 0x08 || 0x0e <= c && c <= 0x19 || 0x1b <= c && c <= 0x1f || c >= 0x7f || c == '(' || c == ')' || c == ';' || c == '$'
		},
		func(c byte) bool { return c == '.' },
		func(c byte) bool { return c == '{' },
		func(c byte) bool { return c == '}' },
	}
	var b [64]byte
	var masks [7]uint64
	for v := range 256 {
		for i := range b {
			b[i] = byte(v + i*37)
		}
		plyClasses(&b, &plySets, &masks)
		for k, in := range classes {
			for i, x := range b {
				if got, want := masks[k]>>i&1 == 1, in(x); got != want {
					t.Fatalf("mask %d: byte %#02x at %d: %v, want %v", k, x, i, got, want)
				}
			}
		}
	}
}
