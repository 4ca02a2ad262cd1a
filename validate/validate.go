// Package validate replays the games of PGN archives move by move with the
// rules of package position, Chess960 castling included, and reports every
// move that cannot be read or played and every Result tag that contradicts
// a final checkmate or stalemate, or the movetext's own termination marker.
//
// Problems are *pgn.ParseError values whose text names the place the way an
// editor understands and the game the way a reader does:
//
//	tcec.pgn:812: game 14 (Stockfish - Leela), move 23...: illegal move 'O-O': the king would pass through an attacked square f8
//
// A game whose start position the tags do not tell cannot be checked; that
// is a warning, not a failure.
package validate

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/startpos"
)

// ErrResult is a Result tag that contradicts the final position or the
// movetext's own termination marker.
var ErrResult = errors.New("wrong result")

// ErrNotChecked means a game could not be replayed at all: its start is
// unknown or cannot be played from, or it is too large to hold.
var ErrNotChecked = errors.New("not checked")

// Options say what to replay.
type Options struct {
	// Variations replays every variation too, each from the position
	// before the move it is an alternative to.
	Variations bool
}

// GameError is a problem of one game: the game's number and players, the
// move it happened at (when it is about a move), and what is wrong. It is
// the Err of a *pgn.ParseError, which adds the file and line.
type GameError struct {
	Game         int    // the game's number in its file, from 1
	White, Black string // the players as the tags name them
	// Move is the full-move number of the offending move, 0 when the
	// problem is not about a move; BlackMove says it was Black's.
	Move      int
	BlackMove bool
	Err       error
}

func (e *GameError) Error() string {
	s := fmt.Sprintf("game %d (%s - %s)", e.Game, e.White, e.Black)
	if e.Move > 0 {
		dots := "."
		if e.BlackMove {
			dots = "..."
		}
		s += fmt.Sprintf(", move %d%s", e.Move, dots)
	}
	return s + ": " + e.Err.Error()
}

func (e *GameError) Unwrap() error { return e.Err }

// Result is what validating one game found.
type Result struct {
	// Counted is false for what is not a game of its own (see
	// pgn.Game.Counts).
	Counted bool
	// Checked is set when the game was replayed; Failed when a move or
	// the result was found wrong.
	Checked, Failed bool
	// Plies counts the moves replayed, variations included.
	Plies int
	// Final is the position at the end of the main line when every move
	// of it could be played, nil otherwise; MainPlies counts the main
	// line's moves played. The Validator reuses the board: it is valid
	// until the next call of Check.
	Final     *position.Board
	MainPlies int
	// Problems are the reader's, the start tags' and the replay's, the
	// last ones *pgn.ParseError wrapping a *GameError.
	Problems []*pgn.ParseError
}

// Validator replays games one at a time. It is not safe for concurrent
// use; give each goroutine its own.
type Validator struct {
	opts Options
	scan pgn.MovetextScanner
	// main is the main line's board, set up again for every game so that
	// replaying allocates nothing but variations' boards.
	main  position.Board
	lines []line // one per open variation level, lines[0] the main line
}

// line is the replay of one (main or variation) line.
type line struct {
	board *position.Board
	dead  bool // a move of this line failed: the rest is not replayed
}

// New returns a Validator for the options.
func New(opts Options) *Validator { return &Validator{opts: opts} }

