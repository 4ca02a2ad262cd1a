package position

import (
	"fmt"
	"math/bits"
	"strings"
)

// Board is a position together with the moves played to reach it from its
// set-up, which Pop takes back. A Board is not safe for concurrent use, not
// even by readers, because SAN and the game-state checks play moves on it
// and take them back; use Copy to hand one to another goroutine.
//
// A Board is made by New, Start, ParseFEN or FromFEN; its zero value is no
// position (it has no kings), and its methods may panic on it.
type Board struct {
	byType   [7]bitboard // indexed by PieceType; [0] unused
	byColor  [2]bitboard
	squares  [64]Piece
	turn     Color
	castling bitboard // squares of the rooks that keep a castling right
	ep       Square   // en passant target square, or NoSquare
	halfmove int
	fullmove int
	chess960 bool
	history  []undo
}

// undo holds what a move destroys and Pop must restore.
type undo struct {
	move     Move
	captured Piece
	ep       Square
	castling bitboard
	halfmove int
}

// setup is a position before validation; package fen's Position converts to
// it.
type setup struct {
	squares  [64]Piece
	turn     Color
	castling bitboard
	ep       Square
	halfmove int
	fullmove int
}

// SetupError explains why a position cannot be played from.
type SetupError struct {
	Reason string
}

func (e *SetupError) Error() string { return "invalid position: " + e.Reason }

func setupErrorf(format string, args ...any) error {
	return &SetupError{Reason: fmt.Sprintf(format, args...)}
}

// set sets b up from s, dropping its history but keeping the history's
// memory. On failure b is left as it was.
func (b *Board) set(s setup) error {
	tables.Do(buildTables)
	nb := Board{turn: s.turn, ep: NoSquare, halfmove: s.halfmove, fullmove: s.fullmove, history: b.history[:0]}
	if err := nb.setUp(s); err != nil {
		return err
	}
	*b = nb
	return nil
}

func (b *Board) setUp(s setup) error {
	if b.fullmove < 1 {
		b.fullmove = 1
	}
	for sq := A1; sq <= H8; sq++ {
		if p := s.squares[sq]; p != NoPiece {
			if p.Type() == NoPieceType || p.Type() > King || p.Color() > Black {
				return setupErrorf("unknown piece code %d on %v", p, sq)
			}
			b.put(p, sq)
		}
	}
	for _, c := range [2]Color{White, Black} {
		if n := bits.OnesCount64(b.byType[King] & b.byColor[c]); n != 1 {
			return setupErrorf("%v has %d kings", c, n)
		}
	}
	if p := b.byType[Pawn] & (rank1 | rank8); p != 0 {
		return setupErrorf("pawn on %v", lsb(p))
	}
	if b.attackedBy(b.king(b.turn.Other()), b.turn, b.occupied()) {
		return setupErrorf("%v is in check but it is %v's turn", b.turn.Other(), b.turn)
	}
	for _, c := range [2]Color{White, Black} {
		if err := b.setCastling(c, s.castling&backRank(c)); err != nil {
			return err
		}
	}
	if x := s.castling &^ (rank1 | rank8); x != 0 {
		return setupErrorf("castling right for a rook on %v", lsb(x))
	}
	if s.ep != NoSquare {
		if err := b.setEnPassant(s.ep); err != nil {
			return err
		}
	}
	// Chess960 notation is needed as soon as a castling rook is not where
	// standard chess has it; SetChess960 overrides this guess.
	b.chess960 = b.castling&^(bb(A1)|bb(H1)|bb(A8)|bb(H8)) != 0 ||
		(b.castling&rank1 != 0 && b.king(White) != E1) ||
		(b.castling&rank8 != 0 && b.king(Black) != E8)
	return nil
}

func backRank(c Color) bitboard {
	if c == White {
		return rank1
	}
	return rank8
}

func (b *Board) setCastling(c Color, rooks bitboard) error {
	if rooks == 0 {
		return nil
	}
	k := b.king(c)
	if bb(k)&backRank(c) == 0 {
		return setupErrorf("%v has a castling right but its king is on %v", c, k)
	}
	var sides [2]Square
	for r := rooks; r != 0; r &= r - 1 {
		sq := lsb(r)
		if b.squares[sq] != NewPiece(c, Rook) {
			return setupErrorf("%v has a castling right on the %c-file but no rook on %v", c, 'a'+sq.File(), sq)
		}
		side := 0
		if sq > k {
			side = 1
		}
		if sides[side] != 0 {
			return setupErrorf("%v has two castling rights on the same side, rooks %v and %v", c, sides[side], sq)
		}
		sides[side] = sq
	}
	b.castling |= rooks
	return nil
}

