package tree

import (
	"fmt"
	"reflect"
	"testing"
	"unsafe"

	"github.com/frctool/frctool/position"
)

// TestChunked pushes, truncates and pushes again, and reads every value
// back: the first chunk grows, the others are full-size, and chunks let
// go are taken again.
func TestChunked(t *testing.T) {
	tests := []struct {
		name        string
		push, keep  int32
		pushAgain   int32
		wantChunks  int
		wantSpareAt int // spare chunks after the second pushes
	}{
		{"within the first chunk", 10, 5, 3, 1, 0},
		{"truncated to the first chunk", 3*chunkLen + 7, 100, chunkLen, 2, 2},
		{"truncated mid-chunk", 5 * chunkLen, 2*chunkLen + 1, 3 * chunkLen, 6, 0},
		{"truncated to nothing", 2 * chunkLen, 0, 1, 1, 1},
	}
	for _, tt := range tests {
		for _, inArena := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/arena=%v", tt.name, inArena), func(t *testing.T) {
				var c chunked[int32]
				if inArena {
					c.mem = newArena(&c)
				}
				for i := range tt.push {
					if got := c.push(i); got != i {
						t.Fatalf("push %d returned %d", i, got)
					}
				}
				c.truncate(tt.keep)
				for i := range tt.pushAgain {
					c.push(-i)
				}
				if c.len() != int(tt.keep+tt.pushAgain) {
					t.Fatalf("len %d, want %d", c.len(), tt.keep+tt.pushAgain)
				}
				for i := range c.n {
					want := i
					if i >= tt.keep {
						want = -(i - tt.keep)
					}
					if got := *c.at(i); got != want {
						t.Fatalf("at(%d) = %d, want %d", i, got, want)
					}
				}
				if len(c.chunks) != tt.wantChunks || len(c.spare) != tt.wantSpareAt {
					t.Errorf("%d chunks and %d spare, want %d and %d", len(c.chunks), len(c.spare), tt.wantChunks, tt.wantSpareAt)
				}
			})
		}
	}
}

// keyList is a list of keys that an index finds its nodes in, and the
// key sought.
type keyList struct {
	chunked[position.Key]
	want position.Key
}

func (l *keyList) isKey(n int32) bool { return *l.at(n) == l.want }

// seek sets the key sought and returns the list.
func (l *keyList) seek(k *position.Key) *keyList {
	l.want = *k
	return l
}

// TestIndex finds keys after inserts that grow the table and after a
// renumbering that drops some.
func TestIndex(t *testing.T) {
	var keys keyList
	var x index
	b, err := position.Start(518)
	if err != nil {
		t.Fatal(err)
	}
	// Distinct keys: the positions of a walk through the move lists.
	var walk func(depth int)
	walk = func(depth int) {
		k := b.Key()
		if n, slot := x.find(keys.seek(&k), k.Hash()); n < 0 {
			x.insert(k.Hash(), keys.push(k), slot)
		}
		if depth == 0 {
			return
		}
		for _, m := range b.LegalMoves()[:6] {
			b.Push(m)
			walk(depth - 1)
			b.Pop()
		}
	}
	walk(4)
	if x.n != keys.len() || x.n < 500 {
		t.Fatalf("%d keys indexed of %d", x.n, keys.len())
	}
	remap := make([]int32, keys.len())
	kept := int32(0)
	for i := range remap {
		if i%3 == 0 {
			remap[i] = -1
			continue
		}
		remap[i] = kept
		kept++
	}
	x.renumber(remap)
	if x.n != int(kept) {
		t.Errorf("%d keys after renumbering, want %d", x.n, kept)
	}
	// The keys kept, moved down as store.remove moves them.
	var moved keyList
	for i := range int32(keys.len()) {
		if remap[i] >= 0 {
			moved.push(*keys.at(i))
		}
	}
	for i := range int32(keys.len()) {
		k := keys.at(i)
		if got, _ := x.find(moved.seek(k), k.Hash()); got != remap[i] {
			t.Errorf("key %d found at %d, want %d", i, got, remap[i])
		}
	}
}

