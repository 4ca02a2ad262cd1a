// Package numbering converts between Chess960 back ranks and their numbers.
//
// Two numberings are in use. Reinhard Scharnagl's numbers the 960 start
// positions 0..959 and is the world standard: standard chess is SP 518.
// ChessBase's Fritz 9 numbers them 1..960 by another rule: standard chess is
// Fritz9 359. Both are pure arithmetic over the placement of the bishops,
// knights and queen; this package implements both directions of both schemes.
// The 960 arrangements and their numbers are tables compiled into the
// program, so that no conversion allocates and start-up computes nothing.
//
// A [Rank] is White's back rank from a1 to h1. Black's rank in a Chess960
// start position mirrors it; see package fen for whole positions.
package numbering

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/frctool/frctool/internal/words"
)

// Count is the number of Chess960 start positions.
const Count = 960

// Numbers of the standard chess start position, RNBQKBNR.
const (
	StandardSP     = 518
	StandardFritz9 = 359
)

// Rank is a back rank from the a-file to the h-file, each square holding one
// of the upper-case English piece letters R, N, B, Q, K. The zero Rank is not
// a valid arrangement; obtain Ranks from [ParseRank], [FromSP] or [FromFritz9].
type Rank [8]byte

// Errors that [ParseRank] and [Rank.Check] wrap, one per rule a back rank
// can break. Test for them with errors.Is.
var (
	ErrLength  = errors.New("a back rank has 8 squares")
	ErrLetter  = errors.New("unknown piece letter")
	ErrPieces  = errors.New("a back rank holds 2 rooks, 2 knights, 2 bishops, 1 queen and 1 king")
	ErrBishops = errors.New("the bishops must stand on squares of opposite colours")
	ErrKing    = errors.New("the king must stand between the rooks")
	ErrRange   = errors.New("number out of range")
)

// RankError describes why a text or a Rank is not a Chess960 back rank.
type RankError struct {
	Input  string // the text as given, or the Rank's letters
	Err    error  // one of ErrLength, ErrLetter, ErrPieces, ErrBishops, ErrKing
	Detail string // what exactly is wrong, e.g. "3 knights"
}

func (e *RankError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("back rank %s: %v", words.Quote(e.Input), e.Err)
	}
	return fmt.Sprintf("back rank %s: %v (%s)", words.Quote(e.Input), e.Err, e.Detail)
}

func (e *RankError) Unwrap() error { return e.Err }

// pieceLetter maps an English or German piece letter, in either case, to the
// English upper-case letter; 0 means the letter is not a piece of a back rank.
// A literal, not a loop, so that the compiler lays it out and start-up does
// nothing.
var pieceLetter = [256]byte{
	'R': 'R', 'N': 'N', 'B': 'B', 'Q': 'Q', 'K': 'K', // English
	'r': 'R', 'n': 'N', 'b': 'B', 'q': 'Q', 'k': 'K',
	'T': 'R', 'S': 'N', 'L': 'B', 'D': 'Q', // German: Turm, Springer, Läufer, Dame, König
	't': 'R', 's': 'N', 'l': 'B', 'd': 'Q',
}

// ParseRank reads a back rank written as eight letters from a to h, in any
// case, with English (RNBQKBNR) or German (TSLDKLST) piece letters. The error
// is a *RankError naming the rule the text breaks.
func ParseRank(s string) (Rank, error) {
	var r Rank
	if len(s) != 8 {
		n := utf8.RuneCountInString(s)
		if n == 8 {
			// Eight characters, but not all ASCII: the first non-ASCII one
			// is an unknown letter, not a length problem.
			for i, c := range s {
				if c >= utf8.RuneSelf {
					return r, &RankError{Input: s, Err: ErrLetter, Detail: fmt.Sprintf("%q on the %c-file", c, 'a'+utf8.RuneCountInString(s[:i]))}
				}
			}
		}
		return r, &RankError{Input: s, Err: ErrLength, Detail: fmt.Sprintf("got %d", n)}
	}
	for i := 0; i < 8; i++ {
		p := pieceLetter[s[i]]
		if p == 0 {
			c, _ := utf8.DecodeRuneInString(s[i:])
			return Rank{}, &RankError{Input: s, Err: ErrLetter, Detail: fmt.Sprintf("%q on the %c-file", c, 'a'+i)}
		}
		r[i] = p
	}
	if err := r.check(); err != nil {
		err.Input = s
		return Rank{}, err
	}
	return r, nil
}

// Check reports whether r is one of the 960 legal arrangements. The error is
// a *RankError naming the broken rule.
func (r Rank) Check() error {
	if err := r.check(); err != nil {
		return err
	}
	return nil
}

