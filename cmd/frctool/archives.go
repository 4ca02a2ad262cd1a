package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/where"
)

// The flags shared by every command that reads PGN archives. They are made
// anew for every command: a cli.Flag records whether it was set, so one
// flag value shared by two commands (or two runs, in tests) would leak.
func quietFlag() cli.Flag {
	return &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar and no summary line (warnings are still shown)"}
}

func jobsFlag() cli.Flag {
	return &cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "work on `N` cores (0: all)", Value: 0}
}

func outputFlag() cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (.gz, .bz2, .zst compress; replaced atomically) instead of stdout", Value: "-", Validator: aName("file name (- for stdout)")}
}

// aName refuses an empty value of a flag that names a file, a folder or
// a suffix, which a script's unset variable gives ("-o $OUT"): it would
// otherwise mean stdout, the current folder, or no file at all, so that
// the rejects, duplicates or backup the user asked for would not be kept.
func aName(what string) func(string) error {
	return func(s string) error {
		if s == "" {
			return fmt.Errorf("want a %s", what)
		}
		return nil
	}
}

// aList refuses a comma-separated list of no items, for the same reason:
// it would otherwise mean the default columns, or no grouping.
func aList(what string) func(string) error {
	return func(s string) error {
		if len(splitList(s)) == 0 {
			return fmt.Errorf("want one or more %s", what)
		}
		return nil
	}
}

// openOutputs checks the outputs named (checkOutputs) and makes each that
// is not empty, before anything is read, so that one that cannot be made
// (its directory does not exist) is named at once: the others stay nil.
func (a *archives) openOutputs(cmd *cli.Command, names ...string) ([]*stream.Output, error) {
	if err := a.checkOutputs(cmd, names...); err != nil {
		return nil, err
	}
	outs, err := createOutputs(cmd, names...)
	for _, o := range outs {
		if o != nil {
			a.live = append(a.live, o)
		}
	}
	return outs, err
}

// flush writes out what the outputs hold for their readers: it is called
// when the input has gone idle, so that the games of a live feed pass on
// as they come (stream.Output.Flush says which outputs it concerns).
func (a *archives) flush() error {
	for _, o := range a.live {
		if err := o.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// createOutputs makes an output for each name that is not empty, or none
// when one cannot be made; the others stay nil.
func createOutputs(cmd *cli.Command, names ...string) ([]*stream.Output, error) {
	outs := make([]*stream.Output, len(names))
	for i, name := range names {
		if name == "" {
			continue
		}
		out, err := stream.Create(name, cmd.Root().Writer)
		if err != nil {
			for _, o := range outs[:i] {
				if o != nil {
					o.Abort()
				}
			}
			return nil, err
		}
		outs[i] = out
	}
	return outs, nil
}

// textOutput opens -o for the commands that write lines of text (identify,
// convert, random): nil and the command's standard output when it is "-",
// so that rows and messages keep their order on a terminal, else the file,
// replaced when the command ends (finishTextOutput).
func textOutput(cmd *cli.Command) (*stream.Output, io.Writer, error) {
	name := cmd.String("output")
	if name == "-" || name == "" {
		return nil, cmd.Root().Writer, nil
	}
	if err := checkOutputs(cmd, nil, name); err != nil {
		return nil, nil, err
	}
	o, err := stream.Create(name, nil)
	if err != nil {
		return nil, nil, err
	}
	return o, o, nil
}

// finishTextOutput commits o, or discards it after an error. Rows that
// could not be made (errReported) are in the output as empty rows, which
// is then kept: the run's status says that some failed.
func finishTextOutput(ctx context.Context, o *stream.Output, err error) error {
	if o == nil {
		return err
	}
	if errors.Is(err, errReported) {
		if cerr := commitAll(ctx, nil, o); cerr != nil {
			return cerr
		}
		return err
	}
	return commitAll(ctx, err, o)
}

// progressThreshold is the input size from which a progress bar is worth
// showing on a terminal.
const progressThreshold = 4 << 20

// archives reads the PGN inputs of one command run: the FILE arguments in
// order, or stdin when there are none or for "-". It shows a progress bar
// on a terminal and prints problems as "file:line: message".
type archives struct {
	names  []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	quiet  bool
	jobs   int
	where  *where.Expr // the games selected; nil for all

	mu           sync.Mutex // serializes stderr between warnings and the bar
	bar          *progressbar.ProgressBar
	warnings     int
	failedInputs int
	live         []*stream.Output // flushed when the input goes idle
	checked      bool             // checkInputs has run
	refused      bool             // checkInputs found an input missing: nothing was read
	games        atomic.Int64     // for the bar's games/s
}

// StreamBudget is the memory a streaming command (annotate, validate,
// stats, filter, split, export) stays within, whatever the input, --jobs
// or the core count: the games in flight and their output (at most
// pipeline.BatchBudget each), a decompressor's window (at most
// stream.MaxWindow) and the reader's buffer are bounded, and Go's
// garbage collector is asked to keep its headroom within softLimit.
const (
	StreamBudget = 384 << 20
	softLimit    = 320 << 20
)

// boundMemory sets the garbage collector's soft limit for a streaming
// command, unless the user set GOMEMLIMIT. Without it the collector lets
// the heap grow to twice what is live, which on a hostile input (a
// decompressor's 128 MiB window beside full batches) would pass the
// budget. Commands whose memory grows with what they keep (tree's nodes,
// dedup's keys) state their own bounds and do not call it.
func boundMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softLimit)
	}
}

