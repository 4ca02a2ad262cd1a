package startpos

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
)

// Class is what one item of a pgn.Reader's stream is, as Chess960 sees
// it: whether it is a game to count, and where it started. Every frctool
// command classifies games with Classify, so that they all agree.
type Class struct {
	// Counted is false for bytes that are not a game of their own: the
	// second and later parts of a game too large to hold at once
	// (pgn.Game.Continued), and text with no tags that holds nothing but
	// blanks. Such bytes belong with the game before them.
	Counted bool
	// Start is the game's start position; Unknown when it is not counted,
	// or when it has no tags to tell.
	Start Start
	// Problems are those of the start tags (see OfGame), to report beside
	// the reader's own in pgn.Game.Problems.
	Problems []*pgn.ParseError
}

// Classify is the one rule for what an item of the stream is:
//
//   - A continued part of a large game, and blank text with no tags, are
//     not counted.
//   - Text with no tags that is not blank (a bare move list, junk) is a
//     game of unknown start: nothing says where it started.
//   - A game whose tags are not all at hand (pgn.Game.TagsIncomplete: a
//     tag section larger than the reader holds at once) is a game of
//     unknown start: the missing tags might say anything.
//   - Every other game, including one too large to hold at once (its
//     first part holds its tags), is classified by its tags (OfGame).
func Classify(g *pgn.Game) Class {
	var c Class
	ClassifyTo(&c, g)
	return c
}

// ClassifyTo sets *c to Classify(g). A runner that classifies every game
// of a stream into memory of its own fills it in place with ClassifyTo:
// Classify's result, too large to stay in registers, is copied through
// the stack, with wide loads that wait for its narrow stores to land.
func ClassifyTo(c *Class, g *pgn.Game) {
	switch {
	case g.Continued || (!g.HasTagSection() && pgn.IsBlank(g.Raw)):
		c.Counted, c.Start, c.Problems = false, unknownStart, nil
	case !g.HasTagSection() || g.TagsIncomplete:
		c.Counted, c.Start, c.Problems = true, unknownStart, nil
	default:
		c.Start, c.Problems = OfGame(g)
		c.Counted = true
	}
}

// Tally counts games by the kind of their start, and the problems
// reported on the way. Every command's summary line is built from one.
// The zero Tally is empty and ready to use.
type Tally struct {
	Games      int64 `json:"games"`      // games read, each counted once however large
	Identified int64 `json:"identified"` // games from a Chess960 array, standard chess included
	DFRC       int64 `json:"dfrc"`       // games whose two back ranks differ
	Other      int64 `json:"other"`      // games from a FEN that is not a start array
	Unknown    int64 `json:"unknown"`    // games whose start the tags do not tell
	Warnings   int64 `json:"warnings"`   // problems reported

	seen [(numbering.Count + 63) / 64]uint64 // the SPs of the identified games
}

// ErrTally is the error of Check: counts no run gives.
var ErrTally = errors.New("impossible totals")

// Check reports counts below 0, or kinds of start that add up to more
// games than there are: a tally that a document claims (as frctool
// stats and tree write them) and no run gives. Older documents may leave
// a kind out, so the kinds may add up to fewer.
func (t *Tally) Check() error {
	if t.Games < 0 || t.Identified < 0 || t.DFRC < 0 || t.Other < 0 || t.Unknown < 0 || t.Warnings < 0 ||
		t.Identified > t.Games || t.DFRC > t.Games || t.Other > t.Games || t.Unknown > t.Games ||
		t.Identified+t.DFRC+t.Other+t.Unknown > t.Games {
		return fmt.Errorf("%w: games %d, identified %d, dfrc %d, other %d, unknown %d, warnings %d",
			ErrTally, t.Games, t.Identified, t.DFRC, t.Other, t.Unknown, t.Warnings)
	}
	return nil
}

// Add counts one classified item and the number of problems reported
// for it. Items that are not counted add only their problems.
func (t *Tally) Add(c *Class, problems int) {
	t.Warnings += int64(problems)
	if !c.Counted {
		return
	}
	t.Games++
	switch c.Start.Kind {
	case Chess960:
		t.Identified++
		t.Mark(c.Start.White)
	case DFRC:
		t.DFRC++
	case Other:
		t.Other++
	default:
		t.Unknown++
	}
}

// Mark records that SP sp has games, for Distinct; Add does it for the
// games it counts.
func (t *Tally) Mark(sp int) {
	if sp >= 0 && sp < numbering.Count {
		t.seen[sp/64] |= 1 << (sp % 64)
	}
}

// Distinct returns how many different SPs the identified games started
// from.
func (t *Tally) Distinct() int {
	n := 0
	for _, w := range t.seen {
		n += bits.OnesCount64(w)
	}
	return n
}

// Merge adds the counts of o to t.
func (t *Tally) Merge(o *Tally) {
	t.Games += o.Games
	t.Identified += o.Identified
	t.DFRC += o.DFRC
	t.Other += o.Other
	t.Unknown += o.Unknown
	t.Warnings += o.Warnings
	for i := range t.seen {
		t.seen[i] |= o.seen[i]
	}
}

// String returns the counts as every command's summary line begins:
// "12 games, 10 identified (9 distinct SPs), 1 DFRC, 0 other start
// positions, 1 unknown, 1 warning".
func (t *Tally) String() string {
	return fmt.Sprintf("%s, %d identified (%s), %d DFRC, %s, %d unknown, %s",
		words.Count(t.Games, "game", "games"), t.Identified, words.Count(t.Distinct(), "distinct SP", "distinct SPs"),
		t.DFRC, words.Count(t.Other, "other start position", "other start positions"), t.Unknown,
		words.Count(t.Warnings, "warning", "warnings"))
}
