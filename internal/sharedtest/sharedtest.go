// Package sharedtest finds the real-world test material that lives beside a
// development checkout, in ../shared, and skips a test cleanly where it is
// absent, as it is in a user's fresh clone.
// It also holds the few helpers that the tests of several packages share.
package sharedtest

import (
	"bytes"
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
	dir := moduleRoot()
	if dir == "" {
		return ""
	}
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if fi, err := os.Stat(shared); err == nil && fi.IsDir() {
		return shared
	}
	return ""
}

// moduleRoot returns the folder of the go.mod above the working directory.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Games returns at least minSize bytes of PGN games for benchmarks: the
// real TCEC archives of the shared folder, repeated, or the project's own
// fixtures in testdata/ where the shared folder is absent.
func Games(tb testing.TB, minSize int) []byte {
	tb.Helper()
	files := tcecFiles()
	if len(files) == 0 {
		if dir := moduleRoot(); dir != "" {
			files, _ = filepath.Glob(filepath.Join(dir, "testdata", "*.pgn"))
		}
	}
	return repeated(tb, files, minSize)
}

// TCEC returns at least minSize bytes of the real TCEC archives of the
// shared folder (games of about 30 KB, mostly engine comments), repeated,
// or skips the benchmark where they are absent: unlike Games, it stands
// for that one shape of archive and has nothing to fall back on.
func TCEC(tb testing.TB, minSize int) []byte {
	tb.Helper()
	files := tcecFiles()
	if len(files) == 0 {
		tb.Skip("no TCEC archives in ../shared/realdata/tcec: real-world data not available")
	}
	return repeated(tb, files, minSize)
}

// tcecFiles returns the PGN files of the shared folder's TCEC archives.
func tcecFiles() []string {
	root := Root()
	if root == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(root, "realdata", "tcec", "*.pgn"))
	return files
}

// repeated returns the files' games, one file after the other, repeated
// to at least minSize bytes.
func repeated(tb testing.TB, files []string, minSize int) []byte {
	tb.Helper()
	var one []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		one = append(one, data...)
		// Keep the games of two files apart, as separate files are.
		if !bytes.HasSuffix(one, []byte("\n\n")) {
			one = append(one, '\n', '\n')
		}
	}
	if len(one) == 0 {
		tb.Fatal("no PGN files for the benchmark")
	}
	all := make([]byte, 0, minSize+len(one))
	for len(all) < minSize {
		all = append(all, one...)
	}
	return all
}

// SeedFixtures adds to a fuzz test's seed corpus the project's PGN
// fixtures that match the patterns, each relative to the module's testdata
// folder ("*.pgn", "validate/*.pgn"), leaving out files over 64 KB, too
// large for a fuzzer to mutate usefully.
func SeedFixtures(f *testing.F, patterns ...string) {
	f.Helper()
	root := moduleRoot()
	if root == "" {
		return
	}
	for _, pattern := range patterns {
		files, _ := filepath.Glob(filepath.Join(root, "testdata", pattern))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil && len(b) < 64<<10 {
				f.Add(b)
			}
		}
	}
}

// LoneCR reports whether b holds a CR that no LF follows. A PGN reader
// takes the first line end of its input for all of it, so such an input
// cut into parts, or a part of it read alone, may read otherwise than the
// whole: tests that cut or read again leave it aside.
func LoneCR(b []byte) bool {
	return bytes.Contains(bytes.ReplaceAll(b, []byte("\r\n"), nil), []byte("\r"))
}
