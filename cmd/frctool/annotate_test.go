package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/frctool/frctool/internal/stream"
)

const oneGame = "[Event \"x\"]\n[FEN \"" + fenSP0 + "\"]\n\n1. a4 *\n"
const oneGameAnnotated = "[Event \"x\"]\n[FEN \"" + fenSP0 + "\"]\n[Chess960 \"0\"]\n[Chess960Fritz9 \"81\"]\n\n1. a4 *\n"

func TestAnnotateCommand(t *testing.T) {
	runCases(t, []runCase{
		{name: "stdin to stdout", args: []string{"annotate", "-q"}, stdin: oneGame, stdout: oneGameAnnotated},
		{name: "dash is stdin", args: []string{"annotate", "-q", "-"}, stdin: oneGame, stdout: oneGameAnnotated},
		{name: "summary line", args: []string{"annotate"}, stdin: oneGame, stdout: oneGameAnnotated,
			stderr: "frctool: annotate: 1 game, 1 identified (1 distinct SP), 0 DFRC, 0 other start positions, 0 unknown, 0 warnings\n"},
		{name: "warnings name file and line", args: []string{"annotate", "-q"}, stdin: "[Event \"x\"]\n[FEN \"?\"]\n\n*\n",
			stdout: "[Event \"x\"]\n[FEN \"?\"]\n\n*\n", stderr: "stdin:2: start position unknown: [FEN \"?\"]\n"},
		{name: "no fritz9", args: []string{"annotate", "-q", "--no-fritz9", "--sp-tag", "SP"}, stdin: oneGame,
			stdout: "[Event \"x\"]\n[FEN \"" + fenSP0 + "\"]\n[SP \"0\"]\n\n1. a4 *\n"},
		{name: "plycount and final fen", args: []string{"annotate", "-q", "--no-fritz9", "--plycount", "--final-fen"}, stdin: oneGame,
			stdout: "[Event \"x\"]\n[FEN \"" + fenSP0 + "\"]\n[Chess960 \"0\"]\n[PlyCount \"1\"]\n\n1. a4 { \"bbqnnrkr/pppppppp/8/8/P7/8/1PPPPPPP/BBQNNRKR b HFhf - 0 1\" } *\n"},
		{name: "summary counts replayed games", args: []string{"annotate", "--plycount"}, stdin: oneGame + "\n[Event \"y\"]\n\n1. e5 *\n",
			stdout: "[Event \"x\"]\n[FEN \"" + fenSP0 + "\"]\n[Chess960 \"0\"]\n[Chess960Fritz9 \"81\"]\n[PlyCount \"1\"]\n\n1. a4 *\n\n[Event \"y\"]\n[Chess960 \"518\"]\n[Chess960Fritz9 \"359\"]\n\n1. e5 *\n",
			stderr: "stdin:8: game 2 (? - ?), move 1.: illegal move 'e5': no pawn can move to e5\nfrctool: annotate: 2 games, 2 identified (2 distinct SPs), 0 DFRC, 0 other start positions, 0 unknown, 1 warning, 1 replayed\n"},
		{name: "unplayable move is reported", args: []string{"annotate", "-q", "--no-fritz9", "--plycount"}, stdin: "[Event \"x\"]\n\n1. e5 *\n",
			stdout: "[Event \"x\"]\n[Chess960 \"518\"]\n\n1. e5 *\n", stderr: "stdin:3: game 1 (? - ?), move 1.: illegal move 'e5': no pawn can move to e5\n"},
		{name: "missing file", args: []string{"annotate", "-q", "nope.pgn"}, exitCode: 1, stderr: "frctool: nope.pgn: no such file or directory\n"},
		{name: "bad castling style", args: []string{"annotate", "--castling", "fancy"}, exitCode: 2, errHas: "--castling must be xfen or shredder"},
		{name: "bad tag name", args: []string{"annotate", "--sp-tag", "a b"}, exitCode: 2, errHas: `frctool: bad tag name: the SP tag "a b": letters, digits and _ only` + "\n"},
		{name: "a tag the number would replace", args: []string{"annotate", "--sp-tag", "FEN"}, exitCode: 2, errHas: `frctool: bad tag name: the SP tag "FEN" would replace the game's own [FEN]` + "\n"},
		{name: "one tag for both numbers", args: []string{"annotate", "--sp-tag", "N", "--fritz9-tag", "N"}, exitCode: 2, errHas: `frctool: bad tag name: the SP and Fritz9 tags are both "N"` + "\n"},
		{name: "backup without in-place", args: []string{"annotate", "--backup", ".bak", "x.pgn"}, exitCode: 2, errHas: "--backup goes with --in-place"},
		{name: "in-place on stdin", args: []string{"annotate", "--in-place"}, exitCode: 2, errHas: "--in-place needs FILE arguments"},
		{name: "stdin twice", args: []string{"annotate", "-", "-"}, exitCode: 2, errHas: "can be read only once"},
		{name: "unknown flag", args: []string{"annotate", "--bogus"}, exitCode: 2, errHas: "unknown flag --bogus\n"},
	})
}

// compress writes data in format c to a new file in dir.
func compress(t *testing.T, dir, name string, c stream.Compression, data string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	out, err := stream.CreateCompressed(path, c, 0o640)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(out, data)
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	return path
}

