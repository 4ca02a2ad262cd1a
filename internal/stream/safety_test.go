//go:build unix

package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// skippable returns a skippable frame with magic nibble id and payload, as
// pzstd writes one before every frame.
func skippable(id byte, payload string) []byte {
	n := len(payload)
	return append([]byte{0x50 | id, 0x2a, 0x4d, 0x18, byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)}, payload...)
}

func zstdFrame(t *testing.T, s string) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll([]byte(s), nil)
}

func TestSkippableFrames(t *testing.T) {
	for _, tt := range []struct {
		name string
		data func(t *testing.T) []byte
		want string
	}{
		{"pzstd: a skippable frame before each frame", func(t *testing.T) []byte {
			var b []byte
			b = append(b, skippable(0, "\x10\x00\x00\x00")...)
			b = append(b, zstdFrame(t, "[Event \"a\"]\n")...)
			b = append(b, skippable(0xf, "abcd")...)
			b = append(b, zstdFrame(t, "[Event \"b\"]\n")...)
			return b
		}, "[Event \"a\"]\n[Event \"b\"]\n"},
		{"an empty skippable frame, then a frame", func(t *testing.T) []byte {
			return append(skippable(3, ""), zstdFrame(t, "x\n")...)
		}, "x\n"},
		{"a skippable frame at the end", func(t *testing.T) []byte {
			return append(zstdFrame(t, "y\n"), skippable(1, "trailer")...)
		}, "y\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.data(t)
			if c := Detect(data); c != Zstd {
				t.Errorf("Detect = %v, want zstd", c)
			}
			in, err := Open("-", bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			got, err := io.ReadAll(in)
			if err != nil || string(got) != tt.want || in.Compression != Zstd {
				t.Errorf("read %q as %v (err %v), want %q as zstd", got, in.Compression, err, tt.want)
			}
		})
	}
}

func TestZstdWindowLimit(t *testing.T) {
	// A frame header asking for a window of 2^(10+e) bytes, then one raw
	// block of 5 bytes, the last.
	frame := func(e byte) []byte {
		return []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, e << 3, 0x29, 0, 0, 'h', 'e', 'l', 'l', 'o'}
	}
	for _, tt := range []struct {
		name    string
		exp     byte
		wantErr bool
	}{
		{"128 MiB is accepted", 17, false},
		{"256 MiB is refused", 18, true},
		{"512 MiB is refused", 19, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in, err := Open("-", bytes.NewReader(frame(tt.exp)))
			if err == nil {
				var got []byte
				got, err = io.ReadAll(in)
				in.Close()
				if err == nil && string(got) != "hello" {
					t.Errorf("read %q, want hello", got)
				}
			}
			switch {
			case tt.wantErr && err == nil:
				t.Error("the window was accepted")
			case tt.wantErr && !strings.Contains(err.Error(), "128 MiB"):
				t.Errorf("error %q does not name the 128 MiB limit", err)
			case tt.wantErr && !errors.Is(err, ErrWindowTooLarge):
				t.Errorf("error %q is not ErrWindowTooLarge", err)
			case !tt.wantErr && err != nil:
				t.Errorf("error %v", err)
			}
		})
	}
}

// tempFiles lists the temporary files Create leaves in dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".*.frctool-*.tmp"))
	return m
}

func writeOutput(name, data string) error {
	out, err := Create(name, nil)
	if err != nil {
		return err
	}
	io.WriteString(out, data)
	return out.Commit()
}