func (b *Board) setEnPassant(ep Square) error {
	us := b.turn
	wantRank, pawnSq, fromSq := 5, ep-8, ep+8
	if us == Black {
		wantRank, pawnSq, fromSq = 2, ep+8, ep-8
	}
	if ep < 0 || ep > 63 || ep.Rank() != wantRank {
		return setupErrorf("en passant square %v is not on %v's third rank", ep, us.Other())
	}
	if b.squares[pawnSq] != NewPiece(us.Other(), Pawn) || b.squares[ep] != NoPiece || b.squares[fromSq] != NoPiece {
		return setupErrorf("en passant square %v does not follow a double pawn push", ep)
	}
	b.ep = ep
	return nil
}

func (b *Board) put(p Piece, s Square) {
	b.squares[s] = p
	b.byType[p.Type()] |= bb(s)
	b.byColor[p.Color()] |= bb(s)
}

func (b *Board) remove(s Square) {
	p := b.squares[s]
	b.squares[s] = NoPiece
	b.byType[p.Type()] &^= bb(s)
	b.byColor[p.Color()] &^= bb(s)
}

func (b *Board) occupied() bitboard { return b.byColor[White] | b.byColor[Black] }

func (b *Board) king(c Color) Square { return lsb(b.byType[King] & b.byColor[c]) }

// attackedBy reports whether side c attacks s when the occupied squares are
// occ; passing occ lets callers lift pieces off the board first.
func (b *Board) attackedBy(s Square, c Color, occ bitboard) bool {
	return b.attackedWithin(s, c, b.byColor[c], occ)
}

// attackedWithin reports whether the pieces of side c on the squares e
// attack s, so that a piece about to be captured can be left out.
func (b *Board) attackedWithin(s Square, c Color, e, occ bitboard) bool {
	if pawnAttacks[c^1][s]&b.byType[Pawn]&e != 0 ||
		knightAttacks[s]&b.byType[Knight]&e != 0 ||
		kingAttacks[s]&b.byType[King]&e != 0 {
		return true
	}
	q := b.byType[Queen]
	return bishopAttacks(s, occ)&(b.byType[Bishop]|q)&e != 0 ||
		rookAttacks(s, occ)&(b.byType[Rook]|q)&e != 0
}

// attackers returns the pieces of side c that attack s.
func (b *Board) attackers(s Square, c Color, occ bitboard) bitboard {
	q := b.byType[Queen]
	return b.byColor[c] & (pawnAttacks[c^1][s]&b.byType[Pawn] |
		knightAttacks[s]&b.byType[Knight] |
		kingAttacks[s]&b.byType[King] |
		bishopAttacks(s, occ)&(b.byType[Bishop]|q) |
		rookAttacks(s, occ)&(b.byType[Rook]|q))
}

// Copy returns an independent copy of b, history included.
func (b *Board) Copy() *Board {
	c := *b
	c.history = append([]undo(nil), b.history...)
	return &c
}

// SetBoard sets b to the position of o, without o's moves: b has none
// to Pop. b keeps its own memory for the moves to come, so that setting
// a board up again and again from one start allocates nothing, and costs
// a copy instead of the checks SetPosition makes.
func (b *Board) SetBoard(o *Board) {
	h := b.history[:0]
	*b = *o
	b.history = h
}

// Turn returns the side to move.
func (b *Board) Turn() Color { return b.turn }

// PieceAt returns the piece on s, or NoPiece.
func (b *Board) PieceAt(s Square) Piece { return b.squares[s] }

// King returns the square of c's king.
func (b *Board) King(c Color) Square { return b.king(c) }

// EnPassant returns the en passant target square after a double pawn push,
// or NoSquare. It is set after every double push, whether or not a pawn can
// capture; LegalMoves tells whether one can.
func (b *Board) EnPassant() Square { return b.ep }

// CastlingRooks returns the squares of c's rooks that keep a castling
// right, queen side (lower file) first: the Shredder-FEN view of castling.
func (b *Board) CastlingRooks(c Color) []Square {
	var s []Square
	for r := b.castling & backRank(c); r != 0; r &= r - 1 {
		s = append(s, lsb(r))
	}
	return s
}

// HalfMoveClock returns the number of half-moves since the last capture or
// pawn move, for the fifty-move rule.
func (b *Board) HalfMoveClock() int { return b.halfmove }

// FullMoveNumber returns the number of the current move, starting at 1 and
// increasing after Black's move.
func (b *Board) FullMoveNumber() int { return b.fullmove }

