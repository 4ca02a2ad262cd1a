package dedup

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"slices"
	"testing"
)

// TestLastIsSum checks that a key's last sum, taken from the bytes still
// gathered when none were handed to the hashes, is the sum the hashes
// give, for what fits in the gathered bytes and what does not, on a keyer
// used before, and that both are the hash of the bytes written.
func TestLastIsSum(t *testing.T) {
	seeds := [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	reused := newKeyer(Moves, false, &seeds)
	for _, c := range []struct {
		name  string
		sizes []int // fields written, each of this many bytes
	}{
		{"nothing", nil},
		{"one byte", []int{1}},
		{"a tag", []int{5, 12}},
		{"just under the flush", []int{flushSize - 3}},
		{"just over the flush", []int{flushSize - 2}},
		{"many short fields", slices.Repeat([]int{3}, 3000)},
		{"long game", []int{100, flushSize, 7, 2 * flushSize, 9}},
		{"short after long", []int{4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var written []byte
			fresh := newKeyer(Moves, false, &seeds)
			reused.reset()
			for i, n := range c.sizes {
				b := bytes.Repeat([]byte{byte('a' + i%26)}, n)
				written = append(binary.AppendUvarint(written, uint64(n)), b...)
				reused.field(b)
				fresh.field(b)
			}
			got, want := reused.last(), fresh.sum()
			if got != want {
				t.Fatalf("last %x, sum %x", got, want)
			}
			if h := [2]uint64{maphash.Bytes(seeds[0], written), maphash.Bytes(seeds[1], written)}; got != h {
				t.Fatalf("last %x, the hash of the bytes written %x", got, h)
			}
		})
	}
}
