package stats

import (
	"context"

	"github.com/frctool/frctool/pgn"
)

// batch is one batch of games examined by a worker.
type batch struct {
	games []Game
}

// Run counts every game of r into s, examining games on up to jobs
// goroutines and reporting through hooks on the calling goroutine, in input
// order. Run can be called again with the same s for further inputs.
func Run(ctx context.Context, r *pgn.Reader, jobs int, s *Stats, hooks pgn.Hooks) error {
	work := func(b *pgn.Batch, res *batch) {
		res.games = res.games[:0]
		for i := range b.Games {
			res.games = append(res.games, Examine(&b.Games[i]))
		}
	}
	emit := func(_ *pgn.Batch, res *batch) error {
		n := 0
		for _, g := range res.games {
			s.Add(g)
			if g.Counted {
				n++
			}
			hooks.Report(g.Problems)
		}
		hooks.Done(n)
		return nil
	}
	return pgn.Pipeline(ctx, r, jobs, work, emit)
}
