package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
)

func TestSplitCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	_, stderr, code := frctool(t, "", "split", "--by", "sp", "-o", dir, mixedFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "frctool: split: 12 games read, 6 files written (6 games with a number, 1 DFRC, 5 other), 5 warnings\n"; !strings.HasSuffix(stderr, want) {
		t.Errorf("stderr ends %q, want %q", stderr, want)
	}
	want := map[string][]string{
		"sp-000.pgn": {"SP 0, Shredder castling", "SP 0 again, no result, unterminated comment"},
		"sp-518.pgn": {"standard chess, no FEN", "SP 518 given as a FEN, CRLF"},
		"sp-959.pgn": {"SP 959, X-FEN"},
		"sp-631.pgn": {"SP 631, tags and no moves"},
		"dfrc.pgn":   {"DFRC: white SP 518, black SP 0"},
		"other.pgn":  {"", "mid-game FEN", "unknown: FEN ?", "unknown: Chess960 without FEN", "broken FEN"},
	}
	checkSplitDir(t, dir, want)

	// A second run refuses; with --append the files grow.
	if _, stderr, code := frctool(t, "", "split", "-o", dir, mixedFixture); code != 1 || !strings.Contains(stderr, "directory is not empty") || !strings.Contains(stderr, "--append") {
		t.Errorf("second run: exit %d, %q", code, stderr)
	}
	if _, stderr, code := frctool(t, "", "split", "-q", "-o", dir, "--append", mixedFixture); code != 0 || strings.Contains(stderr, "games read") {
		t.Errorf("--append -q: exit %d, %q", code, stderr)
	}
	for name, evs := range want {
		if name == "other.pgn" {
			// The junk text before the second copy's first game follows
			// the first copy's last game: eventsOf does not see it.
			want[name] = append(evs, evs[1:]...)
			continue
		}
		want[name] = append(evs, evs...)
	}
	checkSplitDir(t, dir, want)

	// Fritz9 names.
	f9 := t.TempDir()
	if _, stderr, code := frctool(t, "", "split", "-q", "--by", "fritz9", "-o", f9, mixedFixture); code != 0 {
		t.Fatalf("--by fritz9: exit %d: %s", code, stderr)
	}
	for _, name := range []string{"fritz9-081.pgn", "fritz9-359.pgn", "fritz9-928.pgn", "fritz9-616.pgn", "dfrc.pgn", "other.pgn"} {
		if _, err := os.Stat(filepath.Join(f9, name)); err != nil {
			t.Error(err)
		}
	}
}

func checkSplitDir(t *testing.T, dir string, want map[string][]string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Errorf("%d files, want %d", len(entries), len(want))
	}
	for name, evs := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Error(err)
			continue
		}
		if got := eventsOf(string(b)); strings.Join(got, "|") != strings.Join(evs, "|") {
			t.Errorf("%s holds %q, want %q", name, got, evs)
		}
	}
}

func TestSplitCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		errHas string
	}{
		{[]string{"--by", "fritz10"}, 2, `--by: numbering "fritz10": want sp or fritz9`},
		{[]string{"--pattern", "games.pgn"}, 2, "--pattern: bad file name pattern \"games.pgn\": want exactly one integer verb"},
		{[]string{"--pattern", "%d.pgn.bz2"}, 2, "bzip2 output is not offered"},
		{[]string{"--pattern", "x/%d.pgn"}, 2, "--pattern: bad file name pattern \"x/%d.pgn\": a file name, not a path (give the directory with -o)"},
	} {
		args := append([]string{"split", "-o", t.TempDir()}, tc.args...)
		_, stderr, code := frctool(t, "", append(args, mixedFixture)...)
		if code != tc.code || !strings.Contains(stderr, tc.errHas) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.errHas)
		}
	}
}

// write960 writes a file with one game per start position, in SP order.
func write960(t *testing.T) string {
	var b bytes.Buffer
	for sp := 0; sp < numbering.Count; sp++ {
		r, _ := numbering.FromSP(sp)
		fmt.Fprintf(&b, "[Event \"SP %d\"]\n[Variant \"Chess960\"]\n[FEN \"%s\"]\n\n1. a3 *\n\n", sp, fen.StartFEN(r, fen.XFEN))
	}
	name := filepath.Join(t.TempDir(), "all960.pgn")
	if err := os.WriteFile(name, b.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestSplitPutsBackOnWriteError checks that a split whose writing fails
// leaves the directory as it was: the files it appended to hold their
// earlier games only, and the files it created are gone, so that the run
// can simply be made again.
func TestSplitPutsBackOnWriteError(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, code := frctool(t, "", "split", "-q", "-o", dir, mixedFixture); code != 0 {
		t.Fatalf("first split: exit %d: %s", code, stderr)
	}
	before := make(map[string]string)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		before[e.Name()] = string(b)
	}
	// A file the second run must create is a directory: opening it fails.
	name := ""
	for sp := numbering.Count - 1; name == ""; sp-- {
		if n := fmt.Sprintf("sp-%03d.pgn", sp); before[n] == "" {
			name = n
		}
	}
	blocked := filepath.Join(dir, name)
	if err := os.Mkdir(blocked, 0o755); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := frctool(t, "", "split", "-q", "--append", "-o", dir, mixedFixture, write960(t))
	if code != 1 || !strings.Contains(stderr, name) || !strings.HasSuffix(stderr, "; "+dir+" left as it was\n") {
		t.Errorf("exit %d, stderr %q; want 1, naming %s, and %s left as it was", code, stderr, name, dir)
	}
	os.Remove(blocked)
	entries, _ = os.ReadDir(dir)
	if len(entries) != len(before) {
		t.Errorf("%d files after the failed run, want the %d before", len(entries), len(before))
	}
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if want, ok := before[e.Name()]; !ok || string(b) != want {
			t.Errorf("%s: %d bytes after the failed run, want the %d before", e.Name(), len(b), len(want))
		}
	}
}

// TestSplitLiveFeed: split writes a live feed's games to their files once
// the next game has begun, and ends with the files a split of the whole
// input at once makes.
func TestSplitLiveFeed(t *testing.T) {
	g1 := "[Event \"one\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n"
	g2 := "[Event \"two\"]\n[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n"
	g3 := "[Event \"three\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n\n"
	dir := filepath.Join(t.TempDir(), "live")
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	_, wait := runPiped(inR, "split", "-q", "-o", dir)
	io.WriteString(inW, g1+g2)
	first := filepath.Join(dir, "sp-518.pgn")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(first); string(b) == g1 {
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(first)
			t.Fatalf("after 10 s, %s holds %q; want the first game", first, b)
		}
	}
	io.WriteString(inW, g3)
	inW.Close()
	if code, stderr := wait(); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if _, stderr, code := frctool(t, g1+g2+g3, "split", "-q", "-o", whole); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"sp-518.pgn", "sp-000.pgn"} {
		live, _ := os.ReadFile(filepath.Join(dir, name))
		once, _ := os.ReadFile(filepath.Join(whole, name))
		if string(live) != string(once) || len(live) == 0 {
			t.Errorf("%s: %q from the live feed, %q from the whole input", name, live, once)
		}
	}
}
