package dedup

import (
	"math/rand/v2"
	"testing"
)

func TestTable(t *testing.T) {
	tests := []struct {
		name     string
		keys     int
		filtered bool
		// The bytes per key once the shards have grown: 16 bytes per
		// slot at a load between 64 and 80 % past doubleBelow a shard,
		// between 40 and 80 % below it, and a byte more a slot filtered.
		minBytes, maxBytes float64
	}{
		{"empty", 0, false, 0, 0},
		{"small", 1000, false, 16, 1 << 20},
		{"doubling", 400000, false, 20, 40.1},
		{"large", 2500000, false, 20, 25.1},
		{"filtered", 400000, true, 21, 42.6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			keys := make([][2]uint64, tt.keys)
			tb := &table{filtered: tt.filtered}
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
			passed := 0
			for range 10000 {
				k := norm([2]uint64{rng.Uint64(), rng.Uint64()})
				if e := tb.find(k); e != nil {
					t.Fatalf("a key never inserted is found")
				}
				if s := &tb.shard[k[1]>>(64-shardBits)]; len(s.filter) > 0 {
					if w, b := filterBits(k, len(s.filter)); s.filter[w]&b == b {
						passed++
					}
				}
			}
			// Three bits of one word a key, a word for 8 slots at most
			// 80 % full: about 2 % of absent keys pass the filter.
			if tt.filtered && tt.keys > 0 && passed > 500 {
				t.Errorf("%d of 10000 absent keys pass the filter, want under 500", passed)
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
