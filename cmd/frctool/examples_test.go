package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frctool/frctool/internal/sharedtest"
)

// A readmeExample is a command of the README's shell transcripts, "$ " and
// the command, with the output shown under it.
type readmeExample struct {
	line    int // the README's line of the command
	command string
	want    []string
}

// readmeTranscripts returns the README's transcripts, one a fenced block
// that holds a "$ " line, each a list of its commands in order: commands
// of one block share a folder, as a reader typing them one after the
// other would.
func readmeTranscripts(text string) [][]readmeExample {
	var blocks [][]readmeExample
	var block []readmeExample
	inFence := false
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "```"):
			if inFence && len(block) > 0 {
				blocks = append(blocks, block)
			}
			inFence, block = !inFence, nil
		case inFence && strings.HasPrefix(line, "$ "):
			ex := readmeExample{line: i + 1, command: strings.TrimPrefix(line, "$ ")}
			for strings.HasSuffix(ex.command, `\`) && i+1 < len(lines) {
				i++
				ex.command = strings.TrimSuffix(ex.command, `\`) + strings.TrimSpace(lines[i])
			}
			block = append(block, ex)
		case inFence && len(block) > 0:
			last := &block[len(block)-1]
			last.want = append(last.want, line)
		}
	}
	for _, b := range blocks {
		for i := range b {
			for len(b[i].want) > 0 && b[i].want[len(b[i].want)-1] == "" {
				b[i].want = b[i].want[:len(b[i].want)-1]
			}
		}
	}
	return blocks
}

// stderrLine tells the lines a transcript shows that a command writes to
// standard error: frctool's own messages, problems as file:line: message,
// and the errors of the other programs in a pipeline.
var stderrLine = regexp.MustCompile(`^(frctool: |Run 'frctool |[^ ]+:[0-9]+: |ls: )`)

// matchLines reports whether got is want, where a line "..." in want
// stands for any number of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && matchLines(want[1:], got[1:])
}

func splitLines(b []byte) []string {
	s := strings.TrimRight(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// TestReadmeExamples runs the README's shell transcripts with this test
// binary as frctool and compares what each command writes with what the
// README shows: standard output line for line (a "..." line standing for
// any lines), and standard error line for line. The archive generator the
// README runs with go run is built and run as a program. An example whose
// input is not here (the real archives of ../shared in a user's clone, or a file
// the README only names, such as lichess.pgn.zst) is skipped, with the
// rest of its transcript; so is one that shows a terminal's narrowed table,
// or needs a program that is not installed.
func TestReadmeExamples(t *testing.T) {
	env, bin := shellWithFrctool(t)
	text, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	shared := sharedtest.Root()

	blocks := readmeTranscripts(string(text))
	ran := 0
	builtPgngen := false
	for _, block := range blocks {
		// The commands run in work/, beside a copy of the repository's
		// testdata, with a copy of ../shared/realdata where the README's
		// paths expect it, and its TCEC archives at hand for the examples
		// that name them bare.
		root := t.TempDir()
		work := filepath.Join(root, "work")
		if err := os.Mkdir(work, 0o755); err != nil {
			t.Fatal(err)
		}
		// testdata is copied, not linked: an example may write where it
		// reads, and the repository's files must stay as they are.
		if err := os.CopyFS(filepath.Join(work, "testdata"), os.DirFS(filepath.Join(repo, "testdata"))); err != nil {
			t.Fatal(err)
		}
		if shared != "" {
			// So are the real archives (5.6 MB), for the same reason.
			realdata := filepath.Join(root, "shared", "realdata")
			if err := os.CopyFS(realdata, os.DirFS(filepath.Join(shared, "realdata"))); err != nil {
				t.Fatal(err)
			}
			tcec, _ := filepath.Glob(filepath.Join(realdata, "tcec", "*.pgn"))
			for _, f := range tcec {
				if err := os.Symlink(f, filepath.Join(work, filepath.Base(f))); err != nil {
					t.Fatal(err)
				}
			}
		}
		status := 0
		for _, ex := range block {
			if rest, ok := strings.CutPrefix(ex.command, pgngenRun); ok {
				// The generator the README runs with go run is built
				// once, and run as the built program.
				if !builtPgngen {
					builtPgngen = buildPgngen(t, repo, bin)
				}
				if builtPgngen {
					ex.command = "pgngen" + rest
				}
			}
			skip := runReadmeExample(t, ex, work, env, bin, &status)
			if skip != "" {
				t.Logf("README.md:%d: skipped with the rest of its transcript: %s", ex.line, skip)
				break
			}
			ran++
		}
	}
	t.Logf("ran %d of the README's examples", ran)
	// Most transcripts run everywhere, on testdata and on what they make
	// (15 in a clone without ../shared, 24 with it).
	// A change that skipped them all would pass without this.
	if min := 8; ran < min {
		t.Errorf("ran %d of the README's examples, want %d or more", ran, min)
	}
}

// shellWithFrctool returns an environment in which sh finds this test
// binary as frctool, run as the program itself (see TestMain), and the
// folder on its PATH that holds it. It skips the test in -short mode,
// which runs no processes, and where there is no sh.
func shellWithFrctool(t *testing.T) (env []string, bin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs examples as processes")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh:", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin = t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, "frctool")); err != nil {
		t.Skip("cannot link this test binary as frctool:", err)
	}
	return append(os.Environ(), "FRCTOOL_RUN_MAIN=1", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH")), bin
}

// runShell runs command with sh in dir, with env, and returns what it
// wrote and its exit status.
func runShell(t *testing.T, command, dir string, env []string) (stdout, stderr []byte, status int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir, cmd.Env = dir, env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", command, err)
	}
	return out.Bytes(), errOut.Bytes(), status
}

// missingProgram returns the first program of command's pipeline that is
// neither in bin nor installed, or "".
func missingProgram(command, bin string) string {
	words := shellWords(command)
	for i, w := range words {
		if i > 0 && words[i-1] != "|" || w == "|" {
			continue // not the first word of a stage
		}
		if _, err := os.Stat(filepath.Join(bin, w)); err == nil {
			continue
		}
		if _, err := exec.LookPath(w); err != nil {
			return w
		}
	}
	return ""
}

// pgngenRun is how the README runs the project's archive generator.
const pgngenRun = "go run ./internal/archivegen/cmd/pgngen"

// buildPgngen builds the archive generator into bin, from the module in
// repo, and reports whether it could: the go command may not be at hand.
func buildPgngen(t *testing.T, repo, bin string) bool {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Log("no go command to build pgngen:", err)
		return false
	}
	build := exec.Command(goCmd, "build", "-o", filepath.Join(bin, "pgngen"), "./internal/archivegen/cmd/pgngen")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("go build pgngen: %v\n%s", err, out)
		return false
	}
	return true
}

