//go:build !linux

package stream

import "os"

// GrowPipe does nothing where pipes cannot be given a larger buffer.
func GrowPipe(*os.File) {}

// ReaderGone reports false where it cannot tell whether a pipe's reader
// has closed it.
func ReaderGone(*os.File) bool { return false }
