package startpos

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
)

// Kind classifies a game's start position.
type Kind uint8

const (
	// Unknown: nothing tells where the game started: `[FEN "?"]`, an
	// unreadable FEN, a SetUp tag without a FEN, text with no tags.
	Unknown Kind = iota
	// Chess960: a Chess960 start array with the same back rank for both
	// sides; standard chess is the array SP 518.
	Chess960
	// DFRC: a start array whose two back ranks differ (double Fischer
	// random chess): each side has its own SP and the game has none.
	DFRC
	// Other: a FEN that is not a start array, such as a position set up
	// from the middle of a game.
	Other
)

var kindNames = [...]string{Unknown: "unknown", Chess960: "chess960", DFRC: "dfrc", Other: "other"}

// String returns the kind's name: chess960, dfrc, other or unknown, the
// words of every frctool table and expression.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return kindNames[Unknown]
}

// ParseKind returns the kind named by String's words.
func ParseKind(s string) (Kind, bool) {
	for k, name := range kindNames {
		if name == s {
			return Kind(k), true
		}
	}
	return Unknown, false
}

// Start is a game's start position as its tags tell it.
type Start struct {
	Kind Kind
	// White and Black are the Scharnagl numbers of the two back ranks, set
	// for Chess960 (equal) and DFRC (different), -1 otherwise.
	White, Black int
	// FEN is the index in pgn.Game.Tags of the FEN tag the start was read
	// from, or -1 when the game has none.
	FEN int
}

// unknownStart is the Start of a game nothing is known of.
var unknownStart = Start{Kind: Unknown, White: -1, Black: -1, FEN: -1}

// SP returns the game's Scharnagl number, when it has a single one.
func (s Start) SP() (int, bool) {
	if s.Kind != Chess960 {
		return -1, false
	}
	return s.White, true
}

// Fritz9 returns the Fritz9 numbers of White's and Black's back ranks
// (equal for a Chess960 start), or ok false when there are none.
func (s Start) Fritz9() (white, black int, ok bool) {
	if s.Kind != Chess960 && s.Kind != DFRC {
		return -1, -1, false
	}
	white, _ = numbering.SPToFritz9(s.White)
	black, _ = numbering.SPToFritz9(s.Black)
	return white, black, true
}

// Problems with a game's start tags, wrapped in *pgn.ParseError.
var (
	ErrFEN         = errors.New("FEN")
	ErrFENConflict = errors.New("conflicting FEN tags")
	ErrNoFEN       = errors.New("start position unknown")
)

// OfGame works out a game's start position from its tags. The FEN's board
// decides; the Variant tag never does, since real files say "Standard" on
// Chess960 games and nothing at all on others. Without a FEN the game
// starts from the standard array, SP 518, as the PGN standard says and as
// lichess and python-chess write Chess960 games from that array, unless a
// SetUp tag says it was set up, which leaves the start unknown.
//
// A game with two FEN tags is identified from the first; a second one that
// describes another position is reported. Problems come back as
// *pgn.ParseError values naming the tag's line; they are warnings, and the
// returned Start is still the best answer the tags allow.
func OfGame(g *pgn.Game) (Start, []*pgn.ParseError) {
	tags := g.Tags
	first := nextTag(tags, 0, "FEN")
	if first < 0 {
		for i := nextTag(tags, 0, "SetUp"); i >= 0; i = nextTag(tags, i+1, "SetUp") {
			if string(bytes.TrimSpace(tags[i].Value)) == "1" {
				return unknownStart, []*pgn.ParseError{g.Problem(tags[i].Line, fmt.Errorf("%w: [SetUp \"1\"] without a FEN tag", ErrNoFEN))}
			}
		}
		return Start{Kind: Chess960, White: numbering.StandardSP, Black: numbering.StandardSP, FEN: -1}, nil
	}
	st, problems := fromFEN(g, &tags[first])
	st.FEN = first
	for i := nextTag(tags, first+1, "FEN"); i >= 0; i = nextTag(tags, i+1, "FEN") {
		if p := otherPosition(g, &tags[first], &tags[i], trimFEN(tags[i].Value)); p != nil {
			problems = append(problems, p)
		}
	}
	return st, problems
}

// nextTag returns the index of the first tag named name in tags from i on,
// or -1. It is a loop with no call in it, apart from OfGame's work on the
// tags it finds: a loop with calls in it saves and reloads what it keeps
// at every tag, which was most of the cost of OfGame on short games.
func nextTag(tags []pgn.Tag, i int, name string) int {
	for ; i < len(tags); i++ {
		if string(tags[i].Name) == name {
			return i
		}
	}
	return -1
}

// fromFEN works out the start from t, a game's first FEN tag.
func fromFEN(g *pgn.Game, t *pgn.Tag) (Start, []*pgn.ParseError) {
	st := unknownStart
	value := trimFEN(t.Value)
	if len(value) == 0 || string(value) == "?" {
		return st, []*pgn.ParseError{g.Problem(t.Line, fmt.Errorf("%w: [FEN %s]", ErrNoFEN, words.Quote(t.Value)))}
	}
	if sp, ok := plainStart(value); ok {
		st.Kind, st.White, st.Black = Chess960, sp, sp
		return st, nil
	}
	p, err := fen.ParseBytes(value)
	if err != nil {
		return st, []*pgn.ParseError{g.Problem(t.Line, fmt.Errorf("%w: %w", ErrFEN, err))}
	}
	st.Kind, st.White, st.Black = kindOf(p.Start())
	return st, nil
}