// runReadmeExample runs one example in dir, with env and the programs in
// bin, and reports a mismatch as a test error. It returns why the example was skipped, or "". status holds
// the exit status of the command before, for an "echo $?" example.
func runReadmeExample(t *testing.T, ex readmeExample, dir string, env []string, bin string, status *int) (skip string) {
	t.Helper()
	if ex.command == "echo $?" {
		if got := strconv.Itoa(*status); len(ex.want) != 1 || ex.want[0] != got {
			t.Errorf("README.md:%d: the command before exited %s; the README shows %q", ex.line, got, ex.want)
		}
		return ""
	}
	if strings.HasPrefix(ex.command, "go ") {
		return "runs the go command"
	}
	if p := missingProgram(ex.command, bin); p != "" {
		return p + " is not installed"
	}
	for _, w := range ex.want {
		if strings.Contains(w, "to fit the terminal") {
			return "shows a terminal's table"
		}
	}
	stdout, stderr, code := runShell(t, ex.command, dir, env)
	*status = code
	if bytes.Contains(stderr, []byte("no such file or directory")) && !strings.Contains(strings.Join(ex.want, "\n"), "no such file or directory") {
		return "an input is not here: " + strings.TrimSpace(string(stderr))
	}
	var wantOut, wantErr []string
	for _, w := range ex.want {
		if stderrLine.MatchString(w) {
			wantErr = append(wantErr, w)
		} else {
			wantOut = append(wantOut, w)
		}
	}
	// A blank line the README leaves between the output and the messages
	// is the transcript's, not the command's.
	for len(wantOut) > 0 && wantOut[len(wantOut)-1] == "" {
		wantOut = wantOut[:len(wantOut)-1]
	}
	if got := splitLines(stdout); !matchLines(wantOut, got) {
		t.Errorf("README.md:%d: $ %s\nstandard output:\n%s\nthe README shows:\n%s", ex.line, ex.command, strings.Join(got, "\n"), strings.Join(wantOut, "\n"))
	}
	if got := splitLines(stderr); !matchLines(wantErr, got) {
		t.Errorf("README.md:%d: $ %s\nstandard error:\n%s\nthe README shows:\n%s", ex.line, ex.command, strings.Join(got, "\n"), strings.Join(wantErr, "\n"))
	}
	return ""
}

