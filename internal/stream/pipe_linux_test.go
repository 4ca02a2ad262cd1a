//go:build linux

package stream

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func pipeSize(t *testing.T, f *os.File) int {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	var ferr error
	if err := rc.Control(func(fd uintptr) { n, ferr = unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0) }); err != nil || ferr != nil {
		t.Fatalf("F_GETPIPE_SZ: %v %v", err, ferr)
	}
	return n
}

func TestGrowPipe(t *testing.T) {
	limit := pipeBytes
	if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && n < limit {
			limit = n
		}
	}
	tests := []struct {
		name       string
		start      int // the pipe's size before, 0 for the default
		want       int
		readerSide bool
	}{
		{"default pipe, writer", 0, limit, false},
		{"default pipe, reader", 0, limit, true},
		{"already as large", limit, -1, false},
		{"already larger", 2 * pipeBytes, -1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			if tc.start > 0 {
				rc, _ := w.SyscallConn()
				var ferr error
				_ = rc.Control(func(fd uintptr) { _, ferr = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, tc.start) })
				if ferr != nil {
					t.Skipf("cannot set a pipe to %d bytes here: %v", tc.start, ferr)
				}
				tc.want = pipeSize(t, w)
			}
			f := w
			if tc.readerSide {
				f = r
			}
			GrowPipe(f)
			if got := pipeSize(t, w); got < tc.want {
				t.Errorf("pipe holds %d bytes, want at least %d", got, tc.want)
			} else if tc.start > 0 && got != tc.want {
				t.Errorf("a larger pipe went from %d to %d bytes", tc.want, got)
			}
			// The pipe still works.
			if _, err := w.Write([]byte("x")); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 1)
			if n, err := r.Read(buf); n != 1 || err != nil {
				t.Fatalf("read %d, %v", n, err)
			}
		})
	}
	t.Run("regular file", func(t *testing.T) {
		f, err := os.Create(filepath.Join(t.TempDir(), "f"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		GrowPipe(f) // nothing to do, and no harm
		if _, err := f.WriteString("still writable"); err != nil {
			t.Fatal(err)
		}
	})
}

// TestReaderGone: only a pipe whose reader closed it is gone; a pipe
// with its reader, a full one, a file and the reading end are not.
func TestReaderGone(t *testing.T) {
	pipe := func(t *testing.T) (r, w *os.File) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close(); w.Close() })
		return r, w
	}
	tests := []struct {
		name string
		file func(t *testing.T) *os.File
		want bool
	}{
		{"reader closed", func(t *testing.T) *os.File { r, w := pipe(t); r.Close(); return w }, true},
		{"reader closed after a write", func(t *testing.T) *os.File {
			r, w := pipe(t)
			w.Write([]byte("x"))
			r.Close()
			return w
		}, true},
		{"reader open", func(t *testing.T) *os.File { _, w := pipe(t); return w }, false},
		{"full, reader open", func(t *testing.T) *os.File {
			_, w := pipe(t)
			w.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
			for {
				if _, err := w.Write(make([]byte, 64<<10)); err != nil {
					break
				}
			}
			return w
		}, false},
		{"reading end", func(t *testing.T) *os.File { r, _ := pipe(t); return r }, false},
		{"file", func(t *testing.T) *os.File {
			f, err := os.Create(filepath.Join(t.TempDir(), "f"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			return f
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReaderGone(tc.file(t)); got != tc.want {
				t.Errorf("ReaderGone = %v, want %v", got, tc.want)
			}
		})
	}
}
