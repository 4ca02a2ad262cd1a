package position

// generate appends every legal move to l. It generates legal moves
// directly, from the checkers and the pinned pieces, instead of playing
// pseudo-legal moves and testing the king: that is what makes leaf counting
// in perft cheap.
func (b *Board) generate(l *moveList) {
	us, them := b.turn, b.turn.Other()
	own, enemy := b.byColor[us], b.byColor[them]
	occ := own | enemy
	ksq := b.king(us)
	checkers := b.attackers(ksq, them, occ)

	// The king is lifted off the board so that a slider checking it also
	// covers the squares behind it.
	occNoKing := occ ^ bb(ksq)
	for t := kingAttacks[ksq] &^ own; t != 0; t &= t - 1 {
		to := lsb(t)
		if !b.attackedBy(to, them, occNoKing) {
			l.add(newMove(ksq, to))
		}
	}
	if checkers&(checkers-1) != 0 || l.found() {
		return // double check: only the king can move
	}
	target := ^own
	if checkers != 0 {
		target &= between[ksq][lsb(checkers)] | checkers
	}
	pinned := b.pinned(ksq, us, occ)

	for f := b.byType[Knight] & own &^ pinned; f != 0; f &= f - 1 {
		from := lsb(f)
		addAll(l, from, knightAttacks[from]&target)
	}
	if l.found() {
		return
	}
	q := b.byType[Queen]
	for f := (b.byType[Bishop] | q) & own; f != 0; f &= f - 1 {
		from := lsb(f)
		t := bishopAttacks(from, occ) & target
		if pinned&bb(from) != 0 {
			t &= line[ksq][from]
		}
		addAll(l, from, t)
	}
	if l.found() {
		return
	}
	for f := (b.byType[Rook] | q) & own; f != 0; f &= f - 1 {
		from := lsb(f)
		t := rookAttacks(from, occ) & target
		if pinned&bb(from) != 0 {
			t &= line[ksq][from]
		}
		addAll(l, from, t)
	}
	if l.found() {
		return
	}

	pawns := b.byType[Pawn] & own
	b.pawnMoves(l, pawns&^pinned, target, occ, enemy)
	if l.found() {
		return
	}
	for p := pawns & pinned; p != 0; p &= p - 1 {
		from := lsb(p)
		b.pawnMoves(l, bb(from), target&line[ksq][from], occ, enemy)
	}
	if b.ep != NoSquare {
		b.enPassant(l, ksq, pawns, occ)
	}
	if checkers == 0 && b.castling&own != 0 {
		for r := b.castling & own; r != 0; r &= r - 1 {
			rsq := lsb(r)
			if ok, _, _ := b.castlingPath(ksq, rsq, occ); ok {
				l.add(newMoveKind(ksq, rsq, kindCastling))
			}
		}
	}
}

func addAll(l *moveList, from Square, targets bitboard) {
	for ; targets != 0; targets &= targets - 1 {
		l.add(newMove(from, lsb(targets)))
	}
}

// pinned returns us's pieces that stand alone between their king and an
// enemy slider.
func (b *Board) pinned(ksq Square, us Color, occ bitboard) bitboard {
	enemy := b.byColor[us.Other()]
	q := b.byType[Queen]
	// Looking from the king through our own pieces finds every slider
	// that could pin one of them.
	snipers := enemy & (rookAttacks(ksq, enemy)&(b.byType[Rook]|q) |
		bishopAttacks(ksq, enemy)&(b.byType[Bishop]|q))
	var pinned bitboard
	for ; snipers != 0; snipers &= snipers - 1 {
		if x := between[ksq][lsb(snipers)] & occ; x&(x-1) == 0 {
			pinned |= x & b.byColor[us]
		}
	}
	return pinned
}

// pawnMoves adds the pushes and captures (not en passant) of pawns that
// land on target, all of them at once by shifting the whole set.
func (b *Board) pawnMoves(l *moveList, pawns, target, occ, enemy bitboard) {
	if pawns == 0 {
		return
	}
	var push, push2, capW, capE bitboard
	var up Square
	var doubleRank, lastRank bitboard
	if b.turn == White {
		up, doubleRank, lastRank = 8, rank1<<16, rank8
		push = pawns << 8 &^ occ
		push2 = push & doubleRank << 8 &^ occ
		capW = (pawns &^ fileA) << 7 & enemy
		capE = (pawns &^ fileH) << 9 & enemy
	} else {
		up, doubleRank, lastRank = -8, rank1<<40, rank1
		push = pawns >> 8 &^ occ
		push2 = push & doubleRank >> 8 &^ occ
		capW = (pawns &^ fileA) >> 9 & enemy
		capE = (pawns &^ fileH) >> 7 & enemy
	}
	push &= target
	push2 &= target
	capW &= target
	capE &= target
	addPawn(l, push, up, lastRank)
	addPawn(l, capW, up-1, lastRank)
	addPawn(l, capE, up+1, lastRank)
	for ; push2 != 0; push2 &= push2 - 1 {
		to := lsb(push2)
		l.add(newMove(to-2*up, to))
	}
}

