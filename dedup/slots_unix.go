//go:build unix

package dedup

import (
	"syscall"
	"unsafe"
)

// allocSlots returns n zeroed slots mapped from the system rather than
// the Go heap: a shard that grows gives its old slots back at once,
// where the collector would keep them, and up to as much again, until
// its next cycle. The slots hold no pointers, so the collector need not
// see them.
func allocSlots(n int) [][2]uint64 {
	if n*16 < mapMin {
		return make([][2]uint64, n)
	}
	b, err := syscall.Mmap(-1, 0, n*16, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|mapPopulate)
	if err != nil {
		// No mapping to be had: the heap will do, at its cost.
		return make([][2]uint64, n)
	}
	return unsafe.Slice((*[2]uint64)(unsafe.Pointer(&b[0])), n)
}

// freeSlots gives back slots that allocSlots returned.
func freeSlots(s [][2]uint64) {
	if len(s) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*16)
	// A heap slice (allocSlots's fallback) is not a mapping: Munmap fails
	// and the collector frees it.
	_ = syscall.Munmap(b)
}
