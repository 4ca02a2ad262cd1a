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
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/urfave/cli/v3"
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
	// A reader that stops early (frctool ... | head) closes the pipe.
	// Unasked for, SIGPIPE would end the process at the next write to
	// it, with no deferred function run: the temporary files of the
	// other outputs (filter's --rejects) would stay behind. Asked for,
	// it makes the write fail instead, the run ends as after any error,
	// and then the process ends by SIGPIPE, silently, as cat does.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if code == exitBrokenPipe {
		// No longer asked for, SIGPIPE ends the process at a write to
		// a broken standard output or error (os/signal's rule for
		// them); written to only when its reader is gone, neither gets
		// the byte.
		signal.Reset(syscall.SIGPIPE)
		for _, f := range []*os.File{os.Stdout, os.Stderr} {
			if stream.ReaderGone(f) {
				f.Write([]byte{'\n'})
			}
		}
	}
	os.Exit(code)
}

// Exit statuses, the same for every command.
const (
	exitOK      = 0
	exitFailure = 1 // an input could not be read or written
	exitUsage   = 2 // the command line itself is wrong
	// exitBrokenPipe is run's status when the reader of standard output
	// or error went away: the status a shell shows for a process SIGPIPE
	// ended, which main ends it by.
	exitBrokenPipe = 128 + 13
)

// run is main without the process: it takes the arguments and the three
// standard streams and returns the exit status, so tests can call it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer catchPanic(stderr, &code)
	app := newApp()
	if f, ok := stdout.(*os.File); ok {
		// The commands write through errWriter, in which stream cannot
		// see the pipe.
		stream.GrowPipe(f)
	}
	// A terminal stays an *os.File, for the commands that ask whether
	// they write to one; errors writing to it are not worth a status.
	out := &errWriter{w: stdout}
	// The reader of stderr going away (frctool validate x.pgn 2>&1 |
	// head) stops the run too: its messages can no longer be read.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errOut := &errWriter{w: stderr, broken: cancel}
	app.Reader, app.Writer, app.ErrWriter = stdin, out, errOut
	if isTerminal(stdout) {
		app.Writer = stdout
	}
	if isTerminal(stderr) {
		app.ErrWriter = stderr
	}
	err := app.Run(ctx, args)
	err = helpTopicError(app, err)
	if brokenPipe(out) || brokenPipe(errOut) {
		// The run ended as after any error, its other outputs left as
		// they were. Nothing is said, as cat says nothing.
		return exitBrokenPipe
	}
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
		fmt.Fprintf(stderr, "frctool: %s\n", printable(ue.err.Error()))
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
		fmt.Fprintf(stderr, "frctool: %s\n", printable(err.Error()))
		return exitFailure
	}
}

// printable escapes the control characters of a message for the terminal
// it is shown on, as pgn.ParseError does: a file name or an argument may
// hold an escape sequence. Line breaks are kept, since --where's caret
// stands on the line under the expression.
func printable(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = pgn.EscapeControls(l)
	}
	return strings.Join(lines, "\n")
}

// catchPanic, deferred, reports a panic (a bug in frctool) with its
// stack and the game it happened on, removes the temporary files of the
// outputs being written, which the panic kept their Aborts from removing,
// and sets the exit status to 1. The files under the outputs' names are
// left as they were, as after any other failure. A panic on a worker of
// a run reaches it too: pipeline.Run panics again on the calling
// goroutine.
func catchPanic(stderr io.Writer, code *int) {
	v := recover()
	if v == nil {
		return
	}
	stream.RemoveTemporaries()
	var msg string
	var stack []byte
	if p, ok := v.(*pipeline.PanicError); ok {
		msg, stack = p.Error(), p.Stack
	} else {
		msg, stack = fmt.Sprintf("panic: %v", v), debug.Stack()
	}
	fmt.Fprintf(stderr, "frctool: internal error: %s\n\n%s\n", printable(msg), stack)
	fmt.Fprintln(stderr, "frctool: this is a bug in frctool: please report it with the command, the message above and, if you can, the game it names")
	*code = exitFailure
}

// errWriter keeps the first error writing to stdout or stderr (a full
// disk, a reader gone), which commands that print with fmt would
// otherwise lose: run then exits with status 1, or exitBrokenPipe when
// the reader went away. Writes after an error are dropped.
type errWriter struct {
	w      io.Writer
	err    error
	broken func() // if set, called when the reader of w went away
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	if e.broken != nil && errors.Is(err, syscall.EPIPE) {
		e.broken()
	}
	return n, err
}

// brokenPipe reports whether w, a standard stream the commands write to,
// failed because its reader went away.
func brokenPipe(w io.Writer) bool {
	e, ok := w.(*errWriter)
	return ok && errors.Is(e.err, syscall.EPIPE)
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
				return unknownCommand(cmd, cmd.Args().First())
			}
			return cli.ShowRootCommandHelp(cmd)
		},
	}
	setUsageErrors(app)
	return app
}

// unknownCommand is the usage error for a command frctool does not have,
// with the one probably meant.
func unknownCommand(root *cli.Command, name string) error {
	if near := nearest(name, commandNames(root)); near != "" {
		return usagef(root, "unknown command %s; did you mean %s?", words.Quote(name), near)
	}
	return usagef(root, "unknown command %s", words.Quote(name))
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
