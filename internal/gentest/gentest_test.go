package gentest

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var writeSample = flag.Bool("gentest.sample.write", false, "used by TestFile only")

// recorder is a testing.TB that keeps whether it failed instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true; panic(r) }
func (r *recorder) Logf(string, ...any)   {}
func (r *recorder) Helper()               {}

func TestFile(t *testing.T) {
	const src = "package x\nvar  a = 1\n"
	const formatted = "package x\n\nvar a = 1\n"
	path := filepath.Join(t.TempDir(), "x.go")
	tests := []struct {
		name        string
		onDisk      string // "" : no file
		write       bool
		wantWritten bool
		wantFailed  bool
		wantOnDisk  string
	}{
		{"writes the formatted source", "", true, true, false, formatted},
		{"a file equal to the source passes", formatted, false, false, false, formatted},
		{"a stale file fails", "package x\n\nvar a = 2\n", false, false, true, "package x\n\nvar a = 2\n"},
		{"a missing file fails", "", false, false, true, ""},
		{"an unformatted file fails", src, false, false, true, src},
	}
	defer func() { *writeSample = false }()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(path)
			if tt.onDisk != "" {
				if err := os.WriteFile(path, []byte(tt.onDisk), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			*writeSample = tt.write
			r := &recorder{TB: t}
			written := File(r, path, []byte(src), "gentest.sample.write")
			if written != tt.wantWritten || r.failed != tt.wantFailed {
				t.Errorf("File wrote %v and failed %v, want %v and %v", written, r.failed, tt.wantWritten, tt.wantFailed)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tt.wantOnDisk {
				t.Errorf("file holds %q, want %q", got, tt.wantOnDisk)
			}
		})
	}
}