func TestCreateSpecialFiles(t *testing.T) {
	t.Run("a symlink's target is replaced, the link stays", func(t *testing.T) {
		dir, other := t.TempDir(), t.TempDir()
		target := filepath.Join(other, "real.pgn")
		os.WriteFile(target, []byte("old"), 0o640)
		link := filepath.Join(dir, "link.pgn")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if err := writeOutput(link, "new"); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
		}
		if b, _ := os.ReadFile(target); string(b) != "new" {
			t.Errorf("the target holds %q", b)
		}
		if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
			t.Errorf("the target's mode is %v, want 0640", fi.Mode().Perm())
		}
		if len(tempFiles(t, dir))+len(tempFiles(t, other)) != 0 {
			t.Error("temporary files left")
		}
	})
	t.Run("a dangling symlink creates its target", func(t *testing.T) {
		dir := t.TempDir()
		link := filepath.Join(dir, "link.pgn")
		os.Symlink("sub-target.pgn", link)
		if err := writeOutput(link, "new"); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "sub-target.pgn")); string(b) != "new" {
			t.Errorf("the target holds %q", b)
		}
		if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
			t.Error("the link was replaced")
		}
	})
	t.Run("/dev/null is written to, not replaced", func(t *testing.T) {
		before, err := os.Stat(os.DevNull)
		if err != nil {
			t.Skip(err)
		}
		if err := writeOutput(os.DevNull, "games"); err != nil {
			t.Fatal(err)
		}
		after, err := os.Stat(os.DevNull)
		if err != nil || !os.SameFile(before, after) || after.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("/dev/null is now %v (%v)", after.Mode(), err)
		}
		if len(tempFiles(t, "/dev")) != 0 {
			t.Error("temporary files left in /dev")
		}
	})
	t.Run("a FIFO is written to, not replaced", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		got := make(chan string)
		go func() {
			b, _ := os.ReadFile(fifo)
			got <- string(b)
		}()
		if err := writeOutput(fifo, "games\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case s := <-got:
			if s != "games\n" {
				t.Errorf("the FIFO's reader got %q", s)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the FIFO's reader got nothing")
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("the FIFO was replaced: %v", fi.Mode())
		}
	})
	t.Run("a directory is refused", func(t *testing.T) {
		dir := t.TempDir()
		if err := writeOutput(dir, "x"); err == nil || !strings.Contains(err.Error(), "is a directory") {
			t.Errorf("writing to a directory: %v", err)
		}
	})
}

func TestAtomicFileKeepsOwnerAndMode(t *testing.T) {
	for _, tt := range []struct {
		name     string
		mode     os.FileMode
		uid, gid int // -1: leave
	}{
		{"setgid and sticky", 0o2750 | os.ModeSetgid | os.ModeSticky, -1, -1},
		{"setuid", os.ModeSetuid | 0o755, -1, -1},
		{"another owner and group", 0o644, 4321, 8765},
		{"another group, setgid", os.ModeSetgid | 0o640, -1, 8765},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if (tt.uid >= 0 || tt.gid >= 0) && os.Geteuid() != 0 {
				t.Skip("changing owners needs root")
			}
			target := filepath.Join(t.TempDir(), "g.pgn")
			os.WriteFile(target, []byte("old"), 0o600)
			if err := os.Chown(target, tt.uid, tt.gid); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(target, tt.mode); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Stat(target)
			if err := writeOutput(target, "new"); err != nil {
				t.Fatal(err)
			}
			after, _ := os.Stat(target)
			if after.Mode() != before.Mode() {
				t.Errorf("mode %v, want %v", after.Mode(), before.Mode())
			}
			bs, as := before.Sys().(*syscall.Stat_t), after.Sys().(*syscall.Stat_t)
			if as.Uid != bs.Uid || as.Gid != bs.Gid {
				t.Errorf("owner %d:%d, want %d:%d", as.Uid, as.Gid, bs.Uid, bs.Gid)
			}
			if b, _ := os.ReadFile(target); string(b) != "new" {
				t.Errorf("content %q", b)
			}
		})
	}
}

func TestCommitAll(t *testing.T) {
	for _, tt := range []struct {
		name    string
		breakAt int // the output whose file is broken before CommitAll; -1: none
		want    [2]string
	}{
		{"both committed", -1, [2]string{"new a", "new b"}},
		{"the second fails: neither replaced", 1, [2]string{"old a", "old b"}},
		{"the first fails: neither replaced", 0, [2]string{"old a", "old b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			names := [2]string{filepath.Join(dir, "a.pgn"), filepath.Join(dir, "b.pgn.gz")}
			var outs []*Output
			for i, n := range names {
				os.WriteFile(n, []byte("old "+string(rune('a'+i))), 0o644)
				o, err := Create(n, nil)
				if err != nil {
					t.Fatal(err)
				}
				io.WriteString(o, "new "+string(rune('a'+i)))
				outs = append(outs, o)
			}
			if tt.breakAt >= 0 {
				// A closed file fails its sync, as a full disk would.
				outs[tt.breakAt].file.File.Close()
			}
			err := CommitAll(outs[0], nil, outs[1])
			if (err != nil) != (tt.breakAt >= 0) {
				t.Errorf("CommitAll: %v", err)
			}
			for i, n := range names {
				in, err := Open(n, nil)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(in)
				in.Close()
				if string(b) != tt.want[i] {
					t.Errorf("%s holds %q, want %q", filepath.Base(n), b, tt.want[i])
				}
			}
			if tmp := tempFiles(t, dir); len(tmp) != 0 {
				t.Errorf("temporary files left: %v", tmp)
			}
		})
	}
}

