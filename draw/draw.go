// Package draw draws start positions for rounds and boards of an event:
// uniform over the allowed positions.
//
// A [Pool] is the set of Chess960 positions an event allows, the 960 less
// those it excludes (many events exclude SP 518, standard chess). Draws from
// a pool pick each allowed position with the same probability, either
// independently, so that a position may come up twice, or without repeats.
// [Pool.Table] lays the draws out over the rounds and boards of an event.
//
// The random numbers come from a *rand.Rand that the caller supplies, so
// that a seeded generator repeats a draw exactly, or from crypto/rand when
// it supplies none: draws with repeats take one rand.Rand.IntN per
// position over the allowed positions in ascending order, and draws
// without repeats are a partial Fisher–Yates shuffle of that list, one
// IntN per position drawn.
package draw

import (
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/frctool/frctool/numbering"
)

// Errors of this package, for errors.Is.
var (
	// ErrNoPositions: every position is excluded, so none can be drawn.
	ErrNoPositions = errors.New("no position left to draw from")
	// ErrTooMany: a draw without repeats wants more positions than the
	// pool allows.
	ErrTooMany = errors.New("too few positions to draw without repeats")
	// ErrCount: a negative number of positions was asked for.
	ErrCount = errors.New("the number of positions to draw cannot be negative")
	// ErrEvent: an event without rounds or boards, or with more games than
	// can be counted.
	ErrEvent = errors.New("bad event size")
)

// Pool is the set of start positions a draw picks from. The zero Pool is
// empty; make one with [NewPool].
type Pool struct {
	// sps holds the allowed Scharnagl numbers in ascending order, the order
	// that makes a seeded draw reproducible whatever order the exclusions
	// were given in.
	sps []int
}

// NewPool returns the pool of the 960 positions less the excluded ones,
// given by Scharnagl number (960 means 0, as in [numbering.ParseList]).
// Excluding a position twice is harmless. It fails with [numbering.ErrRange]
// for a number outside 0..960 and with [ErrNoPositions] when nothing is left.
func NewPool(exclude ...int) (*Pool, error) {
	var excluded [numbering.Count]bool
	for _, n := range exclude {
		sp, err := numbering.NormalizeSP(n)
		if err != nil {
			return nil, err
		}
		excluded[sp] = true
	}
	p := &Pool{sps: make([]int, 0, numbering.Count)}
	for sp, ex := range excluded {
		if !ex {
			p.sps = append(p.sps, sp)
		}
	}
	if len(p.sps) == 0 {
		return nil, fmt.Errorf("%w: all %d are excluded", ErrNoPositions, numbering.Count)
	}
	return p, nil
}

// Len returns the number of allowed positions.
func (p *Pool) Len() int { return len(p.sps) }

// Allows reports whether position sp (Scharnagl number 0..959) may be drawn.
func (p *Pool) Allows(sp int) bool {
	_, found := slices.BinarySearch(p.sps, sp)
	return found
}

// Positions returns the allowed positions in ascending order.
func (p *Pool) Positions() []int { return slices.Clone(p.sps) }

// check tells whether n positions can be drawn, before any is, so that a
// caller learns of an impossible draw before writing a partial one.
func (p *Pool) check(n int, unique bool) error {
	switch {
	case n < 0:
		return fmt.Errorf("%w: %d", ErrCount, n)
	case len(p.sps) == 0:
		return ErrNoPositions
	case unique && n > len(p.sps):
		return fmt.Errorf("%w: %d wanted, %d allowed", ErrTooMany, n, len(p.sps))
	}
	return nil
}

