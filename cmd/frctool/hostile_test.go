//go:build unix

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/internal/stream"
)

// writeGame writes oneGame to dir/name and returns its path.
func writeGame(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(oneGame), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOutputsReplaceOnlyWhatIsSafe(t *testing.T) {
	t.Run("/dev/null is written to, not replaced", func(t *testing.T) {
		before, err := os.Stat(os.DevNull)
		if err != nil {
			t.Skip(err)
		}
		in := writeGame(t, t.TempDir(), "g.pgn")
		for _, args := range [][]string{
			{"annotate", "-q", in, "-o", os.DevNull},
			{"filter", "-q", in, "-o", os.DevNull, "--rejects", os.DevNull},
			{"stats", "-q", in, "-o", os.DevNull},
		} {
			if _, stderr, code := frctool(t, "", args...); code != 0 {
				t.Errorf("%v: exit %d: %s", args, code, stderr)
			}
		}
		after, err := os.Stat(os.DevNull)
		if err != nil || !os.SameFile(before, after) || after.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("/dev/null is now %v (%v)", after.Mode(), err)
		}
		assertNoTempFiles(t, "/dev")
	})
	t.Run("a symlink output rewrites its target", func(t *testing.T) {
		dir, other := t.TempDir(), t.TempDir()
		in := writeGame(t, dir, "g.pgn")
		target := filepath.Join(other, "out.pgn")
		os.WriteFile(target, []byte("old"), 0o600)
		link := filepath.Join(dir, "out.pgn")
		os.Symlink(target, link)
		if _, stderr, code := frctool(t, "", "annotate", "-q", in, "-o", link); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
			t.Error("the symlink was replaced by a file")
		}
		if b, _ := os.ReadFile(target); string(b) != oneGameAnnotated {
			t.Errorf("the target holds %q", b)
		}
		assertNoTempFiles(t, dir)
		assertNoTempFiles(t, other)
	})
	t.Run("a FIFO output is written to", func(t *testing.T) {
		dir := t.TempDir()
		in := writeGame(t, dir, "g.pgn")
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		got := make(chan string, 1)
		go func() {
			b, _ := os.ReadFile(fifo)
			got <- string(b)
		}()
		if _, stderr, code := frctool(t, "", "annotate", "-q", in, "-o", fifo); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		select {
		case s := <-got:
			if s != oneGameAnnotated {
				t.Errorf("the FIFO's reader got %q", s)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the FIFO's reader got nothing")
		}
		if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
			t.Error("the FIFO was replaced")
		}
		assertNoTempFiles(t, dir)
	})
}

func TestOutputThatIsAnInputIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string // D/ is replaced by a fresh directory holding the files below
		errHas string
		code   int
	}{
		{"filter X -o X", []string{"filter", "D/g.pgn", "-o", "D/g.pgn"}, "is both an input and an output", 2},
		{"filter -o through a symlink to the input", []string{"filter", "D/g.pgn", "-o", "D/sym.pgn"}, "is the input", 2},
		{"filter -o a hard link of the input", []string{"filter", "D/g.pgn", "-o", "D/hard.pgn"}, "is the input", 2},
		{"-o X --rejects X, X new", []string{"filter", "D/g.pgn", "-o", "D/new.pgn", "--rejects", "D/new.pgn"}, "named as two outputs", 2},
		{"-o X --rejects X, X existing", []string{"filter", "D/g.pgn", "-o", "D/h.pgn", "--rejects", "D/./h.pgn"}, "are the same file", 2},
		{"--rejects names an input", []string{"filter", "D/g.pgn", "-o", "D/new.pgn", "--rejects", "D/g.pgn"}, "is both an input and an output", 2},
		{"--rejects names stdin", []string{"filter", "-o", "D/new.pgn", "--rejects", "D/stdin.pgn"}, "is the input standard input", 2},
		{"annotate -o the input", []string{"annotate", "D/g.pgn", "-o", "D/g.pgn"}, "is both an input and an output", 2},
		{"stats -o and --html one file", []string{"stats", "D/g.pgn", "-o", "D/new.html", "--html", "D/new.html"}, "named as two outputs", 2},
		{"stats --chart the input", []string{"stats", "D/g.pgn", "--chart", "D/hard.svg"}, "is the input", 2},
		{"split --append into the input's directory", []string{"split", "--append", "-o", "D/", "D/g.pgn"}, "is in the output directory", 2},
		{"split into the input's directory, not empty", []string{"split", "-o", "D/", "D/g.pgn"}, "directory is not empty", 1},
		{"annotate --in-place the same file twice", []string{"annotate", "--in-place", "--backup", ".orig", "D/g.pgn", "D/sym.pgn"}, "are the same file", 2},
		{"annotate --in-place, a backup overwrites an input", []string{"annotate", "--in-place", "--backup", ".pgn", "D/h", "D/h.pgn"}, "would overwrite the input", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := writeGame(t, dir, "g.pgn")
			writeGame(t, dir, "h")
			writeGame(t, dir, "h.pgn")
			os.Link(in, filepath.Join(dir, "hard.pgn"))
			os.Link(in, filepath.Join(dir, "hard.svg"))
			os.Symlink("g.pgn", filepath.Join(dir, "sym.pgn"))
			stdin, err := os.Open(writeGame(t, dir, "stdin.pgn"))
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			args := inDir(dir, tc.args)
			before := snapshot(t, dir)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, stdin, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.errHas) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tc.code, tc.errHas)
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("files changed:\n%s\nwere:\n%s", after, before)
			}
		})
	}
}

