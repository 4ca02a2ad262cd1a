package position

import (
	"fmt"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
)

// New returns the standard chess start position.
func New() *Board {
	b, err := Start(numbering.StandardSP)
	if err != nil {
		panic("position: standard start position: " + err.Error())
	}
	return b
}

// Start returns the Chess960 start position with Scharnagl number sp
// (0..959; 960 means 0, 518 is standard chess), every rook free to castle.
func Start(sp int) (*Board, error) {
	r, err := numbering.FromSP(sp)
	if err != nil {
		return nil, fmt.Errorf("position: start position %d: %w", sp, err)
	}
	b, err := FromFEN(fen.StartPosition(r, r))
	if err != nil {
		return nil, err
	}
	// Every Chess960 game is written in Chess960 style, the standard
	// array included.
	b.chess960 = sp%numbering.Count != numbering.StandardSP
	return b, nil
}

// ParseFEN reads a FEN or EPD record (in any dialect package fen accepts:
// X-FEN, Shredder-FEN or mixed castling, 4 to 6 fields) and sets up a board.
func ParseFEN(s string) (*Board, error) {
	p, err := fen.Parse(s)
	if err != nil {
		return nil, err
	}
	return FromFEN(p)
}

// FromFEN sets up a board from a parsed FEN. It fails with a *SetupError
// when the position cannot be played from: a side without exactly one king,
// a pawn on the first or last rank, the side not to move in check, a
// castling right without its rook or with the king off the back rank, two
// rights on one side of the king, or an en passant square that no double
// pawn push explains.
func FromFEN(p fen.Position) (*Board, error) {
	b := new(Board)
	if err := b.SetPosition(p); err != nil {
		return nil, err
	}
	return b, nil
}

// SetPosition sets b up from a parsed FEN as FromFEN does, dropping the
// moves played on it but keeping their memory, so that a program replaying
// game after game need not allocate a board for each. On failure b is left
// as it was.
func (b *Board) SetPosition(p fen.Position) error {
	s := setup{ep: Square(p.EnPassant), halfmove: p.HalfMove, fullmove: p.FullMove}
	if p.EnPassant < 0 {
		s.ep = NoSquare
	}
	for i, c := range p.Board {
		if c == 0 {
			continue
		}
		pc := pieceFromFENLetter(c)
		if pc == NoPiece {
			return setupErrorf("unknown piece letter %q on %v", c, Square(i))
		}
		s.squares[i] = pc
	}
	switch p.Turn {
	case 'w':
		s.turn = White
	case 'b':
		s.turn = Black
	default:
		return setupErrorf("side to move %q", p.Turn)
	}
	for f := 0; f < 8; f++ {
		if p.Castling.Has(true, f) {
			s.castling |= bb(NewSquare(f, 0))
		}
		if p.Castling.Has(false, f) {
			s.castling |= bb(NewSquare(f, 7))
		}
	}
	return b.set(s)
}

// Position returns the board as a fen.Position. The en passant square is
// given only when an en passant capture is legal, as X-FEN requires.
func (b *Board) Position() fen.Position {
	p := fen.Position{Turn: 'w', EnPassant: -1, HalfMove: b.halfmove, FullMove: b.fullmove}
	if b.turn == Black {
		p.Turn = 'b'
	}
	for s, pc := range b.squares {
		p.Board[s] = pc.FENLetter()
	}
	for r := b.castling; r != 0; r &= r - 1 {
		s := lsb(r)
		p.Castling.Add(s.Rank() == 0, s.File())
	}
	if b.ep != NoSquare {
		var l moveList
		b.generate(&l)
		for _, m := range l.slice() {
			if m.IsEnPassant() {
				p.EnPassant = int(b.ep)
				break
			}
		}
	}
	return p
}

// FEN returns the position as a FEN with the castling field in the given
// style: fen.XFEN (KQkq, file letters only for inner rooks) or fen.Shredder
// (rook files, e.g. HFhf).
func (b *Board) FEN(style fen.Style) string {
	p := b.Position()
	return p.Format(style)
}
