package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// games builds n small games of every kind of start, with a problem now
// and then, so that batches, classes and warnings all vary.
func games(n int) string {
	var sb strings.Builder
	for i := range n {
		switch i % 6 {
		case 0:
			fmt.Fprintf(&sb, "[Event \"%d\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n", i)
		case 1:
			fmt.Fprintf(&sb, "[Event \"%d\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n", i)
		case 2:
			fmt.Fprintf(&sb, "[Event \"%d\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[Result \"*\"]\n\n1. Nf3 *\n\n", i)
		case 3:
			fmt.Fprintf(&sb, "[Event \"%d\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"]\n[Result \"1-0\"]\n\n2. Nf3 1-0\n\n", i)
		case 4:
			fmt.Fprintf(&sb, "[Event \"%d\"]\n[FEN \"?\"]\n[Result \"*\"]\n\n*\n\n", i)
		default:
			fmt.Fprintf(&sb, "[Event \"%d\"]\n\n1. d4 d5\n\n", i) // no result
		}
	}
	return sb.String()
}

// event returns a game's Event tag, which tells the games apart.
func event(g *pgn.Game) string {
	for _, t := range g.Tags {
		if string(t.Name) == "Event" {
			return string(t.Value)
		}
	}
	return ""
}

// result is everything a run of the job below reports.
type result struct {
	emitted  []string
	out      string
	warnings []string
	tally    startpos.Tally
}

// errJob is a job's own problem, to see it reported after the others.
var errJob = errors.New("job problem")

// runJob runs a job that writes each game's Event and kind, and adds a
// problem of its own to every game whose Event ends in 5.
func runJob(t *testing.T, input string, jobs int) result {
	t.Helper()
	var res result
	var out bytes.Buffer
	job := Job[string]{
		NewWorker: func() func(it *Item[string], out []byte) []byte {
			return func(it *Item[string], out []byte) []byte {
				it.Value = event(it.Game)
				if strings.HasSuffix(it.Value, "5") {
					it.Problems = append(it.Problems, &pgn.ParseError{Line: it.Game.Line, Err: errJob})
				}
				return fmt.Appendf(out, "%s %s\n", it.Value, it.Class.Start.Kind)
			}
		},
		Emit: func(it *Item[string]) error {
			res.emitted = append(res.emitted, it.Value)
			return nil
		},
		Output: &out,
	}
	opts := Options{Jobs: jobs, Warn: func(p *pgn.ParseError) { res.warnings = append(res.warnings, p.Error()) }}
	if err := Run(context.Background(), pgn.NewReader(strings.NewReader(input)), opts, job, &res.tally); err != nil {
		t.Fatalf("Run: %v", err)
	}
	res.out = out.String()
	return res
}

func TestRunOrderAndOutput(t *testing.T) {
	// Enough games for several batches, so that the workers overlap.
	big := games(300) + strings.Repeat(games(6), 2000)
	tests := []struct {
		name  string
		input string
	}{
		{"empty", ""},
		{"few games", games(12)},
		{"many games", big},
		{"tagless text between games", games(7) + "1. e4 e5 *\n\n" + games(7)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := runJob(t, tc.input, 1)
			// What the job saw must be the input's games in order.
			all, err := pgn.NewReader(strings.NewReader(tc.input)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(want.emitted) != len(all) {
				t.Fatalf("Jobs 1 emitted %d items, the input has %d", len(want.emitted), len(all))
			}
			var wantOut strings.Builder
			for i := range all {
				if got := event(&all[i]); want.emitted[i] != got {
					t.Fatalf("Jobs 1: item %d is %q, want %q", i, want.emitted[i], got)
				}
				c := startpos.Classify(&all[i])
				fmt.Fprintf(&wantOut, "%s %s\n", event(&all[i]), c.Start.Kind)
			}
			if want.out != wantOut.String() {
				t.Fatalf("Jobs 1 output differs from the games' own lines")
			}
			for _, jobs := range []int{2, 8} {
				got := runJob(t, tc.input, jobs)
				if fmt.Sprint(got.emitted) != fmt.Sprint(want.emitted) {
					t.Errorf("Jobs %d: items emitted out of order", jobs)
				}
				if got.out != want.out {
					t.Errorf("Jobs %d: output differs from Jobs 1 (%d bytes, want %d)", jobs, len(got.out), len(want.out))
				}
				if fmt.Sprint(got.warnings) != fmt.Sprint(want.warnings) {
					t.Errorf("Jobs %d: warnings differ from Jobs 1", jobs)
				}
				if got.tally.String() != want.tally.String() {
					t.Errorf("Jobs %d: tally %v, want %v", jobs, &got.tally, &want.tally)
				}
			}
		})
	}
}