// inDir returns frctool's command line for args, each "D/" in them
// replaced by dir.
func inDir(dir string, args []string) []string {
	line := []string{"frctool"}
	for _, a := range args {
		line = append(line, strings.Replace(a, "D/", dir+"/", 1))
	}
	return line
}

// snapshot lists dir's files with their sizes and hashes, to see that a
// refused run touched nothing.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s %v %d %x\n", p, fi.Mode(), len(data), sha256.Sum256(data))
		}
		return nil
	})
	return b.String()
}

func TestInPlaceKeepsWhatTheFileWas(t *testing.T) {
	t.Run("owner, group, setgid and sticky bits", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("giving a file away needs root")
		}
		in := writeGame(t, t.TempDir(), "g.pgn")
		os.Chown(in, 4321, 8765)
		os.Chmod(in, 0o640|os.ModeSetgid|os.ModeSticky)
		before, _ := os.Stat(in)
		if _, stderr, code := frctool(t, "", "annotate", "-q", "--in-place", in); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		after, _ := os.Stat(in)
		if after.Mode() != before.Mode() {
			t.Errorf("mode %v, want %v", after.Mode(), before.Mode())
		}
		if st := after.Sys().(*syscall.Stat_t); st.Uid != 4321 || st.Gid != 8765 {
			t.Errorf("owner %d:%d, want 4321:8765", st.Uid, st.Gid)
		}
		if b, _ := os.ReadFile(in); string(b) != oneGameAnnotated {
			t.Errorf("content %q", b)
		}
	})
	t.Run("a symlink is followed", func(t *testing.T) {
		dir, other := t.TempDir(), t.TempDir()
		target := writeGame(t, other, "g.pgn")
		link := filepath.Join(dir, "link.pgn")
		os.Symlink(target, link)
		if _, stderr, code := frctool(t, "", "annotate", "-q", "--in-place", "--backup", ".orig", link); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
			t.Error("the symlink was replaced by a file")
		}
		if b, _ := os.ReadFile(target); string(b) != oneGameAnnotated {
			t.Errorf("the target holds %q", b)
		}
		if b, _ := os.ReadFile(link + ".orig"); string(b) != oneGame {
			t.Errorf("the backup holds %q", b)
		}
		assertNoTempFiles(t, dir)
		assertNoTempFiles(t, other)
	})
	t.Run("hard links are broken, with a warning", func(t *testing.T) {
		dir := t.TempDir()
		in := writeGame(t, dir, "g.pgn")
		other := filepath.Join(dir, "other-name.pgn")
		os.Link(in, other)
		_, stderr, code := frctool(t, "", "annotate", "-q", "--in-place", in)
		if code != 0 || !strings.Contains(stderr, "has 2 hard links") {
			t.Errorf("exit %d, stderr %q; want 0 and a warning", code, stderr)
		}
		if b, _ := os.ReadFile(in); string(b) != oneGameAnnotated {
			t.Errorf("the file holds %q", b)
		}
		if b, _ := os.ReadFile(other); string(b) != oneGame {
			t.Errorf("the other link holds %q", b)
		}
	})
	t.Run("a FIFO is refused", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		// Opening a FIFO waits for a writer: the deadline ends the wait
		// should the FIFO be opened after all.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var stdout, stderr bytes.Buffer
		code := run(ctx, []string{"frctool", "annotate", "--in-place", fifo}, nil, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "not a regular file") {
			t.Errorf("exit %d, stderr %q", code, stderr.String())
		}
	})
}

