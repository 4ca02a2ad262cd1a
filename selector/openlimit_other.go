//go:build !unix

package selector

// openFileLimit returns 0: the limit is unknown here, and the fixed
// defaults apply.
func openFileLimit() uint64 { return 0 }
