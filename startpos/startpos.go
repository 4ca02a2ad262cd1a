// Package startpos reads and writes a Chess960 start position in each of the
// notations people name one by (Scharnagl number, Fritz9 number, back rank,
// FEN) and identifies the start position that a back rank or a FEN shows.
//
// It joins package numbering (numbers and back ranks) to package fen (whole
// positions) for callers such as the frctool command, which take text that
// may be any of these.
package startpos

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
)

// Notation is a way of writing a start position.
type Notation int

// The notations, by the names [ParseNotation] accepts.
const (
	Scharnagl   Notation = iota + 1 // "scharnagl": SP 0..959; 960 is read as 0
	Fritz9                          // "fritz9": 1..960
	Rank                            // "rank": White's back rank, "RNBQKBNR" (German letters read too)
	FEN                             // "fen": the start FEN, written in X-FEN (KQkq); read in any castling style
	ShredderFEN                     // "shredder-fen": the start FEN with rook files for castling (HAha)
)

var notationNames = [...]string{Scharnagl: "scharnagl", Fritz9: "fritz9", Rank: "rank", FEN: "fen", ShredderFEN: "shredder-fen"}

// ErrNotation is wrapped by the error of [ParseNotation].
var ErrNotation = errors.New("unknown notation")

// ParseNotation returns the notation with the given name, as listed at
// [Scharnagl] and the constants after it.
func ParseNotation(name string) (Notation, error) {
	for n, s := range notationNames {
		if s != "" && s == name {
			return Notation(n), nil
		}
	}
	return 0, fmt.Errorf("%w %s (want %s)", ErrNotation, words.Quote(name), strings.Join(notationNames[1:], ", "))
}

func (n Notation) String() string {
	if n > 0 && int(n) < len(notationNames) {
		return notationNames[n]
	}
	return "Notation(" + strconv.Itoa(int(n)) + ")"
}

// Read returns the Scharnagl number of the start position that b names in
// notation n. The SP is the common currency because every conversion from it
// is a table look-up. Numbers allocate nothing, which keeps bulk conversion
// fast; FENs must be symmetric start arrays (a DFRC array has no single
// number).
func (n Notation) Read(b []byte) (sp int, err error) {
	switch n {
	case Scharnagl:
		// The conversion string(b) in a call does not allocate: Atoi keeps
		// no reference to it.
		v, err := strconv.Atoi(string(b))
		if err != nil {
			return -1, fmt.Errorf("%s is not a Scharnagl number (0..959, or 960 for 0)", words.Quote(b))
		}
		return numbering.NormalizeSP(v)
	case Fritz9:
		v, err := strconv.Atoi(string(b))
		if err != nil {
			return -1, fmt.Errorf("%s is not a Fritz9 number (1..960)", words.Quote(b))
		}
		return numbering.Fritz9ToSP(v)
	case Rank:
		r, err := numbering.ParseRank(string(b))
		if err != nil {
			return -1, err
		}
		return r.SP(), nil
	case FEN, ShredderFEN:
		p, err := fen.ParseBytes(b)
		if err != nil {
			return -1, err
		}
		st := p.Start()
		if sp, ok := st.SP(); ok {
			return sp, nil
		}
		if st.DFRC() {
			return -1, fmt.Errorf("a DFRC start position (White SP %d, Black SP %d) has no single number", st.White, st.Black)
		}
		return -1, fmt.Errorf("not a Chess960 start position: %w", p.StartError())
	}
	return -1, fmt.Errorf("%w %d", ErrNotation, int(n))
}

// Append appends start position sp (0..959) written in notation n to dst.
// It panics if sp is out of range, as a slice index would: Read never
// returns such a number.
func (n Notation) Append(dst []byte, sp int) []byte {
	r, err := numbering.FromSP(sp)
	if err != nil || sp == numbering.Count {
		panic(fmt.Sprintf("startpos: SP %d out of range", sp))
	}
	switch n {
	case Scharnagl:
		return strconv.AppendInt(dst, int64(sp), 10)
	case Fritz9:
		return strconv.AppendInt(dst, int64(r.Fritz9()), 10)
	case Rank:
		return append(dst, r[:]...)
	case FEN:
		return append(dst, fen.StartFEN(r, fen.XFEN)...)
	case ShredderFEN:
		return append(dst, fen.StartFEN(r, fen.Shredder)...)
	}
	panic(fmt.Sprintf("startpos: %v cannot be written", n))
}

// Identity is what a back rank or a FEN tells about Chess960 start arrays.
type Identity struct {
	// Start holds the SP of each side's back rank (-1 where the rank is no
	// legal arrangement) and whether the board is a start array.
	fen.Start
	// NotStart says why a FEN is not a start array, e.g. "not a Chess960
	// start position: rank 2 is not eight white pawns"; nil when it is one,
	// DFRC arrays included (see Start.DFRC).
	NotStart error
}

// Fritz9 returns the Fritz9 number of a symmetric start array.
func (id Identity) Fritz9() (int, bool) {
	sp, ok := id.SP()
	if !ok {
		return 0, false
	}
	f, _ := numbering.SPToFritz9(sp)
	return f, true
}

// WhiteRank returns White's back rank when it is a legal arrangement.
func (id Identity) WhiteRank() (numbering.Rank, bool) {
	return rankOf(id.White)
}

// BlackRank returns Black's back rank, in upper case like every Rank, when
// it is a legal arrangement.
func (id Identity) BlackRank() (numbering.Rank, bool) {
	return rankOf(id.Black)
}

func rankOf(sp int) (numbering.Rank, bool) {
	if sp < 0 {
		return numbering.Rank{}, false
	}
	r, err := numbering.FromSP(sp)
	return r, err == nil
}

// IsRankText reports whether s is to be read as a back rank rather than a
// FEN: a single word without '/'. Anything else is read as a FEN, so that a
// broken FEN gets a FEN's error message.
func IsRankText(s string) bool {
	return !strings.ContainsAny(s, "/ \t")
}

// Identify reads s, a back rank (see [numbering.ParseRank]) or a FEN or EPD
// record (see [fen.Parse]), and says which start array it shows. The error
// is for text that cannot be read; a readable position that is no start
// array is an Identity with NotStart set.
func Identify(s string) (Identity, error) {
	s = strings.TrimSpace(s)
	if IsRankText(s) {
		r, err := numbering.ParseRank(s)
		if err != nil {
			return Identity{}, err
		}
		sp := r.SP()
		return Identity{Start: fen.Start{White: sp, Black: sp, Array: true}}, nil
	}
	p, err := fen.Parse(s)
	if err != nil {
		return Identity{}, err
	}
	id := Identity{Start: p.Start()}
	if !id.Array {
		id.NotStart = fmt.Errorf("not a Chess960 start position: %w", p.StartError())
	}
	return id, nil
}
