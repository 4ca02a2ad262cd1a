package tree

import (
	"runtime"
	"unsafe"
)

// arena hands out the memory of a store's full chunks from large
// regions mapped apart from the Go heap, in huge pages where the system
// has them (see mapRegion). A large tree touches a few hundred MB of new
// memory in chunks of a few KB, at random from the index's lookups: in
// 4 KB pages that is a page fault per 4 KB added and a TLB miss for
// nearly every lookup, which cost the goroutine adding lines, the one
// every other waits on, more than the adding itself.
//
// Only values without Go pointers may live in an arena: the garbage
// collector does not look there.
type arena struct {
	regions []region
	rest    []byte // what is left of the newest region
	used    int    // bytes handed out, which the heap's figures leave out
}

// region is a mapped region, as unmapRegion needs it.
type region struct {
	p unsafe.Pointer
	n uintptr
}

// regionBytes is the size of a region: 16 huge pages. Memory is only
// taken from the system as it is touched, so a region's untouched rest
// costs address space only.
const regionBytes = 32 << 20

// newArena returns an arena whose regions are unmapped once owner is no
// longer reachable: the chunks handed out must not outlive it. Since the
// collector does not see pointers into the regions, every exported
// function that works through them defers runtime.KeepAlive of its Forest
// or Tree, so that a caller dropping its last reference during the call
// cannot have the regions unmapped under it.
func newArena[T any](owner *T) *arena {
	a := &arena{}
	runtime.AddCleanup(owner, (*arena).release, a)
	return a
}

// alloc returns n bytes, cache-line aligned and zeroed, or nil when no
// region can be mapped (the caller then takes memory from the heap).
func (a *arena) alloc(n int) []byte {
	n = (n + 63) &^ 63
	if len(a.rest) < n {
		if n > regionBytes {
			return nil
		}
		p, ok := mapRegion(regionBytes)
		if !ok {
			return nil
		}
		a.regions = append(a.regions, region{p, regionBytes})
		a.rest = unsafe.Slice((*byte)(p), regionBytes)
	}
	b := a.rest[:n:n]
	a.rest = a.rest[n:]
	a.used += n
	return b
}

// release unmaps the arena's regions.
func (a *arena) release() {
	for _, r := range a.regions {
		unmapRegion(r.p, r.n)
	}
	a.regions, a.rest = nil, nil
}

// newChunk returns an empty chunk of capacity chunkLen for a list of T,
// in a, or on the heap when a is nil or has no memory to give. T must
// hold no Go pointers.
func newChunk[T any](a *arena) []T {
	if a != nil {
		var zero T
		if b := a.alloc(int(unsafe.Sizeof(zero)) * chunkLen); b != nil {
			return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), chunkLen)[:0]
		}
	}
	return make([]T, 0, chunkLen)
}