func TestRunWarnOrder(t *testing.T) {
	// Game 5 has the reader's problem (no result), the start tags'
	// (FEN "?") and the job's own, in that order.
	input := games(5) + "[Event \"5\"]\n[FEN \"?\"]\n\n1. e4\n\n"
	for _, jobs := range []int{1, 2} {
		t.Run(fmt.Sprint("jobs ", jobs), func(t *testing.T) {
			res := runJob(t, input, jobs)
			all, err := pgn.NewReader(strings.NewReader(input)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i := range all {
				c := startpos.Classify(&all[i])
				for _, p := range all[i].Problems {
					want = append(want, p.Error())
				}
				for _, p := range c.Problems {
					want = append(want, p.Error())
				}
				if strings.HasSuffix(event(&all[i]), "5") {
					want = append(want, (&pgn.ParseError{Line: all[i].Line, Err: errJob}).Error())
				}
			}
			if len(want) < 3 {
				t.Fatalf("the input gives only %d problems: %q", len(want), want)
			}
			if fmt.Sprintf("%q", res.warnings) != fmt.Sprintf("%q", want) {
				t.Errorf("warnings\n%q\nwant\n%q", res.warnings, want)
			}
			last := res.warnings[len(res.warnings)-3:]
			for i, wantHas := range []string{pgn.ErrNoResult.Error(), "FEN", errJob.Error()} {
				if !strings.Contains(last[i], wantHas) {
					t.Errorf("warning %q, want one about %q", last[i], wantHas)
				}
			}
			if res.tally.Warnings != int64(len(want)) {
				t.Errorf("tally counts %d warnings, want %d", res.tally.Warnings, len(want))
			}
		})
	}
}

func TestRunTally(t *testing.T) {
	tests := []struct {
		name  string
		input string
	}{
		{"kinds", games(600)},
		{"tagless and blank text", "\n\n1. e4 e5\n\n" + games(6) + "junk\n\n   \n"},
		{"escape lines", "% a comment line\n" + games(6) + "% between games\n" + games(3)},
	}
	for _, tc := range tests {
		for _, jobs := range []int{1, 2, 8} {
			t.Run(fmt.Sprintf("%s jobs %d", tc.name, jobs), func(t *testing.T) {
				res := runJob(t, tc.input, jobs)
				all, err := pgn.NewReader(strings.NewReader(tc.input)).ReadAll()
				if err != nil {
					t.Fatal(err)
				}
				var want startpos.Tally
				for i := range all {
					c := startpos.Classify(&all[i])
					want.Add(&c, len(all[i].Problems)+len(c.Problems))
				}
				// The job's own problems come on top.
				for _, w := range res.warnings {
					if strings.HasSuffix(w, errJob.Error()) {
						want.Warnings++
					}
				}
				if res.tally.String() != want.String() {
					t.Errorf("tally %v\nwant  %v", &res.tally, &want)
				}
			})
		}
	}
}

// failWriter fails every write.
type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestRunStops(t *testing.T) {
	input := games(300) + strings.Repeat(games(6), 3000)
	errEmit := errors.New("emit failed")
	errWrite := errors.New("disk full")
	tests := []struct {
		name string
		// setup returns the job and context for a run, and the number of
		// items after which the run must have stopped at the latest.
		setup   func() (Job[int], context.Context, *int)
		want    error
		maxSeen int
	}{
		{
			name: "emit error",
			setup: func() (Job[int], context.Context, *int) {
				var seen int
				return Job[int]{Emit: func(*Item[int]) error {
					seen++
					if seen == 10 {
						return errEmit
					}
					return nil
				}}, context.Background(), &seen
			},
			want:    errEmit,
			maxSeen: 10,
		},
		{
			name: "cancelled before",
			setup: func() (Job[int], context.Context, *int) {
				var seen int
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return Job[int]{Emit: func(*Item[int]) error { seen++; return nil }}, ctx, &seen
			},
			want:    context.Canceled,
			maxSeen: 0,
		},
		{
			name: "cancelled while running",
			setup: func() (Job[int], context.Context, *int) {
				var seen int
				ctx, cancel := context.WithCancel(context.Background())
				return Job[int]{Emit: func(*Item[int]) error {
					seen++
					if seen == 5 {
						cancel()
					}
					return nil
				}}, ctx, &seen
			},
			want: context.Canceled,
			// The batch being emitted is finished, no later one is.
			maxSeen: 5 + BatchSize/40,
		},
		{
			name: "output write error",
			setup: func() (Job[int], context.Context, *int) {
				var seen int
				return Job[int]{
					NewWorker: func() func(it *Item[int], out []byte) []byte {
						return func(it *Item[int], out []byte) []byte { return append(out, '.') }
					},
					Emit:   func(*Item[int]) error { seen++; return nil },
					Output: failWriter{errWrite},
				}, context.Background(), &seen
			},
			want:    errWrite,
			maxSeen: BatchSize / 40,
		},
	}
	for _, tc := range tests {
		for _, jobs := range []int{1, 2, 8} {
			t.Run(fmt.Sprintf("%s jobs %d", tc.name, jobs), func(t *testing.T) {
				job, ctx, seen := tc.setup()
				var tally startpos.Tally
				err := Run(ctx, pgn.NewReader(strings.NewReader(input)), Options{Jobs: jobs}, job, &tally)
				if !errors.Is(err, tc.want) {
					t.Fatalf("Run returned %v, want %v", err, tc.want)
				}
				if *seen > tc.maxSeen {
					t.Errorf("Emit saw %d items after the run should have stopped at %d", *seen, tc.maxSeen)
				}
			})
		}
	}
}

// TestPlan: the batches in flight, at most BatchSize plus one game each,
// two a worker, stay within BatchBudget however many cores there are.
func TestPlan(t *testing.T) {
	tests := []struct {
		name                 string
		jobs, maxGame        int
		wantJobs, wantBatchs int
	}{
		{"one job", 1, 0, 1, 2},
		{"two cores, default games", 2, 0, 2, 4},
		{"64 cores, default games", 64, 0, 5, 10},
		{"64 cores, 1 MiB games", 64, 1 << 20, 19, 38},
		{"64 cores, 64 MiB games", 64, 64 << 20, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobs, batches := plan(tt.jobs, tt.maxGame)
			if jobs != tt.wantJobs || batches != tt.wantBatchs {
				t.Errorf("plan(%d, %d) = %d jobs, %d batches; want %d, %d", tt.jobs, tt.maxGame, jobs, batches, tt.wantJobs, tt.wantBatchs)
			}
			game := tt.maxGame
			if game == 0 {
				game = pgn.DefaultMaxGameSize
			}
			if batches != jobs*slotsPerWorker {
				t.Errorf("%d batches for %d workers; want %d each", batches, jobs, slotsPerWorker)
			}
			if held := batches * (BatchSize + game); held > BatchBudget && jobs > 1 {
				t.Errorf("%d batches may hold %d bytes, over the budget %d", batches, held, BatchBudget)
			}
		})
	}
}

