//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
)

// TestSplitCommand960UnderFileLimit runs frctool split into all 960 files
// while the process may open only 256 files.
func TestSplitCommand960UnderFileLimit(t *testing.T) {
	input := write960(t)
	sharedtest.LimitOpenFiles(t, 256)

	dir := t.TempDir()
	_, stderr, code := frctool(t, "", "split", "-o", dir, input, input)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "frctool: split: 1920 games read, 960 files written (1920 games with a number, 0 DFRC, 0 other), 0 warnings\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	for sp := 0; sp < 960; sp++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("sp-%03d.pgn", sp)))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Join(eventsOf(string(b)), "|"), fmt.Sprintf("SP %d|SP %d", sp, sp); got != want {
			t.Errorf("sp-%03d.pgn holds %q, want %q", sp, got, want)
		}
	}
}