// archivesKey is where newArchives leaves the command's archives in the
// root command's Metadata, for run to find inputs that failed.
const archivesKey = "frctool.archives"

func newArchives(cmd *cli.Command) (*archives, error) {
	a := &archives{
		names:  cmd.Args().Slice(),
		stdin:  cmd.Root().Reader,
		stderr: cmd.Root().ErrWriter,
		stdout: cmd.Root().Writer,
		quiet:  cmd.Bool("quiet"),
		jobs:   int(cmd.Int("jobs")),
	}
	if a.jobs < 0 {
		return nil, usagef(cmd, "--jobs must be 0 (all cores) or more, not %d", a.jobs)
	}
	if a.jobs == 0 {
		a.jobs = runtime.GOMAXPROCS(0)
	}
	var err error
	if a.where, err = selection(cmd); err != nil {
		return nil, err
	}
	if len(a.names) == 0 {
		a.names = []string{"-"}
	}
	stdinUsed := 0
	for _, n := range a.names {
		if n == "-" {
			stdinUsed++
		}
	}
	if stdinUsed > 1 {
		return nil, usagef(cmd, "standard input (-) can be read only once")
	}
	root := cmd.Root()
	if root.Metadata == nil {
		root.Metadata = map[string]any{}
	}
	root.Metadata[archivesKey] = a
	return a, nil
}

// checkInputs makes sure, before any input is read and before any output
// is committed, that every named input can be opened, and reports each one
// that cannot as "frctool: NAME: reason". A misspelt input must not leave
// the output of the others where the user's file was: an -o file is
// replaced, and --in-place rewrites the inputs that are there. each calls
// it before the first input; a command that makes something before that
// (split its directory) calls it first. It checks once.
func (a *archives) checkInputs() error {
	if a.checked {
		return nil
	}
	a.checked = true
	for _, name := range a.names {
		if err := stream.Readable(name); err != nil {
			a.inputFailed(name, err)
		}
	}
	if a.failed() {
		a.refused = true
		return errReported
	}
	return nil
}

// each opens the inputs one at a time, as they are reached, and calls fn
// with a Reader over each; an input is closed, and its buffers let go of,
// before the next is opened, so that thousands of inputs need neither
// thousands of open files nor of buffers. An input that can no longer be
// opened when it is reached (checkInputs found it there) is reported and
// skipped, as grep and cat do, and the run then exits with status 1; an
// error of fn stops the run.
func (a *archives) each(ctx context.Context, fn func(in *stream.Input, r *pgn.Reader) error) error {
	if err := a.checkInputs(); err != nil {
		return err
	}
	var done atomic.Int64 // bytes of the inputs already finished
	var current atomic.Pointer[stream.Input]
	stop := a.startBar(a.totalSize(), func() int64 {
		if in := current.Load(); in != nil {
			return done.Load() + in.Consumed()
		}
		return done.Load()
	})
	defer stop()
	for _, name := range a.names {
		if err := ctx.Err(); err != nil {
			return err
		}
		in, err := stream.OpenContext(ctx, name, a.stdin)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			a.inputFailed(name, err)
			continue
		}
		current.Store(in)
		r := pgn.NewReader(in)
		r.Name = in.Name
		err = fn(in, r)
		in.Close()
		done.Add(max(in.Size, 0))
		current.Store(nil)
		if err != nil {
			return err
		}
	}
	return nil
}

// totalSize is the inputs' size for the progress bar, from stat alone
// (opening would hold every input open), or -1 when one has no size.
func (a *archives) totalSize() int64 {
	var total int64
	for _, name := range a.names {
		var fi os.FileInfo
		var err error
		if name == "-" {
			f, ok := a.stdin.(*os.File)
			if !ok {
				return -1
			}
			fi, err = f.Stat()
		} else {
			fi, err = os.Stat(name)
		}
		if err != nil || !fi.Mode().IsRegular() {
			if err == nil {
				return -1
			}
			continue // checkInputs reports it before anything is read
		}
		total += fi.Size()
	}
	return total
}

