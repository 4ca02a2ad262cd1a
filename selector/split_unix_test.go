//go:build unix

package selector

import (
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
)

// TestSplit960UnderFileLimit splits into all 960 files with the default
// number of open files while the process may open only 256 files.
func TestSplit960UnderFileLimit(t *testing.T) {
	sharedtest.LimitOpenFiles(t, 256)

	input := all960(t)
	for _, tiny := range []bool{false, true} {
		dir := t.TempDir()
		split(t, SplitOptions{Dir: dir}, tiny, 0, input, input)
		check960Twice(t, dir, input)
	}
}
