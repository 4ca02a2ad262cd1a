package stats

import (
	"context"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// Run counts every game of r into s, examining games on up to opts.Jobs
// goroutines and reporting one game at a time, in input order. A game
// opts.Where does not select is read and tallied as a game (Totals) but
// counted nowhere else; a nil Where counts every game. Run can be called
// again with the same s for further inputs.
func Run(ctx context.Context, r *pgn.Reader, s *Stats, opts pipeline.Options) error {
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
	return pipeline.Run(ctx, r, opts, job, &s.Totals)
}
