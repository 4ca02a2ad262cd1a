// Package pipeline runs a per-game job over a stream of PGN games: it
// reads the games in batches on worker goroutines that take turns at
// reading, classifies each one (startpos.Classify), runs the job on it,
// and gives the results back in input order, with the problems reported,
// the progress counted and the games tallied by the kind of their start.
//
// Every frctool job (annotate, validate, stats, filter, split and the
// rest) is a Job run by Run, and each job's own Run takes the Options
// here, so that they batch, order, report and count in one way. A job of
// your own runs the same way: its worker's function looks at one game at
// a time, on any of the workers, and Emit sees the games one at a time in
// input order (see the example). Read what you need of a game's tags in
// the worker's function and keep it in Item.Value: by the time Emit sees
// the item, the worker has let go of its tags (Game.Tags is nil).
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
	"github.com/frctool/frctool/where"
)

// BatchBudget bounds the bytes of the batches a run holds at once. A batch
// is BatchSize bytes of games plus at most one more game, which may be as
// large as the reader's MaxGameSize; with the default 4 MiB games it
// allows 10 batches, with smaller games as many more as fit, and never
// fewer than 2. A job's output for the batches in flight is about as
// large again. Together with the reader's own buffer and a decompressor's
// window this keeps a run within the memory budget the README states,
// whatever the core count.
const BatchBudget = 48 << 20

// slotsPerWorker is how many batches each worker keeps: one to work on,
// and one that waits, worked on, for the batches before it to be emitted.
// (Three gave nothing more on two cores; one left a worker idle whenever
// the other's batch took longer.)
const slotsPerWorker = 2

// plan returns the workers to use, and the batches they keep in all, for
// a reader whose games may reach maxGame bytes (0: the default).
func plan(jobs, maxGame int) (workers, batches int) {
	if maxGame <= 0 {
		maxGame = pgn.DefaultMaxGameSize
	}
	most := max(BatchBudget/(BatchSize+maxGame), slotsPerWorker)
	workers = max(min(jobs, most/slotsPerWorker), 1)
	return workers, workers * slotsPerWorker
}

// BatchSize is the amount of input handed to one worker at a time: large
// enough that handing over costs nothing next to the work, small enough
// that memory stays flat.
const BatchSize = 256 << 10

// Options say how to run a job and where its reports go.
type Options struct {
	// Jobs is the number of goroutines doing the per-game work. 0 means
	// one per core; more than the cores are not used.
	Jobs int
	// Warn, if set, receives every problem of the input, in input order:
	// the reader's, then the start tags', then the job's. Warn, Progress,
	// Job.Emit and Job.Output are called one at a time, each call done
	// before the next begins, though not all on one goroutine: whichever
	// worker's batch is next in input order makes them.
	Warn func(*pgn.ParseError)
	// Progress, if set, receives the number of games in each finished
	// batch. It is called after Emit has seen every item of the batch
	// and before the batch's memory (its games, their bytes, Item.Out) is
	// reused, so a job may finish work on a whole batch there: export
	// writes its Parquet rows then.
	Progress func(games int)
	// Where, if set, selects the games the job is about (Item.Selected).
	// A nil Where selects every game.
	Where *where.Expr
	// Flush, if set, is called after a batch is emitted that the reader
	// handed out early because the input went idle (pgn.Batch.Idle): a
	// program following a live feed writes out what it holds then, since
	// the next input may be long in coming.
	Flush func() error
}

// jobs returns the number of worker goroutines to use.
func (o *Options) jobs() int {
	n := runtime.GOMAXPROCS(0)
	if o.Jobs > 0 && o.Jobs < n {
		return o.Jobs
	}
	return n
}

