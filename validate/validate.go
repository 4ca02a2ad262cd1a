// Package validate replays the games of PGN archives move by move (see
// package replay) and reports every move that cannot be read or played and
// every Result tag that contradicts a final checkmate or stalemate, or the
// movetext's own termination marker.
//
// Problems are *pgn.ParseError values wrapping a *replay.GameError, whose
// text names the place the way an editor understands and the game the way
// a reader does:
//
//	tcec.pgn:812: game 14 (Stockfish - Leela), move 23...: illegal move 'O-O': the king would pass through an attacked square f8
//
// A game whose start position the tags do not tell cannot be checked; that
// is a warning, not a failure. A null move passes the turn in a variation,
// where annotators show threats with one, and fails the game in its main
// line.
package validate

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/replay"
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

// Result is what validating one game found.
type Result struct {
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
	// Problems are the validation's own, each a *pgn.ParseError wrapping a
	// *replay.GameError; the reader's and the start tags' stay in
	// pgn.Game.Problems and startpos.Class.Problems.
	Problems []*pgn.ParseError
}

// Validator validates games one at a time. It is not safe for concurrent
// use; give each goroutine its own.
type Validator struct {
	replayer *replay.Replayer
}

// New returns a Validator for the options; it uses only Variations.
func New(opts Options) *Validator {
	return &Validator{replayer: replay.New(replay.Options{Variations: opts.Variations})}
}

// Check validates game g, whose class c is what startpos.Classify says of
// it. A game that is not counted is not checked and has no problems.
//
// When the start is unknown, the start tags' problems move from
// c.Problems into the result, in their order, the one that says why as
// the game's "not checked" problem: so it is reported once, naming the
// game.
func (v *Validator) Check(g *pgn.Game, c *startpos.Class) Result {
	var res Result
	if !c.Counted {
		return res
	}
	notChecked := func(line int, err error) {
		res.Problems = append(res.Problems, replay.Problem(g, line, replay.GameError{Err: fmt.Errorf("%w: %w", ErrNotChecked, err)}))
	}
	if g.Partial || g.TagsIncomplete {
		notChecked(g.Line, pgn.ErrGameTooLarge)
		return res
	}
	line, err := v.replayer.SetUp(g, c.Start)
	if err != nil {
		if c.Start.Kind == startpos.Unknown && takeStartProblems(c, notChecked, &res.Problems) {
			return res
		}
		notChecked(line, err)
		return res
	}
	res.Checked = true

	played := v.replayer.Play(g)
	res.Plies, res.MainPlies, res.Failed, res.Problems = played.Plies, played.MainPlies, played.Failed, played.Problems
	problem := func(line int, err error) {
		res.Problems = append(res.Problems, replay.Problem(g, line, replay.GameError{Err: err}))
		res.Failed = true
	}
	if marker, line := g.Termination(); marker != nil {
		if tag, ok := g.Tag("Result"); ok && !bytes.Equal(marker, tag) {
			problem(line, fmt.Errorf("%w: [Result %s], but the moves end with %q", ErrResult, words.Quote(tag), marker))
		}
	}
	if res.Final = played.Final; res.Final != nil {
		if err := checkResult(g, res.Final); err != nil {
			at := g.MovetextLine()
			if i := tagIndex(g, "Result"); i >= 0 {
				at = g.Tags[i].Line
			}
			problem(at, err)
		}
	}
	return res
}

// takeStartProblems moves c.Problems to problems, in their order, but for
// the one that makes the start unknown, which goes to notChecked instead.
// It reports whether there was such a problem; if not, it moves nothing.
func takeStartProblems(c *startpos.Class, notChecked func(int, error), problems *[]*pgn.ParseError) bool {
	why := -1
	for i, p := range c.Problems {
		if errors.Is(p.Err, startpos.ErrNoFEN) || errors.Is(p.Err, startpos.ErrFEN) {
			why = i
			break
		}
	}
	if why < 0 {
		return false
	}
	for i, p := range c.Problems {
		if i == why {
			notChecked(p.Line, p.Err)
		} else {
			*problems = append(*problems, p)
		}
	}
	c.Problems = nil
	return true
}

// checkResult compares the Result tag with a final checkmate or stalemate.
// An unknown result ("*", or no tag) contradicts nothing.
func checkResult(g *pgn.Game, b *position.Board) error {
	tag, ok := g.Tag("Result")
	if !ok {
		return nil
	}
	// Compared as bytes, the tag costs no string for the games whose
	// result is right, nearly all of them.
	r := tag
	if string(r) != "1-0" && string(r) != "0-1" && string(r) != "1/2-1/2" {
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
	if string(r) == want {
		return nil
	}
	return fmt.Errorf("%w: [Result %s], but %s", ErrResult, words.Quote(r), why)
}

func tagIndex(g *pgn.Game, name string) int {
	for i, t := range g.Tags {
		if string(t.Name) == name {
			return i
		}
	}
	return -1
}

// Summary counts what a run validated: the games by the kind of their
// start and the problems reported, as every command counts them, and what
// the replay found.
type Summary struct {
	startpos.Tally
	Checked    int64 // games replayed
	Failed     int64 // games with a wrong move or result
	NotChecked int64 // games whose start is unknown or cannot be played from
	Plies      int64 // moves replayed, variations included
}

// add counts one game's result; the Tally is the runner's to count.
func (s *Summary) add(c *startpos.Class, r *Result) {
	if !c.Counted {
		return
	}
	s.Plies += int64(r.Plies)
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

// String returns validate's summary line: "12 games checked, 1 failed,
// 804 plies replayed", and ", 2 not checkable" when there are such.
func (s *Summary) String() string {
	str := fmt.Sprintf("%s checked, %d failed, %s replayed", words.Count(s.Checked, "game", "games"), s.Failed, words.Count(s.Plies, "ply", "plies"))
	if s.NotChecked > 0 {
		str += fmt.Sprintf(", %d not checkable", s.NotChecked)
	}
	return str
}

// Run validates every game of r as opts say, on up to run.Jobs
// goroutines, reporting in input order: run.Warn receives the reader's
// problems, the start tags' and the replay's. Every game is validated:
// run.Where is not consulted. sum, if not nil, accumulates the counts,
// also across several calls to Run.
func Run(ctx context.Context, r *pgn.Reader, opts Options, run pipeline.Options, sum *Summary) error {
	if sum == nil {
		sum = new(Summary)
	}
	job := pipeline.Job[Result]{
		NewWorker: func() func(*pipeline.Item[Result], []byte) []byte {
			v := New(opts)
			return func(it *pipeline.Item[Result], out []byte) []byte {
				it.Value = v.Check(it.Game, &it.Class)
				it.Problems = append(it.Problems, it.Value.Problems...)
				return out
			}
		},
		Emit: func(it *pipeline.Item[Result]) error {
			sum.add(&it.Class, &it.Value)
			return nil
		},
	}
	run.Where = nil
	return pipeline.Run(ctx, r, run, job, &sum.Tally)
}
