package position

import (
	"math/bits"
	"sync"
)

// A bitboard is a set of squares, bit i standing for Square(i).
type bitboard = uint64

const (
	fileA bitboard = 0x0101010101010101
	fileH bitboard = fileA << 7
	rank1 bitboard = 0xff
	rank8 bitboard = rank1 << 56
)

func bb(s Square) bitboard { return 1 << uint(s) }

func lsb(b bitboard) Square { return Square(bits.TrailingZeros64(b)) }

// Tables filled once by init. Sliding attacks use magic bitboards: the
// occupancy of a slider's relevant squares, multiplied by a per-square magic
// number, indexes a perfect hash of every possible attack set. The numbers
// are in magics.go, found once by TestMagics: searching for them at start-up
// took hundreds of milliseconds on a busy machine.
var (
	knightAttacks [64]bitboard
	kingAttacks   [64]bitboard
	pawnAttacks   [2][64]bitboard
	// between[a][b] is the squares strictly between a and b on a shared
	// line, and empty when they share none.
	between [64][64]bitboard
	// line[a][b] is the whole line through a and b, including them, and
	// empty when they share none.
	line [64][64]bitboard

	rookMagics   [64]magic
	bishopMagics [64]magic
)

type magic struct {
	mask   bitboard
	number uint64
	shift  uint8
	table  []bitboard
}

func (m *magic) attacks(occ bitboard) bitboard {
	return m.table[((occ&m.mask)*m.number)>>m.shift]
}

func rookAttacks(s Square, occ bitboard) bitboard   { return rookMagics[s].attacks(occ) }
func bishopAttacks(s Square, occ bitboard) bitboard { return bishopMagics[s].attacks(occ) }

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// slide walks each direction from s until the edge or the first occupied
// square, which it includes. It is the slow reference the magic tables are
// built from.
func slide(s Square, occ bitboard, dirs [4][2]int) bitboard {
	var att bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			t := NewSquare(f, r)
			att |= bb(t)
			if occ&bb(t) != 0 {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return att
}

// tables are built on first use rather than at start-up: a program that
// imports the package without setting up a board (frctool's commands
// that never replay a move) pays nothing for them, about 5 ms otherwise.
var tables sync.Once

// buildTables fills the attack, between, line and magic tables. Every
// board is set up through Board.set, which calls it first.
func buildTables() {
	for s := A1; s <= H8; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if onBoard(f+d[0], r+d[1]) {
				knightAttacks[s] |= bb(NewSquare(f+d[0], r+d[1]))
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if (df != 0 || dr != 0) && onBoard(f+df, r+dr) {
					kingAttacks[s] |= bb(NewSquare(f+df, r+dr))
				}
			}
		}
		for _, df := range [2]int{-1, 1} {
			if onBoard(f+df, r+1) {
				pawnAttacks[White][s] |= bb(NewSquare(f+df, r+1))
			}
			if onBoard(f+df, r-1) {
				pawnAttacks[Black][s] |= bb(NewSquare(f+df, r-1))
			}
		}
	}
	for a := A1; a <= H8; a++ {
		for _, dirs := range [2][4][2]int{rookDirs, bishopDirs} {
			for _, d := range dirs {
				var ray bitboard
				f, r := a.File()+d[0], a.Rank()+d[1]
				for onBoard(f, r) {
					b := NewSquare(f, r)
					between[a][b] = ray
					ray |= bb(b)
					f, r = f+d[0], r+d[1]
				}
				// The full line: both rays from a, plus a itself.
				full := ray | bb(a) | rayFrom(a, -d[0], -d[1])
				for x := ray; x != 0; x &= x - 1 {
					line[a][lsb(x)] = full
				}
			}
		}
	}
	initMagics(&rookMagics, rookDirs, &rookMagicNumbers)
	initMagics(&bishopMagics, bishopDirs, &bishopMagicNumbers)
}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func rayFrom(s Square, df, dr int) bitboard {
	var ray bitboard
	for f, r := s.File()+df, s.Rank()+dr; onBoard(f, r); f, r = f+df, r+dr {
		ray |= bb(NewSquare(f, r))
	}
	return ray
}

// relevantMask returns the squares whose occupancy can change the attacks of
// a slider on s. Edge squares never can, since nothing lies beyond them,
// except along the edge the slider itself stands on.
func relevantMask(s Square, dirs [4][2]int) bitboard {
	edges := ((rank1 | rank8) &^ (rank1 << (8 * uint(s.Rank())))) |
		((fileA | fileH) &^ (fileA << uint(s.File())))
	return slide(s, 0, dirs) &^ edges
}

// initMagics fills the attack tables for the given magic numbers (see
// magics.go and TestMagics, which finds them).
func initMagics(ms *[64]magic, dirs [4][2]int, numbers *[64]uint64) {
	total := 0
	for s := A1; s <= H8; s++ {
		ms[s].mask = relevantMask(s, dirs)
		ms[s].number = numbers[s]
		n := bits.OnesCount64(ms[s].mask)
		ms[s].shift = uint8(64 - n)
		total += 1 << n
	}
	table := make([]bitboard, total)
	off := 0
	for s := A1; s <= H8; s++ {
		m := &ms[s]
		size := 1 << (64 - int(m.shift))
		m.table = table[off : off+size : off+size]
		off += size
		// Enumerate every subset of the mask (the Carry-Rippler trick).
		for sub := bitboard(0); ; {
			att := slide(s, sub, dirs)
			idx := (sub * m.number) >> m.shift
			// Attack sets are never empty, so 0 marks a free slot.
			if m.table[idx] != 0 && m.table[idx] != att {
				panic("position: bad magic number for " + s.String())
			}
			m.table[idx] = att
			sub = (sub - m.mask) & m.mask
			if sub == 0 {
				break
			}
		}
	}
}