// Every command reading an idle pipe stops when its context ends, and
// leaves no output file behind.
func TestInterruptIdlePipe(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string // "OUT" is replaced by a file in a fresh directory
	}{
		{"annotate", []string{"annotate", "-o", "OUT"}},
		{"filter", []string{"filter", "-o", "OUT", "--rejects", "OUT.rejects"}},
		{"stats", []string{"stats", "-o", "OUT"}},
		{"stats --merge", []string{"stats", "--merge", "-o", "OUT"}},
		{"tree --merge", []string{"tree", "--merge", "-o", "OUT"}},
		{"validate", []string{"validate"}},
		{"split", []string{"split", "-o", "OUT"}},
		{"identify", []string{"identify"}},
		{"identify -o", []string{"identify", "-o", "OUT"}},
		{"convert", []string{"convert", "--from", "scharnagl", "--to", "fritz9"}},
		// Idle after a game and a half: the reader waits in Idle, not Read.
		{"filter, idle after a game", []string{"filter", "-o", "OUT"}},
		{"split, idle after a game", []string{"split", "-o", "OUT"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			args := []string{"frctool"}
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(a, "OUT", out))
			}
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			idleAfterAGame := strings.HasSuffix(tc.name, "idle after a game")
			if idleAfterAGame {
				io.WriteString(w, "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4")
			}
			ctx, cancel := context.WithCancel(context.Background())
			var stdout, stderr bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(ctx, args, r, &stdout, &stderr) }()
			if idleAfterAGame {
				// Stopped once the first game is handed out: split
				// has written it, filter has it in its output.
				first := filepath.Join(out, "sp-518.pgn")
				for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(10 * time.Millisecond) {
					if _, err := os.Stat(first); err == nil || tc.args[0] == "filter" && time.Since(start) > 400*time.Millisecond {
						break
					}
				}
				if _, err := os.Stat(first); tc.args[0] == "split" && err != nil {
					t.Errorf("split did not write the first game before the interrupt: %v", err)
				}
				cancel()
			} else {
				time.AfterFunc(100*time.Millisecond, cancel)
			}
			select {
			case code := <-done:
				if code != 1 {
					t.Errorf("exit %d, want 1; stderr %q", code, stderr.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the command still waits for its input after the interrupt")
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output file was created")
			}
			if _, err := os.Stat(out + ".rejects"); err == nil {
				t.Error("a rejects file was created")
			}
			assertNoTempFiles(t, dir)
		})
	}
}

func TestManyInputs(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n         int
		openLimit uint64 // 0: leave
		maxSys    uint64 // most memory the run may add, 0: not checked
	}{
		{"1100 inputs under a limit of 1024 open files", 1100, 1024, 0},
		{"3000 inputs in little memory", 3000, 0, 256 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"annotate", "-q", "-o", filepath.Join(dir, "out.pgn")}
			for i := range tc.n {
				args = append(args, writeGame(t, dir, fmt.Sprintf("g%04d.pgn", i)))
			}
			if tc.openLimit > 0 {
				sharedtest.LimitOpenFiles(t, tc.openLimit)
			}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, stderr, code := frctool(t, "", args...)
			runtime.ReadMemStats(&after)
			if code != 0 {
				t.Fatalf("exit %d: %.300s", code, stderr)
			}
			b, _ := os.ReadFile(filepath.Join(dir, "out.pgn"))
			if got := strings.Count(string(b), oneGameAnnotated); got != tc.n {
				t.Errorf("%d games annotated, want %d", got, tc.n)
			}
			if grown := after.Sys - before.Sys; tc.maxSys > 0 && grown > tc.maxSys {
				t.Errorf("the run took %d MB more from the system, want at most %d", grown>>20, tc.maxSys>>20)
			}
		})
	}
}

