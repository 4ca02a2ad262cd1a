package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
)

// brokenPipeCommands write their games to stdout and, most of them, a
// file beside it, which a reader that goes away early must not leave
// half written, nor its temporary file behind.
var brokenPipeCommands = []struct {
	name  string
	args  []string // OUT stands for the file beside stdout
	other string   // the file's name, or "" when there is none
}{
	{"filter with rejects", []string{"filter", "--sp", "0-500", "--rejects", "OUT"}, "rejects.pgn"},
	{"dedup with duplicates", []string{"dedup", "--duplicates", "OUT"}, "duplicates.pgn"},
	{"annotate", []string{"annotate"}, ""},
	{"annotate with final positions", []string{"annotate", "--final-fen"}, ""},
	{"export", []string{"export", "--format", "jsonl", "--tags", "all"}, ""},
	{"tree", []string{"tree", "--format", "json"}, ""},
}

// brokenPipeArgs makes a command's arguments in dir, reading input.
func brokenPipeArgs(dir, input string, args []string, other string) []string {
	out := []string{"frctool"}
	for _, a := range args {
		if a == "OUT" {
			a = filepath.Join(dir, other)
		}
		out = append(out, a)
	}
	return append(out, input)
}

// brokenPipeInput writes 4 MB of lichess-like games to dir: more than a
// pipe holds, so that a command writing them meets the closed pipe.
func brokenPipeInput(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "games.pgn")
	if err := os.WriteFile(path, archivegen.Bytes(archivegen.Options{Seed: 3, Shape: archivegen.Lichess}, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrokenPipe: when the reader of stdout goes away (frctool ... |
// head), the run ends as after an error, with no temporary file left and
// the file beside stdout not made, and says nothing, as cat says nothing.
// Before, SIGPIPE ended the process at once: filter left its rejects'
// temporary file in the folder.
func TestBrokenPipe(t *testing.T) {
	dir := t.TempDir()
	input := brokenPipeInput(t, dir)
	for _, c := range brokenPipeCommands {
		t.Run(c.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close() // the reader went away before the first write
			defer w.Close()
			var stderr bytes.Buffer
			code := run(context.Background(), brokenPipeArgs(dir, input, c.args, c.other), nil, w, &stderr)
			if code != exitBrokenPipe {
				t.Errorf("exit status %d, want %d", code, exitBrokenPipe)
			}
			if stderr.Len() > 0 {
				t.Errorf("stderr %q, want nothing", stderr.String())
			}
			if c.other != "" {
				if _, err := os.Stat(filepath.Join(dir, c.other)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s was made by a run cut short (%v)", c.other, err)
				}
			}
			assertNoTempFiles(t, dir)
		})
	}
}

// TestBrokenPipeProcess runs frctool itself with its stdout read for a
// moment and closed: the process ends by SIGPIPE, as cat does, so that a
// shell's pipefail and a parent process see what they expect, with
// nothing on stderr and no temporary file left.
func TestBrokenPipeProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	dir := t.TempDir()
	input := brokenPipeInput(t, dir)
	for _, c := range brokenPipeCommands {
		t.Run(c.name, func(t *testing.T) {
			args := brokenPipeArgs(dir, input, c.args, c.other)
			cmd := exec.Command(os.Args[0], args[1:]...)
			cmd.Env = append(os.Environ(), "FRCTOOL_RUN_MAIN=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadFull(stdout, make([]byte, 100)); err != nil {
				t.Fatalf("reading the first bytes: %v (stderr %q)", err, stderr.String())
			}
			stdout.Close()
			err = cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("the process ended with %v, want SIGPIPE", err)
			}
			if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGPIPE {
				t.Errorf("the process ended with %v, want SIGPIPE", err)
			}
			if s := stderr.String(); s != "" {
				t.Errorf("stderr %q, want nothing", s)
			}
			if c.other != "" {
				if _, err := os.Stat(filepath.Join(dir, c.other)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s was made by a run cut short (%v)", c.other, err)
				}
			}
			assertNoTempFiles(t, dir)
		})
	}
}
