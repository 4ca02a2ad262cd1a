package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"github.com/frctool/frctool/internal/pipeline"
	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/pgn"
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
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (.gz, .bz2, .zst compress; replaced atomically) instead of stdout", Value: "-"}
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
	stderr io.Writer
	quiet  bool
	jobs   int

	mu       sync.Mutex // serializes stderr between warnings and the bar
	bar      *progressbar.ProgressBar
	warnings int
	games    atomic.Int64 // for the bar's games/s
}

func newArchives(cmd *cli.Command) (*archives, error) {
	a := &archives{
		names:  cmd.Args().Slice(),
		stdin:  cmd.Root().Reader,
		stderr: cmd.Root().ErrWriter,
		quiet:  cmd.Bool("quiet"),
		jobs:   int(cmd.Int("jobs")),
	}
	if a.jobs < 0 {
		return nil, usagef(cmd, "--jobs must be 0 (all cores) or more, not %d", a.jobs)
	}
	if a.jobs == 0 {
		a.jobs = runtime.GOMAXPROCS(0)
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
	return a, nil
}

// each opens every input in turn and calls fn with a Reader over it. It
// stops at the first error, which names the file.
func (a *archives) each(ctx context.Context, fn func(in *stream.Input, r *pgn.Reader) error) error {
	inputs := make([]*stream.Input, 0, len(a.names))
	defer func() {
		for _, in := range inputs {
			in.Close()
		}
	}()
	// Open everything first: a missing file is reported before any work,
	// and the bar knows the total size.
	var total int64
	for _, name := range a.names {
		in, err := stream.Open(name, a.stdin)
		if err != nil {
			return err
		}
		inputs = append(inputs, in)
		if in.Size < 0 || total < 0 {
			total = -1
		} else {
			total += in.Size
		}
	}
	var done int64 // bytes of the inputs already finished
	var current atomic.Pointer[stream.Input]
	stop := a.startBar(total, func() int64 {
		if in := current.Load(); in != nil {
			return done + in.Consumed()
		}
		return done
	})
	defer stop()
	for _, in := range inputs {
		current.Store(in)
		r := pgn.NewReader(in)
		r.Name = in.Name
		if err := fn(in, r); err != nil {
			return err
		}
		done += max(in.Size, 0)
	}
	return nil
}

// counted is called by commands for each game, to feed the bar's rate.
func (a *archives) counted(n int) { a.games.Add(int64(n)) }

// hooks connects annotate.Run to the warnings and the progress bar.
func (a *archives) hooks() pgn.Hooks {
	return pgn.Hooks{Warn: a.warn, Progress: a.counted}
}

// options are the runner options of every job: the --jobs count, and the
// warnings and the progress bar as the reports' destinations.
func (a *archives) options() pipeline.Options {
	return pipeline.Options{Jobs: a.jobs, Warn: a.warn, Progress: a.counted}
}

// startBar shows a progress bar when stderr is a terminal, the input is
// large enough and --quiet is not given. It returns the function that
// removes it.
func (a *archives) startBar(total int64, consumed func() int64) (stop func()) {
	f, ok := a.stderr.(*os.File)
	if a.quiet || total < progressThreshold || !ok || !term.IsTerminal(int(f.Fd())) {
		return func() {}
	}
	a.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(a.stderr),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
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
				a.bar.Describe(fmt.Sprintf("%d games, %.0f games/s", games, rate))
				a.bar.Set64(consumed())
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

// summary prints the closing line of a command, unless --quiet.
func (a *archives) summary(format string, args ...any) {
	if a.quiet {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintf(a.stderr, "frctool: "+format+"\n", args...)
}