func TestOpenContextIdlePipe(t *testing.T) {
	for _, tt := range []struct {
		name  string
		write string // written before the pipe goes idle
	}{
		{"nothing ever written", ""},
		{"a game, then nothing", "[Event \"x\"]\n\n1. e4 *\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			defer r.Close()
			io.WriteString(w, tt.write)
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			done := make(chan error, 1)
			go func() {
				in, err := OpenContext(ctx, "-", r)
				if err != nil {
					done <- err
					return
				}
				defer in.Close()
				_, err = io.ReadAll(in)
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("error %v, want context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the read was not interrupted")
			}
		})
	}
}

func TestOpenContextRegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.pgn")
	os.WriteFile(path, []byte("games"), 0o644)
	f, _ := os.Open(path)
	defer f.Close()
	for _, tt := range []struct {
		name  string
		file  string
		stdin io.Reader
	}{
		{"by name", path, nil},
		{"as stdin", "-", f},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in, err := OpenContext(context.Background(), tt.file, tt.stdin)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if !in.Regular {
				t.Error("Regular is false")
			}
			if _, ok := in.src.(*ctxReader); ok {
				t.Error("a regular file is read through a goroutine")
			}
			if b, err := io.ReadAll(in); err != nil || string(b) != "games" {
				t.Errorf("read %q, %v", b, err)
			}
		})
	}
}

// TestStopRegularFile checks that a regular file, which is read without
// a goroutine, still stops being read once the context is done: a merge
// busy with a large document ends on a stop signal, plain or compressed.
func TestStopRegularFile(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("[Event \"x\"]\n\n1. e4 *\n\n"), 100_000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"plain", data},
		{"gzip", gz.Bytes()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			in, err := OpenContext(ctx, path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			buf := make([]byte, 4096)
			if _, err := io.ReadFull(in, buf); err != nil {
				t.Fatal(err)
			}
			cancel()
			n, err := io.ReadFull(in, buf)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("read %d bytes after the context was done, error %v; want context.Canceled", n, err)
			}
		})
	}
}

// TestCreateProcFD writes to a pipe named through /proc/self/fd, as
// /dev/stdout names standard output: the link there points to no path
// ("pipe:[1234]"), so it must be opened, not followed and replaced.
func TestCreateProcFD(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	name := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
	if _, err := os.Stat(name); err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	out, err := Create(name, nil)
	if err != nil {
		t.Fatalf("Create(%s): %v", name, err)
	}
	if _, err := io.WriteString(out, "through the pipe\n"); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if b := <-got; string(b) != "through the pipe\n" {
		t.Errorf("read %q from the pipe", b)
	}
}

// TestFlushCompressedFIFO: a compressed output to a FIFO hands its reader
// everything written so far at Flush, before Commit, for gzip and zstd.
func TestFlushCompressedFIFO(t *testing.T) {
	const text = "[Event \"live\"]\n\n1. e4 *\n\n"
	for _, tc := range []struct {
		name       string
		decompress func(io.Reader) (io.Reader, error)
	}{
		{"feed.pgn.gz", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"feed.pgn.zst", func(r io.Reader) (io.Reader, error) { return zstd.NewReader(r) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), tc.name)
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip(err)
			}
			got := make(chan string, 1)
			go func() {
				f, err := os.Open(fifo)
				if err != nil {
					got <- err.Error()
					return
				}
				defer f.Close()
				zr, err := tc.decompress(f)
				if err != nil {
					got <- err.Error()
					return
				}
				buf := make([]byte, len(text))
				_, err = io.ReadFull(zr, buf)
				got <- string(buf) + fmt.Sprint(err)
				io.Copy(io.Discard, f)
			}()
			o, err := Create(fifo, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(o, text); err != nil {
				t.Fatal(err)
			}
			if err := o.Flush(); err != nil {
				t.Fatal(err)
			}
			select {
			case s := <-got:
				if s != text+"<nil>" {
					t.Errorf("read %q after Flush, want %q", s, text)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("nothing to read 10 s after Flush")
			}
			if err := o.Commit(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Readable finds what OpenContext would refuse, without reading, and
// without waiting on a FIFO that has no writer.
func TestReadable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.pgn")
	if err := os.WriteFile(file, []byte("*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	link := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		input string
		want  error // matched with errors.Is; nil for readable
	}{
		{"a regular file", file, nil},
		{"stdin", "-", nil},
		{"a FIFO without a writer", fifo, nil},
		{"a missing file", filepath.Join(dir, "missing.pgn"), fs.ErrNotExist},
		{"a dangling symlink", link, fs.ErrNotExist},
		{"a directory", dir, syscall.EISDIR},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Readable(tc.input)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("Readable(%q) = %v, want %v", tc.input, err, tc.want)
			}
			if tc.want == nil {
				return
			}
			// OpenContext refuses it the same way.
			if _, err := Open(tc.input, nil); !errors.Is(err, tc.want) {
				t.Errorf("Open(%q) = %v, want %v", tc.input, err, tc.want)
			}
		})
	}
}

// TestCreateNamesTheOutput checks that an output that cannot be made is
// named in the error, not the temporary file it would have been written
// to first.
func TestCreateNamesTheOutput(t *testing.T) {
	name := filepath.Join(t.TempDir(), "no", "such", "x.csv")
	_, err := Create(name, nil)
	want := name + ": no such file or directory (no directory " + filepath.Dir(name) + ")"
	if err == nil || err.Error() != want || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Create = %v, want %q, which errors.Is takes for fs.ErrNotExist", err, want)
	}
}