// An input that cannot be opened is found before anything is read or
// written: each is named, the run exits with status 1 and writes nothing,
// so that what an earlier run wrote to the output is still there.
func TestUnreadableInputRefusedFirst(t *testing.T) {
	dir := t.TempDir()
	a := writeGame(t, dir, "a.pgn")
	b := writeGame(t, dir, "b.pgn")
	missing := filepath.Join(dir, "missing.pgn")
	other := filepath.Join(dir, "other.pgn")
	unreadable := filepath.Join(dir, "sub")
	os.Mkdir(unreadable, 0o755)
	out := filepath.Join(dir, "out")
	earlier := "what an earlier run wrote\n"
	split := filepath.Join(dir, "split")
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"annotate to stdout", []string{"annotate", "-q", a, missing, b},
			"frctool: " + missing + ": no such file or directory\n"},
		{"no summary line", []string{"annotate", a, missing},
			"frctool: " + missing + ": no such file or directory\n"},
		{"annotate to a file", []string{"annotate", "-q", a, missing, b, "-o", out},
			"frctool: " + missing + ": no such file or directory\n"},
		{"annotate in place", []string{"annotate", "-q", "--in-place", a, missing},
			"frctool: " + missing + ": no such file or directory\n"},
		{"a directory among the inputs", []string{"filter", "-q", "--sp", "0-959", a, unreadable, b, "-o", out},
			"frctool: " + unreadable + ": is a directory\n"},
		{"every one is named, in order", []string{"stats", "-q", other, a, missing, "-o", out},
			"frctool: " + other + ": no such file or directory\nfrctool: " + missing + ": no such file or directory\n"},
		{"stats --merge", []string{"stats", "--merge", "-q", "-o", out, missing},
			"frctool: " + missing + ": no such file or directory\n"},
		{"validate", []string{"validate", "-q", missing, a},
			"frctool: " + missing + ": no such file or directory\n"},
		{"export", []string{"export", "-q", "--format", "csv", "-o", out, a, missing},
			"frctool: " + missing + ": no such file or directory\n"},
		{"tree", []string{"tree", "-q", "-o", out, a, missing},
			"frctool: " + missing + ": no such file or directory\n"},
		{"tree --merge", []string{"tree", "--merge", "-q", "-o", out, missing},
			"frctool: " + missing + ": no such file or directory\n"},
		{"dedup", []string{"dedup", "-q", "-o", out, a, missing},
			"frctool: " + missing + ": no such file or directory\n"},
		{"split", []string{"split", "-q", "-o", split, a, missing},
			"frctool: " + missing + ": no such file or directory\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(out, []byte(earlier), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := frctool(t, "", tc.args...)
			if code != 1 || stdout != "" || stderr != tc.stderr {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing, %q", code, stdout, stderr, tc.stderr)
			}
			if got, _ := os.ReadFile(out); string(got) != earlier {
				t.Errorf("the output now holds %q", got)
			}
			if got, _ := os.ReadFile(a); string(got) != oneGame {
				t.Errorf("the input now holds %q", got)
			}
			if _, err := os.Stat(split); err == nil {
				t.Errorf("split made its directory")
			}
		})
	}
}

// An input that was there when the run began but is gone when it is
// reached is reported and skipped, as grep and cat do: the others are
// processed and the exit status is 1.
func TestInputGoneWhenReached(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	gone := writeGame(t, dir, "gone.pgn")
	b := writeGame(t, dir, "b.pgn")
	// The FIFO is opened for reading only when the run reaches it, after
	// the inputs were checked: the writer removes the next input then.
	wrote := make(chan error, 1)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			wrote <- err
			return
		}
		os.Remove(gone)
		_, err = w.WriteString(oneGame)
		w.Close()
		wrote <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"frctool", "annotate", "-q", fifo, gone, b}, nil, &stdout, &stderr)
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	want := "frctool: " + gone + ": no such file or directory\n"
	if code != 1 || stdout.String() != oneGameAnnotated+oneGameAnnotated || stderr.String() != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1, two games, %q", code, stdout.String(), stderr.String(), want)
	}
}

func TestWriteErrorOnStdout(t *testing.T) {
	in := writeGame(t, t.TempDir(), "g.pgn")
	for _, args := range [][]string{
		{"tables"},
		{"identify", "RNBQKBNR"},
		{"convert", "--from", "scharnagl", "--to", "fritz9", "518"},
		{"random", "--count", "3"},
		{"show", "518"},
		{"annotate", "-q", in},
		{"filter", "-q", in},
		{"stats", "-q", in},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skip(err)
			}
			defer full.Close()
			var stderr bytes.Buffer
			code := run(context.Background(), append([]string{"frctool"}, args...), strings.NewReader(""), full, &stderr)
			if code != 1 || !strings.HasPrefix(stderr.String(), "frctool: ") || !strings.Contains(stderr.String(), "no space left on device") {
				t.Errorf("exit %d, stderr %q; want 1 and frctool: ... no space left on device", code, stderr.String())
			}
		})
	}
}