// kindOf is what a parsed FEN's start arrays make of a game's start: one
// Chess960 array, two different ones (DFRC), or another position, whose
// numbers are -1.
func kindOf(s fen.Start) (kind Kind, white, black int) {
	switch {
	case s.DFRC():
		return DFRC, s.White, s.Black
	case s.Array:
		return Chess960, s.White, s.Black
	}
	return Other, -1, -1
}

// otherPosition reports a second FEN tag t, with value its trimmed value,
// that describes another position than the first, first: a second FEN in
// another dialect (Shredder then X-FEN, as lichess broadcasts write) is
// fine. It is apart from OfGame, which every game goes through, because
// its Positions, cleared at every call, cost OfGame a quarter of its time.
func otherPosition(g *pgn.Game, first, t *pgn.Tag, value []byte) *pgn.ParseError {
	want, _ := fen.ParseBytes(trimFEN(first.Value))
	if p, err := fen.ParseBytes(value); err == nil && (p.Board != want.Board || p.Turn != want.Turn) {
		return g.Problem(t.Line, fmt.Errorf("%w: line %d describes another position than line %d; the first is used", ErrFENConflict, t.Line, first.Line))
	}
	return nil
}

// plainStart recognises, without parsing, the FEN that most games with a
// FEN tag carry: a start array with the same back rank for both sides,
// written as lichess and most programs write it, with White to move,
// castling KQkq or -, no en passant square and the counters 0 1. It
// returns the array's SP; any other FEN is left to the parser, which
// gives the same answer for these (TestPlainStart holds the two
// together), only slower.
func plainStart(v []byte) (sp int, ok bool) {
	const white = 8 + len(pawnsAndEmpty)
	// Compared as four words, the last overlapping the third, not with a
	// call to compare memory: the pawns are half of plainStart's bytes.
	if len(v) < white+8 || word(v[8:]) != pawnsWords[0] || word(v[16:]) != pawnsWords[1] ||
		word(v[24:]) != pawnsWords[2] || word(v[white-8:]) != pawnsWords[3] {
		return 0, false
	}
	switch string(v[white+8:]) {
	case " w KQkq - 0 1", " w - - 0 1":
	default:
		return 0, false
	}
	// Both ranks are read as words, not byte by byte into a Rank that SP
	// then reads as a word: its eight one-byte stores would make that
	// load wait. Black's rank must be White's in lower case; SP checks
	// that White's is an arrangement of RNBQK, so any other byte fails
	// there.
	rank := v[white : white+8]
	if word(v) != word(rank)|0x2020202020202020 {
		return 0, false
	}
	if sp = numbering.Rank(rank).SP(); sp < 0 {
		return 0, false
	}
	return sp, true
}

// pawnsAndEmpty is what lies between the back ranks of a start array's
// FEN; pawnsWords holds it as plainStart compares it, four words at its
// offsets 0, 8, 16 and 19.
const pawnsAndEmpty = "/pppppppp/8/8/8/8/PPPPPPPP/"

var pawnsWords = func() (w [4]uint64) {
	for i, off := range []int{0, 8, 16, len(pawnsAndEmpty) - 8} {
		w[i] = word([]byte(pawnsAndEmpty[off:]))
	}
	return w
}()

// word reads the first eight bytes of b as a little-endian word.
func word(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// trimFEN removes what real files put around a FEN inside the quotes:
// blanks, and a trailing ';' as EPD lines end.
func trimFEN(v []byte) []byte {
	// Nearly every FEN has nothing around it, which its two end bytes
	// tell: printable ASCII, and no ';' last. Anything else, Unicode
	// blanks included, goes through TrimSpace.
	if n := len(v); n > 0 && v[0]-'!' < 0x7f-'!' && v[n-1]-'!' < 0x7f-'!' && v[n-1] != ';' {
		return v
	}
	v = bytes.TrimSpace(v)
	for len(v) > 0 && v[len(v)-1] == ';' {
		v = bytes.TrimSpace(v[:len(v)-1])
	}
	return v
}

// IsChess960Variant reports whether a Variant tag's value names Chess960,
// in any of the spellings found in real archives: "Chess960", "chess 960",
// "chess-960", "Fischerandom", "fischerrandom", "Fischer Random", "960",
// "FRC", "wild/fr", "w22" (ICC's wild 22).
func IsChess960Variant(v []byte) bool {
	var norm [32]byte
	n := 0
	for _, c := range v {
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c == ' ' || c == '-' || c == '_' || c == '\t':
			continue
		}
		if n == len(norm) {
			return false
		}
		norm[n] = c
		n++
	}
	switch string(norm[:n]) {
	case "chess960", "960", "frc", "fischerandom", "fischerrandom", "fischerrandomchess",
		"fischerandomchess", "wild/fr", "w22", "wild22", "chess960frc":
		return true
	}
	return false
}
