//go:build linux

package tree

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on the systems that
// have them (x86-64, arm64 with 4 KB pages).
const hugePage = 2 << 20

// mapRegion maps n bytes (a multiple of hugePage) of private anonymous
// memory, aligned to a huge page and advised to be backed by huge pages:
// where transparent huge pages are given only on request (the
// "madvise" setting), the Go heap never asks for them. ok is false when
// the memory cannot be mapped.
func mapRegion(n uintptr) (p unsafe.Pointer, ok bool) {
	// Mapping a huge page more and trimming both ends aligns the region,
	// which a huge page needs.
	raw, err := unix.MmapPtr(-1, 0, nil, n+hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil, false
	}
	start := uintptr(raw)
	aligned := (start + hugePage - 1) &^ (hugePage - 1)
	if head := aligned - start; head > 0 {
		_ = unix.MunmapPtr(raw, head)
	}
	if tail := start + n + hugePage - (aligned + n); tail > 0 {
		_ = unix.MunmapPtr(unsafe.Add(raw, aligned-start+n), tail)
	}
	p = unsafe.Add(raw, aligned-start)
	// Without huge pages (not configured, or refused) the region still
	// works in small pages: the advice failing is no error.
	_ = unix.Madvise(unsafe.Slice((*byte)(p), n), unix.MADV_HUGEPAGE)
	return p, true
}

// unmapRegion unmaps a region mapRegion mapped.
func unmapRegion(p unsafe.Pointer, n uintptr) {
	_ = unix.MunmapPtr(p, n)
}