// The signals that end a run include SIGHUP.
func TestStopSignals(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} {
		found := false
		for _, s := range stopSignals {
			found = found || s == sig
		}
		if !found {
			t.Errorf("%v does not stop a run", sig)
		}
	}
}

// A message quotes a value or line of the input at most 64 bytes long,
// however long it is: a hostile archive must not make a warning per game
// as large as the game.
func TestMessagesQuoteBriefly(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	game := "[Event \"x\"]\n[Result \"1-0" + long + "\"]\n[WhiteElo \"9" + strings.Repeat("9", 100_000) + "\"]\n\n1. e4 0-1\n"
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		want  string // a message that must be there, quoted briefly
	}{
		{"validate, a wrong result", game, []string{"validate", "-q"}, `wrong result: [Result "1-0xxx`},
		{"stats, an implausible rating", game, []string{"stats", "-q"}, `implausible value: [WhiteElo "999`},
		{"identify, a line that is no back rank", long + "\n", []string{"identify"}, `back rank "xxx`},
		{"filter, a broken tag line", "[Event \"" + long + "\n\n*\n", []string{"filter", "-q"}, `malformed tag pair: "[Event \"xxx`},
		{"convert, a line that is no number", long + "\n", []string{"convert", "--from", "scharnagl", "--to", "rank"}, `"xxx`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, _ := frctool(t, tc.stdin, tc.args...)
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q: %.300q", tc.want, stderr)
			}
			for _, line := range strings.Split(stderr, "\n") {
				if len(line) > 300 {
					t.Errorf("a message of %d bytes: %.200q", len(line), line)
				}
			}
		})
	}
}

