package position

import (
	"errors"
	"fmt"
	"strings"
)

// The kinds of MoveError, for errors.Is.
var (
	// ErrInvalidMove: the text cannot be read as a move.
	ErrInvalidMove = errors.New("invalid move")
	// ErrIllegalMove: the text names a move the rules forbid here.
	ErrIllegalMove = errors.New("illegal move")
	// ErrAmbiguousMove: the text fits more than one legal move.
	ErrAmbiguousMove = errors.New("ambiguous move")
)

// MoveError is a move that could not be read or played, with the reason in
// words. Its message has the form
//
//	illegal move 'O-O': the king would pass through an attacked square f8
//	ambiguous move 'Nd2' (Nb1, Nf3)
type MoveError struct {
	Kind error // ErrInvalidMove, ErrIllegalMove or ErrAmbiguousMove
	// Text is the move as written, copied: ParseMove's argument does not
	// escape, so that a caller converting a []byte to pass it allocates
	// nothing.
	Text string
	// Reason says what is wrong; for ErrAmbiguousMove it lists the pieces
	// that could move, e.g. "Nb1, Nf3".
	Reason string
	// Candidates holds, for ErrAmbiguousMove, the legal moves the text
	// fits.
	Candidates []Move
}

func (e *MoveError) Error() string {
	if e.Kind == ErrAmbiguousMove {
		return fmt.Sprintf("%v '%s' (%s)", e.Kind, e.Text, e.Reason)
	}
	return fmt.Sprintf("%v '%s': %s", e.Kind, e.Text, e.Reason)
}

// Unwrap returns the Kind, so that errors.Is(err, ErrIllegalMove) works.
func (e *MoveError) Unwrap() error { return e.Kind }

// Play reads a move as ParseMove does and plays it.
func (b *Board) Play(text string) (Move, error) {
	m, err := b.ParseMove(text)
	if err == nil {
		b.Push(m)
	}
	return m, err
}

// SAN returns legal move m in Standard Algebraic Notation: "Nbd2", "exd6",
// "e8=Q+", "O-O-O#", with the least disambiguation that makes it unique among
// the legal moves and a check or mate suffix.
func (b *Board) SAN(m Move) string {
	var buf [12]byte
	return string(b.AppendSAN(buf[:0], m))
}

// AppendSAN appends the SAN of legal move m to dst; NullMove is written as
// "--". The SAN of an illegal move is undefined.
func (b *Board) AppendSAN(dst []byte, m Move) []byte {
	if m == NullMove {
		return append(dst, "--"...)
	}
	from, to := m.From(), m.To()
	switch pt := b.squares[from].Type(); {
	case m.IsCastling():
		if m.IsKingSide() {
			dst = append(dst, "O-O"...)
		} else {
			dst = append(dst, "O-O-O"...)
		}
	case pt == Pawn:
		if from.File() != to.File() {
			dst = append(dst, 'a'+byte(from.File()), 'x')
		}
		dst = append(dst, to.String()...)
		if p := m.Promotion(); p != NoPieceType {
			dst = append(dst, '=', p.Letter())
		}
	default:
		dst = append(dst, pt.Letter())
		// The other pieces of the kind that could move there: those that
		// reach the square and leave their king safe, not every legal
		// move generated.
		var others bitboard
		for f := b.reachers(pt, to) &^ bb(from); f != 0; f &= f - 1 {
			if o := lsb(f); b.kingSafeAfter(newMove(o, to)) {
				others |= bb(o)
			}
		}
		if others != 0 {
			switch {
			case others&(fileA<<uint(from.File())) == 0:
				dst = append(dst, 'a'+byte(from.File()))
			case others&(rank1<<uint(8*from.Rank())) == 0:
				dst = append(dst, '1'+byte(from.Rank()))
			default:
				dst = append(dst, from.String()...)
			}
		}
		if b.squares[to] != NoPiece {
			dst = append(dst, 'x')
		}
		dst = append(dst, to.String()...)
	}
	b.Push(m)
	if b.InCheck() {
		if b.hasLegalMove() {
			dst = append(dst, '+')
		} else {
			dst = append(dst, '#')
		}
	}
	b.Pop()
	return dst
}

// UCI returns m in UCI notation. Castling is written as king takes rook
// ("e1h1") on a Chess960 board and as the king's two-square move ("e1g1")
// otherwise; see SetChess960.
func (b *Board) UCI(m Move) string {
	if m.IsCastling() && !b.chess960 && (m.From() == E1 || m.From() == E8) &&
		(m.To().File() == 0 || m.To().File() == 7) {
		k, _ := m.CastlingSquares()
		return m.From().String() + k.String()
	}
	return m.String()
}