// Item is one item of the stream with what the job found in it.
type Item[T any] struct {
	Game  *pgn.Game
	Class startpos.Class
	// Problems are the job's own problems with the game, reported after
	// the reader's (Game.Problems) and the start tags' (Class.Problems).
	Problems []*pgn.ParseError
	// Out is the job's output for the game, as its worker appended it.
	Out []byte
	// Value is what the job's worker found.
	Value T
	// Selected reports that the item is a game (Class.Counted) and that
	// Options.Where selects it. It is set before the worker runs; what a
	// job does with the games not selected is the job's to decide: a
	// filter writes them elsewhere, a count leaves them out.
	Selected bool
}

// Job is a per-game job with result type T.
type Job[T any] struct {
	// NewWorker returns the function that does the job's work on one game.
	// Each worker goroutine gets its own, so it may keep state such as a
	// board or buffers. The function receives the item with Game and Class
	// set, fills in the rest, and may append the game's output to out,
	// returning the extended slice; that part becomes Item.Out. A nil
	// NewWorker does no per-game work.
	NewWorker func() func(it *Item[T], out []byte) []byte
	// Emit, if set, receives every item, one at a time and in input
	// order, after its problems went to Warn. The item is reused
	// after Emit returns. Its Game has no Tags by then: a worker makes the
	// tags of its next batch's games where it made those of the last, so
	// that they are in its caches, and whatever Emit needs of the tags the
	// worker puts in Value.
	Emit func(it *Item[T]) error
	// Output, if set, receives the output of each batch's games in one
	// write, after Emit has seen them.
	Output io.Writer
}

// batch is one batch of games and the job's results for them.
type batch[T any] struct {
	games pgn.Batch
	items []Item[T]
	ends  []int // end of each item's output in out
	out   []byte
	work  func(it *Item[T], out []byte) []byte
	at    int // the item being worked on or emitted, -1 between them
}

// PanicError is what Run panics with when a job's function (its worker's,
// Emit, Output.Write, Options.Warn and the rest) or the reading panicked
// on one of the run's goroutines. A panic on a goroutine of its own would
// end the program there and then; Run instead stops its other goroutines
// and panics again on the calling goroutine, with the game it happened on,
// so that the caller's deferred functions run (a program removes its
// temporary files there) and a recover there sees it, as if the run had
// been one goroutine. With one job, where everything runs on the calling
// goroutine, Run panics with a PanicError too.
type PanicError struct {
	// Value is what the function panicked with.
	Value any
	// Stack is the stack of the goroutine that panicked, taken as it
	// panicked, so that it shows the function that did.
	Stack []byte
	// Game is the game being worked on or emitted, or nil when the panic
	// came from reading or from the work on a whole batch.
	Game *pgn.Game
}

// Error returns "file:line: game N: panic: value", or "panic: value" when
// no game was at hand.
func (e *PanicError) Error() string {
	if e.Game == nil {
		return fmt.Sprintf("panic: %v", e.Value)
	}
	return e.Game.Problem(e.Game.Line, fmt.Errorf("game %d: panic: %v", e.Game.Index, e.Value)).Error()
}

// Unwrap returns Value when it is an error, such as a runtime.Error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// repanic, deferred while b's items are worked on or emitted, turns a
// panic into a PanicError naming the game b.at. One from a run nested in
// the job passes through as it is.
func (b *batch[T]) repanic() {
	v := recover()
	if v == nil {
		return
	}
	p, ok := v.(*PanicError)
	if !ok {
		p = &PanicError{Value: v, Stack: debug.Stack()}
		if b.at >= 0 && b.at < len(b.games.Games) {
			p.Game = &b.games.Games[b.at]
		}
	}
	panic(p)
}

// PanicErrorOf makes v, recovered from a panic outside any game's work, a
// PanicError with the stack of the goroutine recovering it, which still
// holds the function that panicked. A PanicError passes through as it is.
// A job with goroutines of its own recovers their panics with it and
// panics again on its caller's, as Run does.
func PanicErrorOf(v any) *PanicError {
	if p, ok := v.(*PanicError); ok {
		return p
	}
	return &PanicError{Value: v, Stack: debug.Stack()}
}

