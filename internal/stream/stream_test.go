package stream

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestDetectAndExtension(t *testing.T) {
	for _, tt := range []struct {
		name string
		head []byte
		want Compression
	}{
		{"gzip", []byte{0x1f, 0x8b, 8, 0}, Gzip},
		{"bzip2", []byte("BZh9"), Bzip2},
		{"zstd", []byte{0x28, 0xb5, 0x2f, 0xfd}, Zstd},
		{"pgn", []byte("[Eve"), None},
		{"empty", nil, None},
	} {
		if got := Detect(tt.head); got != tt.want {
			t.Errorf("Detect(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
	for name, want := range map[string]Compression{"a.pgn.gz": Gzip, "a.PGN.BZ2": Bzip2, "a.zst": Zstd, "a.zstd": Zstd, "a.pgn": None, "-": None} {
		if got := ByExtension(name); got != want {
			t.Errorf("ByExtension(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	data := strings.Repeat("[Event \"x\"]\n\n1. e4 *\n\n", 5000)
	for _, c := range []Compression{None, Gzip, Bzip2, Zstd} {
		t.Run(c.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			out, err := CreateCompressed(path, c, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(out, data)
			if err := out.Commit(); err != nil {
				t.Fatal(err)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600", fi.Mode().Perm())
			}
			in, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(in)
			in.Close()
			if err != nil || string(got) != data || in.Compression != c {
				t.Errorf("read back %d bytes as %v (err %v), want %d as %v", len(got), in.Compression, err, len(data), c)
			}
			if in.Consumed() != in.Size {
				t.Errorf("consumed %d of %d bytes", in.Consumed(), in.Size)
			}
		})
	}
}

// Compressed files are often concatenations (pigz, pbzip2, appended
// frames): all parts must be read.
func TestConcatenatedStreams(t *testing.T) {
	for _, c := range []Compression{Gzip, Bzip2, Zstd} {
		t.Run(c.String(), func(t *testing.T) {
			dir := t.TempDir()
			var all []byte
			for i, part := range []string{"first part\n", "second part\n"} {
				p := filepath.Join(dir, string(rune('a'+i)))
				out, _ := CreateCompressed(p, c, 0)
				io.WriteString(out, part)
				if err := out.Commit(); err != nil {
					t.Fatal(err)
				}
				b, _ := os.ReadFile(p)
				all = append(all, b...)
			}
			in, err := Open("-", bytes.NewReader(all))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(in)
			if err != nil || string(got) != "first part\nsecond part\n" {
				t.Errorf("got %q, %v", got, err)
			}
		})
	}
}

func TestAtomicFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "games.pgn")
	os.WriteFile(target, []byte("old"), 0o640)

	aborted, _ := NewAtomicFile(target, 0)
	aborted.WriteString("half written")
	aborted.Abort()
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Errorf("after Abort the target holds %q", b)
	}

	f, _ := NewAtomicFile(target, 0)
	f.Backup = target + ".orig"
	f.WriteString("new")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("after Commit the target holds %q", b)
	}
	if b, _ := os.ReadFile(target + ".orig"); string(b) != "old" {
		t.Errorf("the backup holds %q", b)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the original's 0640", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("files left: %d, want the target and its backup", len(entries))
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("opening a directory: %v", err)
	}
	if _, err := Open("/nonexistent/x.pgn", nil); err == nil {
		t.Error("opening a missing file succeeded")
	}
	if _, err := Open("-", bytes.NewReader([]byte{0x1f, 0x8b, 0, 0, 0})); err == nil {
		t.Error("a broken gzip header was accepted")
	}
}

// TestWriteback checks that a file output asks for its bytes to be
// written to disk as it grows, a range at a time, each range once and
// in order, and that what is committed is what was written.
func TestWriteback(t *testing.T) {
	type span struct{ off, n int64 }
	var asked []span
	startWriteback = func(_ *os.File, off, n int64) { asked = append(asked, span{off, n}) }
	defer func() { startWriteback = writeback }()
	name := filepath.Join(t.TempDir(), "out.pgn")
	o, err := Create(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("1. e4 e5 2. Nf3 *\n\n"), 5000)
	var want bytes.Buffer
	for want.Len() < 2*writebackEvery+writebackEvery/2 {
		want.Write(chunk)
		if _, err := o.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(name)
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("committed %d bytes (%v), want the %d written", len(got), err, want.Len())
	}
	if len(asked) != 2 {
		t.Fatalf("writeback asked for %v, want two ranges of %d bytes and more", asked, writebackEvery)
	}
	next := int64(0)
	for _, s := range asked {
		if s.off != next || s.n < writebackEvery {
			t.Errorf("writeback asked for %d bytes at %d, want at least %d at %d", s.n, s.off, writebackEvery, next)
		}
		next = s.off + s.n
	}
}

// A first read shorter than four bytes is enough when it starts no magic
// number: a line typed at a terminal is read at once. A magic number that
// comes a byte a read is still recognised.
func TestOpenShortFirstRead(t *testing.T) {
	for _, tt := range []struct {
		name  string
		first string // written, and then the pipe waits
		want  Compression
	}{
		{"a short line", "0\n", None},
		{"one byte", "K", None},
		{"an empty line", "\n", None},
		{"a zstd-like open parenthesis and a newline", "(\n", None},
		{"B and a newline", "B\n", None},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			defer pw.Close()
			go io.WriteString(pw, tt.first)
			type opened struct {
				in  *Input
				got []byte
				err error
			}
			done := make(chan opened, 1)
			go func() {
				in, err := Open("-", pr)
				if err != nil {
					done <- opened{err: err}
					return
				}
				got := make([]byte, len(tt.first))
				_, err = io.ReadFull(in, got)
				done <- opened{in, got, err}
			}()
			select {
			case o := <-done:
				if o.err != nil || string(o.got) != tt.first || o.in.Compression != tt.want {
					t.Errorf("read %q as %v (err %v), want %q as %v", o.got, o.in.Compression, o.err, tt.first, tt.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Open waits for more than the first read gave")
			}
		})
	}
	for _, c := range []Compression{Gzip, Bzip2, Zstd} {
		t.Run(c.String()+" a byte a read", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			out, _ := CreateCompressed(path, c, 0o600)
			io.WriteString(out, "[Event \"x\"]\n")
			if err := out.Commit(); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			in, err := Open("-", iotest.OneByteReader(bytes.NewReader(b)))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(in)
			if err != nil || string(got) != "[Event \"x\"]\n" || in.Compression != c {
				t.Errorf("read %q as %v (err %v)", got, in.Compression, err)
			}
		})
	}
	t.Run("a skippable frame a byte a read", func(t *testing.T) {
		in, err := Open("-", iotest.OneByteReader(bytes.NewReader([]byte{0x5e, 0x2a, 0x4d, 0x18, 0, 0, 0, 0})))
		if err != nil {
			t.Fatal(err)
		}
		if in.Compression != Zstd {
			t.Errorf("detected %v, want zstd", in.Compression)
		}
	})
}
