package position

// Move is a move as the board plays it: from and to squares, a promotion,
// and whether it is a castling or en passant capture. The zero value is
// NullMove, which no board generates.
//
// Castling is stored as the king taking its own rook: From is the king's
// square and To the castling rook's. That one form covers every Chess960
// castling, including those where the king does not move or king and rook
// swap squares; CastlingSquares gives where both pieces end.
type Move uint16

// NullMove is the zero Move: "no move".
const NullMove Move = 0

const (
	kindNormal = iota
	kindPromoKnight
	kindPromoBishop
	kindPromoRook
	kindPromoQueen
	kindEnPassant
	kindCastling
)

func newMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

func newMoveKind(from, to Square, kind int) Move {
	return Move(from) | Move(to)<<6 | Move(kind)<<12
}

func (m Move) kind() int { return int(m >> 12) }

// From returns the square the moving piece (the king, for castling) leaves.
func (m Move) From() Square { return Square(m & 63) }

// To returns the destination square; for castling, the castling rook's
// square.
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Promotion returns the piece a pawn promotes to, or NoPieceType.
func (m Move) Promotion() PieceType {
	if k := m.kind(); k >= kindPromoKnight && k <= kindPromoQueen {
		return PieceType(k + 1)
	}
	return NoPieceType
}

// IsCastling reports whether m castles.
func (m Move) IsCastling() bool { return m.kind() == kindCastling }

// IsEnPassant reports whether m is an en passant capture.
func (m Move) IsEnPassant() bool { return m.kind() == kindEnPassant }

// IsKingSide reports whether a castling move is short (O-O): the king ends on
// the g-file. It is false for a long castling and for every other move.
func (m Move) IsKingSide() bool { return m.IsCastling() && m.To() > m.From() }

// CastlingSquares returns where the king and the rook stand after a
// castling move: g1 and f1, or c1 and d1, or the same on the eighth rank.
// For other moves it returns NoSquare, NoSquare.
func (m Move) CastlingSquares() (king, rook Square) {
	if !m.IsCastling() {
		return NoSquare, NoSquare
	}
	base := Square(m.From().Rank() * 8)
	if m.IsKingSide() {
		return base + 6, base + 5
	}
	return base + 2, base + 3
}

// String returns the move in UCI notation with Chess960 castling as king
// takes rook ("e1h1"), e.g. "e2e4", "e7e8q", or "0000" for NullMove. Use
// Board.UCI for the two-square king move of standard chess.
func (m Move) String() string {
	if m == NullMove {
		return "0000"
	}
	s := m.From().String() + m.To().String()
	if p := m.Promotion(); p != NoPieceType {
		s += string(p.Letter() | 0x20)
	}
	return s
}

// moveList is a fixed-size buffer for move generation that lives on the
// stack; no legal position has more than 218 moves.
type moveList struct {
	n int
	// first stops generate between its kinds of move once it has found
	// one: hasLegalMove asks whether there is any, not which.
	first bool
	moves [256]Move
}

func (l *moveList) add(m Move) { l.moves[l.n] = m; l.n++ }

// found reports whether generate may stop: only a move was asked for,
// and there is one.
func (l *moveList) found() bool { return l.first && l.n > 0 }

func (l *moveList) slice() []Move { return l.moves[:l.n] }