// TestRunProgressAfterEmit checks the promise jobs build on (export writes
// its Parquet rows in Progress): Progress comes after Emit has seen every
// item of its batch, on Run's goroutine, while the batch's games and
// outputs are still as Emit saw them.
func TestRunProgressAfterEmit(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "[Event \"%d\"]\n[Result \"*\"]\n\n1. e4 {%s} *\n\n", i, strings.Repeat("x", i%300))
	}
	for _, jobs := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(jobs, " jobs"), func(t *testing.T) {
			var emitted, reported int
			var held []*Item[int] // the items of the current batch, as Emit saw them
			var want []string
			job := Job[int]{
				NewWorker: func() func(it *Item[int], out []byte) []byte {
					return func(it *Item[int], out []byte) []byte {
						return append(out, it.Game.Raw[:12]...)
					}
				},
				Emit: func(it *Item[int]) error {
					emitted++
					held = append(held, it)
					want = append(want, string(it.Game.Raw)+"|"+string(it.Out))
					return nil
				},
			}
			opts := Options{Jobs: jobs, Progress: func(games int) {
				reported += games
				if reported != emitted {
					t.Errorf("Progress after %d games, Emit saw %d", reported, emitted)
				}
				for i, it := range held {
					if got := string(it.Game.Raw) + "|" + string(it.Out); got != want[i] {
						t.Fatalf("item %d changed before Progress", i)
					}
				}
				held, want = held[:0], want[:0]
			}}
			var tally startpos.Tally
			if err := Run(context.Background(), pgn.NewReader(strings.NewReader(b.String())), opts, job, &tally); err != nil {
				t.Fatal(err)
			}
			if reported != 3000 || emitted != 3000 {
				t.Errorf("%d games reported, %d emitted, want 3000", reported, emitted)
			}
		})
	}
}

