package fen

import (
	"errors"
	"fmt"

	"github.com/frctool/frctool/numbering"
)

// Start tells how a position relates to the Chess960 start arrays.
type Start struct {
	// White and Black are the Scharnagl numbers (0..959) of White's back
	// rank (rank 1, upper case) and Black's (rank 8, lower case), each -1
	// when that rank is not a legal Chess960 arrangement.
	White, Black int
	// Array reports a start array: ranks 3 to 6 empty, eight white pawns on
	// rank 2, eight black pawns on rank 7 and both back ranks legal
	// arrangements, possibly different ones (DFRC).
	Array bool
}

// SP returns the Scharnagl number of a Chess960 start array, whose back
// ranks mirror each other. ok is false for any other position, DFRC arrays
// included: they have no single number.
func (s Start) SP() (sp int, ok bool) {
	if s.Array && s.White == s.Black {
		return s.White, true
	}
	return -1, false
}

// DFRC reports a double Fischer random start array: each side has its own
// arrangement.
func (s Start) DFRC() bool { return s.Array && s.White != s.Black }

// Start identifies the position's back ranks. It looks at the board alone:
// castling rights, side to move and counters never change the answer, since
// archives disagree on them (TCEC's no-castling events write '-').
func (p *Position) Start() Start {
	s := Start{White: rankSP(&p.Board, true), Black: rankSP(&p.Board, false)}
	s.Array = s.White >= 0 && s.Black >= 0 && middleProblem(&p.Board) == 0
	return s
}

// StartError returns nil when the position is a start array, and otherwise
// an error saying why not, such as "rank 3 is not empty" or
// "White's back rank: ..." with the reason from package numbering, which
// errors.Is can test for (numbering.ErrKing, ...). Ranks 2 to 7 are checked
// before the back ranks, so a game in progress reads as one whose pawns have
// moved.
func (p *Position) StartError() error {
	switch rank := middleProblem(&p.Board); {
	case rank == 2:
		return errors.New("rank 2 is not eight white pawns")
	case rank == 7:
		return errors.New("rank 7 is not eight black pawns")
	case rank != 0:
		return fmt.Errorf("rank %d is not empty", rank)
	}
	for _, white := range [2]bool{true, false} {
		if err := backRankError(&p.Board, white); err != nil {
			return err
		}
	}
	return nil
}

// middleProblem returns the first of ranks 3 to 6, then 2, then 7 that does
// not look as in a start array, or 0 when all of them do.
func middleProblem(board *[64]byte) int {
	for rank := 3; rank <= 6; rank++ {
		for _, c := range board[(rank-1)*8 : rank*8] {
			if c != 0 {
				return rank
			}
		}
	}
	for _, r := range [2]struct {
		rank int
		pawn byte
	}{{2, 'P'}, {7, 'p'}} {
		for _, c := range board[(r.rank-1)*8 : r.rank*8] {
			if c != r.pawn {
				return r.rank
			}
		}
	}
	return 0
}

// sideRank returns the side's back rank as a White-style numbering.Rank;
// a square that does not hold one of the side's pieces is 0.
func sideRank(board *[64]byte, white bool) numbering.Rank {
	var r numbering.Rank
	for f, c := range board[backRank(white) : backRank(white)+8] {
		if c != 0 && pieceOf(white, c&^0x20) == c {
			r[f] = c &^ 0x20
		}
	}
	return r
}

// rankSP returns the Scharnagl number of the side's back rank, or -1.
func rankSP(board *[64]byte, white bool) int {
	return sideRank(board, white).SP()
}

// backRankError says why the side's back rank is not an arrangement, or
// returns nil when it is one.
func backRankError(board *[64]byte, white bool) error {
	name, rankDigit := "White's back rank", byte('1')
	if !white {
		name, rankDigit = "Black's back rank", '8'
	}
	for f, c := range board[backRank(white) : backRank(white)+8] {
		square := string([]byte{'a' + byte(f), rankDigit})
		switch {
		case c == 0:
			return fmt.Errorf("%s: %s is empty", name, square)
		case c&^0x20 == 'P' || pieceOf(white, c&^0x20) != c:
			return fmt.Errorf("%s: %s holds %q", name, square, rune(c))
		}
	}
	r := sideRank(board, white)
	err := r.Check()
	var re *numbering.RankError
	if errors.As(err, &re) && !white {
		re.Input = r.Black() // as the rank stands on the board
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// StartPosition returns the start array with White's back rank white and
// Black's back rank black, written on rank 8 in lower case (a Rank is always
// upper case, from the a-file to the h-file). White is to move, every rook
// may castle, and the counters are 0 and 1. Equal ranks give a Chess960 start
// position, different ones a DFRC start position.
func StartPosition(white, black numbering.Rank) Position {
	p := Position{Turn: 'w', EnPassant: -1, FullMove: 1}
	for f := range 8 {
		p.Board[f] = white[f]
		p.Board[8+f] = 'P'
		p.Board[48+f] = 'p'
		if black[f] != 0 {
			p.Board[56+f] = black[f] | 0x20
		}
		if white[f] == 'R' {
			p.Castling.Add(true, f)
		}
		if black[f] == 'R' {
			p.Castling.Add(false, f)
		}
	}
	return p
}

// StartFEN returns the FEN of the Chess960 start position with back rank r,
// e.g. "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", or with
// "HAha" for the Shredder style.
func StartFEN(r numbering.Rank, style Style) string {
	p := StartPosition(r, r)
	return p.Format(style)
}
