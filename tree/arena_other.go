//go:build !linux

package tree

import "unsafe"

// mapRegion maps nothing where huge pages are not asked for: the store's
// chunks are then on the Go heap.
func mapRegion(n uintptr) (p unsafe.Pointer, ok bool) { return nil, false }

// unmapRegion is never called without mapRegion.
func unmapRegion(p unsafe.Pointer, n uintptr) {}