// moveText is a move as written, split into its parts.
type moveText struct {
	castle    int       // 0, or 1 for O-O and 2 for O-O-O
	piece     PieceType // NoPieceType when no letter was written
	fromFile  int       // -1 when not written
	fromRank  int       // -1 when not written
	to        Square
	promotion PieceType
	hasPromo  bool
	fullFrom  bool // the origin square was written: long algebraic or UCI
	capture   bool
	null      bool // a null move: "--", "Z0", UCI's "0000"
}

// ParseMove reads a move in SAN ("Nf3", "exd5", "e8=Q", "O-O", "0-0-0",
// check, mate and annotation suffixes such as "+", "#", "!?" ignored), long
// algebraic ("e2e4", "e2-e4", "Ng1-f3", "Ng1xf3") or UCI ("e7e8q"), and
// returns the legal move it names. Castling is also read as the king taking
// its own rook ("e1h1") and, from a written origin square, as the king's
// move to its castling square ("e1g1"). A null move, "--" as annotators
// write it in analysis, "Z0" or UCI's "0000", is returned as NullMove unless
// the side to move is in check. The error is a *MoveError.
func (b *Board) ParseMove(text string) (Move, error) {
	t, ok := splitMove(text)
	if !ok {
		return NullMove, &MoveError{Kind: ErrInvalidMove, Text: strings.Clone(text), Reason: "not a move in SAN, long algebraic or UCI notation"}
	}
	if t.castle != 0 {
		return b.castlingMove(text, t.castle == 1, NoSquare)
	}
	if t.null {
		if b.InCheck() {
			return NullMove, b.illegal(text, "a null move cannot answer a check")
		}
		return NullMove, nil
	}
	us := b.turn
	if t.fullFrom {
		from := NewSquare(t.fromFile, t.fromRank)
		p := b.squares[from]
		switch {
		case p == NoPiece:
			return NullMove, b.illegal(text, "no piece on %v", from)
		case p.Color() != us:
			return NullMove, b.illegal(text, "the %v on %v is %v's, and it is %v's turn", p.Type(), from, p.Color(), us)
		case t.piece != NoPieceType && t.piece != p.Type():
			return NullMove, b.illegal(text, "the piece on %v is a %v, not a %v", from, p.Type(), t.piece)
		}
		t.piece = p.Type()
		if p.Type() == King {
			if b.squares[t.to] == NewPiece(us, Rook) {
				return b.castlingMove(text, t.to > from, t.to)
			}
		}
	} else if t.piece == NoPieceType {
		t.piece = Pawn
	}
	if t.hasPromo && t.piece != Pawn {
		return NullMove, &MoveError{Kind: ErrInvalidMove, Text: strings.Clone(text), Reason: "only a pawn can promote"}
	}

	// Only the pieces that could reach the square are tried, which is
	// several times faster than generating every legal move.
	var found [8]Move
	n := 0
	lastRank := t.to.Rank() == 7-7*int(us)
	if p := b.squares[t.to]; (p == NoPiece || p.Color() != us) && t.hasPromo == (lastRank && t.piece == Pawn) {
		for f := t.origins(b.reachers(t.piece, t.to)); f != 0; f &= f - 1 {
			m := newMove(lsb(f), t.to)
			if t.piece == Pawn {
				if t.to == b.ep && m.From().File() != t.to.File() {
					m = newMoveKind(m.From(), t.to, kindEnPassant)
				} else if lastRank {
					m = newMoveKind(m.From(), t.to, int(t.promotion)-1)
				}
			}
			if !b.kingSafeAfter(m) {
				continue
			}
			if n < len(found) {
				found[n] = m
			}
			n++
		}
	} else if lastRank && t.piece == Pawn && !t.hasPromo {
		for f := t.origins(b.reachers(Pawn, t.to)); f != 0; f &= f - 1 {
			if m := newMoveKind(lsb(f), t.to, kindPromoQueen); b.kingSafeAfter(m) {
				return NullMove, &MoveError{Kind: ErrInvalidMove, Text: strings.Clone(text), Reason: "a pawn reaching the last rank must name its promotion piece, as in " + b.SAN(m)}
			}
		}
	}
	switch {
	case n == 1:
		return found[0], nil
	case n > 1:
		names := make([]string, 0, n)
		for _, m := range found[:min(n, len(found))] {
			names = append(names, string(t.piece.Letter())+m.From().String())
		}
		return NullMove, &MoveError{Kind: ErrAmbiguousMove, Text: strings.Clone(text), Reason: strings.Join(names, ", "),
			Candidates: append([]Move(nil), found[:min(n, len(found))]...)}
	}
	if t.fullFrom && t.piece == King {
		from := NewSquare(t.fromFile, t.fromRank)
		if d := t.to.File() - from.File(); t.to.Rank() == from.Rank() && (d >= 2 || d <= -2) &&
			(t.to.File() == 6 || t.to.File() == 2) {
			return b.castlingMove(text, t.to.File() == 6, NoSquare)
		}
	}
	return NullMove, b.explain(text, t)
}