func (r Rank) check() *RankError {
	var n [256]uint8 // bytes, not ints: clearing 256 bytes is most of a conversion's cost
	for _, p := range r {
		n[p]++
	}
	if n['R'] != 2 || n['N'] != 2 || n['B'] != 2 || n['Q'] != 1 || n['K'] != 1 {
		if other := 8 - int(n['R']) - int(n['N']) - int(n['B']) - int(n['Q']) - int(n['K']); other > 0 {
			return &RankError{Input: r.String(), Err: ErrLetter, Detail: fmt.Sprintf("%d squares hold no back-rank piece", other)}
		}
		return &RankError{Input: r.String(), Err: ErrPieces, Detail: pieceCounts(n)}
	}
	var bishops, rooks [2]int
	b, k := 0, 0
	for i, p := range r {
		switch p {
		case 'B':
			bishops[b] = i
			b++
		case 'R':
			rooks[k] = i
			k++
		}
	}
	if (bishops[0]+bishops[1])%2 == 0 {
		return &RankError{Input: r.String(), Err: ErrBishops, Detail: fmt.Sprintf("both on %s squares", squareColour(bishops[0]))}
	}
	if king := r.index('K'); king < rooks[0] || king > rooks[1] {
		return &RankError{Input: r.String(), Err: ErrKing}
	}
	return nil
}

// valid is Check without the error, which codes needs to be asked of
// any eight squares without allocating.
func (r Rank) valid() bool {
	var n [256]uint8
	king, rooks, rook1, bishopColours := -1, 0, -1, 0
	for i, p := range r {
		n[p]++
		switch p {
		case 'K':
			king = i
		case 'R':
			if rooks == 0 {
				rook1 = i
			} else if king < rook1 {
				return false // the king is not after the first rook
			}
			rooks++
		case 'B':
			bishopColours += i%2 + 1 // 1 for a dark square, 2 for a light one
		}
	}
	return n['R'] == 2 && n['N'] == 2 && n['B'] == 2 && n['Q'] == 1 && n['K'] == 1 &&
		bishopColours == 3 && king > rook1
}

// index returns the file of the first square holding piece, or -1.
func (r Rank) index(piece byte) int {
	for i, p := range r {
		if p == piece {
			return i
		}
	}
	return -1
}

func pieceCounts(n [256]uint8) string {
	var parts []string
	for _, p := range []struct {
		letter byte
		name   string
		want   uint8
	}{{'R', "rook", 2}, {'N', "knight", 2}, {'B', "bishop", 2}, {'Q', "queen", 1}, {'K', "king", 1}} {
		if n[p.letter] != p.want {
			name := p.name
			if n[p.letter] != 1 {
				name += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n[p.letter], name))
		}
	}
	return strings.Join(parts, ", ")
}

// squareColour is the colour of a first-rank square on file f (0 = a).
// a1 is dark, so even files are dark.
func squareColour(f int) string {
	if f%2 == 0 {
		return "dark"
	}
	return "light"
}

// String returns the rank as eight upper-case English letters, "RNBQKBNR".
func (r Rank) String() string { return string(r[:]) }

// German returns the rank with German piece letters, "TSLDKLST".
func (r Rank) German() string {
	var b [8]byte
	for i, p := range r {
		b[i] = "TSLDK"[strings.IndexByte("RNBQK", p)]
	}
	return string(b[:])
}

// Black returns the rank as Black's pieces in FEN, lower case: "rnbqkbnr".
func (r Rank) Black() string { return strings.ToLower(r.String()) }

// SP returns the Scharnagl number of r, 0..959, or -1 if r is not a legal
// arrangement.
func (r Rank) SP() int {
	// A perfect hash of the eight bytes picks the only number r can have
	// (see numbers.go), and the rank of that number says whether r has
	// it. This is a few times faster than a map, or than checking the
	// rules and reading the number off the placement, and the tables are
	// compiled in rather than built at start-up.
	h := binary.LittleEndian.Uint64(r[:]) * spHashMultiplier
	sp := spOfSlot[(h>>32^uint64(spDisplacement[h>>56]))%uint64(len(spOfSlot))]
	if bySP[sp] == r {
		return int(sp)
	}
	return -1
}

// Fritz9 returns the Fritz 9 number of r, 1..960, or -1 if r is not a legal
// arrangement.
func (r Rank) Fritz9() int {
	if sp := r.SP(); sp >= 0 {
		return int(fritz9OfSP[sp])
	}
	return -1
}

// encodeSP and encodeFritz9 compute the numbers from the rules, step by
// step: the reference that SP and the tables in numbers.go are tested
// against.
func (r Rank) encodeSP() int {
	code, ok := r.codes()
	if !ok {
		return -1
	}
	return code.bishops + 16*code.queen6 + 96*code.knights5
}

func (r Rank) encodeFritz9() int {
	code, ok := r.codes()
	if !ok {
		return -1
	}
	return 1 + code.bishops + 16*code.knights6 + 240*code.queen4
}

// codes holds the indices both numberings are built from.
type codes struct {
	bishops  int // light index (b,d,f,h) + 4 * dark index (a,c,e,g): the Bishop's table
	queen6   int // Scharnagl: the queen among the six squares the bishops leave
	knights5 int // Scharnagl: the knight pair among the five squares left then (N5N)
	knights6 int // Fritz9: the knight pair among the six squares the bishops leave
	queen4   int // Fritz9: the queen among the four squares left then
}

