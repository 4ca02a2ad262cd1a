package selector

import (
	"context"
	"fmt"
	"io"

	"github.com/frctool/frctool/pgn"
)

// A sink receives the bytes of games by destination. Destinations are
// small integers of the sink's choosing.
type sink interface {
	// dest returns the destination of games of the class.
	dest(class int) int
	// write appends b to destination d.
	write(d int, b []byte) error
}

// Summary counts what a run read and where it went.
type Summary struct {
	Games    int // games read, each counted once however large
	Selected int // games selected (Filter) or written to SP and Fritz9 files (Splitter)
	Warnings int // problems reported
	// ByClass counts the games of each class.
	ByClass [Classes]int
}

// router carries what links the games of a run across batches and across
// inputs: where the last game went, and the bytes seen before any game.
type router struct {
	last    int    // destination of the last game; -1 before the first
	pending []byte // bytes before the first game, waiting for its destination
	sum     Summary
}

func newRouter() router { return router{last: -1} }

// item is one game's class, worked out by a pipeline worker.
type item struct {
	class    int
	counted  bool
	problems []*pgn.ParseError // start problems only
}

type batchResult struct{ items []item }

// run routes every game of r to s, classifying on up to jobs goroutines
// and writing on the calling one, in input order. selected reports which
// destinations count as selected in the Summary.
func (rt *router) run(ctx context.Context, r *pgn.Reader, jobs int, s sink, selected func(d int) bool, hooks pgn.Hooks) error {
	work := func(b *pgn.Batch, res *batchResult) {
		res.items = res.items[:0]
		for i := range b.Games {
			class, counted, problems := Class(&b.Games[i])
			res.items = append(res.items, item{class: class, counted: counted, problems: problems})
		}
	}
	emit := func(b *pgn.Batch, res *batchResult) error {
		games := 0
		defer func() { hooks.Done(games) }()
		for i := range res.items {
			it := &res.items[i]
			g := &b.Games[i]
			rt.report(g.Problems, hooks)
			rt.report(it.problems, hooks)
			if !it.counted {
				if rt.last < 0 {
					rt.pending = append(rt.pending, g.Raw...)
					continue
				}
				if err := s.write(rt.last, g.Raw); err != nil {
					return err
				}
				continue
			}
			d := s.dest(it.class)
			games++
			rt.sum.Games++
			rt.sum.ByClass[it.class]++
			if selected(d) {
				rt.sum.Selected++
			}
			if len(rt.pending) > 0 {
				if err := s.write(d, rt.pending); err != nil {
					return err
				}
				rt.pending = nil
			}
			if err := s.write(d, g.Raw); err != nil {
				return err
			}
			rt.last = d
		}
		return nil
	}
	return pgn.Pipeline(ctx, r, jobs, work, emit)
}

func (rt *router) report(problems []*pgn.ParseError, hooks pgn.Hooks) {
	rt.sum.Warnings += len(problems)
	hooks.Report(problems)
}

// finish writes the bytes held back when the run had no game at all to
// destination d.
func (rt *router) finish(s sink, d int) error {
	if len(rt.pending) == 0 {
		return nil
	}
	err := s.write(d, rt.pending)
	rt.pending = nil
	return err
}

// Filter sends each game to one of two writers, the selected or the
// rejected games, so that the two outputs together are the input.
//
// Bytes that are not a game (see [Class]) go with the game before them;
// those at the start of the run go with its first game; and when the run
// has no game at all, they go to the rejected writer, so that the selected
// output holds exactly the selected games. A run may read several inputs:
// they are treated as one stream, as if concatenated.
type Filter struct {
	sel      *Selector
	selected io.Writer
	rejected io.Writer // nil: discarded
	rt       router
}

const (
	toSelected = 0
	toRejected = 1
)

// NewFilter returns a Filter writing the games sel selects to selected and
// the others to rejected; rejected may be nil to discard them.
func NewFilter(sel *Selector, selected, rejected io.Writer) *Filter {
	return &Filter{sel: sel, selected: selected, rejected: rejected, rt: newRouter()}
}

// Run filters every game of r, classifying on up to jobs goroutines while
// keeping the input's order, and reports through hooks on the calling
// goroutine, in input order. Run may be called once per input; call Close
// after the last.
func (f *Filter) Run(ctx context.Context, r *pgn.Reader, jobs int, hooks pgn.Hooks) error {
	return f.rt.run(ctx, r, jobs, f, func(d int) bool { return d == toSelected }, hooks)
}

// Close writes what is still held back: the blank text of a run that had
// no game. It does not close the writers.
func (f *Filter) Close() error { return f.rt.finish(f, toRejected) }

// Summary returns the counts so far.
func (f *Filter) Summary() Summary { return f.rt.sum }

func (f *Filter) dest(class int) int {
	if f.sel.Wants(class) {
		return toSelected
	}
	return toRejected
}

func (f *Filter) write(d int, b []byte) error {
	w := f.selected
	if d == toRejected {
		if f.rejected == nil {
			return nil
		}
		w = f.rejected
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("writing the %s games: %w", [...]string{"selected", "rejected"}[d], err)
	}
	return nil
}