// TestRunInParts runs a job that writes down every game's number, line,
// offset, bytes and problems over inputs read in small parts, with cuts
// guessed wrong in several ways, and compares it with the same job run
// on one goroutine and with batches read in order.
func TestRunInParts(t *testing.T) {
	defer func(n int) { partSize = n }(partSize)
	partSize = 2000
	tricky := games(40) +
		"[Event \"open\"]\n\n1. e4 {never closed\n\n[Event \"inside\"]\n\n1. d4 *\n\n" + games(30) +
		"[Event \"closed later\"]\n\n1. e4 {a\n\n[Event \"x\"]\nb} 1-0\n\n" + games(50) +
		"[Event \"glued\"]\n1. e4 1-0\n[Event \"next\"]\n1. d4 0-1\n\n" + games(50) +
		"[Event \"big\"]\n\n" + strings.Repeat("1. e4 {a long comment} ", 400) + "*\n\n" + games(200)
	tests := []struct {
		name    string
		input   string
		maxGame int
	}{
		{"plain", games(600), 0},
		{"tricky", tricky, 0},
		{"tricky CRLF", strings.ReplaceAll(tricky, "\n", "\r\n"), 0},
		{"tricky lone CR", strings.ReplaceAll(tricky, "\n", "\r"), 0},
		{"a game over the size", tricky, 5000},
		{"wrong guesses only", strings.Repeat("[Event \"a\"]\n\n1. e4 {\n\n[Event \"b\"]\n} *\n\n", 500), 0},
	}
	run := func(t *testing.T, input string, maxGame, jobs int, parts bool) string {
		t.Helper()
		defer func(p bool) { readInParts = p }(readInParts)
		readInParts = parts
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(jobs, runtime.GOMAXPROCS(0))))
		var out, warnings strings.Builder
		job := Job[string]{
			NewWorker: func() func(it *Item[string], out []byte) []byte {
				return func(it *Item[string], out []byte) []byte {
					g := it.Game
					it.Value = event(g)
					return fmt.Appendf(out, "%d %d %d %d %q %s\n", g.Index, g.Line, g.Offset, len(g.Raw), it.Value, it.Class.Start.Kind)
				}
			},
			// The game's bytes must still be there when it is emitted,
			// after the workers went on to other parts; its tags, made
			// again in the same memory, are not.
			Emit: func(it *Item[string]) error {
				if it.Game.Tags != nil {
					return fmt.Errorf("game %d: tags when emitted", it.Game.Index)
				}
				if it.Value != "" && !strings.Contains(string(it.Game.Raw), `[Event "`+it.Value+`"]`) {
					return fmt.Errorf("game %d: Event %q worked on, not in the bytes emitted %q", it.Game.Index, it.Value, it.Game.Raw)
				}
				return nil
			},
			Output: &out,
		}
		r := pgn.NewReader(iotest.HalfReader(strings.NewReader(input)))
		r.Name, r.MaxGameSize = "t.pgn", maxGame
		opts := Options{Jobs: jobs, Warn: func(p *pgn.ParseError) { fmt.Fprintln(&warnings, p) }}
		var tally startpos.Tally
		if err := Run(context.Background(), r, opts, job, &tally); err != nil {
			t.Fatalf("Run: %v", err)
		}
		return out.String() + warnings.String() + tally.String()
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := run(t, tc.input, tc.maxGame, 1, false)
			if got := run(t, tc.input, tc.maxGame, 2, false); got != want {
				t.Fatalf("batches on 2 goroutines differ from one goroutine")
			}
			for _, jobs := range []int{2, 4} {
				if got := run(t, tc.input, tc.maxGame, jobs, true); got != want {
					g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
					for i := range min(len(g), len(w)) {
						if g[i] != w[i] {
							t.Fatalf("in parts on %d goroutines, line %d:\n got %s\nwant %s", jobs, i+1, g[i], w[i])
						}
					}
					t.Fatalf("in parts on %d goroutines: %d lines, want %d", jobs, len(g), len(w))
				}
			}
		})
	}
}

