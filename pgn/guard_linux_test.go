package pgn

import (
	"os"
	"syscall"
	"testing"
)

// guarded returns n writable bytes followed by a page that cannot be read,
// so that a loop reading past them faults.
func guarded(t *testing.T, n int) []byte {
	t.Helper()
	page := os.Getpagesize()
	size := (n+page-1)/page*page + page
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[size-page:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	return mem[size-page-n : size-page : size-page]
}
