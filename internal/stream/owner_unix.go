//go:build unix

package stream

import (
	"os"
	"syscall"
)

// chown gives f the owner and group of old, the file it replaces. Only
// root may give a file away; anyone else keeps at least the group when
// they belong to it, as cp -p does, and otherwise the file becomes theirs.
func chown(f *os.File, old os.FileInfo) error {
	if old == nil {
		return nil
	}
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	uid, gid := int(st.Uid), int(st.Gid)
	err := f.Chown(uid, gid)
	if err == nil || os.Geteuid() == 0 {
		return err
	}
	f.Chown(-1, gid)
	return nil
}

// HardLinks returns the number of names (hard links) a file has.
func HardLinks(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