// TestRunCallsOneAtATime: Emit, Warn, Progress and Output are called from
// whichever worker's batch is next, but never two at once, and each
// sees what the one before it did. The callbacks below share plain
// variables; the race detector and the overlap count check that.
func TestRunCallsOneAtATime(t *testing.T) {
	defer func(n int) { partSize = n }(partSize)
	partSize = 1000 // many small parts, so that workers take turns often
	input := games(3000)
	for _, jobs := range []int{2, 4, 8} {
		t.Run(fmt.Sprint(jobs, " jobs"), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(jobs, runtime.GOMAXPROCS(0))))
			var inside atomic.Int32
			overlaps, calls, last := 0, 0, ""
			enter := func() {
				if inside.Add(1) != 1 {
					overlaps++
				}
				calls++
			}
			leave := func() { inside.Add(-1) }
			var out bytes.Buffer
			job := Job[string]{
				NewWorker: func() func(it *Item[string], out []byte) []byte {
					return func(it *Item[string], out []byte) []byte {
						it.Value = event(it.Game)
						return append(out, it.Value+"\n"...)
					}
				},
				Emit: func(it *Item[string]) error {
					enter()
					defer leave()
					if it.Value != "" {
						last = it.Value
					}
					return nil
				},
				Output: writerFunc(func(p []byte) (int, error) {
					enter()
					defer leave()
					// The batch's last game with an Event was emitted just before.
					if lines := strings.Split(strings.TrimSuffix(string(p), "\n"), "\n"); lines[len(lines)-1] != last && lines[len(lines)-1] != "" {
						t.Errorf("output ends with %q after Emit saw %q", lines[len(lines)-1], last)
					}
					return out.Write(p)
				}),
			}
			opts := Options{
				Jobs:     jobs,
				Warn:     func(*pgn.ParseError) { enter(); leave() },
				Progress: func(int) { enter(); leave() },
			}
			var tally startpos.Tally
			if err := Run(context.Background(), pgn.NewReader(strings.NewReader(input)), opts, job, &tally); err != nil {
				t.Fatal(err)
			}
			if overlaps > 0 {
				t.Errorf("%d of %d calls overlapped another", overlaps, calls)
			}
			var want strings.Builder
			for i := range 3000 {
				fmt.Fprintln(&want, i)
			}
			if out.String() != want.String() {
				t.Errorf("output is not the games' Events in input order")
			}
			if last != "2999" {
				t.Errorf("last Event emitted %q, want 2999", last)
			}
		})
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// errBoom is the value the panicking jobs below panic with.
var errBoom = errors.New("boom")

// boom panics: a function of its own, so that the stack names it.
func boom() { panic(errBoom) }

// panicReader reads r until after bytes have been read, then panics.
type panicReader struct {
	r      *strings.Reader
	after  int
	read   int
	panics int // reads that panicked: one, if nothing reads on after it
}

func (p *panicReader) Read(b []byte) (int, error) {
	if p.read >= p.after {
		p.panics++
		boom()
	}
	n, err := p.r.Read(b[:min(len(b), 4096)])
	p.read += n
	return n, err
}

