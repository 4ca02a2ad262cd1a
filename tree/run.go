package tree

// Running over a stream: the games replayed on every core, their lines
// added by the stores' goroutines.

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// walked is a worker's result for one game.
type walked struct {
	line   Line
	fate   Fate
	sp     int
	failed bool
}

// Run adds every game of r that opts.Where selects to the forest's
// trees, replaying games on up to opts.Jobs goroutines and adding them in
// input order, on at most as many goroutines again (one per store, each a
// share of the trees). A game not selected is read and tallied but not
// replayed. It can be called again with the same forest for further
// inputs.
func Run(ctx context.Context, r *pgn.Reader, f *Forest, opts pipeline.Options) error {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(f)
	// A line's steps go back to the walkers once added: a game's line
	// then costs no allocation.
	var steps stepPool
	// Lines are added on goroutines of their own, one per store or group
	// of stores, to which the goroutine keeping the input's order hands
	// each, a light task beside reading; with one job, on that goroutine.
	var sh *shards
	if opts.Jobs != 1 {
		sh = f.startShards(&steps, storeJobs(len(f.stores), opts.Jobs))
	}
	job := pipeline.Job[walked]{
		NewWorker: func() func(it *pipeline.Item[walked], out []byte) []byte {
			w := f.NewWalker()
			w.steps = &steps
			return func(it *pipeline.Item[walked], out []byte) []byte {
				if it.Selected {
					v := &it.Value
					var problems []*pgn.ParseError
					v.fate, v.sp, v.failed, problems = w.Walk(it.Game, &it.Class, &v.line)
					it.Problems = append(it.Problems, problems...)
				}
				return out
			}
		},
		Emit: func(it *pipeline.Item[walked]) error {
			if sp, ok := it.Class.Start.SP(); ok && it.Class.Counted {
				f.markSP(sp)
			}
			if !it.Selected {
				return nil
			}
			var handed bool
			var err error
			if sh != nil {
				handed, err = sh.count(&it.Value)
			} else {
				err = f.count(&it.Value)
			}
			if !handed {
				steps.put(it.Value.line.Steps)
			}
			return err
		},
	}
	err := pipeline.Run(ctx, r, opts, job, &f.Totals)
	if sh != nil {
		sh.stop()
	}
	// A tree made for a line that was never added, the run stopped,
	// still gets its root, and the games that reached only the root
	// are counted there.
	for _, t := range f.trees {
		t.init()
		t.s.addResults(t.rootNode, &t.rootOnly)
		t.rootOnly = Results{}
	}
	f.settle()
	return cmp.Or(err, f.checkGames())
}

// storeJobs returns the number of goroutines adding to n stores for the
// given jobs (0: one per core): a goroutine per store, or per group of
// stores when fewer jobs are asked for.
func storeJobs(n, jobs int) int {
	if jobs > 0 {
		return max(min(n, jobs), 1)
	}
	return max(n, 1)
}

// count adds a worker's result to the forest.
func (f *Forest) count(v *walked) error {
	if !f.tally(v) {
		return nil
	}
	return f.Add(&v.line, v.sp)
}

// tally counts a worker's result in the summary, and reports whether its
// line is to be added.
func (f *Forest) tally(v *walked) bool {
	if v.failed {
		f.Summary.Failed++
	}
	switch v.fate {
	case OtherStart:
		f.Summary.OtherStart++
	case NotReached:
		f.Summary.NotReached++
	default:
		return true
	}
	return false
}

// shards add lines to the trees of a forest's stores on a goroutine per
// store, or per group of stores (store k in group k modulo the number of
// groups): the trees of one group are added to in input order, those of
// two groups at once. The goroutine handing them the lines (count, the
// one keeping the input's order) makes the trees, counts the lines, and
// checks the bound on positions at the counts of lines Forest.due names,
// as Forest.Add does: it waits there for every store to be up to date
// and prunes the forest while they wait, so that what is dropped is what
// one goroutine adding every line would drop. Since a line adds at most
// depth+2 positions, the wait is left out when the bound cannot have
// been passed: when the positions each group's goroutine says its stores
// hold, and those its lines still to add can add, are within it.
type shards struct {
	f       *Forest
	in      []chan []shardLine
	pending [][]shardLine
	free    chan []shardLine
	idle    chan struct{}
	wg      sync.WaitGroup
	// handed counts the lines handed to each group's goroutine, pending
	// ones included; added counts those it has added, after which held
	// is the positions its stores held.
	handed      []int64
	added, held []atomic.Int64
}

