package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/stream"
)

// dedupGame is a game between two players with the given Event, movetext
// and result.
func dedupGame(event, movetext, result string) string {
	return `[Event "` + event + `"]
[White "Alpha"]
[Black "Beta"]
[Result "` + result + `"]

` + movetext + "\n\n"
}

func TestDedupCommand(t *testing.T) {
	long := dedupGame("long", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0", "1-0")
	long2 := dedupGame("long again", "1.e4 {open} e5 2.Nf3 Nc6 3.Bb5 a6 1-0", "1-0")
	short := dedupGame("short", "1. e4 e5 2. Nf3 *", "*")
	other := dedupGame("other", "1. d4 d5 1/2-1/2", "1/2-1/2")
	crlf := strings.ReplaceAll(dedupGame("crlf", "1. d4 d5 1/2-1/2", "1/2-1/2"), "\n", "\r\n")
	tests := []struct {
		name    string
		stdin   string
		files   []string // contents; a name's extension compresses
		exts    []string
		args    []string
		out     string
		dups    string
		summary string
	}{
		{
			name:    "several files, compressed ones among them",
			files:   []string{long + other, long2 + crlf, long + short},
			exts:    []string{".pgn", ".pgn.gz", ".pgn.zst"},
			out:     long + other + short,
			dups:    long2 + crlf + long,
			summary: "frctool: dedup: 6 games read, 3 unique, 3 duplicates, 0 prefix duplicates, 0 warnings\n",
		},
		{
			name:    "prefix over standard input and a compressed file",
			stdin:   short + other,
			files:   []string{long + long2},
			exts:    []string{".pgn.bz2"},
			args:    []string{"--prefix", "-"},
			out:     other + long,
			dups:    short + long2,
			summary: "frctool: dedup: 4 games read, 2 unique, 1 duplicate, 1 prefix duplicate, 0 warnings\n",
		},
		{
			name:  "prefixes are kept without --prefix",
			files: []string{short + long},
			exts:  []string{".pgn"},
			out:   short + long,
		},
		{
			name:  "other players with --key moves",
			files: []string{long + strings.Replace(long, "Alpha", "Gamma", 1)},
			exts:  []string{".pgn"},
			args:  []string{"--key", "moves"},
			out:   long,
			dups:  strings.Replace(long, "Alpha", "Gamma", 1),
		},
		{
			name:    "games --where does not select pass through",
			files:   []string{long + long + other + other},
			exts:    []string{".pgn"},
			args:    []string{"--where", `Event = "other"`},
			out:     long + long + other,
			dups:    other,
			summary: "frctool: dedup: 4 games read, 1 unique, 1 duplicate, 0 prefix duplicates, 2 not compared, 0 warnings\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, tmp := t.TempDir(), t.TempDir()
			t.Setenv("TMPDIR", tmp) // where --prefix copies standard input
			dups := filepath.Join(dir, "dups.pgn.gz")
			args := append([]string{"dedup", "--duplicates", dups}, tt.args...)
			for i, f := range tt.files {
				name := "in" + string(rune('a'+i)) + tt.exts[i]
				args = append(args, compress(t, dir, name, stream.ByExtension(name), f))
			}
			stdout, stderr, code := frctool(t, tt.stdin, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if stdout != tt.out {
				t.Errorf("output\n%s\nwant\n%s", stdout, tt.out)
			}
			if got := decompress(t, dups); got != tt.dups {
				t.Errorf("duplicates\n%s\nwant\n%s", got, tt.dups)
			}
			if tt.summary != "" && stderr != tt.summary {
				t.Errorf("stderr %q, want %q", stderr, tt.summary)
			}
			assertNoTempFiles(t, dir)
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("%d temporary files left in TMPDIR", len(left))
			}
		})
	}
}

// With --prefix, standard input that is a regular file is read twice
// from where it stood, without a copy.
func TestDedupPrefixRegularStdin(t *testing.T) {
	short := dedupGame("short", "1. e4 *", "*")
	long := dedupGame("long", "1. e4 e5 1-0", "1-0")
	path := filepath.Join(t.TempDir(), "in.pgn")
	if err := os.WriteFile(path, []byte("junk to skip\n"+short+long), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(int64(len("junk to skip\n")), 0); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"frctool", "dedup", "-q", "--prefix"}, f, &out, &errs)
	if code != 0 || out.String() != long {
		t.Errorf("exit %d, output %q, stderr %q; want %q", code, out.String(), errs.String(), long)
	}
}

// A failed run leaves neither output behind.
func TestDedupFailureWritesNeither(t *testing.T) {
	dir := t.TempDir()
	game := dedupGame("g", "1. e4 1-0", "1-0")
	in := compress(t, dir, "in.pgn.gz", stream.Gzip, strings.Repeat(game, 2000))
	b, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b[:len(b)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	for _, prefix := range []string{"--prefix=false", "--prefix"} {
		out, dups := filepath.Join(dir, "out.pgn"), filepath.Join(dir, "dups.pgn")
		_, stderr, code := frctool(t, "", "dedup", prefix, "-o", out, "--duplicates", dups, in)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1: %s", prefix, code, stderr)
		}
		for _, name := range []string{out, dups} {
			if _, err := os.Stat(name); err == nil {
				t.Errorf("%s: %s written after a failed run", prefix, name)
			}
		}
		assertNoTempFiles(t, dir)
	}
}

func TestDedupCommandErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pgn")
	if err := os.WriteFile(in, []byte(dedupGame("g", "1. e4 1-0", "1-0")), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		errHas string
	}{
		{"unknown key", []string{"--key", "players", in}, 2, `--key: unknown key "players"`},
		{"duplicates to stdout", []string{"--duplicates", "-", in}, 2, "--duplicates needs a FILE"},
		{"output is the input", []string{"-o", in, in}, 2, "is both an input and an output"},
		{"two outputs in one file", []string{"-o", filepath.Join(dir, "x.pgn"), "--duplicates", filepath.Join(dir, "x.pgn"), in}, 2, "named as two outputs"},
		{"missing input", []string{filepath.Join(dir, "missing.pgn")}, 1, "missing.pgn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := frctool(t, "", append([]string{"dedup"}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.errHas) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.errHas)
			}
		})
	}
}

// With --prefix, a FIFO named as an input is copied on the first reading,
// since it cannot be opened again.
func TestDedupPrefixFIFO(t *testing.T) {
	mkfifo, err := exec.LookPath("mkfifo")
	if err != nil {
		t.Skip("no mkfifo")
	}
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	fifo := filepath.Join(dir, "in.fifo")
	if out, err := exec.Command(mkfifo, fifo).CombinedOutput(); err != nil {
		t.Skipf("mkfifo: %v: %s", err, out)
	}
	short := dedupGame("short", "1. e4 *", "*")
	long := dedupGame("long", "1. e4 e5 1-0", "1-0")
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString(short + long)
		f.Close()
	}()
	stdout, stderr, code := frctool(t, "", "dedup", "--prefix", fifo)
	if code != 0 || stdout != long {
		t.Errorf("exit %d, output %q, stderr %q; want %q", code, stdout, stderr, long)
	}
	if !strings.HasSuffix(stderr, "2 games read, 1 unique, 0 duplicates, 1 prefix duplicate, 0 warnings\n") {
		t.Errorf("stderr %q", stderr)
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("%d files in TMPDIR, want the FIFO alone", len(left))
	}
}
