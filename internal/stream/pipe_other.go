//go:build !linux

package stream

import "os"

// GrowPipe does nothing where pipes cannot be given a larger buffer.
func GrowPipe(*os.File) {}