// runPanicking runs job over input, read in parts or not, and returns
// what Run panicked with, failing the test if it returned instead or if
// goroutines of the run outlive it.
func runPanicking(t *testing.T, in io.Reader, jobs int, parts bool, opts Options, job Job[string]) any {
	t.Helper()
	defer func(p bool, n int) { readInParts, partSize = p, n }(readInParts, partSize)
	readInParts, partSize = parts, 1000 // many parts, so that workers take turns
	before := runtime.NumGoroutine()
	var v any
	func() {
		defer func() { v = recover() }()
		opts.Jobs = jobs
		var tally startpos.Tally
		err := Run(context.Background(), pgn.NewReader(in), opts, job, &tally)
		t.Fatalf("Run returned %v, want a panic", err)
	}()
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i == 100 {
			t.Fatalf("%d goroutines after the run, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return v
}

// TestRunPanics: a panic in a job's function, or in the reading, on
// whichever goroutine, comes out of Run on the caller's as a PanicError
// naming the game it happened on, with the stack where it happened, and
// no goroutine of the run is left behind.
func TestRunPanics(t *testing.T) {
	input := games(3000)
	all, err := pgn.NewReader(strings.NewReader(input)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// The first game with a problem reported past line 5000, where Warn
	// panics below.
	warned := 0
	for i := range all {
		c := startpos.Classify(&all[i])
		for _, p := range append(all[i].Problems, c.Problems...) {
			if p.Line > 5000 && warned == 0 {
				warned = all[i].Index
			}
		}
	}
	nested := &PanicError{Value: "inner"}
	onEvent := func(e string, f func()) func(it *Item[string], out []byte) []byte {
		return func(it *Item[string], out []byte) []byte {
			if it.Value = event(it.Game); it.Value == e {
				f()
			}
			return append(out, it.Value...)
		}
	}
	tests := []struct {
		name      string
		in        func() io.Reader
		opts      Options
		job       Job[string]
		game      int    // the game named, 0 for none
		message   string // what Error returns after the game's line
		sameValue any    // when set, what Run must panic with, as it is
	}{
		{
			name: "worker",
			job:  Job[string]{NewWorker: func() func(*Item[string], []byte) []byte { return onEvent("1700", boom) }},
			game: 1701, message: "game 1701: panic: boom",
		},
		{
			name: "runtime error in a worker",
			job: Job[string]{NewWorker: func() func(*Item[string], []byte) []byte {
				var empty []int
				return onEvent("2000", func() { _ = empty[len(empty)] })
			}},
			game: 2001, message: "game 2001: panic: runtime error: index out of range [0] with length 0",
		},
		{
			name: "emit",
			job: Job[string]{
				NewWorker: func() func(*Item[string], []byte) []byte { return onEvent("", func() {}) },
				Emit: func(it *Item[string]) error {
					if it.Value == "2499" {
						boom()
					}
					return nil
				},
			},
			game: 2500, message: "game 2500: panic: boom",
		},
		{
			name: "warn",
			opts: Options{Warn: func(p *pgn.ParseError) {
				if p.Line > 5000 {
					boom()
				}
			}},
			job:  Job[string]{},
			game: warned, message: fmt.Sprintf("game %d: panic: boom", warned),
		},
		{
			name: "output",
			job: Job[string]{
				NewWorker: func() func(*Item[string], []byte) []byte { return onEvent("", func() {}) },
				Output: writerFunc(func(p []byte) (int, error) {
					boom()
					return 0, nil
				}),
			},
			message: "panic: boom",
		},
		{
			name:    "reading",
			in:      func() io.Reader { return &panicReader{r: strings.NewReader(input), after: 200_000} },
			job:     Job[string]{NewWorker: func() func(*Item[string], []byte) []byte { return onEvent("", func() {}) }},
			message: "panic: boom",
		},
		{
			name: "a nested run's panic",
			job: Job[string]{NewWorker: func() func(*Item[string], []byte) []byte {
				return onEvent("1500", func() { panic(nested) })
			}},
			message: "panic: inner", sameValue: nested,
		},
	}
	for _, tc := range tests {
		for _, jobs := range []int{1, 2} {
			for _, parts := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s jobs %d parts %v", tc.name, jobs, parts), func(t *testing.T) {
					in := io.Reader(strings.NewReader(input))
					if tc.in != nil {
						in = tc.in()
					}
					job, last := tc.job, 0
					emit := job.Emit
					job.Emit = func(it *Item[string]) error {
						last = it.Game.Index // one call at a time
						if emit != nil {
							return emit(it)
						}
						return nil
					}
					v := runPanicking(t, in, jobs, parts, tc.opts, job)
					if tc.game != 0 && last > tc.game {
						t.Errorf("Emit saw game %d, past game %d, which panicked", last, tc.game)
					}
					if pr, ok := in.(*panicReader); ok && pr.panics != 1 {
						t.Errorf("the input was read %d times once it panicked, want once", pr.panics)
					}
					p, ok := v.(*PanicError)
					if !ok {
						t.Fatalf("Run panicked with %T %v, want a *PanicError", v, v)
					}
					if tc.sameValue != nil {
						if v != tc.sameValue {
							t.Fatalf("Run panicked with %v, want the nested run's PanicError as it was", v)
						}
						return
					}
					want := tc.message
					if tc.game != 0 {
						want = fmt.Sprintf("line %d: %s", all[tc.game-1].Line, want)
					}
					if got := p.Error(); got != want {
						t.Errorf("Error() = %q, want %q", got, want)
					}
					switch {
					case tc.game == 0 && p.Game != nil:
						t.Errorf("the panic names game %d, want none", p.Game.Index)
					case tc.game != 0 && p.Game == nil:
						t.Errorf("the panic names no game, want %d", tc.game)
					case tc.game != 0 && p.Game.Index != tc.game:
						t.Errorf("the panic names game %d, want %d", p.Game.Index, tc.game)
					case tc.game != 0 && !bytes.HasPrefix(p.Game.Raw, fmt.Appendf(nil, "[Event \"%d\"]", tc.game-1)):
						t.Errorf("the game named starts %q", p.Game.Raw[:min(len(p.Game.Raw), 20)])
					}
					if !bytes.Contains(p.Stack, []byte("pipeline.boom(")) && tc.name != "runtime error in a worker" {
						t.Errorf("the stack does not show the function that panicked:\n%s", p.Stack)
					}
					var re runtime.Error
					if tc.name == "runtime error in a worker" && !errors.As(p, &re) {
						t.Errorf("errors.As does not find the runtime.Error in %v", p)
					}
					if tc.name != "runtime error in a worker" && !errors.Is(p, errBoom) {
						t.Errorf("errors.Is does not find the value in %v", p)
					}
				})
			}
		}
	}
}

