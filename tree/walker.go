package tree

// Walking a game: the line of positions it adds to a tree.

import (
	"fmt"
	"sync"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/replay"
	"github.com/frctool/frctool/startpos"
	"github.com/frctool/frctool/stats"
)

// Fate is what a Walker did with a game.
type Fate uint8

// The fates of a game.
const (
	// Added: the game's line is ready to add.
	Added Fate = iota
	// OtherStart: the game starts from a position with no tree.
	OtherStart
	// NotReached: the game never reached the root position.
	NotReached
)

// Walker replays the openings of games for a Forest: one per goroutine,
// since it keeps a board. It only reads the Forest's options, which do
// not change, so walkers may run beside the goroutine adding to it.
type Walker struct {
	depth int
	sel   *selection
	board position.Board
	scan  pgn.MovetextScanner
	// steps, if set, gives the slices for lines' Steps, which Run takes
	// back once a line is added: a game's line then costs no allocation.
	// ready are slices taken from it a few at a time, for the pool's
	// lock to be taken once for them all.
	steps *stepPool
	ready [][]Step
	// starts are the start positions met, by their FEN tag, and
	// standard the one of games without: each read once, since most
	// archives have a few hundred, and reading one costs more than the
	// rest of a short game's walk.
	starts   map[string]*start
	standard *start
}

// start is a start position as a Walker read it.
type start struct {
	pos  fen.Position
	key  position.Key
	hash uint64
	sp   int // spOf(key)
	// board is pos set up, which a game's board is set to by a copy.
	board position.Board
}

// maxStarts bounds Walker.starts: an archive of set-up positions (puzzles,
// endgames) has a start per game.
const maxStarts = 4096

// startSteps starts the Steps of l with its root. In Run, whose lines
// stay where the walker made them until added, the root goes into the
// line itself: a game with no move from the root (all of a header-only
// archive) then takes nothing from the pool, which would cost two of its
// locks a game. A line for Walk's callers always gets Steps of its own,
// since they may copy lines.
func (w *Walker) startSteps(l *Line, k position.Key, h uint64) {
	l.first = k
	root := Step{hash: h}
	if w.steps != nil {
		l.root[0] = root
		l.Steps = l.root[:1:1]
		return
	}
	l.Steps = append(w.newSteps(), root)
}

// addStep appends s to the Steps of l, moving them from the line to a
// slice of the pool at their second.
func (w *Walker) addStep(l *Line, s Step) {
	if cap(l.Steps) == 1 {
		l.Steps = append(w.newSteps(), l.Steps[0])
	}
	l.Steps = append(l.Steps, s)
}

// newSteps returns an empty slice for a line's Steps.
func (w *Walker) newSteps() []Step {
	if w.steps != nil {
		if len(w.ready) == 0 {
			w.ready = w.steps.take(w.ready, stepBatch)
		}
		if n := len(w.ready); n > 0 {
			s := w.ready[n-1]
			w.ready[n-1] = nil
			w.ready = w.ready[:n-1]
			return s[:0]
		}
	}
	return make([]Step, 0, w.depth+1)
}

// stepBatch is how many slices a walker takes from the pool at once, and
// how many at most it holds beside the lines in flight.
const stepBatch = 32

// stepPool keeps the memory of lines' Steps from one game to the next:
// the walkers take from it, and whoever adds a line gives its Steps back.
// A sync.Pool would copy each slice given to it to the heap, an
// allocation per game, and the collector empties it; a stepPool holds
// the slices as they are, as many as there have been lines in flight
// at once and stepBatch more per walker. Slices come and go a batch at
// a time, so that its lock is not taken twice a game.
type stepPool struct {
	mu   sync.Mutex
	free [][]Step
}

// take appends up to n slices given back before to dst.
func (p *stepPool) take(dst [][]Step, n int) [][]Step {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := max(len(p.free)-n, 0)
	dst = append(dst, p.free[k:]...)
	clear(p.free[k:])
	p.free = p.free[:k]
	return dst
}

// put gives back the slices of ss, which must not be used after. A
// line's own root (see startSteps) is not the pool's, and stays.
func (p *stepPool) put(ss ...[]Step) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range ss {
		if cap(s) >= 2 {
			p.free = append(p.free, s)
		}
	}
}

// NewWalker returns a Walker for the forest's trees.
func (f *Forest) NewWalker() *Walker {
	return &Walker{depth: f.depth, sel: f.sel}
}

// standard is the standard start, for games without a FEN tag, set up on
// first use rather than at start-up.
var standard = sync.OnceValue(func() fen.Position {
	r, _ := numbering.FromSP(numbering.StandardSP)
	return fen.StartPosition(r, r)
})

// nullMove is why a null move fails: a game cannot pass the turn.
const nullMove = "a null move can stand in a variation, not in the game"

