//go:build unix

package selector

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
)

// TestSplitUnderTinyFileLimit: with only 20 files allowed to the process,
// far fewer than the default number kept open, every game of 170
// positions still reaches its file, plain or compressed, also when files
// are closed and reopened many times.
func TestSplitUnderTinyFileLimit(t *testing.T) {
	sharedtest.LimitOpenFiles(t, 20)

	const positions = 170
	all := all960(t)
	input := all[:bytes.Index(all, []byte(fmt.Sprintf("[Event \"SP %d\"]", positions)))]
	for _, tc := range []struct {
		name string
		ext  string
		tiny bool
	}{
		{"plain", "", false},
		{"plain, small chunks", "", true},
		{"gzip, small chunks", ".gz", true},
		{"zstd", ".zst", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := split(t, SplitOptions{Dir: dir, Pattern: "sp-%03d.pgn" + tc.ext}, tc.tiny, 0, input)
			files := readDir(t, dir)
			if len(files) != positions || s.Files() != positions {
				t.Fatalf("%d files in the directory, Files() = %d, want %d", len(files), s.Files(), positions)
			}
			plain := make(map[string][]byte, len(files))
			for sp := 0; sp < positions; sp++ {
				name := fmt.Sprintf("sp-%03d.pgn", sp)
				b, ok := files[name+tc.ext]
				if !ok {
					t.Fatalf("no file %s%s", name, tc.ext)
				}
				if got, want := strings.Join(events(t, b), "|"), fmt.Sprintf("SP %d", sp); got != want {
					t.Errorf("%s%s holds %q, want %q", name, tc.ext, got, want)
				}
				plain[name] = b
			}
			checkMerge(t, input, plain)
			if sum := s.Summary(); sum.Games != positions || sum.Selected != positions {
				t.Errorf("%d games, %d with a number, want %d", sum.Games, sum.Selected, positions)
			}
		})
	}
}
