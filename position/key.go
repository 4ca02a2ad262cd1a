package position

import (
	"math/bits"
	"strconv"
)

// Key identifies a position the way the repetition rule does: the pieces
// on their squares, the side to move, the rooks that keep a castling right
// and, only when an en passant capture is legal, the file it is on. Two
// boards have equal keys exactly when they hold the same position in that
// sense, however they got there; the move counters do not count.
//
// A Key is exact, not a hash, so keys never collide, and it is comparable:
// it can key a Go map. It takes 40 bytes.
type Key struct {
	// white holds the squares of White's pieces; the three type planes
	// hold, per square, one bit each of the piece's PieceType (1..6, so
	// an empty square is the one with no bit in any plane).
	white      bitboard
	t0, t1, t2 bitboard
	// state packs the side to move (bit 0), the castling rooks of the
	// first rank (bits 1-8) and of the eighth (bits 9-16), and the en
	// passant file plus one (bits 17-20, 0 for none).
	state uint32
}

// Key returns the key of the position on b.
func (b *Board) Key() Key {
	t := &b.byType
	k := Key{
		white: b.byColor[White],
		t0:    t[Pawn] | t[Bishop] | t[Queen],
		t1:    t[Knight] | t[Bishop] | t[King],
		t2:    t[Rook] | t[Queen] | t[King],
		state: uint32(b.turn) |
			uint32(b.castling&rank1)<<1 |
			uint32(b.castling>>56)<<9,
	}
	if b.ep != NoSquare && b.canCaptureEnPassant() {
		k.state |= uint32(b.ep.File()+1) << 17
	}
	return k
}

// canCaptureEnPassant reports whether the side to move has a legal en
// passant capture. Most double pushes leave no pawn beside the one that
// moved, which the first test settles without generating moves.
func (b *Board) canCaptureEnPassant() bool {
	pawns := b.byType[Pawn] & b.byColor[b.turn]
	if pawnAttacks[b.turn.Other()][b.ep]&pawns == 0 {
		return false
	}
	var l moveList
	b.enPassant(&l, b.king(b.turn), pawns, b.occupied())
	return l.n > 0
}

// Turn returns the side to move in the keyed position.
func (k Key) Turn() Color { return Color(k.state & 1) }

// Hash returns a 64-bit hash of the key, for hash tables that store keys
// apart from their hashes (so that a table can be grown without reading
// the keys again). Equal keys have equal hashes; all 64 bits are mixed,
// so any of them may pick a slot.
func (k Key) Hash() uint64 {
	h := mix64(k.white^0x9e3779b97f4a7c15, k.t0^0xbf58476d1ce4e5b9)
	h ^= mix64(k.t1^0x94d049bb133111eb, k.t2^0x2545f4914f6cdd1d)
	return mix64(h^uint64(k.state), 0xd6e8feb86659fd93)
}

// mix64 multiplies a by b to 128 bits and folds the halves: every bit of
// each factor moves every bit of the result.
func mix64(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// AppendFEN appends the keyed position as a FEN with halfMove and
// fullMove for its counters, which a key does not hold: exactly what
// Board.FEN(fen.Shredder) writes for a board with this key and those
// counters (an en passant square only when a capture is legal, castling
// as rook files, White's first, each side's from the h-file down). It
// reads the key's bit planes instead of setting up a fen.Position, for
// writers of millions of positions.
func (k Key) AppendFEN(dst []byte, halfMove, fullMove int) []byte {
	occupied := k.t0 | k.t1 | k.t2
	for r := 7; r >= 0; r-- {
		// A rank's pieces are found by their bits, skipping the empty
		// squares between them at once.
		shift := uint(8 * r)
		file := 0
		for row := uint8(occupied >> shift); row != 0; row &= row - 1 {
			f := bits.TrailingZeros8(row)
			if f > file {
				dst = append(dst, '0'+byte(f-file))
			}
			s := shift + uint(f)
			l := "\x00PNBRQK"[k.t0>>s&1|(k.t1>>s&1)<<1|(k.t2>>s&1)<<2]
			if k.white>>s&1 == 0 {
				l |= 0x20
			}
			dst = append(dst, l)
			file = f + 1
		}
		if file < 8 {
			dst = append(dst, '0'+byte(8-file))
		}
		if r > 0 {
			dst = append(dst, '/')
		}
	}
	if k.Turn() == White {
		dst = append(dst, " w "...)
	} else {
		dst = append(dst, " b "...)
	}
	if k.state>>1&0xffff == 0 {
		dst = append(dst, '-')
	}
	for f := 7; f >= 0; f-- {
		if k.state>>(1+f)&1 != 0 {
			dst = append(dst, 'A'+byte(f))
		}
	}
	for f := 7; f >= 0; f-- {
		if k.state>>(9+f)&1 != 0 {
			dst = append(dst, 'a'+byte(f))
		}
	}
	switch file := byte(k.state >> 17 & 15); {
	case file == 0:
		dst = append(dst, " - "...)
	case k.Turn() == White:
		dst = append(dst, ' ', 'a'+file-1, '6', ' ')
	default:
		dst = append(dst, ' ', 'a'+file-1, '3', ' ')
	}
	dst = strconv.AppendInt(dst, int64(halfMove), 10)
	dst = append(dst, ' ')
	return strconv.AppendInt(dst, int64(fullMove), 10)
}
