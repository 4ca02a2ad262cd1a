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

// brokenPipeCommands write their games to stdout, or their reports to
// stderr, and some a file beside them, which a reader of either that goes
// away early must not leave half written, nor its temporary file behind.
var brokenPipeCommands = []struct {
	name   string
	args   []string // OUT stands for the file beside stdout
	other  string   // the file's name, or "" when there is none
	stderr bool     // the reader of stderr goes away, on an input with a warning a game
}{
	{"filter with rejects", []string{"filter", "--sp", "0-500", "--rejects", "OUT"}, "rejects.pgn", false},
	{"dedup with duplicates", []string{"dedup", "--duplicates", "OUT"}, "duplicates.pgn", false},
	{"annotate", []string{"annotate"}, "", false},
	{"annotate with final positions", []string{"annotate", "--final-fen"}, "", false},
	{"export", []string{"export", "--format", "jsonl", "--tags", "all"}, "", false},
	{"tree", []string{"tree", "--format", "json"}, "", false},
	{"filter's warnings", []string{"filter", "--sp", "0-500", "-o", "OUT"}, "selected.pgn", true},
	{"validate's reports", []string{"validate"}, "", true},
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

// brokenPipeInputs writes 4 MB of lichess-like games to dir, more than a
// pipe holds, so that a command writing them meets the closed pipe, and
// the same games with a FEN no program can read, for the warnings.
func brokenPipeInputs(t *testing.T, dir string) (games, warned string) {
	t.Helper()
	data := archivegen.Bytes(archivegen.Options{Seed: 3, Shape: archivegen.Lichess}, 4<<20)
	games, warned = filepath.Join(dir, "games.pgn"), filepath.Join(dir, "warned.pgn")
	if err := os.WriteFile(games, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(warned, bytes.ReplaceAll(data, []byte(`[FEN "`), []byte(`[FEN "x`)), 0o644); err != nil {
		t.Fatal(err)
	}
	return games, warned
}

// TestBrokenPipe: when the reader of stdout goes away (frctool ... |
// head), the run ends as after an error, with no temporary file left and
// the file beside stdout not made, and says nothing, as cat says nothing.
// Before, SIGPIPE ended the process at once: filter left its rejects'
// temporary file in the folder.
func TestBrokenPipe(t *testing.T) {
	dir := t.TempDir()
	games, warned := brokenPipeInputs(t, dir)
	for _, c := range brokenPipeCommands {
		t.Run(c.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close() // the reader went away before the first write
			defer w.Close()
			var other bytes.Buffer
			stdout, stderr, input := io.Writer(w), io.Writer(&other), games
			if c.stderr {
				stdout, stderr, input = &other, w, warned
			}
			code := run(context.Background(), brokenPipeArgs(dir, input, c.args, c.other), nil, stdout, stderr)
			if code != exitBrokenPipe {
				t.Errorf("exit status %d, want %d", code, exitBrokenPipe)
			}
			if !c.stderr && other.Len() > 0 {
				t.Errorf("stderr %q, want nothing", other.String())
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
	games, warned := brokenPipeInputs(t, dir)
	for _, c := range brokenPipeCommands {
		t.Run(c.name, func(t *testing.T) {
			input := games
			if c.stderr {
				input = warned
			}
			args := brokenPipeArgs(dir, input, c.args, c.other)
			cmd := exec.Command(os.Args[0], args[1:]...)
			cmd.Env = append(os.Environ(), "FRCTOOL_RUN_MAIN=1")
			var other bytes.Buffer
			var pipe io.ReadCloser
			var err error
			if c.stderr {
				cmd.Stdout = &other
				pipe, err = cmd.StderrPipe()
			} else {
				cmd.Stderr = &other
				pipe, err = cmd.StdoutPipe()
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadFull(pipe, make([]byte, 100)); err != nil {
				t.Fatalf("reading the first bytes: %v (the other stream %q)", err, other.String())
			}
			pipe.Close()
			err = cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("the process ended with %v, want SIGPIPE", err)
			}
			if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGPIPE {
				t.Errorf("the process ended with %v, want SIGPIPE", err)
			}
			if s := other.String(); !c.stderr && s != "" {
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