// do runs the job's worker over the batch's games.
func (b *batch[T]) do(job *Job[T], sel *where.Expr) {
	b.at = -1
	defer b.repanic()
	if b.work == nil && job.NewWorker != nil {
		b.work = job.NewWorker()
	}
	// The reader only found and copied the games (pgn.Batch.Deferred):
	// making them here, after the turn to read, lets the next worker read
	// meanwhile.
	b.games.Build()
	n := len(b.games.Games)
	if cap(b.items) < n {
		// With room to spare: parts hold a few more or fewer games each
		// time, and new memory costs more to touch than it holds.
		b.items = make([]Item[T], n, n+n/2)
		b.ends = make([]int, n, n+n/2)
	}
	b.items, b.ends = b.items[:n], b.ends[:n]
	b.out = b.out[:0]
	for i := range b.games.Games {
		b.at = i
		it := &b.items[i]
		var zero T
		g := &b.games.Games[i]
		// Field by field and in place, not as a struct literal: that is
		// put together on the stack and copied in with wide loads that
		// wait for its narrow stores to land, which cost 5% of filter on
		// header-only games.
		startpos.ClassifyTo(&it.Class, g)
		it.Game = g
		it.Problems = it.Problems[:0]
		it.Out = nil
		it.Value = zero
		it.Selected = it.Class.Counted && sel.Match(g, &it.Class)
		if b.work != nil {
			b.out = b.work(it, b.out)
		}
		b.ends[i] = len(b.out)
	}
	b.at = -1
	start := 0
	for i := range b.items {
		b.items[i].Out = b.out[start:b.ends[i]:b.ends[i]]
		start = b.ends[i]
	}
}

// dropTags lets go of the tags of the batch's games once the job has
// worked on them: the worker makes the next batch's tags in the same
// memory, where it made them last, and Emit reads no tags.
func (b *batch[T]) dropTags() {
	for i := range b.games.Games {
		b.games.Games[i].Tags = nil
	}
}

// emit reports and tallies the batch's items in order and hands them to
// the job.
func (b *batch[T]) emit(job *Job[T], opts *Options, tally *startpos.Tally) error {
	defer b.repanic()
	games := 0
	for i := range b.items {
		b.at = i
		it := &b.items[i]
		problems := len(it.Game.Problems) + len(it.Class.Problems) + len(it.Problems)
		if opts.Warn != nil && problems > 0 {
			for _, list := range [...][]*pgn.ParseError{it.Game.Problems, it.Class.Problems, it.Problems} {
				for _, p := range list {
					opts.Warn(p)
				}
			}
		}
		tally.Add(&it.Class, problems)
		if it.Class.Counted {
			games++
		}
		if job.Emit != nil {
			if err := job.Emit(it); err != nil {
				return err
			}
		}
	}
	b.at = -1
	if opts.Progress != nil {
		opts.Progress(games)
	}
	if job.Output != nil && len(b.out) > 0 {
		if _, err := job.Output.Write(b.out); err != nil {
			return err
		}
	}
	if opts.Flush != nil && b.games.Idle() {
		return opts.Flush()
	}
	return nil
}