// addPawn adds a move to each square of tos from the square delta behind
// it, as four promotions on the last rank.
func addPawn(l *moveList, tos bitboard, delta Square, lastRank bitboard) {
	for t := tos &^ lastRank; t != 0; t &= t - 1 {
		to := lsb(t)
		l.add(newMove(to-delta, to))
	}
	for t := tos & lastRank; t != 0; t &= t - 1 {
		to := lsb(t)
		for k := kindPromoQueen; k >= kindPromoKnight; k-- {
			l.add(newMoveKind(to-delta, to, k))
		}
	}
}

// enPassant adds the legal en passant captures. They are tested by playing
// them on the occupancy, because removing two pawns from one rank can
// expose the king in a way no pin covers.
func (b *Board) enPassant(l *moveList, ksq Square, pawns, occ bitboard) {
	them := b.turn.Other()
	capSq := b.ep - 8
	if b.turn == Black {
		capSq = b.ep + 8
	}
	enemy := b.byColor[them] &^ bb(capSq)
	q := b.byType[Queen]
	for f := pawnAttacks[them][b.ep] & pawns; f != 0; f &= f - 1 {
		from := lsb(f)
		o := occ ^ bb(from) ^ bb(capSq) | bb(b.ep)
		if enemy&(knightAttacks[ksq]&b.byType[Knight]|pawnAttacks[b.turn][ksq]&b.byType[Pawn]) != 0 ||
			enemy&bishopAttacks(ksq, o)&(b.byType[Bishop]|q) != 0 ||
			enemy&rookAttacks(ksq, o)&(b.byType[Rook]|q) != 0 {
			continue
		}
		l.add(newMoveKind(from, b.ep, kindEnPassant))
	}
}

// castlingPath checks the board conditions of castling with the rook on
// rsq, given that the king is not in check and the right exists. It returns
// ok, or the first square that blocks the way, or the first square the
// king would cross (or end on) under attack.
func (b *Board) castlingPath(ksq, rsq Square, occ bitboard) (ok bool, blocked, attacked Square) {
	m := newMoveKind(ksq, rsq, kindCastling)
	kt, rt := m.CastlingSquares()
	// Only king and rook may stand on the squares the two pass over or
	// land on.
	rest := occ ^ bb(ksq) ^ bb(rsq)
	path := between[ksq][kt] | bb(kt) | between[rsq][rt] | bb(rt)
	if x := path & rest; x != 0 {
		return false, nearest(ksq, x), NoSquare
	}
	them := b.turn.Other()
	kingPath := between[ksq][kt]
	for p := kingPath; p != 0; p &= p - 1 {
		// Order does not matter for legality, only for the message; the
		// nearest attacked square is found below.
		if b.attackedBy(lsb(p), them, rest) {
			var att bitboard
			for q := kingPath; q != 0; q &= q - 1 {
				if b.attackedBy(lsb(q), them, rest) {
					att |= bb(lsb(q))
				}
			}
			return false, NoSquare, nearest(ksq, att)
		}
	}
	// On its destination the king stands beside the rook, which may now
	// shield it.
	if b.attackedBy(kt, them, rest|bb(rt)) {
		return false, NoSquare, kt
	}
	return true, NoSquare, NoSquare
}

// nearest returns the square of set closest to s along a rank.
func nearest(s Square, set bitboard) Square {
	best, bestD := NoSquare, 99
	for ; set != 0; set &= set - 1 {
		t := lsb(set)
		d := int(t) - int(s)
		if d < 0 {
			d = -d
		}
		if d < bestD {
			best, bestD = t, d
		}
	}
	return best
}

// LegalMoves returns the legal moves in the position.
func (b *Board) LegalMoves() []Move {
	var l moveList
	b.generate(&l)
	return append([]Move(nil), l.slice()...)
}

// IsLegal reports whether m is a legal move in the position.
func (b *Board) IsLegal(m Move) bool {
	var l moveList
	b.generate(&l)
	for _, x := range l.slice() {
		if x == m {
			return true
		}
	}
	return false
}

// InCheck reports whether the side to move is in check.
func (b *Board) InCheck() bool {
	us := b.turn
	return b.attackedBy(b.king(us), us.Other(), b.occupied())
}

func (b *Board) hasLegalMove() bool {
	l := moveList{first: true}
	b.generate(&l)
	return l.n > 0
}

// IsCheckmate reports whether the side to move is checkmated.
func (b *Board) IsCheckmate() bool { return b.InCheck() && !b.hasLegalMove() }

// IsStalemate reports whether the side to move has no legal move and is not
// in check.
func (b *Board) IsStalemate() bool { return !b.InCheck() && !b.hasLegalMove() }

// Perft counts the leaf nodes of the legal move tree depth plies deep, the
// standard test of a move generator. The last ply is counted without being
// played.
func (b *Board) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var l moveList
	b.generate(&l)
	if depth == 1 {
		return uint64(l.n)
	}
	var n uint64
	for _, m := range l.slice() {
		b.Push(m)
		n += b.Perft(depth - 1)
		b.Pop()
	}
	return n
}
