//go:build unix

package sharedtest

import (
	"syscall"
	"testing"
)

// LimitOpenFiles lowers the number of files the process may open to n
// until the test ends, or skips the test when the system refuses, so that
// code keeping many files open can be tested under a small limit.
func LimitOpenFiles(t testing.TB, n uint64) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Skip(err)
	}
	lim := old
	lim.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) })
}
