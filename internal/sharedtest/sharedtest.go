// Package sharedtest finds the real-world test material that lives beside a
// development checkout, in ../shared, and skips a test cleanly where it is
// absent, as it is in a user's fresh clone.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Path returns the path of elem inside the shared folder (for example
// Path(t, "realdata", "tcec")), or skips the test when the folder or the
// file is not there. FRCTOOL_SHARED names the folder explicitly; otherwise
// it is "shared" beside the module root.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	root := Root()
	if root == "" {
		t.Skip("no ../shared folder beside the module: real-world data not available")
	}
	p := filepath.Join(append([]string{root}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("real-world data not available: %v", err)
	}
	return p
}

// Root returns the shared folder, or "" when there is none.
func Root() string {
	if dir := os.Getenv("FRCTOOL_SHARED"); dir != "" {
		return dir
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			shared := filepath.Join(filepath.Dir(dir), "shared")
			if fi, err := os.Stat(shared); err == nil && fi.IsDir() {
				return shared
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
