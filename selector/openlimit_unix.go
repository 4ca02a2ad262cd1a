//go:build unix

package selector

import "syscall"

// openFileLimit returns the soft limit on open files, or 0 when unknown.
func openFileLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return uint64(lim.Cur)
}