// TestRunGoexit: a job's function that calls runtime.Goexit, as
// testing.T.FailNow does, on whichever goroutine, ends the run, and the
// goroutine that called Run exits too, once the others have stopped,
// having emitted no game past the one it happened on. Before, a worker's
// Goexit left the others waiting for its turns for ever.
func TestRunGoexit(t *testing.T) {
	input := games(3000)
	onEvent := func(e string) func(it *Item[string], out []byte) []byte {
		return func(it *Item[string], out []byte) []byte {
			if it.Value = event(it.Game); it.Value == e {
				runtime.Goexit()
			}
			return append(out, it.Value...)
		}
	}
	none := func() func(*Item[string], []byte) []byte { return onEvent("") }
	tests := []struct {
		name string
		opts Options
		job  Job[string]
		last int // the last game Emit may see
	}{
		{
			name: "worker",
			job:  Job[string]{NewWorker: func() func(*Item[string], []byte) []byte { return onEvent("1700") }},
			last: 1700,
		},
		{
			name: "emit",
			job: Job[string]{NewWorker: none, Emit: func(it *Item[string]) error {
				if it.Value == "2500" {
					runtime.Goexit()
				}
				return nil
			}},
			last: 2501,
		},
		{
			name: "warn",
			opts: Options{Warn: func(p *pgn.ParseError) {
				if p.Line > 5000 {
					runtime.Goexit()
				}
			}},
			job:  Job[string]{NewWorker: none},
			last: 3000,
		},
		{
			name: "output",
			job: Job[string]{NewWorker: none, Output: writerFunc(func(p []byte) (int, error) {
				runtime.Goexit()
				return 0, nil
			})},
			last: 3000,
		},
	}
	for _, tc := range tests {
		for _, jobs := range []int{1, 2} {
			for _, parts := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s jobs %d parts %v", tc.name, jobs, parts), func(t *testing.T) {
					defer func(p bool, n int) { readInParts, partSize = p, n }(readInParts, partSize)
					readInParts, partSize = parts, 1000 // many parts, so that workers take turns
					before := runtime.NumGoroutine()
					var mu sync.Mutex
					last := 0
					job := tc.job
					emit := job.Emit
					job.Emit = func(it *Item[string]) error {
						mu.Lock()
						last = it.Game.Index
						mu.Unlock()
						if emit != nil {
							return emit(it)
						}
						return nil
					}
					type end struct {
						returned bool
						err      error
						panicked any
					}
					done := make(chan end, 1)
					go func() {
						var e end
						defer func() {
							e.panicked = recover()
							done <- e
						}()
						opts := tc.opts
						opts.Jobs = jobs
						var tally startpos.Tally
						e.err = Run(context.Background(), pgn.NewReader(strings.NewReader(input)), opts, job, &tally)
						e.returned = true
					}()
					select {
					case e := <-done:
						switch {
						case e.panicked != nil:
							t.Fatalf("Run panicked with %v, want its caller's goroutine to exit", e.panicked)
						case e.returned:
							t.Fatalf("Run returned %v, want its caller's goroutine to exit", e.err)
						}
					case <-time.After(10 * time.Second):
						t.Fatal("the run hangs after runtime.Goexit")
					}
					mu.Lock()
					if last > tc.last {
						t.Errorf("Emit saw game %d, past game %d where the run ended", last, tc.last)
					}
					mu.Unlock()
					for i := 0; runtime.NumGoroutine() > before; i++ {
						if i == 100 {
							t.Fatalf("%d goroutines after the run, %d before", runtime.NumGoroutine(), before)
						}
						time.Sleep(10 * time.Millisecond)
					}
				})
			}
		}
	}
}