// Ply returns the number of half-moves since the start of the game implied
// by the move number and side to move: 0 in a start position, 1 after
// White's first move.
func (b *Board) Ply() int { return 2*(b.fullmove-1) + int(b.turn) }

// Moves returns the moves played since the board was set up, oldest first;
// its length is the number of plies replayed.
func (b *Board) Moves() []Move {
	m := make([]Move, len(b.history))
	for i, u := range b.history {
		m[i] = u.move
	}
	return m
}

// Chess960 reports whether the board writes castling in Chess960 style:
// king takes rook in UCI. It is guessed from the set-up (true when a
// castling rook or king is off its standard square) and can be overridden
// with SetChess960.
func (b *Board) Chess960() bool { return b.chess960 }

// SetChess960 sets whether UCI output writes castling as king takes rook
// (true) or, where the king starts on e1 or e8 and the rook in a corner, as
// the king's two-square move (false). Input accepts both forms either way.
func (b *Board) SetChess960(on bool) { b.chess960 = on }

// String draws the board as eight lines of FEN letters and dots, rank 8
// first.
func (b *Board) String() string {
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			if f > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(b.squares[NewSquare(f, r)].String())
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Push plays m, which must be legal (from LegalMoves, ParseMove or
// IsLegal); an illegal move corrupts the board. NullMove passes the turn,
// as annotators' "--" does in analysis. Push does not allocate once the
// history has grown to the game's length.
func (b *Board) Push(m Move) {
	from, to := m.From(), m.To()
	us := b.turn
	u := undo{move: m, ep: b.ep, castling: b.castling, halfmove: b.halfmove}
	b.ep = NoSquare
	b.halfmove++
	switch {
	case m == NullMove:
	case m.kind() == kindCastling:
		kt, rt := m.CastlingSquares()
		b.remove(from)
		b.remove(to)
		b.put(NewPiece(us, King), kt)
		b.put(NewPiece(us, Rook), rt)
		b.castling &^= backRank(us)
	default:
		p := b.squares[from]
		if m.kind() == kindEnPassant {
			capSq := NewSquare(to.File(), from.Rank())
			u.captured = b.squares[capSq]
			b.remove(capSq)
		} else if c := b.squares[to]; c != NoPiece {
			u.captured = c
			b.remove(to)
			b.halfmove = 0
		}
		// Moving the piece by XOR touches each bitboard once.
		mask := bb(from) | bb(to)
		b.byType[p.Type()] ^= mask
		b.byColor[us] ^= mask
		b.squares[from] = NoPiece
		b.squares[to] = p
		switch p.Type() {
		case Pawn:
			b.halfmove = 0
			if d := to - from; d == 16 || d == -16 {
				b.ep = (from + to) / 2
			} else if pr := m.Promotion(); pr != NoPieceType {
				b.byType[Pawn] &^= bb(to)
				b.byType[pr] |= bb(to)
				b.squares[to] = NewPiece(us, pr)
			}
		case King:
			b.castling &^= backRank(us)
		}
		b.castling &^= mask
	}
	if us == Black {
		b.fullmove++
	}
	b.turn = us.Other()
	b.history = append(b.history, u)
}

// MovesPlayed returns the number of moves played since the set-up, null
// moves included: how many times Pop can take one back.
func (b *Board) MovesPlayed() int { return len(b.history) }

// Pop takes back the last move played and returns it, or returns NullMove
// when no move has been played since the set-up (see MovesPlayed).
func (b *Board) Pop() Move {
	n := len(b.history) - 1
	if n < 0 {
		return NullMove
	}
	u := b.history[n]
	b.history = b.history[:n]
	m := u.move
	b.turn = b.turn.Other()
	us := b.turn
	if us == Black {
		b.fullmove--
	}
	from, to := m.From(), m.To()
	switch {
	case m == NullMove:
	case m.kind() == kindCastling:
		kt, rt := m.CastlingSquares()
		b.remove(kt)
		b.remove(rt)
		b.put(NewPiece(us, King), from)
		b.put(NewPiece(us, Rook), to)
	default:
		p := b.squares[to]
		if m.Promotion() != NoPieceType {
			b.remove(to)
			p = NewPiece(us, Pawn)
			b.put(p, to)
		}
		mask := bb(from) | bb(to)
		b.byType[p.Type()] ^= mask
		b.byColor[us] ^= mask
		b.squares[to] = NoPiece
		b.squares[from] = p
		if u.captured != NoPiece {
			if m.kind() == kindEnPassant {
				b.put(u.captured, NewSquare(to.File(), from.Rank()))
			} else {
				b.put(u.captured, to)
			}
		}
	}
	b.ep, b.castling, b.halfmove = u.ep, u.castling, u.halfmove
	return m
}
