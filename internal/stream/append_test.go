package stream

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppender: a file opened, written and closed several times reads
// back as all its writes in order, and the compressors go from file to
// file.
func TestAppender(t *testing.T) {
	parts := []string{"[Event \"a\"]\n\n1. e4 *\n\n", strings.Repeat("[Event \"b\"]\n\n1. d4 *\n\n", 3000), "\n"}
	for _, tc := range []struct {
		name string
		c    Compression
		want Compression // as Open detects it
	}{
		{"plain", None, None},
		{"gzip", Gzip, Gzip},
		{"zstd", Zstd, Zstd},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := NewAppender(tc.c)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			names := []string{filepath.Join(dir, "x"), filepath.Join(dir, "y")}
			for _, p := range parts {
				// Both files open at once, then closed: the second
				// round reuses the first round's compressors.
				var files []*AppendFile
				for _, name := range names {
					f, err := a.Open(name)
					if err != nil {
						t.Fatal(err)
					}
					if f.Name() != name {
						t.Errorf("Name() = %q, want %q", f.Name(), name)
					}
					if _, err := io.WriteString(f, p); err != nil {
						t.Fatal(err)
					}
					files = append(files, f)
				}
				for _, f := range files {
					if err := f.Close(); err != nil {
						t.Fatal(err)
					}
				}
			}
			for _, name := range names {
				in, err := Open(name, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(in)
				in.Close()
				if err != nil || string(got) != strings.Join(parts, "") || in.Compression != tc.want {
					t.Errorf("%s: read back %d bytes as %v (err %v), want %d as %v", name, len(got), in.Compression, err, len(strings.Join(parts, "")), tc.want)
				}
			}
		})
	}
}

func TestAppenderErrors(t *testing.T) {
	if _, err := NewAppender(Bzip2); !errors.Is(err, ErrAppend) {
		t.Errorf("NewAppender(Bzip2): error %v, want ErrAppend", err)
	}
	a, err := NewAppender(Gzip)
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "f.gz")
	if _, err := a.Open(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open(%s): error %v, want ErrNotExist", missing, err)
	}
}
