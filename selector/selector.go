// Package selector sorts the games of PGN archives by their start
// positions: a [Filter] sends every game either to the selected or to the
// rejected output, a [Splitter] sends every game to one file per start
// position. Games are written as their input bytes, unchanged.
//
// Every input byte goes to exactly one output: writing the selected and
// the rejected output one after the other gives back the games of the
// input, and the split files together hold every input game exactly once.
// Bytes that are not a game of their own follow a game (see [Class]).
//
// # Classes
//
// Each game falls in one class: one of the 960 Scharnagl numbers when it
// starts from a Chess960 array with the same back rank for both sides
// (standard chess is SP 518, and a game with no FEN tag is standard
// chess); [DFRC] when the two back ranks differ, so that the game has no
// single number; [Other] for everything else: a FEN that is not a start
// array (a position from the middle of a game), an unreadable or missing
// FEN where the tags say the game was set up, and text with no tags.
//
// # Combining criteria
//
// The criteria of a [Criteria] select a set of classes:
//
//   - The position criteria (SPs, by number or back rank) together
//     with DFRC and Other form one union: a game matches when its class is
//     any of them. When none of them is given, every class is selected.
//   - ExcludeStandard then removes SP 518.
//   - Invert finally selects the complement of that set.
//
// A DFRC game never matches a Scharnagl number, even when one side's back
// rank has it: it has no SP. Select DFRC games with DFRC.
package selector

import (
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/startpos"
)

// The classes beyond the 960 Scharnagl numbers.
const (
	DFRC  = numbering.Count     // the two back ranks differ
	Other = numbering.Count + 1 // not a Chess960 array, or not known
	// Classes is the number of classes.
	Classes = numbering.Count + 2
)

// ClassOf returns the class of a start position: its Scharnagl number,
// DFRC or Other.
func ClassOf(st startpos.Start) int {
	switch st.Kind {
	case startpos.Chess960:
		if st.White >= 0 && st.White < numbering.Count {
			return st.White
		}
	case startpos.DFRC:
		return DFRC
	}
	return Other
}

// Follow is the class of bytes that are not a game: they go where the
// game before them went.
const Follow = -1

// Class returns the class of one item of a pgn.Reader's stream, as
// startpos.Classify classified it, so that selector counts and places
// games as every other command does:
//
//   - Bytes that are not a game of their own (not counted: the second and
//     later parts of a game too large to hold at once, and blank text with
//     no tags) are of class Follow. A Filter or Splitter writes them where
//     the game before them went (at the start of the input, where the
//     first game goes).
//   - A game is of the class of its start (ClassOf). A game too large to
//     hold at once is classed by the tags of its first part; text with no
//     tags that is not blank (a bare move list, junk) has an unknown start
//     and is of class Other.
func Class(c *startpos.Class) int {
	if !c.Counted {
		return Follow
	}
	return ClassOf(c.Start)
}

// Criteria say which games to select. The zero Criteria selects every
// game.
type Criteria struct {
	// SPs are the wanted Scharnagl numbers (0..959), as
	// numbering.ParseList and numbering.ParseRanks give them.
	SPs []int
	// DFRC selects games whose two back ranks differ.
	DFRC bool
	// Other selects games that do not start from a Chess960 array, or whose
	// start is unknown.
	Other bool
	// ExcludeStandard deselects SP 518, standard chess.
	ExcludeStandard bool
	// Invert selects the complement of what the other fields select.
	Invert bool
}

// Selector decides by class whether a game is selected. Its zero value
// selects nothing; make one with New. It is safe for concurrent use.
type Selector struct {
	want   [Classes]bool
	invert bool // Criteria.Invert, which also inverts pipeline.Options.Where
}

// New compiles the criteria. Numbers out of range in c.SPs are ignored.
func New(c Criteria) *Selector {
	s := new(Selector)
	if len(c.SPs) == 0 && !c.DFRC && !c.Other {
		for i := range s.want {
			s.want[i] = true
		}
	}
	for _, sp := range c.SPs {
		if sp >= 0 && sp < numbering.Count {
			s.want[sp] = true
		}
	}
	s.want[DFRC] = s.want[DFRC] || c.DFRC
	s.want[Other] = s.want[Other] || c.Other
	if c.ExcludeStandard {
		s.want[numbering.StandardSP] = false
	}
	s.invert = c.Invert
	if c.Invert {
		for i := range s.want {
			s.want[i] = !s.want[i]
		}
	}
	return s
}

// Wants reports whether games of the class are selected.
func (s *Selector) Wants(class int) bool {
	return class >= 0 && class < Classes && s.want[class]
}

// Match reports whether a game with the start position is selected.
func (s *Selector) Match(st startpos.Start) bool { return s.want[ClassOf(st)] }