// TestWriteAllAfterStop checks that an output written whole after the
// inputs were read, as stats and tree write theirs, is not committed when
// a stop signal came while it was written.
func TestWriteAllAfterStop(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "table.csv")
	if err := os.WriteFile(name, []byte("earlier\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := stream.Create(name, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(out, "sp,games\n518,1\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = writeAll(ctx, out, nil)
	if want := "interrupted; " + name + " left unchanged"; err == nil || err.Error() != want {
		t.Errorf("writeAll = %v, want %q", err, want)
	}
	if got, _ := os.ReadFile(name); string(got) != "earlier\n" {
		t.Errorf("the output became %q", got)
	}
	assertNoTempFiles(t, dir)
}

// TestOutputThatCannotBeMade checks that an output in a directory that
// does not exist is named before any input is read (the input here is a
// pipe nobody writes to, which a command reading it would wait on), and
// that an earlier output of the same run is left as it was.
func TestOutputThatCannotBeMade(t *testing.T) {
	dir := t.TempDir()
	earlier := filepath.Join(dir, "table.csv")
	missing := filepath.Join(dir, "no", "such")
	for _, tc := range []struct {
		name string
		args []string
		bad  string
	}{
		{"stats, the page", []string{"stats", "-q", "-o", earlier, "--html", filepath.Join(missing, "x.html")}, "x.html"},
		{"stats, the chart", []string{"stats", "-q", "-o", earlier, "--chart", filepath.Join(missing, "x.svg")}, "x.svg"},
		{"stats, the table", []string{"stats", "-q", "-o", filepath.Join(missing, "t.csv"), "--chart", filepath.Join(dir, "c.svg")}, "t.csv"},
		{"tree", []string{"tree", "-q", "-o", filepath.Join(missing, "t.csv")}, "t.csv"},
		{"filter", []string{"filter", "-q", "-o", earlier, "--rejects", filepath.Join(missing, "r.pgn")}, "r.pgn"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(earlier, []byte("earlier\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			pr, pw := io.Pipe() // nothing is ever written: a read blocks
			defer pw.Close()
			var stdout, stderr bytes.Buffer
			done := make(chan int, 1)
			go func() {
				done <- run(context.Background(), append([]string{"frctool"}, append(tc.args, "-")...), pr, &stdout, &stderr)
			}()
			select {
			case code := <-done:
				if code != 1 || !strings.Contains(stderr.String(), tc.bad+": no such file or directory (no directory "+missing+")") || strings.Contains(stderr.String(), ".tmp") {
					t.Errorf("exit %d, stderr %q; want 1, naming %s", code, stderr.String(), tc.bad)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the command reads its input before making its outputs")
			}
			if got, _ := os.ReadFile(earlier); string(got) != "earlier\n" {
				t.Errorf("the earlier output became %q", got)
			}
			if _, err := os.Stat(filepath.Join(dir, "c.svg")); err == nil {
				t.Errorf("the chart was written")
			}
			assertNoTempFiles(t, dir)
		})
	}
}

// panicWriter panics on every write, as a bug would somewhere in a run.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("stdout exploded") }

// TestPanicReported: a panic, on a worker of a run or on the command's own
// goroutine, is reported as an internal error with its stack, exit status
// 1, and the files being written are left as they were, with no temporary
// file behind.
func TestPanicReported(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.pgn")
	// Far more than an output's buffer, so that filter writes to stdout
	// from the run's workers, not only when it ends.
	if err := os.WriteFile(big, bytes.Repeat([]byte(oneGame+"\n"), 20000), 0o644); err != nil {
		t.Fatal(err)
	}
	small := writeGame(t, dir, "g.pgn")
	for _, tc := range []struct {
		name  string
		args  []string
		first *regexp.Regexp // stderr's first line
		files []string       // files that exist before, and must be as they were after
	}{
		{
			// filter writes a game as Emit sees it: the game is named.
			"on a worker", []string{"filter", "-q", "-j", "2", "--sp", "0-959", big, "--rejects", filepath.Join(dir, "rejects.pgn")},
			regexp.MustCompile(`^frctool: internal error: \S+/big\.pgn:\d+: game \d+: panic: stdout exploded\n`), []string{"rejects.pgn"},
		},
		{
			"on the command's goroutine", []string{"stats", "-q", small, "--html", filepath.Join(dir, "page.html")},
			regexp.MustCompile(`^frctool: internal error: panic: stdout exploded\n`), []string{"page.html"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range tc.files {
				os.WriteFile(filepath.Join(dir, f), []byte("as it was"), 0o644)
			}
			var stderr bytes.Buffer
			code := run(context.Background(), append([]string{"frctool"}, tc.args...), strings.NewReader(""), panicWriter{}, &stderr)
			msg := stderr.String()
			if code != exitFailure {
				t.Errorf("exit %d, want %d", code, exitFailure)
			}
			if !tc.first.MatchString(msg) {
				t.Errorf("stderr begins %q, want it to match %s", msg[:min(len(msg), 120)], tc.first)
			}
			if !strings.Contains(msg, "panicWriter.Write(") {
				t.Errorf("stderr does not show the stack of the panic:\n%s", msg)
			}
			if !strings.HasSuffix(msg, "please report it with the command, the message above and, if you can, the game it names\n") {
				t.Errorf("stderr ends %q", msg[max(0, len(msg)-120):])
			}
			for _, f := range tc.files {
				if b, err := os.ReadFile(filepath.Join(dir, f)); string(b) != "as it was" {
					t.Errorf("%s holds %q (%v), want it as it was", f, b, err)
				}
			}
			assertNoTempFiles(t, dir)
		})
	}
}

// TestEmptyNamesRefused: a flag naming a file, a folder, a suffix or a
// list, given empty (a script's unset variable: "--rejects $R"), is a
// usage error before anything is read, not stdout, the current folder or
// nothing at all: the rejects, duplicates or backup asked for would be
// lost without a word.
func TestEmptyNamesRefused(t *testing.T) {
	dir := t.TempDir()
	in := writeGame(t, dir, "g.pgn")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"annotate", in, "-o", ""}, `-o "": want a file name (- for stdout)`},
		{[]string{"annotate", "--in-place", "--backup", "", in}, `--backup "": want a suffix`},
		{[]string{"filter", "--sp", "0", in, "--rejects", ""}, `--rejects "": want a file name`},
		{[]string{"dedup", in, "--duplicates="}, `--duplicates "": want a file name`},
		{[]string{"stats", in, "--html", ""}, `--html "": want a file name`},
		{[]string{"stats", in, "--chart", ""}, `--chart "": want a file name`},
		{[]string{"stats", in, "--columns", " , "}, `--columns " , ": want one or more column names`},
		{[]string{"stats", in, "--group-by", ""}, `--group-by "": want one or more fields`},
		{[]string{"export", in, "--columns", ""}, `--columns "": want one or more column names`},
		{[]string{"export", in, "--tags", ""}, `--tags "": want one or more tag names`},
		{[]string{"split", in, "-o", ""}, `-o "": want a folder name`},
		{[]string{"split", in, "-o", filepath.Join(dir, "out"), "--pattern", ""}, `--pattern "": want a file name format`},
		{[]string{"show", "518", "--svg", ""}, `--svg "": want a file name`},
		{[]string{"tree", in, "-o", ""}, `-o "": want a file name (- for stdout)`},
		{[]string{"identify", "518", "-o", ""}, `-o "": want a file name (- for stdout)`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			before := snapshot(t, dir)
			stdout, stderr, code := frctool(t, "", tc.args...)
			want := "frctool: " + tc.want + "\nRun 'frctool " + tc.args[0] + " --help' for usage.\n"
			if code != exitUsage || stdout != "" || stderr != want {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, nothing and %q", code, stdout, stderr, exitUsage, want)
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("the folder changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// TestStdoutIsAnOutputToo: standard output is compared with the other
// outputs and the inputs by what it is. An output named as another path
// to it (/dev/stdout, /proc/self/fd/1) would mix two outputs' bytes in one
// pipe, or replace by its rename the file the shell opened for stdout,
// whose games were then lost; and stdout appending to an input would
// read what it writes.
func TestStdoutIsAnOutputToo(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stdout string   // "pipe", or a file in D opened for appending
		args   []string // D/ is replaced by the directory, FD by stdout's descriptor
		want   string   // stderr's first line; "" for a run that succeeds
	}{
		{"--rejects is stdout, a file", "D/out.pgn", []string{"filter", "--sp", "0", "D/g.pgn", "--rejects", "/proc/self/fd/FD"}, "frctool: /proc/self/fd/FD is standard output, where another output goes"},
		{"--rejects is stdout, a pipe", "pipe", []string{"filter", "--sp", "0", "D/g.pgn", "--rejects", "/proc/self/fd/FD"}, "frctool: /proc/self/fd/FD is standard output, where another output goes"},
		{"--duplicates is stdout's file by its name", "D/out.pgn", []string{"dedup", "D/g.pgn", "--duplicates", "D/out.pgn"}, "frctool: D/out.pgn is standard output, where another output goes"},
		{"--html is stdout", "pipe", []string{"stats", "D/g.pgn", "--html", "/proc/self/fd/FD"}, "frctool: /proc/self/fd/FD is standard output, where another output goes"},
		{"stdout appends to the input", "D/g.pgn", []string{"annotate", "D/g.pgn"}, "frctool: standard output is the input D/g.pgn"},
		{"another file beside stdout", "D/out.pgn", []string{"filter", "-q", "--sp", "0", "D/g.pgn", "--rejects", "D/rejects.pgn"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeGame(t, dir, "g.pgn")
			var stdout *os.File
			if tc.stdout == "pipe" {
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				go io.Copy(io.Discard, r)
				stdout = w
			} else {
				f, err := os.OpenFile(strings.Replace(tc.stdout, "D/", dir+"/", 1), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				stdout = f
			}
			defer stdout.Close()
			fd := fmt.Sprint(stdout.Fd())
			expand := func(s string) string {
				return strings.ReplaceAll(strings.ReplaceAll(s, "D/", dir+"/"), "/FD", "/"+fd)
			}
			args := []string{"frctool"}
			for _, a := range tc.args {
				args = append(args, expand(a))
			}
			before := snapshot(t, dir)
			var stderr bytes.Buffer
			code := run(context.Background(), args, strings.NewReader(""), stdout, &stderr)
			first, _, _ := strings.Cut(stderr.String(), "\n")
			if tc.want == "" {
				if code != 0 || stderr.Len() > 0 {
					t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr.String())
				}
				return
			}
			if code != exitUsage || first != expand(tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), exitUsage, expand(tc.want))
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("files changed:\n%s\nwere:\n%s", after, before)
			}
		})
	}
}

// TestStdinIsStdout: identify and convert refuse a standard input and
// output that are one file ("< x.txt >> x.txt"), which would read every
// row they write, without end; they still read a file that -o replaces,
// and arguments whatever stdout is.
func TestStdinIsStdout(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"identify reading stdin", []string{"identify"}, exitUsage},
		{"identify reading -", []string{"identify", "RNBQKBNR", "-"}, exitUsage},
		{"convert reading stdin", []string{"convert", "--from", "scharnagl", "--to", "fritz9"}, exitUsage},
		{"identify reading arguments only", []string{"identify", "RNBQKBNR"}, exitOK},
		{"convert to -o the input", []string{"convert", "--from", "scharnagl", "--to", "fritz9", "-o", "D/x.txt"}, exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "x.txt")
			if err := os.WriteFile(name, []byte("518\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			stdin, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stdout, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer stdout.Close()
			args := inDir(dir, tc.args)
			var stderr bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(context.Background(), args, stdin, stdout, &stderr) }()
			select {
			case code := <-done:
				if code != tc.code {
					t.Fatalf("exit %d (%s), want %d", code, stderr.String(), tc.code)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still reading what it writes after 10 s")
			}
			if tc.code == exitUsage {
				want := "frctool: standard input and standard output are one file: every row written would be read again\n"
				if first, _, _ := strings.Cut(stderr.String(), "Run "); first != want {
					t.Errorf("stderr %q, want it to begin %q", stderr.String(), want)
				}
				if b, _ := os.ReadFile(name); string(b) != "518\n" {
					t.Errorf("the file holds %q, want it as it was", b)
				}
			}
		})
	}
}