// Check replays game g.
func (v *Validator) Check(g *pgn.Game) Result {
	res := Result{Counted: startpos.Classify(g).Counted, Problems: g.Problems}
	if !res.Counted {
		return res
	}
	ge := GameError{Game: g.Index}
	problem := func(line int, e GameError) {
		// The players are named only when needed: most games have no
		// problem, and the strings would be an allocation each.
		e.White, e.Black = player(g, "White"), player(g, "Black")
		res.Problems = append(res.Problems[:len(res.Problems):len(res.Problems)], g.Problem(line, &e))
	}
	notChecked := func(line int, err error) {
		e := ge
		e.Err = fmt.Errorf("%w: %w", ErrNotChecked, err)
		problem(line, e)
	}
	if g.Partial {
		notChecked(g.Line, pgn.ErrGameTooLarge)
		return res
	}

	st, startProblems := startpos.OfGame(g)
	board := &v.main
	at, err := setUp(board, g, st, startProblems)
	if err != nil {
		notChecked(at, err)
		return res
	}
	// The start tags' other warnings (a second, conflicting FEN) still
	// stand beside a start that could be set up.
	res.Problems = append(res.Problems[:len(res.Problems):len(res.Problems)], startProblems...)
	res.Checked = true

	v.lines = append(v.lines[:0], line{board: board})
	v.scan.Reset(g.Movetext(), g.MovetextLine())
	for v.scan.Next() {
		kind, depth := v.scan.Kind(), v.scan.Depth()
		if depth > 0 && !v.opts.Variations {
			continue
		}
		switch kind {
		case pgn.TokenOpenVariation:
			// The variation replaces the parent line's last move, so it
			// starts from the position before it. A parent that failed,
			// or has no move yet, gives nothing to start from.
			parent := &v.lines[depth-1]
			l := line{dead: true}
			if !parent.dead && parent.board.MovesPlayed() > 0 {
				l = line{board: parent.board.Copy()}
				l.board.Pop()
			}
			v.lines = append(v.lines[:depth], l)
		case pgn.TokenCloseVariation:
			v.lines = v.lines[:depth]
		case pgn.TokenMove:
			l := &v.lines[depth]
			if l.dead {
				continue
			}
			tok := v.scan.Token()
			b := l.board
			e := ge
			e.Move, e.BlackMove = b.FullMoveNumber(), b.Turn() == position.Black
			m, err := b.ParseMove(string(tok.Text))
			if err == nil && m == position.NullMove && depth == 0 {
				// Annotators pass the turn in analysis to show a threat;
				// a game itself cannot.
				err = &position.MoveError{Kind: position.ErrIllegalMove, Text: string(tok.Text), Reason: "a null move can stand in a variation, not in the game"}
			}
			if err != nil {
				e.Err = err
				problem(tok.Line, e)
				res.Failed = true
				l.dead = true
				continue
			}
			b.Push(m)
			res.Plies++
			if depth == 0 {
				res.MainPlies++
			}
		}
	}
	if marker, line := g.Termination(); marker != nil {
		if tag, ok := g.Tag("Result"); ok && !bytes.Equal(marker, tag) {
			e := ge
			e.Err = fmt.Errorf("%w: [Result %q], but the moves end with %q", ErrResult, tag, marker)
			problem(line, e)
			res.Failed = true
		}
	}
	if main := v.lines[0]; !main.dead {
		res.Final = main.board
		if err := checkResult(g, main.board); err != nil {
			e := ge
			e.Err = err
			at := g.MovetextLine()
			if i := tagIndex(g, "Result"); i >= 0 {
				at = g.Tags[i].Line
			}
			problem(at, e)
			res.Failed = true
		}
	}
	// Drop the variations' boards so a long run keeps no old games alive.
	clear(v.lines)
	return res
}

// player returns the name a tag gives a player, "?" when there is none.
func player(g *pgn.Game, tag string) string {
	if name, ok := g.Tag(tag); ok {
		return string(name)
	}
	return "?"
}

// standard is the standard chess start, for games without a FEN.
var standard = func() fen.Position {
	r, _ := numbering.FromSP(numbering.StandardSP)
	return fen.StartPosition(r, r)
}()

