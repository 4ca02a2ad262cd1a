// Command frctool identifies, numbers, annotates and counts Chess960
// (Fischer random chess) start positions in FEN lines and PGN archives.
//
// Run "frctool --help" for the commands, and "frctool COMMAND --help" for
// each command's flags and an example.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/frctool/frctool/internal/stream"
	"github.com/urfave/cli/v3"
	"golang.org/x/term"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// versionString is what --version prints: the version set at build time,
// else the module version the go command recorded (v1.2.3 after
// "go install github.com/frctool/frctool/cmd/frctool@v1.2.3", a pseudo-version
// in a checkout built with VCS stamping), else "dev".
func versionString() string {
	if version != "dev" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return version
}

// stopSignals end a run the way an error does: outputs being written are
// discarded, with no temporary file left. SIGHUP is among them since a
// closed terminal or ssh session sends it.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit statuses, the same for every command.
const (
	exitOK      = 0
	exitFailure = 1 // an input could not be read or written
	exitUsage   = 2 // the command line itself is wrong
)

// run is main without the process: it takes the arguments and the three
// standard streams and returns the exit status, so tests can call it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp()
	if f, ok := stdout.(*os.File); ok {
		// The commands write through errWriter, in which stream cannot
		// see the pipe.
		stream.GrowPipe(f)
	}
	// A terminal stays an *os.File, for the commands that ask whether
	// they write to one; errors writing to it are not worth a status.
	out := &errWriter{w: stdout}
	app.Reader, app.Writer, app.ErrWriter = stdin, out, stderr
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		app.Writer = stdout
	}
	err := app.Run(ctx, args)
	if err == nil && out.err != nil {
		err = fmt.Errorf("stdout: %w", out.err)
	}
	if err == nil {
		if a, ok := app.Metadata[archivesKey].(*archives); ok && a.failed() {
			// Every input that failed is already on stderr.
			return exitFailure
		}
		return exitOK
	}
	var ue usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "frctool: %v\n", ue.err)
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", ue.command)
		return exitUsage
	case errors.Is(err, errReported):
		// The details are already on stderr, one line per failed input.
		return exitFailure
	case errors.Is(err, context.Canceled):
		// A stop signal ended the run: "context canceled" would say
		// nothing to a user who pressed Ctrl-C.
		fmt.Fprintln(stderr, "frctool: interrupted")
		return exitFailure
	default:
		fmt.Fprintf(stderr, "frctool: %v\n", err)
		return exitFailure
	}
}

// errWriter keeps the first error writing to stdout (a full disk, a
// closed pipe), which commands that print with fmt would otherwise lose:
// run then exits with status 1. Writes after an error are dropped.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// usageError is an error in the command line: exit status 2.
type usageError struct {
	err     error
	command string // "frctool convert", for the hint to --help
}

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef reports a command-line mistake found by a command's own checks.
func usagef(cmd *cli.Command, format string, a ...any) error {
	return usageError{err: fmt.Errorf(format, a...), command: cmd.FullName()}
}

// errReported means a command has already written its errors to stderr
// (e.g. one line per unreadable input) and only the exit status is left.
var errReported = errors.New("errors were reported")

func newApp() *cli.Command {
	app := &cli.Command{
		Name:    "frctool",
		Usage:   "Chess960 start positions: numbers, FENs and PGN archives",
		Version: versionString(),
		Description: `frctool numbers Chess960 (Fischer random chess) start positions the way the
world does (Scharnagl's SP 0..959, standard chess is SP 518) and the way
ChessBase Fritz 9 did (1..960, standard chess is 359), and applies that to
FEN lines and PGN archives.

Example:
   frctool identify 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1'`,
		EnableShellCompletion: true,
		Commands:              commands(),
		// Errors are printed by run, once, with the frctool: prefix.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				name := cmd.Args().First()
				if near := nearest(name, commandNames(cmd)); near != "" {
					return usagef(cmd, "unknown command %q; did you mean %s?", name, near)
				}
				return usagef(cmd, "unknown command %q", name)
			}
			return cli.ShowRootCommandHelp(cmd)
		},
	}
	setUsageErrors(app)
	return app
}

