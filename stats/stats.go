// Package stats counts how the games of PGN archives went, per Chess960
// start position: games, results, White's score with a confidence
// interval, draw rate, game length and average ratings, for each of the
// 960 Scharnagl numbers, and for each pair of back ranks of double
// Fischer random (DFRC) games.
//
// A [Stats] accumulates games one at a time ([Stats.Add]) and combines
// with another ([Stats.Merge]) by adding raw sums, so counting parts of an
// archive separately and merging gives exactly what one count of the whole
// gives. [Stats.Rows] turns the sums into table rows with derived columns;
// the writers put them out as CSV, JSON, Markdown, an aligned table, a
// chart or an HTML page, and [ReadJSON] reads the JSON back for merging.
package stats

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// Counts are the raw sums for one start position or DFRC pair. Every
// field adds up under Merge; averages and rates are derived from them.
type Counts struct {
	Games      int64 // games from the position
	WhiteWins  int64
	Draws      int64
	BlackWins  int64
	Unfinished int64 // "*", a missing result, or anything unreadable

	Plies int64 // sum of game lengths in plies, over all Games

	WhiteEloSum, WhiteEloGames int64 // over games with a numeric WhiteElo
	BlackEloSum, BlackEloGames int64
}

func (c *Counts) add(o *Counts) {
	c.Games += o.Games
	c.WhiteWins += o.WhiteWins
	c.Draws += o.Draws
	c.BlackWins += o.BlackWins
	c.Unfinished += o.Unfinished
	c.Plies += o.Plies
	c.WhiteEloSum += o.WhiteEloSum
	c.WhiteEloGames += o.WhiteEloGames
	c.BlackEloSum += o.BlackEloSum
	c.BlackEloGames += o.BlackEloGames
}

// Totals count every game read, whatever its start.
type Totals struct {
	Games      int64 `json:"games"`      // games read, each counted once however large
	Identified int64 `json:"identified"` // games from a Chess960 array (standard chess included)
	DFRC       int64 `json:"dfrc"`       // games whose two back ranks differ
	Other      int64 `json:"other"`      // games from a FEN that is not a start array
	Unknown    int64 `json:"unknown"`    // games whose start the tags do not tell
	Warnings   int64 `json:"warnings"`   // problems reported while reading
}

func (t *Totals) add(o *Totals) {
	t.Games += o.Games
	t.Identified += o.Identified
	t.DFRC += o.DFRC
	t.Other += o.Other
	t.Unknown += o.Unknown
	t.Warnings += o.Warnings
}

// Pair is the two Scharnagl numbers of a DFRC game.
type Pair struct{ White, Black int }

func (p Pair) String() string { return strconv.Itoa(p.White) + ":" + strconv.Itoa(p.Black) }

// Stats accumulates games. The zero value is empty and ready to use. It is
// not safe for concurrent use: give each goroutine its own and Merge them.
type Stats struct {
	SP     [numbering.Count]Counts
	DFRC   map[Pair]*Counts
	Totals Totals
}

// Outcome is a game's result as counted.
type Outcome uint8

// The outcomes of a game.
const (
	Unfinished Outcome = iota
	WhiteWin
	Draw
	BlackWin
)

// ParseResult reads a result as PGN writes it: "1-0", "0-1", "1/2-1/2".
// Anything else ("*", "?", empty) is Unfinished, with ok false unless it
// is "*".
func ParseResult(v []byte) (o Outcome, ok bool) {
	switch string(v) {
	case "1-0":
		return WhiteWin, true
	case "0-1":
		return BlackWin, true
	case "1/2-1/2":
		return Draw, true
	case "*":
		return Unfinished, true
	}
	return Unfinished, false
}

// ErrResultConflict is reported, wrapped in a *pgn.ParseError, for a game
// whose Result tag and termination marker disagree.
var ErrResultConflict = errors.New("the Result tag and the termination marker of the moves disagree")

// Game is what counting one game found, kept apart from the Stats so that
// workers can examine games in parallel and the counts be added in order.
type Game struct {
	// Counted is false for what is not a game: the second and later parts
	// of a game too large to examine (pgn.Game.Continued), or blank text.
	Counted  bool
	Start    startpos.Start
	Outcome  Outcome
	Plies    int
	WhiteElo int // 0 when not numeric
	BlackElo int
	// Problems are the reader's, the start tags' and the result's.
	Problems []*pgn.ParseError
}