// helpExamples returns the example commands of a command's description:
// the lines under "Example:" or "Examples:", without a trailing comment.
func helpExamples(description string) []string {
	_, after, ok := strings.Cut(description, "Example")
	if !ok {
		return nil
	}
	var examples []string
	for _, line := range strings.Split(after, "\n")[1:] {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, "   #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if strings.Contains(line, "frctool ") {
			examples = append(examples, line)
		}
	}
	return examples
}

// shellWords splits a command into its words as sh would, quotes removed,
// and with no expansion; a pipe that is not quoted is a word of its own.
func shellWords(command string) []string {
	var words []string
	var word strings.Builder
	var quote rune
	inWord := false
	for _, c := range command {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				word.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '|':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
			if c == '|' {
				words = append(words, "|")
			}
		default:
			word.WriteRune(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}

// exampleInputs makes in dir the archives an example names as its inputs,
// each a copy of game: every word ending in .pgn, .pgn.gz, .pgn.bz2 or
// .pgn.zst that is not an output (after -o, --output, --rejects,
// --duplicates or ">"), with two files for a pattern such as games/*.pgn.
// frctool tells compression by content, so a plain copy serves for every
// name.
func exampleInputs(t *testing.T, dir, command string, game []byte) {
	t.Helper()
	outputFlag := map[string]bool{"-o": true, "--output": true, "--rejects": true, "--duplicates": true, ">": true}
	words := shellWords(command)
	for i, w := range words {
		if i > 0 && outputFlag[words[i-1]] {
			continue
		}
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(w, ".gz"), ".bz2"), ".zst")
		if !strings.HasSuffix(base, ".pgn") || strings.HasPrefix(w, "-") {
			continue
		}
		names := []string{w}
		if strings.Contains(w, "*") {
			names = []string{strings.Replace(w, "*", "a", 1), strings.Replace(w, "*", "b", 1)}
		}
		for _, name := range names {
			path := filepath.Join(dir, name)
			if _, err := os.Stat(path); err == nil {
				continue // made by an example before, or named twice
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, game, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestHelpExamplesRun runs the examples of every command's --help, in
// order, in a folder of the command's own that holds the inputs each names
// (copies of testdata/dialects.pgn) and what the examples before it wrote,
// and wants each to exit 0. An example that fetches from the network or needs a program
// that is not installed is skipped, and so is one whose input only an
// example skipped would have made.
func TestHelpExamplesRun(t *testing.T) {
	env, bin := shellWithFrctool(t)
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	game, err := os.ReadFile(filepath.Join(testdata, "dialects.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, c := range commands() {
		examples := helpExamples(c.Description)
		if len(examples) == 0 {
			t.Errorf("%s: no example in --help", c.Name)
			continue
		}
		dir := t.TempDir()
		if err := os.CopyFS(filepath.Join(dir, "testdata"), os.DirFS(testdata)); err != nil {
			t.Fatal(err)
		}
		for _, ex := range examples {
			if strings.Contains(ex, "://") {
				t.Logf("%s: skipped, it fetches from the network: %s", c.Name, ex)
				continue
			}
			if p := missingProgram(ex, bin); p != "" {
				t.Logf("%s: skipped, %s is not installed: %s", c.Name, p, ex)
				continue
			}
			exampleInputs(t, dir, ex, game)
			_, stderr, status := runShell(t, ex, dir, env)
			if status == 1 && bytes.Contains(stderr, []byte("no such file or directory")) {
				t.Logf("%s: skipped, its input comes from an example skipped: %s\n%s", c.Name, ex, stderr)
				continue
			}
			if status != 0 {
				t.Errorf("%s --help example exits %d: %s\n%s", c.Name, status, ex, stderr)
			}
			ran++
		}
	}
	t.Logf("ran %d --help examples", ran)
}