// TestRenumberRuns renumbers tables whose keys are placed by hashes
// made to collide, in runs that wrap past the table's end, so that
// emptied slots cut runs in every way: each key kept must still be
// found, at its new number, and each dropped one not.
func TestRenumberRuns(t *testing.T) {
	b, err := position.Start(518)
	if err != nil {
		t.Fatal(err)
	}
	var keys keyList
	for _, m := range b.LegalMoves() {
		b.Push(m)
		for _, r := range b.LegalMoves() {
			b.Push(r)
			keys.push(b.Key())
			b.Pop()
		}
		b.Pop()
	}
	tests := []struct {
		name string
		home func(i int) uint32 // the slot hash of key i
		drop func(i int) bool
	}{
		{"one home at the end", func(int) uint32 { return 63 }, func(i int) bool { return i%3 == 0 }},
		{"homes near the end", func(i int) uint32 { return uint32(56 + i%8) }, func(i int) bool { return i%2 == 1 }},
		{"first of each run dropped", func(i int) uint32 { return uint32(i / 4 * 4) }, func(i int) bool { return i%4 == 0 }},
		{"all but the last dropped", func(int) uint32 { return 5 }, func(i int) bool { return i < 47 }},
		{"none dropped", func(i int) uint32 { return uint32(i * 7) }, func(int) bool { return false }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 48 // the most a table of 64 slots holds
			var x index
			x.slots = make([]uint64, 64)
			hash := func(i int) uint64 { return uint64(tt.home(i)) | 64<<8 } // distinct beyond the mask
			for i := range n {
				k := keys.at(int32(i))
				if got, slot := x.find(keys.seek(k), hash(i)); got >= 0 {
					t.Fatalf("key %d found before it is added", i)
				} else {
					x.insert(hash(i), int32(i), slot)
				}
			}
			if len(x.slots) != 64 {
				t.Fatalf("the table grew to %d slots", len(x.slots))
			}
			remap := make([]int32, n)
			var moved keyList
			for i := range n {
				remap[i] = -1
				if !tt.drop(i) {
					remap[i] = moved.push(*keys.at(int32(i)))
				}
			}
			x.renumber(remap)
			if x.n != moved.len() {
				t.Errorf("%d keys after renumbering, want %d", x.n, moved.len())
			}
			for i := range n {
				if tt.drop(i) {
					continue
				}
				if got, _ := x.find(moved.seek(keys.at(int32(i))), hash(i)); got != remap[i] {
					t.Errorf("key %d found at %d, want %d", i, got, remap[i])
				}
			}
		})
	}
}

// TestArenaTypes holds the values kept in arenas to types without Go
// pointers, which the garbage collector would not see there.
func TestArenaTypes(t *testing.T) {
	for _, tt := range []struct {
		name string
		typ  reflect.Type
	}{
		{"node", reflect.TypeFor[node]()},
		{"key", reflect.TypeFor[position.Key]()},
		{"link", reflect.TypeFor[link]()},
		{"edge", reflect.TypeFor[edge]()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if hasPointers(tt.typ) {
				t.Errorf("%v holds pointers", tt.typ)
			}
		})
	}
}

func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	case reflect.Array:
		return hasPointers(t.Elem())
	case reflect.Pointer, reflect.UnsafePointer, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func, reflect.Interface, reflect.String:
		return true
	}
	return false
}

// TestArenaAlloc takes memory across regions: each piece aligned to a
// cache line, zeroed, and apart from the others.
func TestArenaAlloc(t *testing.T) {
	tests := []struct {
		name   string
		size   int
		pieces int
	}{
		{"small pieces", 100, 10},
		{"pieces across regions", regionBytes / 3, 7},
		{"too large", regionBytes + 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			owner := new(int)
			a := newArena(owner)
			var last uintptr
			for i := range tt.pieces {
				b := a.alloc(tt.size)
				if tt.size > regionBytes {
					if b != nil {
						t.Fatalf("a piece larger than a region was given")
					}
					return
				}
				if b == nil {
					t.Skip("no region could be mapped")
				}
				p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
				if len(b) < tt.size || p%64 != 0 {
					t.Fatalf("piece %d: %d bytes at %#x", i, len(b), p)
				}
				if i > 0 && p < last+uintptr(tt.size) && p+uintptr(tt.size) > last {
					t.Fatalf("piece %d overlaps the one before", i)
				}
				for j := range b {
					if b[j] != 0 {
						t.Fatalf("piece %d: byte %d is %d", i, j, b[j])
					}
					b[j] = byte(i + 1)
				}
				last = p
			}
			a.release()
		})
	}
}
