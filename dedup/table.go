package dedup

import (
	"math/bits"
	"sync/atomic"
)

// The low bits of an entry's first word are flags, not hash: a bit per
// result seen (1 << result code) and the covered bit. The 122 bits left
// are the key.
const (
	flagBits = 6
	flagMask = 1<<flagBits - 1
	covered  = 1 << 5
)

// shards splits the table so that growing moves one shard at a time: the
// table never holds an old and a new copy of all its entries at once.
const (
	shardBits = 5
	shards    = 1 << shardBits
)

// mapMin is the size from which slots are mapped (see allocSlots).
const mapMin = 64 << 10

// maxLoad and growth keep each shard between 64 % and 80 % full once it
// has passed doubleBelow: 20 to 25 bytes per key. Linear probing stays
// short at 80 %. A smaller shard doubles, and is 40 to 80 % full: growing
// by a quarter at a time rehashes every key about four times over and maps
// five times the final memory, page by page (in a virtual machine each
// first touch of a page costs more than the rehashing), which made up a
// fifth of dedup's time on the tables that most archives need. Doubling
// while the table is at most 32 MiB (doubleBelow a shard, about 1.7
// million keys) costs at most 16 MiB more.
const (
	maxLoadNum, maxLoadDen = 4, 5
	growNum, growDen       = 5, 4
	firstSize              = 16
	doubleBelow            = 1 << 20
)

// table is a set of 128-bit keys with flags, in open addressing with
// linear probing: 16 bytes per slot, nothing else per key but, when
// filtered, a filter's byte per slot.
type table struct {
	shard [shards]shard
	keys  int64
	// filtered keeps a filter of each shard's keys, which tells most keys
	// that are absent from a look at a word of it: a table much larger
	// than the processor's caches costs a cache miss a look-up otherwise,
	// and Options.Prefix looks up every proper prefix of every game, a
	// handful of which are keys. That was a third of such a run's time.
	filtered bool
}

type shard struct {
	slots [][2]uint64
	n     int
	// filter is a Bloom filter of the shard's keys in words of 64 bits,
	// one for 8 slots, a key setting three bits of one word (filterBits):
	// with the shard at most 80 % full, about 2 % of absent keys pass.
	filter []uint64
}

// filterBits returns the word of a filter of n words that key k sets
// bits of, and the bits. They come from k[1], whose top bits choose the
// shard and whose bits are unaffected by the flags: the slot comes from
// k[0].
func filterBits(k [2]uint64, n int) (word int, bits64 uint64) {
	w, _ := bits.Mul64(k[1]<<shardBits, uint64(n))
	return int(w), 1<<(k[1]&63) | 1<<(k[1]>>6&63) | 1<<(k[1]>>12&63)
}

// add sets the filter's bits of k.
func (s *shard) add(k [2]uint64) {
	w, b := filterBits(k, len(s.filter))
	s.filter[w] |= b
}

// norm clears the flag bits of a key and makes it non-zero: the zero
// slot is the empty one.
func norm(k [2]uint64) [2]uint64 {
	k[0] &^= flagMask
	if k[0] == 0 && k[1] == 0 {
		k[1] = 1
	}
	return k
}

func (s *shard) home(k [2]uint64) int {
	hi, _ := bits.Mul64(k[0], uint64(len(s.slots)))
	return int(hi)
}

// find returns the entry of k, or nil. k must be normalized. Several
// goroutines may find at once, while nothing inserts.
func (t *table) find(k [2]uint64) *[2]uint64 {
	s := &t.shard[k[1]>>(64-shardBits)]
	if len(s.slots) == 0 {
		return nil
	}
	if len(s.filter) > 0 {
		if w, b := filterBits(k, len(s.filter)); s.filter[w]&b != b {
			return nil
		}
	}
	for i := s.home(k); ; {
		e := &s.slots[i]
		// The flags may be set meanwhile by another goroutine (see
		// Deduper.mark); the key bits never change once written.
		w := atomic.LoadUint64(&e[0])
		if e[1] == k[1] && w&^flagMask == k[0] {
			return e
		}
		if w == 0 && e[1] == 0 {
			return nil
		}
		if i++; i == len(s.slots) {
			i = 0
		}
	}
}

// insert returns the entry of k, adding it with no flags when absent. k
// must be normalized.
func (t *table) insert(k [2]uint64) *[2]uint64 {
	s := &t.shard[k[1]>>(64-shardBits)]
	if (s.n+1)*maxLoadDen > len(s.slots)*maxLoadNum {
		s.grow(t.filtered)
	}
	for i := s.home(k); ; {
		e := &s.slots[i]
		if e[1] == k[1] && e[0]&^flagMask == k[0] {
			return e
		}
		if e[0] == 0 && e[1] == 0 {
			*e = k
			s.n++
			t.keys++
			if t.filtered {
				s.add(k)
			}
			return e
		}
		if i++; i == len(s.slots) {
			i = 0
		}
	}
}

func (s *shard) grow(filtered bool) {
	size := max(len(s.slots)*growNum/growDen, firstSize)
	if len(s.slots)*16 < doubleBelow {
		size = max(2*len(s.slots), firstSize)
	}
	old := s.slots
	s.slots = allocSlots(size)
	defer freeSlots(old)
	if filtered {
		s.filter = make([]uint64, max(size/8, 1))
	}
	for _, e := range old {
		if e[0] == 0 && e[1] == 0 {
			continue
		}
		if filtered {
			s.add(e)
		}
		for i := s.home(norm(e)); ; {
			if f := &s.slots[i]; f[0] == 0 && f[1] == 0 {
				*f = e
				break
			}
			if i++; i == len(s.slots) {
				i = 0
			}
		}
	}
}

// free gives the table's memory back; the table is then empty.
func (t *table) free() {
	for i := range t.shard {
		freeSlots(t.shard[i].slots)
		t.shard[i] = shard{}
	}
	t.keys = 0
}

// bytes is the memory the table holds.
func (t *table) bytes() int64 {
	var n int64
	for i := range t.shard {
		n += int64(len(t.shard[i].slots))*16 + int64(len(t.shard[i].filter))*8
	}
	return n
}