func (r Rank) codes() (c codes, ok bool) {
	if !r.valid() {
		return c, false
	}
	var light, dark int
	var rest [6]byte // the six pieces that are not bishops, in file order
	n := 0
	for i, p := range r {
		switch {
		case p == 'B' && i%2 == 1:
			light = i / 2
		case p == 'B':
			dark = i / 2
		default:
			rest[n] = p
			n++
		}
	}
	c.bishops = light + 4*dark

	var knights6 [2]int
	k := 0
	for i, p := range rest {
		switch p {
		case 'Q':
			c.queen6 = i
		case 'N':
			knights6[k] = i
			k++
		}
	}
	c.knights6 = pairIndex(6, knights6[0], knights6[1])
	// Without the queen the knights move one place left if they stood after it.
	kn5 := knights6
	for j := range kn5 {
		if kn5[j] > c.queen6 {
			kn5[j]--
		}
	}
	c.knights5 = pairIndex(5, kn5[0], kn5[1])
	// Without the knights the queen moves left by the knights before it.
	c.queen4 = c.queen6
	for _, kn := range knights6 {
		if kn < c.queen6 {
			c.queen4--
		}
	}
	return c, true
}

// pairIndex numbers the pair i < j of n places in lexicographic order:
// 01 02 ... 0(n-1) 12 ... (n-2)(n-1).
func pairIndex(n, i, j int) int {
	return i*(2*n-i-1)/2 + (j - i - 1)
}

// pairAt is the inverse of pairIndex.
func pairAt(n, index int) (i, j int) {
	for i = 0; index >= n-1-i; i++ {
		index -= n - 1 - i
	}
	return i, i + 1 + index
}

// fill places pieces on the empty squares (0) of r, in file order.
func (r *Rank) fill(pieces string) {
	k := 0
	for i := range r {
		if r[i] == 0 {
			r[i] = pieces[k]
			k++
		}
	}
}

// placeNth puts piece on the nth empty square of r, counting from the a-file.
func (r *Rank) placeNth(piece byte, nth int) {
	for i := range r {
		if r[i] == 0 {
			if nth == 0 {
				r[i] = piece
				return
			}
			nth--
		}
	}
}

// decodeSP builds the rank for Scharnagl number sp (0..959) by the direct
// derivation of the seed document.
func decodeSP(sp int) Rank {
	var r Rank
	r[2*(sp%4)+1] = 'B' // light squares b, d, f, h
	sp /= 4
	r[2*(sp%4)] = 'B' // dark squares a, c, e, g
	sp /= 4
	r.placeNth('Q', sp%6)
	sp /= 6
	i, j := pairAt(5, sp)
	r.placeNth('N', j) // the later knight first, so the earlier index still counts from a
	r.placeNth('N', i)
	r.fill("RKR")
	return r
}

// decodeFritz9 builds the rank for Fritz9 number f (1..960).
func decodeFritz9(f int) Rank {
	var r Rank
	n := f - 1
	bishops := n % 16
	r[2*(bishops%4)+1] = 'B'
	r[2*(bishops/4)] = 'B'
	n /= 16
	i, j := pairAt(6, n%15)
	r.placeNth('N', j)
	r.placeNth('N', i)
	r.placeNth('Q', n/15)
	r.fill("RKR")
	return r
}

// NormalizeSP maps a Scharnagl number given as 0..959 or 1..960 to 0..959:
// n mod 960, so 960 is SP 0 and every other number is unchanged.
func NormalizeSP(n int) (int, error) {
	if n < 0 || n > Count {
		return 0, fmt.Errorf("SP %d: %w (Scharnagl numbers are 0..959, or 960 for 0)", n, ErrRange)
	}
	return n % Count, nil
}

// FromSP returns the back rank with Scharnagl number n; 960 means 0.
func FromSP(n int) (Rank, error) {
	sp, err := NormalizeSP(n)
	if err != nil {
		return Rank{}, err
	}
	return bySP[sp], nil
}

// FromFritz9 returns the back rank with Fritz9 number n, 1..960.
func FromFritz9(n int) (Rank, error) {
	if n < 1 || n > Count {
		return Rank{}, fmt.Errorf("Fritz9 number %d: %w (1..960)", n, ErrRange)
	}
	return bySP[spOfFritz9[n]], nil
}

// SPToFritz9 converts a Scharnagl number (0..959, or 960 for 0) to Fritz9's.
func SPToFritz9(n int) (int, error) {
	sp, err := NormalizeSP(n)
	if err != nil {
		return 0, err
	}
	return int(fritz9OfSP[sp]), nil
}

// Fritz9ToSP converts a Fritz9 number (1..960) to Scharnagl's (0..959).
func Fritz9ToSP(n int) (int, error) {
	if n < 1 || n > Count {
		return 0, fmt.Errorf("Fritz9 number %d: %w (1..960)", n, ErrRange)
	}
	return int(spOfFritz9[n]), nil
}
