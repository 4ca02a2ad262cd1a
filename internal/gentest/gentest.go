// Package gentest keeps the Go files that frctool's tests generate (tables
// compiled into the program so that start-up computes nothing) equal to
// what their tests generate now.
//
// A test builds the file's source and calls File with the name of its
// -…write flag: with the flag set the file is written, and otherwise the
// file in the tree must be exactly that source, so a table edited by hand
// or left behind by a change of its generator fails the test.
package gentest

import (
	"bytes"
	"flag"
	"go/format"
	"os"
	"testing"
)

// File formats src as Go. When the boolean flag named write is set it
// writes src to path and reports true: the test should stop there and be
// run again to check what it wrote. Otherwise it fails t unless path holds
// exactly the formatted src, and reports false.
func File(t testing.TB, path string, src []byte, write string) (written bool) {
	t.Helper()
	formatted, err := format.Source(src)
	if err != nil {
		t.Fatalf("%s: the generated source does not format: %v", path, err)
	}
	if f := flag.Lookup(write); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, formatted, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s; run the tests again to check it", path)
		return true
	}
	if file, err := os.ReadFile(path); err != nil || !bytes.Equal(file, formatted) {
		t.Errorf("%s is not what go test -run '^%s$' -%s writes (%v)", path, t.Name(), write, err)
	}
	return false
}