// shardLine is a line for a store's goroutine, with its tree and
// ordinal.
type shardLine struct {
	t     *Tree
	stamp uint32
	line  Line
}

// shardBatch is the number of lines handed to a store's goroutine at
// once.
const shardBatch = 128

func (f *Forest) startShards(steps *stepPool, n int) *shards {
	sh := &shards{f: f, idle: make(chan struct{}), free: make(chan []shardLine, 4*n)}
	sh.in = make([]chan []shardLine, n)
	sh.pending = make([][]shardLine, n)
	sh.handed = make([]int64, n)
	sh.added, sh.held = make([]atomic.Int64, n), make([]atomic.Int64, n)
	for k := range n {
		sh.in[k] = make(chan []shardLine, 4)
		// pending grows as lines come, to shardBatch, and the batches
		// come back through free: a run over one short game, each file
		// of a folder of them, makes no batch for 128 lines.
		sh.held[k].Store(sh.holds(k))
		sh.wg.Go(func() {
			// The lines' steps go back to the pool a batch at a time.
			back := make([][]Step, 0, shardBatch)
			for lines := range sh.in[k] {
				if lines == nil {
					// A wait: the store is up to date.
					sh.idle <- struct{}{}
					continue
				}
				for i := range lines {
					l := &lines[i]
					l.t.stamp = l.stamp
					l.t.Add(&l.line)
					back = append(back, l.line.Steps)
				}
				steps.put(back...)
				clear(back)
				back = back[:0]
				// held before added: what count reads of added
				// is then in held.
				sh.held[k].Store(sh.holds(k))
				sh.added[k].Add(int64(len(lines)))
				clear(lines)
				select {
				case sh.free <- lines[:0]:
				default:
				}
			}
		})
	}
	return sh
}

// count counts v and hands its line to its store's goroutine, and
// reports whether it did, the line's Steps then being theirs.
func (sh *shards) count(v *walked) (bool, error) {
	f := sh.f
	if !f.tally(v) {
		return false, nil
	}
	t, stamp, err := f.route(&v.line, v.sp)
	if err != nil {
		return false, err
	}
	if len(v.line.Steps) == 1 {
		// A game with no move in the tree (header-only archives have
		// nothing else) counts at the root, which Run adds up at its
		// end: handing it to a store's goroutine would cost more.
		addOutcome(&t.rootOnly, v.line.Outcome)
		return false, nil
	}
	k := slices.Index(f.stores, t.s) % len(sh.in)
	sh.pending[k] = append(sh.pending[k], shardLine{t: t, stamp: stamp, line: v.line})
	if len(sh.pending[k]) == shardBatch {
		sh.send(k)
	}
	sh.handed[k]++
	if f.due() && sh.most() > int64(f.maxNodes) {
		sh.wait()
		if f.Len() > f.maxNodes {
			f.prune(f.pruneTarget())
			for k := range sh.in {
				sh.held[k].Store(sh.holds(k))
			}
		}
	}
	return true, nil
}

// holds returns the positions of group k's stores, which only group k's
// goroutine may call while it runs.
func (sh *shards) holds(k int) int64 {
	n := 0
	for i := k; i < len(sh.f.stores); i += len(sh.in) {
		n += sh.f.stores[i].nodes.len()
	}
	return int64(n)
}

// most returns the most positions the stores can hold once the lines
// handed over are added.
func (sh *shards) most() int64 {
	n := int64(0)
	for k := range sh.in {
		added := sh.added[k].Load()
		n += sh.held[k].Load() + (sh.handed[k]-added)*int64(sh.f.depth+2)
	}
	return n
}

// send hands store k's pending lines to its goroutine.
func (sh *shards) send(k int) {
	full := len(sh.pending[k]) == shardBatch
	sh.in[k] <- sh.pending[k]
	select {
	case sh.pending[k] = <-sh.free:
	default:
		sh.pending[k] = nil
		if full {
			// A run that filled a batch fills the next: it is made
			// whole at once, not grown line by line.
			sh.pending[k] = make([]shardLine, 0, shardBatch)
		}
	}
}

// wait returns once every line handed over is added.
func (sh *shards) wait() {
	for k := range sh.in {
		if len(sh.pending[k]) > 0 {
			sh.send(k)
		}
		sh.in[k] <- nil
	}
	for range sh.in {
		<-sh.idle
	}
}

// stop adds the lines pending and ends the goroutines.
func (sh *shards) stop() {
	for k := range sh.in {
		if len(sh.pending[k]) > 0 {
			sh.send(k)
		}
		close(sh.in[k])
	}
	sh.wg.Wait()
}
