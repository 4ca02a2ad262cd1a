package position

// Color is the side a piece belongs to or the side to move.
type Color uint8

// The two sides.
const (
	White Color = iota
	Black
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// PieceType is a kind of piece regardless of colour.
type PieceType uint8

// The piece types. NoPieceType marks an empty square or no promotion.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// String returns the lower-case English name, e.g. "knight".
func (t PieceType) String() string {
	switch t {
	case Pawn:
		return "pawn"
	case Knight:
		return "knight"
	case Bishop:
		return "bishop"
	case Rook:
		return "rook"
	case Queen:
		return "queen"
	case King:
		return "king"
	}
	return "none"
}

// Letter returns the upper-case SAN letter ('N', 'B', 'R', 'Q', 'K'),
// 'P' for a pawn and 0 for NoPieceType.
func (t PieceType) Letter() byte {
	if t > King {
		return 0
	}
	return "\x00PNBRQK"[t]
}

func pieceTypeFromLetter(c byte) PieceType {
	switch c | 0x20 {
	case 'p':
		return Pawn
	case 'n':
		return Knight
	case 'b':
		return Bishop
	case 'r':
		return Rook
	case 'q':
		return Queen
	case 'k':
		return King
	}
	return NoPieceType
}

// Piece is a coloured piece. The zero value is NoPiece, an empty square.
type Piece uint8

// NoPiece is the content of an empty square.
const NoPiece Piece = 0

// NewPiece returns the piece of type t and colour c.
func NewPiece(c Color, t PieceType) Piece { return Piece(c)<<3 | Piece(t) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour; it is meaningless for NoPiece.
func (p Piece) Color() Color { return Color(p >> 3) }

// FENLetter returns the FEN letter: upper case for White, lower case for
// Black, and 0 for NoPiece.
func (p Piece) FENLetter() byte {
	l := p.Type().Letter()
	if l != 0 && p.Color() == Black {
		l |= 0x20
	}
	return l
}

// String returns the FEN letter, or "." for an empty square.
func (p Piece) String() string {
	if p == NoPiece {
		return "."
	}
	return string(p.FENLetter())
}

func pieceFromFENLetter(c byte) Piece {
	t := pieceTypeFromLetter(c)
	if t == NoPieceType {
		return NoPiece
	}
	if c >= 'a' {
		return NewPiece(Black, t)
	}
	return NewPiece(White, t)
}

// Square is a square of the board: A1 = 0, B1 = 1, ..., H8 = 63.
type Square int8

// The squares, and NoSquare for none.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 8*iota + 0, 8*iota + 1, 8*iota + 2, 8*iota + 3, 8*iota + 4, 8*iota + 5, 8*iota + 6, 8*iota + 7
	A2, B2, C2, D2, E2, F2, G2, H2
	A3, B3, C3, D3, E3, F3, G3, H3
	A4, B4, C4, D4, E4, F4, G4, H4
	A5, B5, C5, D5, E5, F5, G5, H5
	A6, B6, C6, D6, E6, F6, G6, H6
	A7, B7, C7, D7, E7, F7, G7, H7
	A8, B8, C8, D8, E8, F8, G8, H8
)

// NoSquare stands for no square, e.g. no en passant target.
const NoSquare Square = -1

// NewSquare returns the square on file 0..7 (a..h) and rank 0..7 (1..8).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0..7 for files a..h.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0..7 for ranks 1..8.
func (s Square) Rank() int { return int(s) >> 3 }

// String returns the square's name, e.g. "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s < 0 || s > 63 {
		return "-"
	}
	return string([]byte{'a' + byte(s.File()), '1' + byte(s.Rank())})
}

// ParseSquare parses a square name such as "e4".
func ParseSquare(name string) (Square, bool) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
		return NoSquare, false
	}
	return NewSquare(int(name[0]-'a'), int(name[1]-'1')), true
}