// inputFailed reports an input that could not be opened, as
// "frctool: NAME: reason".
func (a *archives) inputFailed(name string, err error) {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == name {
		err = fmt.Errorf("%s: %w", name, pe.Err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.failedInputs++
	if a.bar != nil {
		a.bar.Clear()
	}
	fmt.Fprintf(a.stderr, "frctool: %s\n", printable(err.Error()))
}

// failed tells whether an input could not be read: the run then ends
// with status 1 even though the other inputs were processed.
func (a *archives) failed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.failedInputs > 0
}

// counted is called by commands for each game, to feed the bar's rate.
func (a *archives) counted(n int) { a.games.Add(int64(n)) }

// options are the runner options of every job: the --jobs count, the
// selection by tags, and the warnings and the progress bar as the reports'
// destinations.
func (a *archives) options() pipeline.Options {
	return pipeline.Options{Jobs: a.jobs, Warn: a.warn, Progress: a.counted, Where: a.where, Flush: a.flush}
}

// startBar shows a progress bar when stderr is a terminal, the input is
// large enough and --quiet is not given. It returns the function that
// removes it.
func (a *archives) startBar(total int64, consumed func() int64) (stop func()) {
	if a.quiet || total < progressThreshold || !isTerminal(a.stderr) {
		return func() {}
	}
	a.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(a.stderr),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionFullWidth(),
	)
	start := time.Now()
	tick := time.NewTicker(200 * time.Millisecond)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-tick.C:
				games := a.games.Load()
				rate := float64(games) / time.Since(start).Seconds()
				a.mu.Lock()
				// The ticker paces the bar, which is not throttled: with
				// a throttle, whichever of the two calls came second was
				// drawn only at the next tick, the games a tick behind
				// the bytes.
				a.bar.Set64(consumed())
				a.bar.Describe(fmt.Sprintf("%d games, %.0f games/s", games, rate))
				a.mu.Unlock()
			case <-quit:
				return
			}
		}
	}()
	return func() {
		tick.Stop()
		close(quit)
		wg.Wait()
		a.mu.Lock()
		a.bar.Clear()
		a.bar = nil
		a.mu.Unlock()
	}
}

// warn prints one problem of the input, as "file:line: message".
func (a *archives) warn(p *pgn.ParseError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.warnings++
	if a.bar != nil {
		a.bar.Clear()
	}
	fmt.Fprintln(a.stderr, p.Error())
}

// summary prints the closing line of a command, unless --quiet, the run
// was refused before reading anything, or the reader of standard output
// went away (| head), after which frctool ends silently, as cat does.
func (a *archives) summary(format string, args ...any) {
	if a.quiet || a.refused || brokenPipe(a.stdout) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintf(a.stderr, "frctool: "+format+"\n", args...)
}

// fileID is what an output or input is, for telling whether two names are
// one file: the file's identity when it exists, else its absolute path in
// its directory's real location.
type fileID struct {
	name string
	fi   os.FileInfo
	path string
}

func identify(name string) fileID {
	id := fileID{name: name}
	if fi, err := os.Stat(name); err == nil {
		id.fi = fi
		return id
	}
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if abs, err := filepath.Abs(filepath.Join(dir, base)); err == nil {
		id.path = abs
	}
	return id
}

func (x fileID) same(y fileID) bool {
	if x.fi != nil || y.fi != nil {
		return x.fi != nil && y.fi != nil && os.SameFile(x.fi, y.fi)
	}
	return x.path != "" && x.path == y.path
}