// Walk replays the opening of game g, whose class c is what
// startpos.Classify says of it, and fills in l with the positions from
// the root on (a new Steps slice, which the line keeps), the result, the
// ratings and the date. It returns what it made of the game, whether a
// move of the plies it looked at could not be read or played (the line
// then ends before it), and that problem, as package replay words it.
// sp is the game's Chess960 array, -1 for none.
func (w *Walker) Walk(g *pgn.Game, c *startpos.Class, l *Line) (fate Fate, sp int, failed bool, problems []*pgn.ParseError) {
	*l = Line{}
	sp = -1
	if s, ok := c.Start.SP(); ok {
		sp = s
	}
	if !c.Counted || c.Start.Kind == startpos.Unknown || (w.sel == nil && sp < 0) {
		return OtherStart, sp, false, nil
	}
	var tag []byte
	st := w.standard
	if c.Start.FEN >= 0 {
		tag = g.Tags[c.Start.FEN].Value
		st = w.starts[string(tag)]
	}
	if st == nil {
		p := standard()
		if tag != nil {
			var err error
			if p, err = fen.ParseBytes(tag); err != nil {
				return OtherStart, sp, false, nil
			}
		}
		st = &start{pos: p}
		if err := w.board.SetPosition(p); err != nil {
			line := g.Line
			if tag != nil {
				line = g.Tags[c.Start.FEN].Line
			}
			return OtherStart, sp, false, []*pgn.ParseError{replay.Problem(g, line, replay.GameError{Err: fmt.Errorf("%w: %w", startpos.ErrFEN, err)})}
		}
		st.board.SetBoard(&w.board)
		st.key = w.board.Key()
		st.hash, st.sp = st.key.Hash(), spOf(st.key)
		switch {
		case tag == nil:
			w.standard = st
		case w.starts == nil || len(w.starts) >= maxStarts:
			w.starts = map[string]*start{string(tag): st}
		default:
			w.starts[string(tag)] = st
		}
	}
	b := &w.board
	// The board is set up at the game's first move: a game without
	// moves needs none.
	ready := false
	k := st.key
	var root position.Key
	limit := w.depth
	if w.sel == nil {
		root = k
		if st.sp != sp {
			// The array set up otherwise (no castling rights, Black to
			// move) is a start of its own, and a tree of its own.
			l.start = &st.pos
		}
	} else {
		if k != w.sel.startKey {
			return OtherStart, sp, false, nil
		}
		root = w.sel.rootKey
		limit += w.sel.rootPlies
	}
	recording := k == root
	if recording {
		w.startSteps(l, k, st.hash)
	}
	w.scan.ResetGame(g)
	for ply := 0; w.scan.Next(); {
		if w.scan.Kind() != pgn.TokenMove || w.scan.Depth() > 0 {
			continue
		}
		if (recording && len(l.Steps) > w.depth) || (!recording && ply >= limit) {
			break
		}
		if !ready {
			b.SetBoard(&st.board)
			b.SetChess960(!(c.Start.Kind == startpos.Chess960 && sp == numbering.StandardSP))
			ready = true
		}
		text := w.scan.Text()
		m, err := b.ParseMove(string(text))
		if err == nil && m == position.NullMove {
			err = &position.MoveError{Kind: position.ErrIllegalMove, Text: string(text), Reason: nullMove}
		}
		if err != nil {
			problems = append(problems, replay.Problem(g, w.scan.Token().Line, replay.GameError{Move: b.FullMoveNumber(), BlackMove: b.Turn() == position.Black, Err: err}))
			failed = true
			break
		}
		b.Push(m)
		ply++
		k := b.Key()
		switch {
		case recording:
			l.Steps[len(l.Steps)-1].Move = m
			w.addStep(l, Step{hash: k.Hash()})
		case k == root:
			recording = true
			w.startSteps(l, k, k.Hash())
		}
	}
	if !recording {
		return NotReached, sp, failed, problems
	}
	describe(g, l)
	return Added, sp, failed, problems
}

// describe fills in the line's result, ratings and date from the game's
// tags: the result as fields.Result gives it, ratings as fields.Rating
// reads them, the Date tag, or UTCDate.
func describe(g *pgn.Game, l *Line) {
	result, _ := fields.Result(g)
	l.Outcome, _ = stats.ParseResult(result)
	rating := func(name string) int {
		v, _ := g.Tag(name)
		if r, ok := fields.Rating(v); ok {
			return r
		}
		return 0
	}
	l.WhiteElo, l.BlackElo = rating("WhiteElo"), rating("BlackElo")
	if d, ok := fields.GameDate(g); ok {
		l.Year = d.Year
		l.Date = int32(d.Year*10000 + d.Month*100 + d.Day)
	}
}
