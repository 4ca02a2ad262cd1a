package selector

import (
	"context"
	"fmt"
	"io"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

// A sink receives the bytes of games by destination. Destinations are
// small integers of the sink's choosing.
type sink interface {
	// dest returns the destination of a game of the class that
	// pipeline.Options.Where selects or not; it may be discard.
	dest(class int, selected bool) int
	// write appends b to destination d, which is not discard.
	write(d int, b []byte) error
}

// discard is the destination of games that go nowhere.
const discard = -2

// Summary counts what a run read and where it went.
type Summary struct {
	// Tally counts the games, each once however large, by the kind of
	// their start, and the problems reported.
	startpos.Tally
	// Selected counts the games selected (Filter) or written to the files
	// of a number (Splitter).
	Selected int64
	// ByClass counts the games of each class that pipeline.Options.Where
	// selects (all, without a Where).
	ByClass [Classes]int64
	// Unselected counts the games pipeline.Options.Where does not select.
	Unselected int64
}

// router carries what links the games of a run across batches and across
// inputs: where the last game went, and the bytes seen before any game.
type router struct {
	last    int    // destination of the last game; -1 before the first
	pending []byte // bytes before the first game, waiting for its destination
	sum     Summary
}

func newRouter() router { return router{last: -1} }

// run routes every game of r to s in input order. The runner classifies
// the games on its workers; routing and writing happen on the calling
// goroutine. selected reports which destinations count as selected in the
// Summary.
func (rt *router) run(ctx context.Context, r *pgn.Reader, opts pipeline.Options, s sink, selected func(d int) bool) error {
	emit := func(it *pipeline.Item[struct{}]) error {
		raw := it.Game.Raw
		class := Class(&it.Class)
		if class == Follow {
			if rt.last < 0 {
				rt.pending = append(rt.pending, raw...)
				return nil
			}
			return rt.write(s, rt.last, raw)
		}
		d := s.dest(class, it.Selected)
		if it.Selected {
			rt.sum.ByClass[class]++
		} else {
			rt.sum.Unselected++
		}
		if selected(d) {
			rt.sum.Selected++
		}
		if len(rt.pending) > 0 {
			if err := rt.write(s, d, rt.pending); err != nil {
				return err
			}
			rt.pending = nil
		}
		rt.last = d
		return rt.write(s, d, raw)
	}
	return pipeline.Run(ctx, r, opts, pipeline.Job[struct{}]{Emit: emit}, &rt.sum.Tally)
}

func (rt *router) write(s sink, d int, b []byte) error {
	if d == discard {
		return nil
	}
	return s.write(d, b)
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
// Bytes that are not a game (class [Follow]) go with the game before them;
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

// Run filters every game of r, classifying on up to opts.Jobs goroutines
// while keeping the input's order, and reports to opts.Warn and
// opts.Progress one call at a time, in input order. opts.Where narrows the
// selection: the Filter selects the games its Selector selects and Where
// matches (Criteria.Invert inverts both together). Run may be called once
// per input; call Close after the last.
func (f *Filter) Run(ctx context.Context, r *pgn.Reader, opts pipeline.Options) error {
	return f.rt.run(ctx, r, opts, f, func(d int) bool { return d == toSelected })
}

// Close writes what is still held back: the blank text of a run that had
// no game. It does not close the writers.
func (f *Filter) Close() error { return f.rt.finish(f, toRejected) }

// Summary returns the counts so far.
func (f *Filter) Summary() Summary { return f.rt.sum }

// dest selects the games that both the Selector and Where select; with
// Criteria.Invert, the complement of those, as grep -v inverts the whole
// match: the games the inverted Selector selects, and those Where does
// not.
func (f *Filter) dest(class int, selected bool) int {
	in := f.sel.Wants(class)
	if f.sel.invert {
		in = in || !selected
	} else {
		in = in && selected
	}
	if in {
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
