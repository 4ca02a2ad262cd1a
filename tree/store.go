package tree

import "github.com/frctool/frctool/position"

// chunkLen is the length of a full chunk of a chunked list: 256 moves
// are 18 KB. A list grows a chunk at a time, so it is never copied and
// wastes at most one chunk; a forest of a thousand small trees wastes
// less than a chunk each, since a list's first chunk grows by doubling.
const (
	chunkBits = 8
	chunkLen  = 1 << chunkBits
)

// chunked is a list of values in chunks of chunkLen: appending never
// moves the values already there, so a large tree grows without
// copying its nodes and without holding twice their memory meanwhile.
type chunked[T any] struct {
	chunks [][]T
	n      int32
	// spare are full-size chunks let go by truncate, taken again before
	// new ones: a forest at its bound prunes and grows again and again,
	// and memory already touched costs less than new memory.
	spare [][]T
	// mem, if set, holds the full chunks; nil takes them from the heap.
	mem *arena
}

// len returns the number of values.
func (c *chunked[T]) len() int { return int(c.n) }

// at returns the value at i, valid until the list is truncated.
func (c *chunked[T]) at(i int32) *T {
	return &c.chunks[i>>chunkBits][i&(chunkLen-1)]
}

// push appends v and returns its index.
func (c *chunked[T]) push(v T) int32 {
	i := c.n
	k := int(i >> chunkBits)
	if k == len(c.chunks) {
		switch {
		case k == 0:
			c.chunks = append(c.chunks, make([]T, 0, 16))
		case len(c.spare) > 0:
			c.chunks = append(c.chunks, c.spare[len(c.spare)-1][:0])
			c.spare[len(c.spare)-1] = nil
			c.spare = c.spare[:len(c.spare)-1]
		default:
			c.chunks = append(c.chunks, newChunk[T](c.mem))
		}
	}
	ch := &c.chunks[k]
	if len(*ch) == cap(*ch) {
		// Only the first chunk grows: the list is small, and doubling
		// it is cheap.
		grown := make([]T, len(*ch), min(2*cap(*ch), chunkLen))
		copy(grown, *ch)
		*ch = grown
	}
	*ch = append(*ch, v)
	c.n++
	return i
}

// truncate keeps the first n values and lets the chunks past them go.
func (c *chunked[T]) truncate(n int32) {
	c.n = n
	k := int((n + chunkLen - 1) >> chunkBits)
	if k < len(c.chunks) {
		c.spare = append(c.spare, c.chunks[max(k, 1):]...)
	}
	clear(c.chunks[k:])
	c.chunks = c.chunks[:k]
	if k > 0 {
		last := &c.chunks[k-1]
		*last = (*last)[:int(n)-(k-1)*chunkLen]
	}
}

// index finds a tree's nodes by their keys: an open-addressing hash
// table of 8-byte slots, each a key's hash (its low 32 bits) and the
// node's index + 1, 0 for an empty slot. The hashes come with the keys
// (the workers compute them while replaying games), and a slot's hash
// both places it and tells all but about one key in four billion from
// its own: a lookup asks whether a node is the position sought (which
// plays moves again, since keys are not kept) only for a slot whose hash
// matches.
type index struct {
	slots []uint64
	n     int
	sink  uint64 // see touch
}

// slotHash is the part of a hash a slot keeps and is placed by.
func slotHash(h uint64) uint32 { return uint32(h) }

// keyed tells whether a node is the position a lookup looks for.
type keyed interface {
	isKey(n int32) bool
}

// find returns the node of the position k, whose key has hash h, or -1,
// and the slot where it belongs. Only a node whose slot holds the slot
// hash of h is asked about.
func (x *index) find(k keyed, h uint64) (node int32, slot int) {
	if len(x.slots) == 0 {
		return -1, -1
	}
	sh := slotHash(h)
	mask := len(x.slots) - 1
	for i := int(sh) & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			return -1, i
		}
		if uint32(s>>32) == sh {
			if n := int32(uint32(s)) - 1; k.isKey(n) {
				return n, i
			}
		}
	}
}

// insert puts node n, whose key has hash h, in slot i, which find gave
// for it; -1 finds a slot. It grows the table to keep it at most three
// quarters full.
func (x *index) insert(h uint64, n int32, i int) {
	if (x.n+1)*4 > len(x.slots)*3 {
		x.grow()
		i = -1
	}
	if i < 0 {
		i = x.free(slotHash(h))
	}
	x.slots[i] = uint64(slotHash(h))<<32 | uint64(uint32(n+1))
	x.n++
}

