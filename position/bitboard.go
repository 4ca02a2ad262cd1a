package position

import "math/bits"

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
// number, indexes a perfect hash of every possible attack set. The magics are
// searched for at start-up from a fixed seed, which takes a few milliseconds
// and keeps numbers that nobody can check by eye out of the source.
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

func init() {
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
	initMagics(&rookMagics, rookDirs, 0x52f3c1e8d7b6a9)
	initMagics(&bishopMagics, bishopDirs, 0x2d9e4b7f0c13)
}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func rayFrom(s Square, df, dr int) bitboard {
	var ray bitboard
	for f, r := s.File()+df, s.Rank()+dr; onBoard(f, r); f, r = f+df, r+dr {
		ray |= bb(NewSquare(f, r))
	}
	return ray
}

// initMagics finds a magic number for every square and fills the attack
// tables the magics index into.
func initMagics(ms *[64]magic, dirs [4][2]int, seed uint64) {
	rng := xorshift(seed)
	var sizes [64]int
	total := 0
	for s := A1; s <= H8; s++ {
		// Edge squares never change the attack set, so they are not
		// part of the relevant occupancy (unless the slider stands on
		// that edge, for the rank or file it moves along).
		edges := ((rank1 | rank8) &^ (rank1 << (8 * uint(s.Rank())))) |
			((fileA | fileH) &^ (fileA << uint(s.File())))
		ms[s].mask = slide(s, 0, dirs) &^ edges
		n := bits.OnesCount64(ms[s].mask)
		ms[s].shift = uint8(64 - n)
		sizes[s] = 1 << n
		total += sizes[s]
	}
	table := make([]bitboard, total)
	occs := make([]bitboard, 4096)
	atts := make([]bitboard, 4096)
	epoch := make([]int, 4096)
	attempt := 0
	off := 0
	for s := A1; s <= H8; s++ {
		m := &ms[s]
		m.table = table[off : off+sizes[s] : off+sizes[s]]
		off += sizes[s]
		// Enumerate every subset of the mask (the Carry-Rippler trick).
		n := 0
		for sub := bitboard(0); ; {
			occs[n], atts[n] = sub, slide(s, sub, dirs)
			n++
			sub = (sub - m.mask) & m.mask
			if sub == 0 {
				break
			}
		}
		for {
			m.number = rng.sparse()
			if bits.OnesCount64((m.mask*m.number)>>56) < 6 {
				continue
			}
			attempt++
			ok := true
			for i := 0; i < n; i++ {
				idx := ((occs[i] & m.mask) * m.number) >> m.shift
				if epoch[idx] < attempt {
					epoch[idx] = attempt
					m.table[idx] = atts[i]
				} else if m.table[idx] != atts[i] {
					ok = false
					break
				}
			}
			if ok {
				break
			}
		}
	}
}

type xorshiftState uint64

func xorshift(seed uint64) *xorshiftState { s := xorshiftState(seed); return &s }

func (x *xorshiftState) next() uint64 {
	*x ^= *x >> 12
	*x ^= *x << 25
	*x ^= *x >> 27
	return uint64(*x) * 2685821657736338717
}

// sparse returns a random number with few bits set, which makes good magics
// far more likely.
func (x *xorshiftState) sparse() uint64 {
	a, b, c := x.next(), x.next(), x.next()
	return a & b & c
}