// Run reads every game of r and runs the job over them on up to
// opts.Jobs goroutines, keeping the input's order. tally, which must not
// be nil, counts the games and problems, also across several calls.
// Each job keeps two batches, and no more than BatchBudget bytes of
// batches are in flight, so memory stays bounded whatever the input and
// however many cores: fewer jobs are used when the games may be large.
// With one job everything runs on the calling goroutine; with several,
// the calling goroutine is one of them.
//
// With several jobs the input is read in parts (pgn.Reader.ReadPart) that
// the workers scan for games themselves, so that finding the games of an
// archive of short games is shared out too, not done by the one
// goroutine that reads. A worker reads a part when its turn to read
// comes, works on it, and emits it when its turn to emit comes, so that
// a part's memory stays in one core's caches from its reading to its
// output. Where a part's guessed start turns out wrong, the
// games from there on are read again in order for a stretch, which
// doubles each time it happens, and then in parts again. Either way the
// items are the ones pgn.Reader.Next gives, in order; a job's worker must
// keep its effects to the item and its output, since the work on a part
// read past a wrong guess is thrown away.
//
// Run stops at the first error from reading, from the job or from
// writing, or when ctx is done, and returns that error; the end of the
// input is not an error. A panic in the job or the reading, on any of
// the run's goroutines, stops the run too, and Run panics with it on the
// calling goroutine as a *PanicError, once the others have stopped. A
// job's function that calls runtime.Goexit (as testing.T.Fatal does)
// stops the run in the same way, and the calling goroutine then exits
// too, as if the function had run on it. Either way no game after the one
// at fault is emitted.
func Run[T any](ctx context.Context, r *pgn.Reader, opts Options, job Job[T], tally *startpos.Tally) error {
	jobs, n := plan(opts.jobs(), r.MaxGameSize)
	if jobs <= 1 {
		defer func() {
			if v := recover(); v != nil {
				panic(PanicErrorOf(v))
			}
		}()
		var b batch[T]
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := r.ReadBatch(&b.games, BatchSize); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			b.do(&job, opts.Where)
			b.dropTags() // as with several jobs, for one contract
			if err := b.emit(&job, &opts, tally); err != nil {
				return err
			}
		}
	}
	stretch := 1
	for {
		if !readInParts {
			_, err := runBatches(ctx, r, opts, job, tally, jobs, n, 0)
			return err
		}
		resumed, err := runParts(ctx, r, opts, job, tally, jobs, n)
		if err != nil || !resumed {
			return err
		}
		more, err := runBatches(ctx, r, opts, job, tally, jobs, n, stretch)
		if err != nil || !more {
			return err
		}
		stretch = min(2*stretch, maxStretch)
	}
}

// readInParts is false and partSize small only in tests, which compare
// the two ways of reading on inputs of many parts.
var (
	readInParts = true
	partSize    = BatchSize
)

// maxStretch bounds the batches read in order after a wrong guess: 64 MiB,
// little next to an archive that needs it often, much next to one that
// does not.
const maxStretch = 256

// slot is a batch in flight, with its place in the chain of parts.
type slot[T any] struct {
	batch[T]
	home chan *slot[T] // the free slots of the worker the slot belongs to
	prev *link         // the link of the part before, when reading in parts
	link *link         // this part's
	skip bool          // not worked on: a part before was not confirmed
}

// link passes down the chain of parts what each needs of the ones before:
// how many games they hold, and whether all of their cuts were right.
type link struct {
	done  chan struct{} // closed when games and ok are set
	games int           // games in the input to the end of the part's confirmed games
	ok    bool          // this part and every one before it were confirmed
}

// source is how a run fills its slots: read runs in input order, one
// call at a time; prepare runs on the slot's worker before the job and
// reports whether the job is to run on the slot, giving up any wait once
// ended is closed; stop tells the run, after the slot's items were
// emitted, to read no further.
type source[T any] interface {
	read(s *slot[T]) error
	prepare(s *slot[T], ended <-chan struct{}) bool
	stop(s *slot[T]) bool
}

// errEnough ends reading as the end of the input does, with more left.
var errEnough = errors.New("enough read")

// runParts runs the job over r read in parts, until the end of the input
// or the first part whose cut was not confirmed. Then it gives that part's
// unconfirmed rest and the parts read after it back to r and reports
// resumed.
func runParts[T any](ctx context.Context, r *pgn.Reader, opts Options, job Job[T], tally *startpos.Tally, jobs, n int) (resumed bool, err error) {
	head := &link{done: make(chan struct{}), games: r.Games(), ok: true}
	close(head.done)
	wrong, later, _, err := runSlots(ctx, opts, job, tally, jobs, n, &parts[T]{r: r, prev: head})
	if err != nil || wrong == nil {
		return false, err
	}
	// A read error after the parts is the reader's still, and comes again
	// when reading goes on.
	r.Resume(&wrong.games, later...)
	return true, nil
}

