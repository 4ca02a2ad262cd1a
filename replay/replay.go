// Package replay plays the moves of PGN games on a board with the rules of
// package position, Chess960 castling included: the main line and, when
// asked, every variation, each from the position before the move it is an
// alternative to.
//
// A Replayer sets its board up from the start that package startpos found
// in the game's tags (SetUp) and then plays the moves (Play). It reports
// each move that cannot be read or played as a *pgn.ParseError wrapping a
// *GameError, whose text names the place as an editor understands it and
// the game as a reader does:
//
//	tcec.pgn:812: game 14 (Stockfish - Leela), move 23...: illegal move 'O-O': the king would pass through an attacked square f8
//
// A Replayer decides nothing about the game's result or tags; package
// validate and package annotate build their checks and edits on it.
package replay

import (
	"bytes"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/startpos"
)

// Options say what to play.
type Options struct {
	// Variations plays every variation too, each from the position before
	// the move it is an alternative to.
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

// Problem returns e as a problem of game g at the given input line: a
// *pgn.ParseError wrapping e, with e's Game, White and Black filled in
// from g. The players' names are looked up only here because most games
// have no problem, and the strings would cost an allocation each.
func Problem(g *pgn.Game, line int, e GameError) *pgn.ParseError {
	e.Game = g.Index
	e.White, e.Black = player(g, "White"), player(g, "Black")
	return g.Problem(line, &e)
}

// player returns the name a tag gives a player, "?" when there is none.
func player(g *pgn.Game, tag string) string {
	if name, ok := g.Tag(tag); ok {
		return string(name)
	}
	return "?"
}

// Result is what playing one game found.
type Result struct {
	// Plies counts the moves played, variations included.
	Plies int
	// MainPlies counts the main line's moves played.
	MainPlies int
	// Failed is set when a move could not be read or played; the rest of
	// its line was skipped.
	Failed bool
	// Final is the position at the end of the main line when every move
	// of it could be played, nil otherwise. It is the Replayer's own
	// board, valid until the next SetUp.
	Final *position.Board
	// Problems are the moves that could not be played, each a
	// *pgn.ParseError wrapping a *GameError.
	Problems []*pgn.ParseError
}

// A Replayer plays games one at a time. It is not safe for concurrent
// use; give each goroutine its own.
type Replayer struct {
	opts Options
	scan pgn.MovetextScanner
	// board is the one board every line is played on: a variation takes
	// back the move it is an alternative to, and gives its own moves back
	// when it closes, so that memory grows with the nesting depth and
	// work with the input, however many or deep the variations. It is
	// set up again for every game so that playing allocates nothing.
	board position.Board
	lines []line // one per open variation level, lines[0] the main line
	// starts holds the start arrays set up before, by the FEN tag's text
	// ("" for the standard start of a game without one): an archive
	// starts from a few hundred of them at most, and parsing a FEN and
	// setting a board up from it took a third of validate's time on
	// games of few moves. There are at most maxStarts.
	starts map[string]*position.Board
}

// maxStarts bounds Replayer.starts. Past it, starts are set up from
// their FEN as before: the ones met first, in an archive, are the ones
// met most, and a full map emptied to make room would cost an allocation
// for each start met again.
const maxStarts = 4096

// line is the replay of one (main or variation) line.
type line struct {
	dead bool // a move of this line failed: the rest is not played
	// took says the variation took back its parent's last move, which
	// it gives back when it closes; base is how many moves the board had
	// played then, what it is taken back to first.
	took  bool
	taken position.Move
	base  int
}

// New returns a Replayer for the options.
func New(opts Options) *Replayer { return &Replayer{opts: opts} }

// standard is the standard chess start, for games without a FEN tag,
// set up on first use rather than at start-up.
var standard = sync.OnceValue(func() fen.Position {
	r, _ := numbering.FromSP(numbering.StandardSP)
	return fen.StartPosition(r, r)
})

// Why a game has no known start when its tags do not say.
var (
	errNoTags         = fmt.Errorf("%w: no tags", startpos.ErrNoFEN)
	errTagsIncomplete = fmt.Errorf("%w: %w", startpos.ErrNoFEN, pgn.ErrGameTooLarge)
)

// SetUp sets the board up with the position game g starts from, as st
// (from startpos.Classify or startpos.OfGame) tells it. It fails, naming
// the input line to blame, when st is Unknown (startpos.ErrNoFEN) or
// when the FEN tag's position cannot be played from (startpos.ErrFEN);
// Play must not be called then.
//
// Only a game with a FEN tag has its tag parsed again: a Start keeps the
// back ranks but not the side to move, castling rights and counters.
func (r *Replayer) SetUp(g *pgn.Game, st startpos.Start) (line int, err error) {
	if st.Kind == startpos.Unknown {
		if st.FEN >= 0 {
			return g.Tags[st.FEN].Line, startpos.ErrNoFEN
		}
		if g.TagsIncomplete {
			return g.Line, errTagsIncomplete
		}
		if !g.HasTagSection() {
			// Name the line the text begins on, past the blank lines.
			blank := len(g.Raw) - len(bytes.TrimLeftFunc(g.Raw, func(r rune) bool { return r < utf8.RuneSelf && pgn.IsSpace(byte(r)) }))
			return g.Line + bytes.Count(g.Raw[:blank], []byte{'\n'}), errNoTags
		}
		return g.Line, startpos.ErrNoFEN
	}
	var text []byte
	if st.FEN >= 0 {
		tag := &g.Tags[st.FEN]
		line, text = tag.Line, tag.Value
	}
	// Only start arrays are remembered: the positions of set-up games
	// (puzzles, studies) are rarely met twice, and remembering each would
	// cost an allocation a game.
	remember := st.Kind == startpos.Chess960 || st.Kind == startpos.DFRC
	var b *position.Board
	if remember {
		b = r.starts[string(text)]
	}
	if b != nil {
		r.board.SetBoard(b)
	} else {
		p := standard()
		if text != nil {
			if p, err = fen.ParseBytes(text); err != nil {
				return line, fmt.Errorf("%w: %w", startpos.ErrFEN, err)
			}
		}
		if err := r.board.SetPosition(p); err != nil {
			return line, fmt.Errorf("%w: %w", startpos.ErrFEN, err)
		}
		if remember && len(r.starts) < maxStarts {
			if r.starts == nil {
				r.starts = make(map[string]*position.Board)
			}
			b = new(position.Board)
			b.SetBoard(&r.board)
			r.starts[string(text)] = b
		}
	}
	// A FEN of anything but the standard array is a Chess960 (or DFRC, or
	// set-up) game: its castlings are read the Chess960 way.
	r.board.SetChess960(!(st.Kind == startpos.Chess960 && st.White == numbering.StandardSP))
	return 0, nil
}

// nullMoveInGame is why a null move fails in the main line. Annotators
// pass the turn in analysis to show a threat, so variations may hold null
// moves; a game itself cannot, and a main line with one has no final
// position nor length worth writing.
const nullMoveInGame = "a null move can stand in a variation, not in the game"

// Play plays the moves of g on the board SetUp set up: the main line and,
// with Options.Variations, the variations. A move that cannot be played
// is reported, and the rest of its line (with the variations inside it)
// is skipped; the other lines go on. A null move (--, Z0) passes the turn
// in a variation and fails in the main line.
func (r *Replayer) Play(g *pgn.Game) Result {
	var res Result
	b := &r.board
	r.lines = append(r.lines[:0], line{})
	r.scan.ResetGame(g)
	for r.scan.Next() {
		kind, depth := r.scan.Kind(), r.scan.Depth()
		if depth > 0 && !r.opts.Variations {
			continue
		}
		switch kind {
		case pgn.TokenOpenVariation:
			// The variation replaces the parent line's last move, so it
			// starts from the position before it. A parent that failed,
			// or has no move yet, gives nothing to start from.
			l := line{dead: true}
			if !r.lines[depth-1].dead && b.MovesPlayed() > 0 {
				l = line{took: true, taken: b.Pop(), base: b.MovesPlayed()}
			}
			r.lines = append(r.lines[:depth], l)
		case pgn.TokenCloseVariation:
			r.close(depth)
		case pgn.TokenMove:
			l := &r.lines[depth]
			if l.dead {
				continue
			}
			text := r.scan.Text()
			m, err := b.ParseMove(string(text))
			if err == nil && m == position.NullMove && depth == 0 {
				err = &position.MoveError{Kind: position.ErrIllegalMove, Text: string(text), Reason: nullMoveInGame}
			}
			if err != nil {
				res.Problems = append(res.Problems, Problem(g, r.scan.Token().Line, GameError{Move: b.FullMoveNumber(), BlackMove: b.Turn() == position.Black, Err: err}))
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
	// A variation left open at the end of the text still owes the main
	// line its position.
	for depth := len(r.lines) - 1; depth > 0; depth-- {
		r.close(depth)
	}
	if !r.lines[0].dead {
		res.Final = b
	}
	return res
}

// close ends the variation at depth: the board goes back to the position
// its parent line had reached when it opened.
func (r *Replayer) close(depth int) {
	if depth >= len(r.lines) {
		return
	}
	if l := r.lines[depth]; l.took {
		for r.board.MovesPlayed() > l.base {
			r.board.Pop()
		}
		r.board.Push(l.taken)
	}
	r.lines = r.lines[:depth]
}