// inputIDs identifies the inputs that exist, stdin included when it is a
// file.
func (a *archives) inputIDs() []fileID {
	var ids []fileID
	for _, name := range a.names {
		if name == "-" {
			if id, ok := streamID(a.stdin, "standard input"); ok {
				ids = append(ids, id)
			}
			continue
		}
		if id := identify(name); id.fi != nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// checkOutputs refuses, before anything is read, outputs that are one
// file with another output or with an input: the run would read what it
// is overwriting, or one output would replace the other. Names are
// compared by what they are (device and inode), so links and other
// spellings of a name are caught. "-" is standard output, compared by
// what it is too: "--rejects /dev/stdout" beside it would mix two
// outputs' bytes in one pipe, or replace the file the shell opened for
// it, and "frctool annotate x.pgn >> x.pgn" would read what it writes.
// Character devices such as /dev/null and a terminal may be named any
// number of times.
func (a *archives) checkOutputs(cmd *cli.Command, outs ...string) error {
	return checkOutputs(cmd, a.inputIDs(), outs...)
}

// checkOutputs is archives.checkOutputs against the given inputs, for a
// command that reads no archives (show).
func checkOutputs(cmd *cli.Command, inputs []fileID, outs ...string) error {
	var seen []fileID
	stdout := 0
	for _, o := range outs {
		if o == "-" {
			if stdout++; stdout > 1 {
				return usagef(cmd, "two outputs go to standard output; give all but one a FILE")
			}
			id, ok := stdoutID(cmd)
			if !ok {
				continue
			}
			for _, in := range inputs {
				if id.same(in) {
					return usagef(cmd, "standard output is the input %s", in.name)
				}
			}
			seen = append(seen, id)
			continue
		}
		if o == "" {
			continue
		}
		if err := stream.UnsupportedExtension(o); err != nil {
			return usagef(cmd, "%v", err)
		}
		id := identify(o)
		if id.fi != nil && id.fi.Mode()&os.ModeCharDevice != 0 {
			continue
		}
		for _, s := range seen {
			if id.same(s) {
				switch s.name {
				case o:
					return usagef(cmd, "%s is named as two outputs", o)
				case stdoutName:
					return usagef(cmd, "%s is standard output, where another output goes", o)
				}
				return usagef(cmd, "%s and %s are the same file, named as two outputs", s.name, o)
			}
		}
		for _, in := range inputs {
			if id.same(in) {
				if in.name == o {
					return usagef(cmd, "%s is both an input and an output", o)
				}
				return usagef(cmd, "output %s is the input %s", o, in.name)
			}
		}
		seen = append(seen, id)
	}
	return nil
}

// stdoutName names standard output in checkOutputs' messages.
const stdoutName = "standard output"

// stdoutID identifies the command's standard output when it is a file,
// a pipe or a socket, not a character device (a terminal, /dev/null).
func stdoutID(cmd *cli.Command) (fileID, bool) {
	w := cmd.Root().Writer
	if e, ok := w.(*errWriter); ok {
		w = e.w
	}
	id, ok := streamID(w, stdoutName)
	if !ok || id.fi.Mode()&os.ModeCharDevice != 0 {
		return fileID{}, false
	}
	return id, true
}

// streamID identifies a standard stream, named name in messages, when it
// is an open file.
func streamID(s any, name string) (fileID, bool) {
	f, ok := s.(*os.File)
	if !ok {
		return fileID{}, false
	}
	fi, err := f.Stat()
	if err != nil {
		return fileID{}, false
	}
	return fileID{name: name, fi: fi}, true
}

// checkOutputDir refuses an output directory that holds an input, for a
// command that adds to the files there: one of them could be the input.
func (a *archives) checkOutputDir(cmd *cli.Command, dir string) error {
	out := identify(dir)
	if out.fi == nil {
		return nil
	}
	for _, in := range a.names {
		if in == "-" {
			continue
		}
		if id := identify(filepath.Dir(in)); id.fi != nil && out.same(id) {
			return usagef(cmd, "the input %s is in the output directory %s", in, dir)
		}
	}
	return nil
}

// checkInPlace checks the inputs of an --in-place run before anything is
// read: each must be a regular file (symbolic links are followed and
// their targets rewritten), given once, and no backup may overwrite an
// input. A file with several hard links is rewritten as a new file, as
// sed -i and perl -i do, so its other names keep the old content: that is
// reported as a warning.
func (a *archives) checkInPlace(cmd *cli.Command, backup string) error {
	var seen []fileID
	for _, name := range a.names {
		if name == "-" {
			return usagef(cmd, "standard input cannot be rewritten in place; name the files")
		}
		id := identify(name)
		if id.fi == nil {
			continue // checkInputs reports it before anything is read
		}
		if !id.fi.Mode().IsRegular() {
			return usagef(cmd, "%s is not a regular file and cannot be rewritten in place", name)
		}
		for _, s := range seen {
			if id.same(s) {
				return usagef(cmd, "%s and %s are the same file; give each file once", s.name, name)
			}
		}
		seen = append(seen, id)
		if n := stream.HardLinks(id.fi); n > 1 {
			a.mu.Lock()
			fmt.Fprintf(a.stderr, "frctool: warning: %s has %d hard links; the rewritten file is a new one and the other links keep the old content\n", name, n)
			a.mu.Unlock()
		}
	}
	if backup == "" {
		return nil
	}
	for _, name := range a.names {
		b := identify(name + backup)
		for _, s := range seen {
			if b.same(s) {
				return usagef(cmd, "the backup %s would overwrite the input %s", name+backup, s.name)
			}
		}
	}
	return nil
}
