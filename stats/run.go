package stats

import (
	"context"

	"github.com/frctool/frctool/internal/pipeline"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/where"
)

// RunOptions say how to run the count and where its reports go.
type RunOptions struct {
	// Jobs is the number of goroutines examining games; 0 means one per
	// core.
	Jobs int
	// Warn, if set, receives every problem of the input, in input order.
	Warn func(*pgn.ParseError)
	// Progress, if set, receives the number of games in each finished
	// batch.
	Progress func(games int)
	// Where, if set, selects the games to count; the others are read and
	// tallied as games but not counted. nil counts every game.
	Where *where.Expr
	// Flush, if set, is called when the games read before the input went
	// idle have been handled (see pgn.NewReader), for what was written of
	// them to go out before more input comes.
	Flush func() error
}

// Run counts every game of r into s, examining games on up to opts.Jobs
// goroutines and reporting one game at a time, in input order. Run can be
// called again with the same s for further inputs.
func Run(ctx context.Context, r *pgn.Reader, s *Stats, opts RunOptions) error {
	job := pipeline.Job[Game]{
		NewWorker: func() func(it *pipeline.Item[Game], out []byte) []byte {
			return func(it *pipeline.Item[Game], out []byte) []byte {
				// A game not selected is tallied as read, but its
				// result counts nowhere.
				it.Value.Counted, it.Value.Start = it.Selected, it.Class.Start
				it.Problems = examine(it.Game, &it.Value, it.Problems)
				if it.Selected && s.grouped() {
					// The job writes no output: a game's output is
					// its group key, which Emit reads from Item.Out.
					out = s.GroupKey(out, it.Game, &it.Class)
				}
				return out
			}
		},
		Emit: func(it *pipeline.Item[Game]) error {
			if it.Selected {
				s.Selected++
			}
			it.Value.Group = it.Out
			return s.count(&it.Value)
		},
	}
	return pipeline.Run(ctx, r, pipeline.Options(opts), job, &s.Totals)
}
