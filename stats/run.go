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
// goroutines. warn, if not nil, is called with every problem, in input
// order, on the calling goroutine; counted, if not nil, with the number of
// games of each batch as it is added (for a progress display). Run can be
// called again with the same s for further inputs.
func Run(ctx context.Context, r *pgn.Reader, jobs int, s *Stats, warn func(*pgn.ParseError), counted func(int)) error {
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
			if warn != nil {
				for _, p := range g.Problems {
					warn(p)
				}
			}
		}
		if counted != nil {
			counted(n)
		}
		return nil
	}
	return pgn.Pipeline(ctx, r, jobs, work, emit)
}