// parts reads a run's slots in parts chained by their links.
type parts[T any] struct {
	r    *pgn.Reader
	prev *link // the link of the part read last
}

func (p *parts[T]) read(s *slot[T]) error {
	if err := p.r.ReadPart(&s.games, partSize); err != nil {
		return err
	}
	s.prev, s.link = p.prev, &link{done: make(chan struct{})}
	p.prev = s.link
	return nil
}

// prepare scans the part, then waits for the part before to learn how
// many games came before and whether all cuts so far were right; the job
// runs only if they were. Once the run has ended nothing more is emitted,
// and the part before may never be scanned (its worker panicked), so the
// wait ends with the run.
func (p *parts[T]) prepare(s *slot[T], ended <-chan struct{}) bool {
	games, complete := s.games.ScanPart()
	spin(func() bool { return closed(s.prev.done) })
	select {
	case <-s.prev.done:
	case <-ended:
		return false
	}
	ok := s.prev.ok
	s.link.games, s.link.ok = s.prev.games+games, ok && complete
	close(s.link.done)
	if ok {
		s.games.CountFrom(s.prev.games)
	}
	return ok
}

func (p *parts[T]) stop(s *slot[T]) bool { return !s.link.ok }

// runBatches runs the job over batches of r read in order, all of them,
// or at most most batches if most > 0, and reports whether the input
// may go on.
func runBatches[T any](ctx context.Context, r *pgn.Reader, opts Options, job Job[T], tally *startpos.Tally, jobs, n, most int) (more bool, err error) {
	_, _, more, err = runSlots(ctx, opts, job, tally, jobs, n, &batches[T]{r: r, most: most})
	return more, err
}

// batches reads a run's slots as batches in order, at most most of them
// if most > 0.
type batches[T any] struct {
	r           *pgn.Reader
	most, count int
}

func (b *batches[T]) read(s *slot[T]) error {
	if b.most > 0 && b.count == b.most {
		return errEnough
	}
	b.count++
	return b.r.ReadBatch(&s.games, BatchSize)
}

func (b *batches[T]) prepare(*slot[T], <-chan struct{}) bool { return true }
func (b *batches[T]) stop(*slot[T]) bool                     { return false }

// runSlots runs the job over the slots src fills, on jobs goroutines, the
// caller's among them, each with n/jobs slots of its own.
// When src says to stop after a slot, reading stops and that slot and
// those read after it are returned unworked-on past that point, for the
// caller to give back; more reports that reading ended with errEnough.
func runSlots[T any](ctx context.Context, opts Options, job Job[T], tally *startpos.Tally, jobs, n int, src source[T]) (stopped *slot[T], later []*pgn.Batch, more bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rl := &relay[T]{
		ctx: ctx, cancel: cancel, opts: &opts, job: &job, tally: tally, src: src,
		reading: true,
		waiting: make([]*slot[T], n),
		ended:   make(chan struct{}),
	}
	var wg sync.WaitGroup
	// Should the caller's own work call runtime.Goexit, the others are
	// waited for as it unwinds, as they are after a panic.
	defer wg.Wait()
	for range jobs - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rl.work(n / jobs)
		}()
	}
	rl.work(n / jobs)
	wg.Wait()
	if rl.panic != nil {
		panic(rl.panic)
	}
	if rl.goexit {
		runtime.Goexit()
	}
	switch {
	case rl.err != nil:
		return nil, nil, false, rl.err
	case rl.stopped != nil:
		return rl.stopped, rl.later, false, nil
	case rl.readErr != nil:
		return nil, nil, false, rl.readErr
	}
	return nil, nil, rl.more, ctx.Err()
}