// TestWriteErrorsNameTheOutput: a write or sync that fails (a full disk)
// names the file being replaced, not the temporary file, which is gone
// by the time the message is read, and errors.Is still finds the cause.
func TestWriteErrorsNameTheOutput(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out.pgn")
	tests := []struct {
		name string
		fail func(a *AtomicFile) error
		want string
	}{
		{"write", func(a *AtomicFile) error {
			_, err := a.Write([]byte("x"))
			return err
		}, "write " + target + ": file already closed"},
		{"commit", func(a *AtomicFile) error { return a.Commit() }, "chmod " + target + ": file already closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := NewAtomicFile(target, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Abort()
			a.File.Close() // every use of it fails from now on
			err = tc.fail(a)
			if err == nil || err.Error() != tc.want || !errors.Is(err, os.ErrClosed) {
				t.Errorf("error %v, want %q, which errors.Is takes for os.ErrClosed", err, tc.want)
			}
		})
	}
}

// TestIdle: a pipe is idle once what was written is read and nothing more
// comes; a byte written in time, a file, a compressed stream and a done
// context are not.
func TestIdle(t *testing.T) {
	t.Run("a pipe, read to what was written", func(t *testing.T) {
		in, w := openPipe(t, context.Background(), "[Event \"x\"]\n")
		buf := make([]byte, 64)
		n, _ := in.Read(buf)
		if !in.Idle(20 * time.Millisecond) {
			t.Errorf("not idle after reading %q, all there was", buf[:n])
		}
		time.AfterFunc(20*time.Millisecond, func() { io.WriteString(w, "more\n") })
		if in.Idle(5 * time.Second) {
			t.Error("idle, though a line came within the time")
		}
		if n, err := in.Read(buf); string(buf[:n]) != "more\n" || err != nil {
			t.Errorf("then read %q, %v; want the line that came", buf[:n], err)
		}
	})
	t.Run("a pipe with bytes buffered", func(t *testing.T) {
		in, err := OpenContext(context.Background(), "-", strings.NewReader("[Event \"x\"]\n"))
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		if in.Idle(time.Second) {
			t.Error("idle with the bytes peeked at open unread")
		}
	})
	t.Run("a file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "g.pgn")
		os.WriteFile(path, []byte("[Event \"x\"]\n"), 0o644)
		in, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		io.ReadAll(in)
		start := time.Now()
		if in.Idle(time.Second) || time.Since(start) > 500*time.Millisecond {
			t.Error("a file read to its end is idle, or took its time to say not")
		}
	})
	t.Run("a compressed pipe", func(t *testing.T) {
		in, _ := openPipe(t, context.Background(), "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff")
		if in.Idle(time.Second) {
			t.Error("a compressed stream is idle")
		}
	})
	t.Run("a done context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		in, _ := openPipe(t, ctx, "x\n")
		in.Read(make([]byte, 8))
		cancel()
		if in.Idle(5 * time.Second) {
			t.Error("idle after the context ended; the read after must say so instead")
		}
		if _, err := in.Read(make([]byte, 8)); !errors.Is(err, context.Canceled) {
			t.Errorf("read %v, want context.Canceled", err)
		}
	})
}