// TestUnsupportedCompressionNamed: an xz input is named as such and the
// run fails, and an output asking for xz is a usage error, rather than
// binary text read as games or plain text under an .xz name.
func TestUnsupportedCompressionNamed(t *testing.T) {
	dir := t.TempDir()
	xz := filepath.Join(dir, "in.pgn.xz")
	if err := os.WriteFile(xz, []byte("\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := writeGame(t, dir, "g.pgn")
	for _, tc := range []struct {
		args  []string
		code  int
		first string
	}{
		{[]string{"stats", "-q", xz}, exitFailure, "frctool: " + xz + ": compression not supported: xz (frctool reads gzip, bzip2 and zstd); decompress it first: xz -dc " + xz + " | frctool ..."},
		{[]string{"filter", "-q", in, xz}, exitFailure, "frctool: " + xz + ": compression not supported: xz (frctool reads gzip, bzip2 and zstd); decompress it first: xz -dc " + xz + " | frctool ..."},
		{[]string{"annotate", in, "-o", filepath.Join(dir, "out.pgn.xz")}, exitUsage, "frctool: " + filepath.Join(dir, "out.pgn.xz") + ": compression not supported: xz (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to xz"},
		{[]string{"identify", "RNBQKBNR", "-o", filepath.Join(dir, "ids.zip")}, exitUsage, "frctool: " + filepath.Join(dir, "ids.zip") + ": compression not supported: zip (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to zip"},
		{[]string{"split", in, "-o", filepath.Join(dir, "by-sp"), "--pattern", "sp-%d.pgn.xz"}, exitUsage, `frctool: --pattern: bad file name pattern "sp-%d.pgn.xz": .xz output is not offered; use .gz or .zst`},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			before := snapshot(t, dir)
			_, stderr, code := frctool(t, "", tc.args...)
			if first, _, _ := strings.Cut(stderr, "\n"); code != tc.code || first != tc.first {
				t.Errorf("exit %d, stderr %q; want %d and %q first", code, stderr, tc.code, tc.first)
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("files changed:\n%s\nwere:\n%s", after, before)
			}
		})
	}
}