func (b *Board) illegal(text, format string, args ...any) *MoveError {
	return &MoveError{Kind: ErrIllegalMove, Text: strings.Clone(text), Reason: fmt.Sprintf(format, args...)}
}

// trimMarks drops the check, mate and annotation marks and blanks that
// may end a move ("+#!? "): a loop over the last bytes, which
// strings.TrimRight's general cutset costs several times, once a move.
func trimMarks(s string) string {
	for len(s) > 0 {
		switch s[len(s)-1] {
		case '+', '#', '!', '?', ' ':
			s = s[:len(s)-1]
		default:
			return s
		}
	}
	return s
}

// splitMove takes a move apart without looking at the board.
func splitMove(text string) (moveText, bool) {
	t := moveText{fromFile: -1, fromRank: -1}
	s := strings.TrimSpace(text)
	s = strings.TrimSuffix(s, "e.p.")
	s = trimMarks(s)
	switch s {
	case "O-O", "0-0", "o-o":
		t.castle = 1
		return t, true
	case "O-O-O", "0-0-0", "o-o-o":
		t.castle = 2
		return t, true
	case "--", "Z0", "0000", "@@@@":
		t.null = true
		return t, true
	}
	if len(s) < 2 {
		return t, false
	}
	if c := s[0]; c >= 'A' && c <= 'Z' {
		if t.piece = pieceTypeFromLetter(c); t.piece == NoPieceType {
			return t, false
		}
		s = s[1:]
	}
	// Promotion: "=Q", or a bare letter right after the rank ("e8Q",
	// UCI's "e7e8q").
	if n := len(s); n >= 3 && s[n-1] >= 'A' {
		p := pieceTypeFromLetter(s[n-1])
		if p == NoPieceType || p == Pawn || p == King {
			return t, false
		}
		t.promotion, t.hasPromo = p, true
		s = s[:n-1]
		if s[len(s)-1] == '=' {
			s = s[:len(s)-1]
		} else if c := s[len(s)-1]; c < '1' || c > '8' {
			return t, false
		}
	}
	n := len(s)
	if n < 2 {
		return t, false
	}
	to, ok := ParseSquare(s[n-2:])
	if !ok {
		return t, false
	}
	t.to = to
	s = s[:n-2]
	if n := len(s); n > 0 && (s[n-1] == 'x' || s[n-1] == '-' || s[n-1] == ':') {
		t.capture = s[n-1] != '-'
		s = s[:n-1]
	}
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'h' && t.fromFile < 0 && t.fromRank < 0:
			t.fromFile = int(c - 'a')
		case c >= '1' && c <= '8' && t.fromRank < 0:
			t.fromRank = int(c - '1')
		default:
			return t, false
		}
	}
	t.fullFrom = t.fromFile >= 0 && t.fromRank >= 0
	return t, true
}

// castlingMove returns the castling move to the given side, with the rook
// on rook if that is not NoSquare, or explains why there is none.
func (b *Board) castlingMove(text string, kingSide bool, rook Square) (Move, error) {
	us := b.turn
	ksq := b.king(us)
	side := "queen-side"
	rights := b.castling & backRank(us) & (bb(ksq) - 1)
	if kingSide {
		side = "king-side"
		rights = b.castling & backRank(us) &^ (bb(ksq)<<1 - 1)
	}
	if rights == 0 {
		return NullMove, b.illegal(text, "%v has no right to castle %s", us, side)
	}
	rsq := lsb(rights)
	if rook != NoSquare && rook != rsq {
		return NullMove, b.illegal(text, "%v cannot castle with the rook on %v", us, rook)
	}
	if b.InCheck() {
		return NullMove, b.illegal(text, "the king is in check")
	}
	ok, blocked, attacked := b.castlingPath(ksq, rsq, b.occupied())
	m := newMoveKind(ksq, rsq, kindCastling)
	switch kt, _ := m.CastlingSquares(); {
	case ok:
		return m, nil
	case blocked != NoSquare:
		return NullMove, b.illegal(text, "the way is blocked by the %v on %v", b.squares[blocked].Type(), blocked)
	case attacked == kt:
		return NullMove, b.illegal(text, "the king would be in check on %v", kt)
	default:
		return NullMove, b.illegal(text, "the king would pass through an attacked square %v", attacked)
	}
}