// relay is what the workers of a run share: whose turn it is to read and
// to emit, and how the run ended.
//
// Handing each batch from a reading goroutine to a worker and on to the
// goroutine that emits moved its memory from one core's caches to
// another's twice, and let any worker take any batch: on two cores that
// cost 10 to 20% of the throughput of filter, stats and annotate on
// archives of short games (go test ./cmd/frctool -bench Shapes -cpu 2;
// stats on lichess-like games, more work per game, was even), and a
// fifth of a whole run's wall time when the machine was busy.
type relay[T any] struct {
	ctx    context.Context
	cancel context.CancelFunc
	opts   *Options
	job    *Job[T]
	tally  *startpos.Tally
	src    source[T]

	readMu  sync.Mutex
	reading bool // false once the input ended or failed, or the run ended
	readErr error
	more    bool // reading ended with errEnough
	read    int  // turns taken at reading

	emitMu  sync.Mutex
	emitted int        // turns taken at emitting
	waiting []*slot[T] // slots worked on, waiting for their turn, by turn modulo its length
	err     error
	panic   *PanicError // the first panic on any worker
	goexit  bool        // a worker called runtime.Goexit before any panic
	// emitting is set while a slot is emitted. Should the job's Emit,
	// Warn or Output panic or call runtime.Goexit, the lock is let go of
	// as the worker unwinds, before fail or exit ends the run; a worker
	// that takes it meanwhile finds emitting still set and emits nothing,
	// so that no game after the one at fault is emitted, and the first
	// fault is the one Run reports.
	emitting bool
	stopped  *slot[T]
	later    []*pgn.Batch
	ended    chan struct{} // closed when the run ends early: an error, or src's stop
}

// work reads, works on and emits slots until reading ends or the run
// does. A panic on the way ends the run (fail), and so does a call of
// runtime.Goexit, as testing.T.FailNow makes: without it the other
// workers would wait for this one's turns for ever.
func (rl *relay[T]) work(slots int) {
	exited := true
	defer func() {
		if v := recover(); v != nil {
			rl.fail(PanicErrorOf(v))
		} else if exited {
			rl.exit()
		}
	}()
	rl.workSlots(slots)
	exited = false
}

func (rl *relay[T]) workSlots(slots int) {
	home := make(chan *slot[T], slots)
	for range slots {
		s := &slot[T]{home: home}
		s.games.Deferred = true
		home <- s
	}
	var work func(it *Item[T], out []byte) []byte
	// The worker's tags: made where the worker made those of its last
	// batch, they are in its caches. On the header-only file, where
	// making tags is most of the work, one memory a worker against one a
	// batch in flight: filter 0.46 -> 0.43 s, 500 fewer page faults
	// (median of five alternating runs).
	var tags pgn.TagMemory
	for {
		var s *slot[T]
		if !spin(func() bool { return take(home, &s) }) {
			select {
			case s = <-home:
			case <-rl.ctx.Done():
				return
			case <-rl.ended:
				return
			}
		}
		turn, ok := rl.readSlot(s)
		if !ok {
			return
		}
		s.games.TagMemory = &tags
		if s.skip = !rl.src.prepare(s, rl.ended); !s.skip {
			s.work = work
			s.do(rl.job, rl.opts.Where)
			work = s.work
		}
		s.dropTags()
		rl.finish(turn, s)
	}
}

// fail ends the run after a panic on a worker: nothing more is read,
// worked on or emitted, the other workers return, and runSlots panics
// with p once they have. The panicking worker's locks were let go of as
// the panic unwound their holders.
func (rl *relay[T]) fail(p *PanicError) {
	rl.emitMu.Lock()
	defer rl.emitMu.Unlock()
	if rl.panic == nil {
		rl.panic = p
	}
	if rl.err == nil && rl.stopped == nil {
		rl.err = p
		close(rl.ended)
	}
	rl.cancel()
}

// exit ends the run after a worker called runtime.Goexit, as fail does
// after a panic; runSlots then calls runtime.Goexit on the caller's
// goroutine, unless a panic came first.
func (rl *relay[T]) exit() {
	rl.emitMu.Lock()
	defer rl.emitMu.Unlock()
	rl.goexit = rl.panic == nil
	if rl.err == nil && rl.stopped == nil {
		rl.err = errGoexit
		close(rl.ended)
	}
	rl.cancel()
}