// Draws returns a sequence of n positions (Scharnagl numbers) drawn from
// the pool with rng, each allowed position equally likely at every step.
// With unique no position comes twice, and every ordered choice of n
// distinct positions is equally likely; more than [Pool.Len] positions are
// then an error, [ErrTooMany], returned before anything is drawn.
//
// The positions are drawn as the sequence is ranged over, which continues
// rng's stream: a second range draws new positions. A nil rng draws from
// crypto/rand, the operating system's secure source, which no one can
// predict or repeat: the draw of an event whose players must not know it
// beforehand. Draws without repeats hold a copy of the pool, so they cost
// memory in the pool's size, not n.
func (p *Pool) Draws(rng *rand.Rand, n int, unique bool) (iter.Seq[int], error) {
	if err := p.check(n, unique); err != nil {
		return nil, err
	}
	if rng == nil {
		rng = rand.New(secureSource{})
	}
	if !unique {
		return func(yield func(int) bool) {
			for range n {
				if !yield(p.sps[rng.IntN(len(p.sps))]) {
					return
				}
			}
		}, nil
	}
	return func(yield func(int) bool) {
		// Step i of a Fisher–Yates shuffle picks uniformly among the
		// positions not yet drawn, which sit in left[i:]; stopping after n
		// steps leaves the rest unshuffled, which no one looks at.
		left := p.Positions()
		for i := range n {
			j := i + rng.IntN(len(left)-i)
			left[i], left[j] = left[j], left[i]
			if !yield(left[i]) {
				return
			}
		}
	}, nil
}

// secureSource is a rand.Source drawing from crypto/rand, so that
// rand.Rand's unbiased IntN can be used over it.
type secureSource struct{}

func (secureSource) Uint64() uint64 {
	var b [8]byte
	crand.Read(b[:]) // never fails: crypto/rand aborts the program instead
	return binary.LittleEndian.Uint64(b[:])
}

// Event is the shape of an event's draw: how many rounds and boards it has,
// and whether every board of a round gets its own position or all of them
// play the round's position, as is usual when the whole field must play the
// same start.
type Event struct {
	Rounds   int
	Boards   int
	PerBoard bool
}

// Games returns the number of games of the event, Rounds × Boards, or
// [ErrEvent] when there are no rounds or boards or too many games.
func (e Event) Games() (int, error) {
	if e.Rounds < 1 {
		return 0, fmt.Errorf("%w: %d rounds, want 1 or more", ErrEvent, e.Rounds)
	}
	if e.Boards < 1 {
		return 0, fmt.Errorf("%w: %d boards, want 1 or more", ErrEvent, e.Boards)
	}
	if e.Rounds > math.MaxInt32/e.Boards {
		// No event comes near this; the limit keeps the count and the
		// round and board numbers well within an int on every platform.
		return 0, fmt.Errorf("%w: %d rounds of %d boards are more than %d games", ErrEvent, e.Rounds, e.Boards, math.MaxInt32)
	}
	return e.Rounds * e.Boards, nil
}

// Draws returns how many positions the event's table needs: one per game
// with PerBoard, else one per round.
func (e Event) Draws() (int, error) {
	games, err := e.Games()
	if err != nil || !e.PerBoard {
		return e.Rounds, err
	}
	return games, nil
}

// Game is one game of an event's table: its round and board, both counted
// from 1, and the start position drawn for it.
type Game struct {
	Round, Board int
	SP           int
}

// Table returns the games of event e, round by round and within a round
// board by board, with positions drawn from the pool as by [Pool.Draws]:
// one per game with e.PerBoard, else one per round that all its boards
// share. With unique no position comes twice in the table (the boards of a
// round sharing its position aside); an event that needs more positions than
// the pool holds is then an error, [ErrTooMany].
//
// The draws are taken in table order, so a table of R rounds repeats the
// first R positions that Draws would give with an rng in the same state, and
// a table per board the first R×B. A nil rng draws from crypto/rand, as
// for Draws.
func (p *Pool) Table(rng *rand.Rand, e Event, unique bool) (iter.Seq[Game], error) {
	n, err := e.Draws()
	if err != nil {
		return nil, err
	}
	draws, err := p.Draws(rng, n, unique)
	if err != nil {
		return nil, err
	}
	return func(yield func(Game) bool) {
		round, board := 1, 1
		for sp := range draws {
			if e.PerBoard {
				if !yield(Game{Round: round, Board: board, SP: sp}) {
					return
				}
				if board++; board > e.Boards {
					round, board = round+1, 1
				}
				continue
			}
			for b := 1; b <= e.Boards; b++ {
				if !yield(Game{Round: round, Board: b, SP: sp}) {
					return
				}
			}
			round++
		}
	}, nil
}