// origins keeps the squares of from that the written disambiguation
// allows. A pawn written without a file moves straight ahead.
func (t *moveText) origins(from bitboard) bitboard {
	if t.fromFile >= 0 {
		from &= fileA << uint(t.fromFile)
	} else if t.piece == Pawn {
		from &= fileA << uint(t.to.File())
	}
	if t.fromRank >= 0 {
		from &= rank1 << uint(8*t.fromRank)
	}
	return from
}

// kingSafeAfter reports whether pseudo-legal move m, not a castling, leaves
// the mover's king out of check.
func (b *Board) kingSafeAfter(m Move) bool {
	us, them := b.turn, b.turn.Other()
	from, to := m.From(), m.To()
	enemy := b.byColor[them] &^ bb(to)
	occ := b.occupied()
	if m.IsEnPassant() {
		c := NewSquare(to.File(), from.Rank())
		enemy &^= bb(c)
		occ &^= bb(c)
	}
	occ = occ&^bb(from) | bb(to)
	k := b.king(us)
	if k == from {
		k = to
	}
	return !b.attackedWithin(k, them, enemy, occ)
}

// explain says why no legal move fits t.
func (b *Board) explain(text string, t moveText) *MoveError {
	us := b.turn
	if p := b.squares[t.to]; p != NoPiece && p.Color() == us {
		return b.illegal(text, "%v is occupied by %v's own %v", t.to, us, p.Type())
	}
	if t.hasPromo && t.to.Rank() != 7-7*int(us) {
		return b.illegal(text, "a pawn promotes only on the last rank")
	}
	from := t.origins(b.reachers(t.piece, t.to))
	if from == 0 {
		where := ""
		switch {
		case t.fullFrom:
			where = " on " + NewSquare(t.fromFile, t.fromRank).String()
		case t.fromFile >= 0:
			where = fmt.Sprintf(" on the %c-file", 'a'+t.fromFile)
		case t.fromRank >= 0:
			where = fmt.Sprintf(" on rank %d", t.fromRank+1)
		}
		return b.illegal(text, "no %v%s can move to %v", t.piece, where, t.to)
	}
	// Some piece could make the move but for the safety of its own king.
	sq := lsb(from)
	switch {
	case t.piece == King:
		return b.illegal(text, "the king would be in check on %v", t.to)
	case b.InCheck():
		return b.illegal(text, "the king is in check and %v does not stop it", t.to)
	case b.pinned(b.king(us), us, b.occupied())&bb(sq) != 0:
		return b.illegal(text, "the %v on %v is pinned to the king", t.piece, sq)
	}
	return b.illegal(text, "it would leave the king in check")
}

// reachers returns the squares of the side to move's pieces of type pt that
// could move to s if their own king's safety did not matter.
func (b *Board) reachers(pt PieceType, s Square) bitboard {
	us := b.turn
	own := b.byColor[us] & b.byType[pt]
	occ := b.occupied()
	switch pt {
	case Pawn:
		var r bitboard
		if b.squares[s] != NoPiece && b.squares[s].Color() != us || s == b.ep {
			r |= pawnAttacks[us.Other()][s] & own
		}
		if b.squares[s] == NoPiece {
			back, startRank := s-8, 3
			if us == Black {
				back, startRank = s+8, 4
			}
			if back >= 0 && back < 64 {
				r |= bb(back) & own
				if s.Rank() == startRank && b.squares[back] == NoPiece {
					r |= bb(2*back-s) & own
				}
			}
		}
		return r
	case Knight:
		return knightAttacks[s] & own
	case Bishop:
		return bishopAttacks(s, occ) & own
	case Rook:
		return rookAttacks(s, occ) & own
	case Queen:
		return (bishopAttacks(s, occ) | rookAttacks(s, occ)) & own
	case King:
		return kingAttacks[s] & own
	}
	return 0
}
