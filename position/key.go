package position

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"sync"
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
	// The ranks are written through tables and bit operations, with no
	// branch on what a square holds: on the positions of real games, the
	// branches of a square-by-square loop guess wrong often enough to
	// cost more than all the rest.
	fenTables.Do(buildFENTables)
	n := len(dst)
	dst = slices.Grow(dst, fenRanksMax)
	b := (*[fenRanksMax]byte)(dst[n : n+fenRanksMax])
	const mask = fenRanksMax - 1
	at := 0
	for r := 7; r >= 0; r-- {
		shift := uint(8 * r)
		t0, t1, t2 := uint8(k.t0>>shift), uint8(k.t1>>shift), uint8(k.t2>>shift)
		occupied := t0 | t1 | t2
		// Byte f of letters is the letter of the piece on file f, worked
		// out for the eight files at once from the planes' bits.
		m0, m1, m2 := fenMask[t0], fenMask[t1], fenMask[t2]
		letters := m0&fenANF[1] ^ m1&fenANF[2] ^ m0&m1&fenANF[3] ^
			m2&fenANF[4] ^ m0&m2&fenANF[5] ^ m1&m2&fenANF[6] ^
			fenMask[occupied&^uint8(k.white>>shift)]&0x2020202020202020
		// The rank's digits go first, eight bytes whatever its length,
		// then each file's letter to its place: an empty file's to a
		// byte past the rank, which the next ranks write over or which
		// ends up past the end.
		binary.LittleEndian.PutUint64(b[at&mask:], fenDigits[occupied])
		pos := &fenPos[occupied]
		b[(at+int(pos[0]))&mask] = byte(letters)
		b[(at+int(pos[1]))&mask] = byte(letters >> 8)
		b[(at+int(pos[2]))&mask] = byte(letters >> 16)
		b[(at+int(pos[3]))&mask] = byte(letters >> 24)
		b[(at+int(pos[4]))&mask] = byte(letters >> 32)
		b[(at+int(pos[5]))&mask] = byte(letters >> 40)
		b[(at+int(pos[6]))&mask] = byte(letters >> 48)
		b[(at+int(pos[7]))&mask] = byte(letters >> 56)
		at += int(fenRankLen[occupied])
		b[at&mask] = '/'
		at++
	}
	dst = dst[:n+at-1]
	if k.Turn() == White {
		dst = append(dst, " w "...)
	} else {
		dst = append(dst, " b "...)
	}
	if k.state>>1&0xffff == 0 {
		dst = append(dst, '-')
	}
	dst = append(dst, fenCastling[uint8(k.state>>1)]...)
	dst = append(dst, fenCastling[256+int(uint8(k.state>>9))]...)
	switch file := byte(k.state >> 17 & 15); {
	case file == 0:
		dst = append(dst, " - "...)
	case k.Turn() == White:
		dst = append(dst, ' ', 'a'+file-1, '6', ' ')
	default:
		dst = append(dst, ' ', 'a'+file-1, '3', ' ')
	}
	dst = appendCounter(dst, halfMove)
	dst = append(dst, ' ')
	return appendCounter(dst, fullMove)
}

// appendCounter appends a FEN's move counter, most often a number of one
// or two digits.
func appendCounter(dst []byte, n int) []byte {
	switch {
	case n >= 0 && n < 10:
		return append(dst, byte('0'+n))
	case n >= 10 && n < 100:
		return append(dst, byte('0'+n/10), byte('0'+n%10))
	}
	return strconv.AppendInt(dst, int64(n), 10)
}

// fenRanksMax bounds the board field of a FEN (at most 71 bytes) with
// room for the bytes written past a rank; a power of two, so that masking
// an index with it proves it in range.
const fenRanksMax = 128

// The tables AppendFEN writes through, filled by buildFENTables on the
// first call rather than at start-up, which every program importing the
// package would pay for.
var (
	// fenMask maps a rank's byte of a plane to a word with, in byte f,
	// 0xff where file f has the bit.
	fenMask [256]uint64
	// fenANF writes the letter of a piece type (1..6, bit i from a key's
	// plane i) as an exclusive or of the products of its bits: letter(t)
	// is the exclusive or of fenANF[s] over the s whose bits t all has,
	// so a word of eight types gives eight letters at once. Each entry
	// holds its byte in every byte of the word.
	fenANF [8]uint64
	// fenDigits, fenPos and fenRankLen give, per occupancy of a rank, the
	// rank's FEN with the digits of its empty runs in place (the letters'
	// places hold anything), the place of each file's letter in it (for
	// an empty file, 15: past the rank), and its length.
	fenDigits  [256]uint64
	fenPos     [256][8]uint8
	fenRankLen [256]uint8
	// fenCastling is the castling field's letters per byte of a key's
	// rook files: White's 256 first, then Black's, each from the h-file
	// down.
	fenCastling [512]string

	fenTables sync.Once
)

func buildFENTables() {
	for x := range fenMask {
		for f := range 8 {
			fenMask[x] |= uint64(x>>f&1) * 0xff << (8 * f)
		}
	}

	const letters = "\x00PNBRQK\x00"
	for s := range fenANF {
		var x byte
		for t := range 8 {
			if t&^s == 0 {
				x ^= letters[t]
			}
		}
		fenANF[s] = uint64(x) * 0x0101010101010101
	}

	for occ := range fenDigits {
		empty := 0
		run := func() {
			if empty > 0 {
				fenDigits[occ] |= uint64('0'+empty) << (8 * fenRankLen[occ])
				fenRankLen[occ]++
				empty = 0
			}
		}
		for f := range 8 {
			if occ>>f&1 == 0 {
				empty++
				fenPos[occ][f] = 15
				continue
			}
			run()
			fenPos[occ][f] = fenRankLen[occ]
			fenRankLen[occ]++
		}
		run()
	}

	for side, a := range [...]byte{'A', 'a'} {
		for x := range 256 {
			var s []byte
			for f := 7; f >= 0; f-- {
				if x>>f&1 != 0 {
					s = append(s, a+byte(f))
				}
			}
			fenCastling[256*side+x] = string(s)
		}
	}
}