// commands lists frctool's commands in the order --help shows them.
func commands() []*cli.Command {
	return []*cli.Command{
		identifyCommand(),
		convertCommand(),
		tablesCommand(),
		randomCommand(),
		showCommand(),
		annotateCommand(),
		statsCommand(),
		treeCommand(),
		filterCommand(),
		splitCommand(),
		dedupCommand(),
		validateCommand(),
		exportCommand(),
	}
}

// setUsageErrors makes flag-parsing mistakes of every command usage errors,
// which exit with status 2 instead of 1.
func setUsageErrors(cmd *cli.Command) {
	cmd.OnUsageError = func(_ context.Context, c *cli.Command, err error, _ bool) error {
		return usageError{err: flagError(c, err), command: c.FullName()}
	}
	for _, sub := range cmd.Commands {
		setUsageErrors(sub)
	}
}

// The flag package's messages for a flag it does not know and for a value
// it cannot read, which name the flag with one dash whatever was typed.
var (
	notDefined = regexp.MustCompile(`^flag provided but not defined: -(.+)$`)
	badValue   = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): (.*)$`)
)

// flagError words err, when it is the flag package's, the way frctool's
// own usage errors are: the flag as typed, then what is wrong. An unknown
// flag comes with the command's nearest flag when one is close ("unknown
// flag --grup-by; did you mean --group-by?"); a value that is not a
// number says so ("--count \"abc\": want a whole number").
func flagError(c *cli.Command, err error) error {
	if m := notDefined.FindStringSubmatch(err.Error()); m != nil {
		var names []string
		for _, f := range c.Flags {
			names = append(names, f.Names()...)
		}
		if near := nearest(m[1], names); near != "" {
			return fmt.Errorf("unknown flag %s; did you mean %s?", dashed(m[1]), dashed(near))
		}
		return fmt.Errorf("unknown flag %s", dashed(m[1]))
	}
	if m := badValue.FindStringSubmatch(err.Error()); m != nil {
		why := m[3]
		switch {
		case strings.HasSuffix(why, strconv.ErrRange.Error()):
			why = "out of range"
		case strings.HasPrefix(why, "strconv.ParseFloat"):
			why = "want a number"
		case strings.HasPrefix(why, "strconv.ParseUint"):
			why = "want a whole number, 0 or more"
		case strings.HasPrefix(why, "strconv.Parse"):
			why = "want a whole number"
		case why == "parse error": // a boolean flag's
			why = "want true or false"
		}
		return fmt.Errorf("%s %q: %s", dashed(m[2]), m[1], why)
	}
	return err
}

// dashed writes a flag's name as it is typed: -q, --quiet.
func dashed(name string) string {
	if utf8.RuneCountInString(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// commandNames are the names and aliases of cmd's subcommands.
func commandNames(cmd *cli.Command) []string {
	var names []string
	for _, sub := range cmd.Commands {
		names = append(names, sub.Names()...)
	}
	return names
}

// nearest returns the name of names that typed most probably meant, or ""
// when none is close: one that differs only in case, else the closest by
// edit distance, ignoring case, with at most a third of its letters and at
// least one changed. A one-letter name is only matched in the other case:
// any other letter is one change away.
func nearest(typed string, names []string) string {
	for _, n := range names {
		if strings.EqualFold(typed, n) {
			return n
		}
	}
	size := utf8.RuneCountInString(typed)
	if size < 2 {
		return ""
	}
	best, bestDist := "", max(1, size/3)+1
	for _, n := range names {
		if d := editDistance(strings.ToLower(typed), strings.ToLower(n)); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the number of characters to insert, delete, replace or
// swap with the next one to make b of a (Damerau's optimal string
// alignment distance): "stast" is one swap from "stats".
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] is the distance between ra[:i] and rb[:j].
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// Every command's description ends with an "Example" section, so that its
// --help shows one: the text, then exampleHead (or examplesHead), then the
// examples joined by nextExample. The pieces are constants, so that the
// commands' help texts, which every start makes whatever the command, are
// static data rather than 23 kB built each time.
const (
	exampleHead  = "\n\nExample:\n   "
	examplesHead = "\n\nExamples:\n   "
	nextExample  = "\n   "
)
