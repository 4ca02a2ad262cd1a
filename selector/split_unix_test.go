//go:build unix

package selector

import (
	"syscall"
	"testing"
)

// TestSplit960UnderFileLimit splits into all 960 files with the default
// number of open files while the process may open only 256 files.
func TestSplit960UnderFileLimit(t *testing.T) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Skip(err)
	}
	lim := old
	lim.Cur = 256
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) })

	input := all960(t)
	for _, tiny := range []bool{false, true} {
		dir := t.TempDir()
		split(t, SplitOptions{Dir: dir}, tiny, 0, input, input)
		check960Twice(t, dir, input)
	}
}