// errGoexit is the run's error once a worker called runtime.Goexit; it
// is never returned, the caller's goroutine exiting instead.
var errGoexit = errors.New("runtime.Goexit called by the job")

// readSlot fills s from src in the next turn to read, and returns the
// turn; ok is false when there is nothing more to read.
func (rl *relay[T]) readSlot(s *slot[T]) (turn int, ok bool) {
	rl.lockRead()
	defer rl.readMu.Unlock()
	select {
	case <-rl.ended:
		rl.reading = false
	default:
	}
	if !rl.reading || rl.ctx.Err() != nil {
		return 0, false
	}
	// Off until the read returns: should it panic, or call
	// runtime.Goexit, no other worker reads on from where it failed
	// while this one unwinds.
	rl.reading = false
	if err := rl.src.read(s); err != nil {
		switch err {
		case errEnough:
			rl.more = true
		case io.EOF:
		default:
			rl.readErr = err
		}
		return 0, false
	}
	rl.reading = true
	turn = rl.read
	rl.read++
	return turn, true
}

// lockRead takes the turn to read.
func (rl *relay[T]) lockRead() {
	if !spin(rl.readMu.TryLock) {
		rl.readMu.Lock()
	}
}

// spin waits busily for ready to report true, for a few hundred
// microseconds at most, and reports whether it did. A worker waits for
// another's read, for the scan of the part before its own, or for its
// batches to be emitted, each a matter of tens of microseconds; a core
// left idle for that long sleeps, and waking it took longer than the
// wait. On TCEC-like archives, where reading is half of the work, stats
// took 0.21 s with sleeping waits for the turn to read and 0.16 s with
// busy ones (medians of five alternating runs on two cores); the other
// two waits took stats on the lichess-like file from 0.36 s to 0.33 s
// (medians of nine).
func spin(ready func() bool) bool {
	for range spins {
		if ready() {
			return true
		}
		runtime.Gosched()
	}
	return false
}

// spins bounds spin's busy wait: a few hundred microseconds, longer than
// a part takes to read from the page cache.
const spins = 2000

// closed reports whether c is closed, without waiting.
func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// take receives from c into *s if a value is ready, without waiting.
func take[E any](c chan E, s *E) bool {
	select {
	case *s = <-c:
		return true
	default:
		return false
	}
}

// finish hands over s, worked on, for its turn to emit, and emits every
// slot whose turn has come: s, if the slots before it are emitted, and
// those after it that other workers finished meanwhile.
func (rl *relay[T]) finish(turn int, s *slot[T]) {
	rl.emitMu.Lock()
	defer rl.emitMu.Unlock()
	rl.waiting[turn%len(rl.waiting)] = s
	for {
		i := rl.emitted % len(rl.waiting)
		s := rl.waiting[i]
		if s == nil {
			return
		}
		rl.waiting[i] = nil
		rl.emitted++
		rl.emit(s)
	}
}

// emit emits s in its turn and gives it back to its worker; after src's
// stop, it keeps s for the caller to give back to the reader instead.
func (rl *relay[T]) emit(s *slot[T]) {
	switch {
	case rl.stopped != nil:
		rl.later = append(rl.later, &s.games)
		return
	case rl.err != nil, rl.emitting:
		// Nothing more is emitted after an error, nor after an emit
		// that never returned.
	default:
		if rl.err = rl.ctx.Err(); rl.err == nil {
			rl.emitting = true
			rl.err = s.emit(rl.job, rl.opts, rl.tally)
			rl.emitting = false
		}
		if rl.err != nil {
			rl.cancel()
			close(rl.ended)
			break
		}
		if rl.src.stop(s) {
			// Read no further: this slot's rest and those read after it
			// go back to the reader.
			rl.stopped = s
			close(rl.ended)
			return
		}
	}
	s.home <- s
}
