//go:build !linux

package pgn

import "testing"

// guarded returns n bytes. On Linux they are followed by a page that
// cannot be read; elsewhere a read past them goes unseen.
func guarded(t *testing.T, n int) []byte { return make([]byte, n) }