// Examine works out what g contributes to the statistics. It reads the
// result from the Result tag when that holds one of "1-0", "0-1",
// "1/2-1/2" or "*" (the tag is the standard's authority, and what most
// tools index); only when the tag is missing or holds something else does
// the movetext's termination marker decide. When both are there and
// differ, the tag is counted and the disagreement reported. The length
// comes from the PlyCount tag when it is a number, else from counting the
// main-line moves of the movetext.
func Examine(g *pgn.Game) Game {
	res := Game{Problems: g.Problems, Start: startpos.Start{Kind: startpos.Unknown, White: -1, Black: -1, FEN: -1}}
	// A game too large to examine, or text with no tags, counts as a game
	// of unknown start.
	res.Counted = startpos.Classify(g).Counted
	if !res.Counted || !g.HasTagSection() || g.Partial {
		return res
	}
	st, problems := startpos.OfGame(g)
	res.Start = st
	if len(problems) > 0 {
		res.Problems = append(res.Problems[:len(res.Problems):len(res.Problems)], problems...)
	}
	if st.Kind != startpos.Chess960 && st.Kind != startpos.DFRC {
		return res // only the totals count it
	}

	marker, markerLine := g.Termination()
	tag, hasTag := g.Tag("Result")
	tag = bytes.TrimSpace(tag)
	outcome, tagOK := ParseResult(tag)
	switch {
	case hasTag && tagOK:
		if marker != nil && !bytes.Equal(marker, tag) {
			res.Problems = append(res.Problems[:len(res.Problems):len(res.Problems)], g.Problem(markerLine,
				fmt.Errorf("%w: [Result %q] but the moves end with %q; the tag is counted", ErrResultConflict, tag, marker)))
		}
	case marker != nil:
		outcome, _ = ParseResult(marker)
	}
	res.Outcome = outcome

	if v, ok := g.Tag("PlyCount"); ok {
		if n, err := strconv.Atoi(string(bytes.TrimSpace(v))); err == nil && n >= 0 {
			res.Plies = n
		} else {
			res.Plies = pgn.CountPlies(g.Movetext())
		}
	} else {
		res.Plies = pgn.CountPlies(g.Movetext())
	}
	res.WhiteElo = elo(g, "WhiteElo")
	res.BlackElo = elo(g, "BlackElo")
	return res
}

// elo returns the tag's rating, or 0 when it is missing or not a positive
// number ("?", "-", "" and "0" all mean "unknown" in real files).
func elo(g *pgn.Game, tag string) int {
	v, ok := g.Tag(tag)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// Add counts one examined game.
func (s *Stats) Add(g Game) {
	s.Totals.Warnings += int64(len(g.Problems))
	if !g.Counted {
		return
	}
	s.Totals.Games++
	var c *Counts
	switch g.Start.Kind {
	case startpos.Chess960:
		s.Totals.Identified++
		c = &s.SP[g.Start.White]
	case startpos.DFRC:
		s.Totals.DFRC++
		c = s.pair(Pair{g.Start.White, g.Start.Black})
	case startpos.Other:
		s.Totals.Other++
		return
	default:
		s.Totals.Unknown++
		return
	}
	c.Games++
	switch g.Outcome {
	case WhiteWin:
		c.WhiteWins++
	case Draw:
		c.Draws++
	case BlackWin:
		c.BlackWins++
	default:
		c.Unfinished++
	}
	c.Plies += int64(g.Plies)
	if g.WhiteElo > 0 {
		c.WhiteEloSum += int64(g.WhiteElo)
		c.WhiteEloGames++
	}
	if g.BlackElo > 0 {
		c.BlackEloSum += int64(g.BlackElo)
		c.BlackEloGames++
	}
}

// AddGame examines a game and counts it, returning its problems.
func (s *Stats) AddGame(g *pgn.Game) []*pgn.ParseError {
	e := Examine(g)
	s.Add(e)
	return e.Problems
}

func (s *Stats) pair(p Pair) *Counts {
	if s.DFRC == nil {
		s.DFRC = make(map[Pair]*Counts)
	}
	c := s.DFRC[p]
	if c == nil {
		c = new(Counts)
		s.DFRC[p] = c
	}
	return c
}

// Merge adds the counts of o to s.
func (s *Stats) Merge(o *Stats) {
	for i := range s.SP {
		s.SP[i].add(&o.SP[i])
	}
	for p, c := range o.DFRC {
		s.pair(p).add(c)
	}
	s.Totals.add(&o.Totals)
}

// Positions returns how many start positions have at least one game.
func (s *Stats) Positions() int {
	n := 0
	for i := range s.SP {
		if s.SP[i].Games > 0 {
			n++
		}
	}
	return n
}

func (s *Stats) String() string {
	t := &s.Totals
	return fmt.Sprintf("%d games, %d identified (%d distinct SPs), %d DFRC, %d other start positions, %d unknown, %d warnings",
		t.Games, t.Identified, s.Positions(), t.DFRC, t.Other, t.Unknown, t.Warnings)
}