// setUp sets b up with the position the game starts from, or returns the
// line to blame and why it cannot be set up.
func setUp(b *position.Board, g *pgn.Game, st startpos.Start, problems []*pgn.ParseError) (int, error) {
	if st.Kind == startpos.Unknown {
		// Start says why, on the line of the tag concerned.
		for _, p := range problems {
			if errors.Is(p.Err, startpos.ErrNoFEN) || errors.Is(p.Err, startpos.ErrFEN) {
				return p.Line, p.Err
			}
		}
		return g.Line, startpos.ErrNoFEN
	}
	p, line := standard, 0
	if st.FEN >= 0 {
		tag := g.Tags[st.FEN]
		var err error
		if p, err = fen.ParseBytes(tag.Value); err != nil {
			return tag.Line, fmt.Errorf("%w: %v", startpos.ErrFEN, err)
		}
		line = tag.Line
	}
	if err := b.SetPosition(p); err != nil {
		return line, fmt.Errorf("%w: %v", startpos.ErrFEN, err)
	}
	// A FEN of anything but the standard array is a Chess960 (or DFRC, or
	// set-up) game: its castlings are read the Chess960 way.
	b.SetChess960(!(st.Kind == startpos.Chess960 && st.White == numbering.StandardSP))
	return 0, nil
}

// checkResult compares the Result tag with a final checkmate or stalemate.
// An unknown result ("*", or no tag) contradicts nothing.
func checkResult(g *pgn.Game, b *position.Board) error {
	tag, ok := g.Tag("Result")
	if !ok {
		return nil
	}
	r := string(tag)
	if r != "1-0" && r != "0-1" && r != "1/2-1/2" {
		return nil
	}
	var want, why string
	switch {
	case b.IsCheckmate():
		want, why = "1-0", "Black is checkmated"
		if b.Turn() == position.White {
			want, why = "0-1", "White is checkmated"
		}
	case b.IsStalemate():
		want, why = "1/2-1/2", "the game ends in stalemate"
	default:
		return nil
	}
	if r == want {
		return nil
	}
	return fmt.Errorf("%w: [Result %q], but %s", ErrResult, r, why)
}

func tagIndex(g *pgn.Game, name string) int {
	for i, t := range g.Tags {
		if string(t.Name) == name {
			return i
		}
	}
	return -1
}

// Summary counts what a run validated.
type Summary struct {
	Games      int // games read
	Checked    int // games replayed
	Failed     int // games with a wrong move or result
	NotChecked int // games whose start is unknown
	Plies      int // moves replayed, variations included
	Warnings   int // problems reported, failures included
}

// Add counts one game's result.
func (s *Summary) Add(r Result) {
	s.Warnings += len(r.Problems)
	if !r.Counted {
		return
	}
	s.Games++
	s.Plies += r.Plies
	switch {
	case !r.Checked:
		s.NotChecked++
	case r.Failed:
		s.Checked++
		s.Failed++
	default:
		s.Checked++
	}
}

func (s *Summary) String() string {
	str := fmt.Sprintf("%d games checked, %d failed, %d plies replayed", s.Checked, s.Failed, s.Plies)
	if s.NotChecked > 0 {
		str += fmt.Sprintf(", %d not checkable", s.NotChecked)
	}
	return str
}

// Hooks are called by Run on its calling goroutine, in input order.
type Hooks = pgn.Hooks

// batchResult is one batch validated by a worker.
type batchResult struct {
	results []Result
	v       *Validator
}

// Run validates every game of r on up to jobs goroutines, reporting in
// input order. sum, if not nil, accumulates the counts, also across several
// calls to Run.
func Run(ctx context.Context, r *pgn.Reader, opts Options, jobs int, sum *Summary, hooks Hooks) error {
	if sum == nil {
		sum = new(Summary)
	}
	work := func(b *pgn.Batch, res *batchResult) {
		if res.v == nil {
			res.v = New(opts)
		}
		res.results = res.results[:0]
		for i := range b.Games {
			res.results = append(res.results, res.v.Check(&b.Games[i]))
		}
	}
	emit := func(_ *pgn.Batch, res *batchResult) error {
		before := sum.Games
		for _, r := range res.results {
			sum.Add(r)
			hooks.Report(r.Problems)
		}
		hooks.Done(sum.Games - before)
		return nil
	}
	return pgn.Pipeline(ctx, r, jobs, work, emit)
}