func decompress(t *testing.T, path string) string {
	t.Helper()
	in, err := stream.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	b, err := io.ReadAll(in)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAnnotateCompression(t *testing.T) {
	for _, c := range []struct {
		ext string
		c   stream.Compression
	}{{".pgn", stream.None}, {".pgn.gz", stream.Gzip}, {".pgn.bz2", stream.Bzip2}, {".pgn.zst", stream.Zstd}} {
		t.Run(c.c.String(), func(t *testing.T) {
			dir := t.TempDir()
			in := compress(t, dir, "in"+c.ext, c.c, oneGame)
			// Any input format, to an output compressed as its name says.
			out := filepath.Join(dir, "out"+c.ext)
			runCase{name: "to file", args: []string{"annotate", "-q", in, "-o", out}}.check(t)
			if got := decompress(t, out); got != oneGameAnnotated {
				t.Errorf("-o %s holds %q", out, got)
			}
			if head, _ := os.ReadFile(out); stream.Detect(head) != c.c {
				t.Errorf("-o %s is not %v", out, c.c)
			}
			// In place: same compression, same mode, a backup.
			runCase{name: "in place", args: []string{"annotate", "-q", "--in-place", "--backup", ".orig", in}}.check(t)
			if got := decompress(t, in); got != oneGameAnnotated {
				t.Errorf("--in-place left %q", got)
			}
			if head, _ := os.ReadFile(in); stream.Detect(head) != c.c {
				t.Errorf("--in-place changed the compression")
			}
			if fi, _ := os.Stat(in); fi.Mode().Perm() != 0o640 {
				t.Errorf("--in-place changed the mode to %v", fi.Mode().Perm())
			}
			if got := decompress(t, in+".orig"); got != oneGame {
				t.Errorf("backup holds %q", got)
			}
			assertNoTempFiles(t, dir)
		})
	}
}

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.frctool-*.tmp"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// A corrupt compressed file fails halfway through: the original must stay
// as it was, with no temporary file left.
func TestAnnotateInPlaceFailureKeepsOriginal(t *testing.T) {
	dir := t.TempDir()
	var games strings.Builder
	for games.Len() < 4<<20 {
		games.WriteString(oneGame + "\n")
	}
	path := compress(t, dir, "big.pgn.gz", stream.Gzip, games.String())
	data, _ := os.ReadFile(path)
	corrupt := append([]byte(nil), data...)
	for i := len(corrupt) / 2; i < len(corrupt)/2+64; i++ {
		corrupt[i] ^= 0x55
	}
	os.WriteFile(path, corrupt, 0o644)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"frctool", "annotate", "-q", "--in-place", path}, nil, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d on a corrupt input, want 1; stderr %s", code, stderr.String())
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, corrupt) {
		t.Error("the original was changed by a failed --in-place run")
	}
	assertNoTempFiles(t, dir)
}

// TestMain lets tests run this test binary as frctool itself, for the
// interrupt test and the README's and --help's examples.
func TestMain(m *testing.M) {
	if os.Getenv("FRCTOOL_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// A signal halfway through --in-place (Ctrl-C, kill, or SIGHUP when the
// terminal closes) leaves either the original or the complete new file,
// and no temporary file.
func TestAnnotateInPlaceInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			var games strings.Builder
			for games.Len() < 64<<20 {
				games.WriteString(oneGame + "\n")
			}
			path := filepath.Join(dir, "big.pgn")
			os.WriteFile(path, []byte(games.String()), 0o644)
			cmd := exec.Command(os.Args[0], "annotate", "-q", "--in-place", path)
			cmd.Env = append(os.Environ(), "FRCTOOL_RUN_MAIN=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Signal once the temporary file exists: the handler is in
			// place by then and the new file is half written.
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				if tmp, _ := filepath.Glob(filepath.Join(dir, ".*.frctool-*.tmp")); len(tmp) > 0 {
					break
				}
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			now, _ := os.ReadFile(path)
			switch {
			case err != nil && bytes.Equal(now, []byte(games.String())):
				if !strings.Contains(stderr.String(), "interrupted") {
					t.Errorf("stderr after %v: %q (%v)", sig, stderr.String(), err)
				}
			case err == nil && bytes.HasPrefix(now, []byte(oneGameAnnotated)):
				t.Logf("the run finished before %v", sig)
			default:
				t.Errorf("after %v (exit %v) the file is neither the original nor the result", sig, err)
			}
			assertNoTempFiles(t, dir)
		})
	}
}

// A compressed input cut short fails with exit 1, naming the file, and
// standard output still gets every game read before the cut.
func TestAnnotateTruncatedInputKeepsGamesOnStdout(t *testing.T) {
	dir := t.TempDir()
	var games strings.Builder
	for i := 0; i < 2000; i++ {
		games.WriteString(oneGame + "\n")
	}
	path := compress(t, dir, "cut.pgn.gz", stream.Gzip, games.String())
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)/2], 0o644)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"frctool", "annotate", "-q", path}, nil, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "cut.pgn.gz: gzip: unexpected EOF") {
		t.Fatalf("exit %d, stderr %q; want 1 and the file named", code, stderr.String())
	}
	if n := strings.Count(stdout.String(), "[Chess960 \"0\"]"); n < 100 {
		t.Errorf("only %d annotated games reached stdout before the error", n)
	}
}
