//go:build linux

package stream

import (
	"os"

	"golang.org/x/sys/unix"
)

// writeback asks the system to start writing n bytes of f from off to
// disk, without waiting for it (sync_file_range with
// SYNC_FILE_RANGE_WRITE). It is a hint: a file system without it, or a
// failure, leaves the writing to Commit's fsync.
func writeback(f *os.File, off, n int64) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_ = unix.SyncFileRange(int(fd), off, n, unix.SYNC_FILE_RANGE_WRITE)
	})
}