// TestMessagesEscapeControls: a file name or argument holding a terminal's
// escape sequence is shown escaped (\x1b) in every message, as the
// input's own text is, never raw; --where's caret keeps its line.
func TestMessagesEscapeControls(t *testing.T) {
	dir := t.TempDir()
	in := writeGame(t, dir, "g.pgn")
	for _, tc := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"a missing input", []string{"stats", "-q", filepath.Join(dir, "no\x1b[31m.pgn")}, `no\x1b[31m.pgn: no such file or directory`},
		{"an output in a missing folder", []string{"stats", "-q", in, "-o", filepath.Join(dir, "no\x1b[2J", "s.csv")}, `no\x1b[2J/s.csv: no such file or directory`},
		{"an unknown flag", []string{"stats", "--bad\x1b[2Jflag", in}, `unknown flag --bad\x1b[2Jflag`},
		{"a bad argument", []string{"identify", "RNB\x1b[2JQKBNR"}, `back rank "RNB\x1b[2JQKBNR"`},
		{"a bad --where", []string{"filter", "--where", "White ~ \"\x1b\" and", in}, `White ~ "\x1b" and` + "\n" + strings.Repeat(" ", 18) + "^"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := frctool(t, "", tc.args...)
			if code == 0 || strings.ContainsRune(stderr, 0x1b) || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want a failure, no raw escape and %q", code, stderr, tc.want)
			}
		})
	}
}