// openPipe opens the read end of a pipe as standard input, with written
// written to it, and returns the input and the write end; both are closed
// when the test ends.
func openPipe(t *testing.T, ctx context.Context, written string) (*Input, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	io.WriteString(w, written)
	in, err := OpenContext(ctx, "-", r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in, w
}

// TestRemoveTemporaries: after a panic, which skips every Abort, the
// temporary files of the outputs being written are removed, the files
// under their names are left as they were, and committed outputs stay.
func TestRemoveTemporaries(t *testing.T) {
	dir := t.TempDir()
	committed := filepath.Join(dir, "done.pgn")
	existing := filepath.Join(dir, "old.pgn")
	fresh := filepath.Join(dir, "new.csv.gz")
	if err := os.WriteFile(existing, []byte("old games"), 0o644); err != nil {
		t.Fatal(err)
	}
	var outs []*Output
	for _, n := range []string{committed, existing, fresh} {
		o, err := Create(n, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(o, "written by "+filepath.Base(n))
		outs = append(outs, o)
	}
	if err := outs[0].Commit(); err != nil {
		t.Fatal(err)
	}
	if tmp := tempFiles(t, dir); len(tmp) != 2 {
		t.Fatalf("temporary files before: %v, want two", tmp)
	}
	RemoveTemporaries()
	if tmp := tempFiles(t, dir); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
	for name, want := range map[string]string{committed: "written by done.pgn", existing: "old games"} {
		if b, err := os.ReadFile(name); err != nil || string(b) != want {
			t.Errorf("%s holds %q (%v), want %q", filepath.Base(name), b, err, want)
		}
	}
	if _, err := os.Stat(fresh); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s: %v, want it never made", filepath.Base(fresh), err)
	}
	RemoveTemporaries() // nothing left: a no-op
}

// TestUnsupportedCompression: an input in a compressed format frctool does
// not read is refused by name, with the command that decompresses it,
// rather than read as binary text; text that merely begins like one of
// their magic numbers is read. An output name asking for such a format is
// refused before any file is made, rather than written uncompressed.
func TestUnsupportedCompression(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		want string // the error, "" to read data as it is
	}{
		{"xz", "\xfd7zXZ\x00\x00\x04", "in.x: compression not supported: xz (frctool reads gzip, bzip2 and zstd); decompress it first: xz -dc in.x | frctool ..."},
		{"7-Zip", "7z\xbc\xaf\x27\x1c\x00\x04", "in.x: compression not supported: 7-Zip (frctool reads gzip, bzip2 and zstd); decompress it first: 7z x -so in.x | frctool ..."},
		{"zip", "PK\x03\x04\x14\x00", "in.x: compression not supported: zip (frctool reads gzip, bzip2 and zstd); decompress it first: unzip -p in.x | frctool ..."},
		{"lz4", "\x04\x22\x4d\x18\x64\x40", "in.x: compression not supported: lz4 (frctool reads gzip, bzip2 and zstd); decompress it first: lz4 -dc in.x | frctool ..."},
		{"compress", "\x1f\x9d\x90[Event", "in.x: compression not supported: compress (frctool reads gzip, bzip2 and zstd); decompress it first: uncompress -c in.x | frctool ..."},
		{"UTF-16, little-endian", "\xff\xfe[\x00E\x00", "in.x: UTF-16 text (frctool reads UTF-8 and Latin-1); convert it first: iconv -f UTF-16 -t UTF-8 in.x | frctool ..."},
		{"UTF-16, big-endian", "\xfe\xff\x00[\x00E", "in.x: UTF-16 text (frctool reads UTF-8 and Latin-1); convert it first: iconv -f UTF-16 -t UTF-8 in.x | frctool ..."},
		{"UTF-8's byte order mark", "\xef\xbb\xbf[Event \"e\"]\n", ""},
		{"Latin-1 text", "\xff is a letter\n", ""},
		{"text beginning PK", "PK is a name\n", ""},
		{"text beginning 7z", "7z\n", ""},
		{"a lone P", "P", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "in.x")
			if err := os.WriteFile(name, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			in, err := Open(name, nil)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				b, _ := io.ReadAll(in)
				in.Close()
				if string(b) != tc.data {
					t.Errorf("read %q, want %q", b, tc.data)
				}
				return
			}
			if !errors.Is(err, ErrUnsupportedCompression) && !errors.Is(err, ErrUTF16) || strings.Replace(err.Error(), name, "in.x", 2) != tc.want {
				t.Errorf("Open: %v, want %q", err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name, want string // want "" for a name frctool writes
	}{
		{"games.pgn.xz", "games.pgn.xz: compression not supported: xz (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to xz"},
		{"GAMES.PGN.XZ", "GAMES.PGN.XZ: compression not supported: xz (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to xz"},
		{"games.7z", "games.7z: compression not supported: 7-Zip (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to 7z a -si"},
		{"games.zip", "games.zip: compression not supported: zip (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to zip"},
		{"games.pgn.lz4", "games.pgn.lz4: compression not supported: lz4 (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to lz4"},
		{"games.pgn.Z", "games.pgn.Z: compression not supported: compress (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to compress"},
		{"page.html.br", "page.html.br: compression not supported: brotli (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to brotli"},
		{"games.pgn.lzma", "games.pgn.lzma: compression not supported: xz (frctool writes .gz, .bz2 and .zst); name the file so, or pipe the output to xz"},
		{"games.pgn", ""},
		{"games.pgn.gz", ""},
		{"games.pgn.zst", ""},
		{"games.pgn.bz2", ""},
		{"rows.csv", ""},
		{"xz", ""},
	} {
		t.Run("output "+tc.name, func(t *testing.T) {
			err := UnsupportedExtension(tc.name)
			if tc.want == "" {
				if err != nil {
					t.Errorf("UnsupportedExtension: %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrUnsupportedCompression) || err.Error() != tc.want {
				t.Errorf("UnsupportedExtension: %v, want %q", err, tc.want)
			}
			dir := t.TempDir()
			if o, err := Create(filepath.Join(dir, tc.name), nil); err == nil {
				o.Abort()
				t.Error("Create made the output")
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("Create left %v", entries)
			}
		})
	}
}

// TestLongOutputNames: an output whose name is as long as the file system
// allows is written, though its temporary file's name, made from it, would
// be longer; a name cut for the temporary file is not cut inside a
// character.
func TestLongOutputNames(t *testing.T) {
	tests := []struct{ name, base string }{
		{"255 bytes", strings.Repeat("a", 251) + ".pgn"},
		{"254 bytes of two-byte characters", strings.Repeat("é", 125) + ".pgn"},
		{"short", "x.pgn"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, tc.base)
			o, err := Create(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			tmp := filepath.Base(o.file.File.Name())
			if !utf8.ValidString(tmp) || len(tmp) > 255 || !strings.HasPrefix(tmp, "."+tc.base[:min(len(tc.base), 100)]) {
				t.Errorf("temporary file %q (%d bytes)", tmp, len(tmp))
			}
			if _, err := o.Write([]byte("games")); err != nil {
				t.Fatal(err)
			}
			if err := o.Commit(); err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(name); err != nil || string(b) != "games" {
				t.Errorf("read back %q, %v", b, err)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// TestBufferSize: an input is read through 256 KB, or a regular file
// smaller than that through its own size, so that a folder of small files
// does not take 256 KB each; what is read is the same either way.
func TestBufferSize(t *testing.T) {
	dir := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const piped = "[Event \"piped\"]\n\n*\n"
	go func() { w.Write([]byte(piped)); w.Close() }()
	tests := []struct {
		name    string
		content string // a regular file's, or "" for the pipe
		want    int    // 0: the file's size and one byte
	}{
		{"a file of one game", "[Event \"x\"]\n\n1. e4 *\n", 512},
		{"a file of 100 KB", strings.Repeat("[Event \"x\"]\n\n1. e4 *\n", 5000), 0},
		{"a file of 1 MB", strings.Repeat("[Event \"x\"]\n\n1. e4 *\n", 50000), 256 << 10},
		{"an empty file", "", 512},
		{"a pipe", "", 256 << 10},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var in *Input
			var err error
			if tc.name == "a pipe" {
				in, err = OpenContext(context.Background(), "-", r)
			} else {
				name := filepath.Join(dir, fmt.Sprint(i))
				if err := os.WriteFile(name, []byte(tc.content), 0o644); err != nil {
					t.Fatal(err)
				}
				in, err = OpenContext(context.Background(), name, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if tc.want == 0 {
				tc.want = len(tc.content) + 1
			}
			if got := bufferSize(in); got != tc.want {
				t.Errorf("bufferSize = %d, want %d", got, tc.want)
			}
			want := tc.content
			if tc.name == "a pipe" {
				want = piped
			}
			if b, err := io.ReadAll(in); err != nil || string(b) != want {
				t.Errorf("read %d bytes (%v), want the %d written", len(b), err, len(want))
			}
		})
	}
}