// panicSource is a source that panics in prepare on its slot number at,
// before the part is scanned, once the part after it has been read (or a
// second has passed), so that the worker with that part waits for a scan
// that never comes.
type panicSource[T any] struct {
	source[T]
	at    int
	count atomic.Int64
	mu    sync.Mutex
	slots map[*slot[T]]int
}

func (p *panicSource[T]) read(s *slot[T]) error {
	if err := p.source.read(s); err != nil {
		return err
	}
	p.mu.Lock()
	p.slots[s] = int(p.count.Add(1)) - 1
	p.mu.Unlock()
	return nil
}

func (p *panicSource[T]) prepare(s *slot[T], ended <-chan struct{}) bool {
	p.mu.Lock()
	n := p.slots[s]
	p.mu.Unlock()
	if n == p.at {
		for i := 0; i < 100 && p.count.Load() <= int64(p.at+1); i++ {
			time.Sleep(10 * time.Millisecond)
		}
		boom()
	}
	return p.source.prepare(s, ended)
}

// TestRunPanicBeforeScan: when a worker panics before its part is
// scanned, the worker with the next part, waiting for that scan, stops
// too, and the run panics rather than hanging.
func TestRunPanicBeforeScan(t *testing.T) {
	defer func(n int) { partSize = n }(partSize)
	partSize = 1000
	r := pgn.NewReader(strings.NewReader(games(3000)))
	head := &link{done: make(chan struct{}), ok: true}
	close(head.done)
	src := &panicSource[int]{source: &parts[int]{r: r, prev: head}, at: 7, slots: map[*slot[int]]int{}}
	done := make(chan any)
	go func() {
		defer func() { done <- recover() }()
		var tally startpos.Tally
		runSlots(context.Background(), Options{}, Job[int]{}, &tally, 2, 4, source[int](src))
	}()
	select {
	case v := <-done:
		if p, ok := v.(*PanicError); !ok || !errors.Is(p, errBoom) {
			t.Fatalf("runSlots panicked with %v, want the source's panic", v)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the run hangs after a worker panicked before its part was scanned")
	}
}

// TestRunSmallInputMemory: a run over an input of one short game
// allocates a few tens of KB, not the hundreds a part's buffers and a
// block of tags for thousands took at once (660 KB with two jobs), nor the
// 64 KB buffer the Reader made at once for one job (72 KB a run), so that
// a folder of single-game files does not keep the collector busy, on one
// core as on several.
func TestRunSmallInputMemory(t *testing.T) {
	const game = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n"
	const most = 32 << 10
	for _, jobs := range []int{1, 2} {
		t.Run(fmt.Sprintf("jobs %d", jobs), func(t *testing.T) {
			job := Job[struct{}]{Emit: func(*Item[struct{}]) error { return nil }}
			const runs = 50
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range runs {
				var tally startpos.Tally
				if err := Run(context.Background(), pgn.NewReader(strings.NewReader(game)), Options{Jobs: jobs}, job, &tally); err != nil {
					t.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > most {
				t.Errorf("%d bytes allocated a run, want at most %d", per, most)
			}
		})
	}
}
