package dedup

import (
	"math/rand/v2"
	"testing"
)

func TestTable(t *testing.T) {
	tests := []struct {
		name string
		keys int
		// The bytes per key once the shards have grown: 16 bytes per
		// slot at a load between 64 and 80 % past doubleBelow a shard,
		// between 40 and 80 % below it.
		minBytes, maxBytes float64
	}{
		{"empty", 0, 0, 0},
		{"small", 1000, 16, 1 << 20},
		{"doubling", 400000, 20, 40.1},
		{"large", 2500000, 20, 25.1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			keys := make([][2]uint64, tt.keys)
			tb := new(table)
			defer tb.free()
			for i := range keys {
				keys[i] = norm([2]uint64{rng.Uint64(), rng.Uint64()})
				e := tb.insert(keys[i])
				e[0] |= uint64(i % 32)
			}
			if tb.keys != int64(tt.keys) {
				t.Errorf("%d keys, want %d", tb.keys, tt.keys)
			}
			for i, k := range keys {
				if e := tb.find(k); e == nil || e[0]&flagMask != uint64(i%32) {
					t.Fatalf("key %d: entry %v", i, e)
				}
			}
			for range 1000 {
				if e := tb.find(norm([2]uint64{rng.Uint64(), rng.Uint64()})); e != nil {
					t.Fatalf("a key never inserted is found")
				}
			}
			if tt.keys > 0 {
				if b := float64(tb.bytes()) / float64(tt.keys); b < tt.minBytes || b > tt.maxBytes {
					t.Errorf("%.1f bytes per key, want %v to %v", b, tt.minBytes, tt.maxBytes)
				}
			}
		})
	}
}

// A key whose hash bits are all zero is still a key, not an empty slot.
func TestTableZeroKey(t *testing.T) {
	tb := new(table)
	defer tb.free()
	z := norm([2]uint64{5, 0}) // flag bits only
	tb.insert(z)
	if tb.find(z) == nil || tb.keys != 1 {
		t.Error("the zero key is lost")
	}
}