// touch reads the slot of each step's key, so that the lookups to come
// find them in the caches: read one after the other, as a line is added,
// each waits for memory; read together, the processor waits for all at
// once. sink keeps the reads from being left out.
func (x *index) touch(steps []Step) {
	if len(x.slots) == 0 {
		return
	}
	mask := len(x.slots) - 1
	var sink uint64
	for i := range steps {
		sink += x.slots[int(slotHash(steps[i].hash))&mask]
	}
	x.sink = sink
}

// free returns the first empty slot for a key of slot hash sh.
func (x *index) free(sh uint32) int {
	mask := len(x.slots) - 1
	i := int(sh) & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	return i
}

// grow doubles the table, placing the slots again by the hashes they
// hold, without reading a key.
func (x *index) grow() {
	old := x.slots
	x.slots = make([]uint64, max(2*len(old), 16))
	for _, s := range old {
		if s != 0 {
			x.slots[x.free(uint32(s>>32))] = s
		}
	}
}

// renumber gives the nodes the numbers of remap (-1 for a node
// dropped), in place: the slots kept take their new numbers where they
// are and the others are emptied, which can leave a key past an empty
// slot it would meet first when looked up, so each key is then moved
// back to the first empty slot on the way from its place by hash, runs
// taken in order. The table keeps its size (placed in the old table's
// order into a smaller one, the slots would pile up into long runs).
func (x *index) renumber(remap []int32) {
	for i, s := range x.slots {
		if s == 0 {
			continue
		}
		if to := remap[uint32(s)-1]; to >= 0 {
			x.slots[i] = s&^0xffffffff | uint64(uint32(to+1))
		} else {
			x.slots[i] = 0
			x.n--
		}
	}
	// Start after an empty slot, which a table at most three quarters
	// full has, so that every run is taken from its start.
	mask := len(x.slots) - 1
	start := 0
	for start < len(x.slots) && x.slots[start] != 0 {
		start++
	}
	if start == len(x.slots) {
		return
	}
	for k := 1; k <= len(x.slots); k++ {
		i := (start + k) & mask
		s := x.slots[i]
		if s == 0 {
			continue
		}
		for j := int(uint32(s>>32)) & mask; j != i; j = (j + 1) & mask {
			if x.slots[j] == 0 {
				x.slots[j], x.slots[i] = s, 0
				break
			}
		}
	}
}

// wideMoves is the number of moves past which a node's moves are found
// through store.wide rather than by looking through its list.
const wideMoves = 4

// wideIndex finds a move by its node and itself: an open-addressing hash
// table of the moves of the nodes marked wide. A move found there saves
// looking through a list of twenty scattered in memory, at the start
// positions every game passes through.
type wideIndex struct {
	slots []wideSlot
	n     int
}

type wideSlot struct {
	node int32 // + 1, 0 for an empty slot
	edge int32
	move position.Move
}

func wideHash(n int32, m position.Move) uint64 {
	return (uint64(uint32(n))<<16 | uint64(m)) * 0x9e3779b97f4a7c15
}

// find returns the index of move m of node n, or -1.
func (x *wideIndex) find(n int32, m position.Move) int32 {
	if len(x.slots) == 0 {
		return -1
	}
	mask := len(x.slots) - 1
	for i := int(wideHash(n, m)>>32) & mask; ; i = (i + 1) & mask {
		s := &x.slots[i]
		if s.node == 0 {
			return -1
		}
		if s.node == n+1 && s.move == m {
			return s.edge
		}
	}
}

// insert adds move e, m of node n, which must not be there yet.
func (x *wideIndex) insert(n int32, m position.Move, e int32) {
	if (x.n+1)*2 > len(x.slots) {
		old := x.slots
		x.slots, x.n = make([]wideSlot, max(2*len(old), 1024)), 0
		for _, s := range old {
			if s.node != 0 {
				x.insert(s.node-1, s.move, s.edge)
			}
		}
	}
	mask := len(x.slots) - 1
	i := int(wideHash(n, m)>>32) & mask
	for x.slots[i].node != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = wideSlot{node: n + 1, edge: e, move: m}
	x.n++
}

// reset empties the table, keeping its memory.
func (x *wideIndex) reset() {
	clear(x.slots)
	x.n = 0
}
