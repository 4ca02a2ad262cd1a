// Package fields computes the derived fields of a PGN game, the values
// that frctool's commands select, group and print games by, so that every
// command reads them in one way: the start position's numbers and kind,
// the number of plies, the players' mean rating, the year and date, the
// clock and the speed class, the result, and whether a bot played.
//
// A derived field has a lower_snake name (see Names); any other name is a
// tag, read as spelled in the PGN, case-sensitively. PGN tag names start
// with an upper-case letter in practice, so the two cannot clash; should a
// file hold a lower-case tag of a derived field's name, the derived field
// wins, and Tag reads the tag itself.
//
// Each field is computed only when asked for, from the tags it needs, and
// without allocating; the moves are counted only for plies, and only when
// the game has no usable PlyCount tag.
package fields

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// Type is the type of a field's value.
type Type uint8

// The types of values. A field's Type is that of its values when they are
// known; a value that is missing or unreadable has TypeMissing.
const (
	TypeMissing Type = iota
	TypeNumber
	TypeText
	TypeDate
	TypeBool
)

var typeNames = [...]string{TypeMissing: "missing", TypeNumber: "number", TypeText: "text", TypeDate: "date", TypeBool: "bool"}

// String returns the type's name: "number".
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return typeNames[TypeMissing]
}

// Value is the value of one field of one game.
type Value struct {
	Type Type
	Num  float64 // TypeNumber
	// Text is the value of TypeText, and the tag's text of TypeDate. It
	// shares memory with the game or the package and must not be
	// modified; it is valid as long as the game is.
	Text []byte
	Date Date // TypeDate
	Bool bool // TypeBool
}

// Missing reports whether the value is missing or unreadable.
func (v Value) Missing() bool { return v.Type == TypeMissing }

// String returns the value as text: a number without needless decimals,
// a date as PGN writes it, "true" or "false", and "" when missing.
func (v Value) String() string {
	switch v.Type {
	case TypeNumber:
		return formatNumber(v.Num)
	case TypeText, TypeDate:
		return string(v.Text)
	case TypeBool:
		if v.Bool {
			return "true"
		}
		return "false"
	}
	return ""
}

// Append appends the text of String to dst, without allocating when dst
// has room: what a hot path keys or prints values by.
func (v Value) Append(dst []byte) []byte {
	switch v.Type {
	case TypeNumber:
		return appendNumber(dst, v.Num)
	case TypeText, TypeDate:
		return append(dst, v.Text...)
	case TypeBool:
		return strconv.AppendBool(dst, v.Bool)
	}
	return dst
}

// formatNumber writes integers without a fraction, as tags have them.
func formatNumber(f float64) string { return string(appendNumber(nil, f)) }

func appendNumber(dst []byte, f float64) []byte {
	if f == float64(int64(f)) && f < 1e15 && f > -1e15 {
		return strconv.AppendInt(dst, int64(f), 10)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}

func number(n int) Value      { return Value{Type: TypeNumber, Num: float64(n)} }
func text(b []byte) Value     { return Value{Type: TypeText, Text: b} }
func boolean(b bool) Value    { return Value{Type: TypeBool, Bool: b} }
func numberF(f float64) Value { return Value{Type: TypeNumber, Num: f} }

// id names a derived field; tagID is a tag.
type id uint8

const (
	tagID id = iota
	spID
	fritz9ID
	whiteSPID
	blackSPID
	kindID
	pliesID
	eloID
	minEloID
	eloDiffID
	eloBandID
	yearID
	dateID
	baseID
	incrementID
	speedID
	resultID
	botID
	numIDs
)

type info struct {
	name   string
	typ    Type
	doc    string
	values []string // the closed set of values, for kind and speed
}

var derived = [numIDs]info{
	spID:        {"sp", TypeNumber, "Scharnagl number of the start position (Chess960 starts only)", nil},
	fritz9ID:    {"fritz9", TypeNumber, "Fritz 9 number of the start position (Chess960 starts only)", nil},
	whiteSPID:   {"white_sp", TypeNumber, "Scharnagl number of White's back rank (Chess960 and DFRC)", nil},
	blackSPID:   {"black_sp", TypeNumber, "Scharnagl number of Black's back rank (Chess960 and DFRC)", nil},
	kindID:      {"kind", TypeText, "kind of start: chess960, dfrc, other or unknown", []string{"chess960", "dfrc", "other", "unknown"}},
	pliesID:     {"plies", TypeNumber, "half-moves of the main line: the PlyCount tag, or counted", nil},
	eloID:       {"elo", TypeNumber, "mean of WhiteElo and BlackElo, rounded down", nil},
	minEloID:    {"min_elo", TypeNumber, "lower of WhiteElo and BlackElo", nil},
	eloDiffID:   {"elo_diff", TypeNumber, "WhiteElo minus BlackElo", nil},
	eloBandID:   {"elo_band", TypeNumber, "elo rounded down to a multiple of 200", nil},
	yearID:      {"year", TypeNumber, "year of date", nil},
	dateID:      {"date", TypeDate, "the Date tag, or UTCDate when Date has no year", nil},
	baseID:      {"base", TypeNumber, "initial clock time in seconds, from TimeControl", nil},
	incrementID: {"increment", TypeNumber, "increment a move in seconds, from TimeControl", nil},
	speedID:     {"speed", TypeText, "ultrabullet, bullet, blitz, rapid, classical or correspondence", []string{"ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence"}},
	resultID:    {"result", TypeText, "the result: the Result tag, else the marker ending the moves", nil},
	botID:       {"bot", TypeBool, "true when WhiteTitle or BlackTitle is BOT", []string{"true", "false"}},
}

// kindText holds the kinds' names as bytes for Value.Text. Written out,
// like speedText and the values of kind and speed in derived, so that
// start-up does nothing; TestNamesAsText holds them to the names.
var kindText = [4][]byte{
	startpos.Unknown:  []byte("unknown"),
	startpos.Chess960: []byte("chess960"),
	startpos.DFRC:     []byte("dfrc"),
	startpos.Other:    []byte("other"),
}

// Names returns the names of the derived fields.
func Names() []string {
	names := make([]string, 0, numIDs-1)
	for _, d := range derived[1:] {
		names = append(names, d.name)
	}
	return names
}

// ErrUnknownField is the error for a lower-case name that is no derived
// field: tags start with an upper-case letter, so it is most likely a
// misspelt field.
var ErrUnknownField = errors.New("unknown field")

// ErrBadName is the error for a name that cannot be a tag's.
var ErrBadName = errors.New("not a tag name")

// Field is a derived field or a tag, found once by name and then read
// from any number of games. The zero Field is no field; Fields are
// comparable.
type Field struct {
	id  id
	tag string
}

// Lookup returns the field named name: a derived field, or else a tag.
// Names that start with a lower-case letter and are no derived field give
// ErrUnknownField; names with bytes a PGN tag name cannot hold give
// ErrBadName.
func Lookup(name string) (Field, error) {
	for i := id(1); i < numIDs; i++ {
		if derived[i].name == name {
			return Field{id: i}, nil
		}
	}
	if name == "" {
		return Field{}, fmt.Errorf("%w: empty", ErrBadName)
	}
	if !pgn.IsTagName(name) {
		return Field{}, fmt.Errorf("%w: %s", ErrBadName, words.Quote(name))
	}
	if c := name[0]; c >= 'a' && c <= 'z' {
		return Field{}, fmt.Errorf("%w: %s", ErrUnknownField, words.Quote(name))
	}
	return Field{tag: name}, nil
}

// Tag returns the field of the tag named name, whatever its spelling,
// even when a derived field has that name.
func Tag(name string) Field { return Field{tag: name} }

// Name returns the field's name.
func (f Field) Name() string {
	if f.id != tagID {
		return derived[f.id].name
	}
	return f.tag
}

// Start reports whether the field is read from the game's start position
// (its startpos.Class) rather than its tags or moves.
func (f Field) Start() bool {
	return f.id == spID || f.id == fritz9ID || f.id == whiteSPID || f.id == blackSPID || f.id == kindID
}

// IsTag reports whether the field is a tag rather than a derived field.
func (f Field) IsTag() bool { return f.id == tagID }

// Type returns the type of the field's values. Tags are text, except the
// date tags Date, UTCDate and EventDate, which are dates when they can be
// read as one and text otherwise.
func (f Field) Type() Type {
	if f.id != tagID {
		return derived[f.id].typ
	}
	if isDateTag(f.tag) {
		return TypeDate
	}
	return TypeText
}

func isDateTag(name string) bool {
	return name == "Date" || name == "UTCDate" || name == "EventDate"
}

// Values returns the only values a field can have, for kind, speed and
// bot, and nil for the others. The caller must not modify it.
func (f Field) Values() []string { return derived[f.id].values }

// tagsRead lists the tags each derived field reads.
var tagsRead = [numIDs][]string{
	spID:        {"FEN", "SetUp"},
	fritz9ID:    {"FEN", "SetUp"},
	whiteSPID:   {"FEN", "SetUp"},
	blackSPID:   {"FEN", "SetUp"},
	kindID:      {"FEN", "SetUp"},
	pliesID:     {"PlyCount"},
	eloID:       {"WhiteElo", "BlackElo"},
	minEloID:    {"WhiteElo", "BlackElo"},
	eloDiffID:   {"WhiteElo", "BlackElo"},
	eloBandID:   {"WhiteElo", "BlackElo"},
	yearID:      {"Date", "UTCDate"},
	dateID:      {"Date", "UTCDate"},
	baseID:      {"TimeControl"},
	incrementID: {"TimeControl"},
	speedID:     {"TimeControl"},
	resultID:    {"Result"},
	botID:       {"WhiteTitle", "BlackTitle"},
}

// Tags returns the tags the field is computed from: the tag itself, or
// those a derived field reads (plies also counts the moves when PlyCount
// is missing). The caller must not modify it.
func (f Field) Tags() []string {
	if f.id == tagID {
		return []string{f.tag}
	}
	return tagsRead[f.id]
}

// Doc returns a one-line description of a derived field, and "" for a
// tag.
func (f Field) Doc() string { return derived[f.id].doc }

// Get returns the value of the field named name (see Lookup), and a
// missing value for a name that is no field.
func Get(g *pgn.Game, c *startpos.Class, name string) Value {
	f, err := Lookup(name)
	if err != nil {
		return Value{}
	}
	return f.Value(g, c)
}

// integerFields are the derived fields that are whole numbers, by id.
var integerFields = [...]func(*pgn.Game) (int, bool){
	pliesID: Plies, eloID: Elo, minEloID: MinElo, eloDiffID: EloDiff, eloBandID: EloBand, yearID: Year,
}

// Value returns the field's value for game g of class c. The class is
// that of startpos.Classify; when c is nil and the field needs it, the
// game is classified here.

func (f Field) Value(g *pgn.Game, c *startpos.Class) Value {
	switch f.id {
	case tagID:
		v, ok := g.Tag(f.tag)
		if !ok {
			return Value{}
		}
		if isDateTag(f.tag) {
			if d, ok := ParseDate(v); ok {
				return Value{Type: TypeDate, Date: d, Text: v}
			}
		}
		return text(v)
	case spID, fritz9ID, whiteSPID, blackSPID, kindID:
		if c == nil {
			cl := startpos.Classify(g)
			c = &cl
		}
		return startField(f.id, c.Start)
	case pliesID, eloID, minEloID, eloDiffID, eloBandID, yearID:
		if n, ok := integerFields[f.id](g); ok {
			return number(n)
		}
	case dateID:
		if v, d, ok := gameDate(g); ok {
			return Value{Type: TypeDate, Date: d, Text: v}
		}
	case baseID, incrementID, speedID:
		v, ok := g.Tag("TimeControl")
		if !ok {
			return Value{}
		}
		base, inc, speed, ok := TimeControl(v)
		switch {
		case !ok:
		case f.id == speedID:
			return text(speedText[speed])
		case speed == Correspondence:
			// A day a move is no game clock: base and increment would
			// only mislead a selection on time.
		case f.id == baseID:
			return numberF(base)
		default:
			return numberF(inc)
		}
	case resultID:
		if v, ok := Result(g); ok {
			return text(v)
		}
	case botID:
		return boolean(Bot(g))
	}
	return Value{}
}

// startField returns one of the start position's fields.
func startField(i id, st startpos.Start) Value {
	switch i {
	case kindID:
		k := st.Kind
		if int(k) >= len(kindText) {
			k = startpos.Unknown
		}
		return text(kindText[k])
	case spID:
		if sp, ok := st.SP(); ok {
			return number(sp)
		}
	case fritz9ID:
		if w, _, ok := st.Fritz9(); ok && st.Kind == startpos.Chess960 {
			return number(w)
		}
	case whiteSPID:
		if st.Kind == startpos.Chess960 || st.Kind == startpos.DFRC {
			return number(st.White)
		}
	case blackSPID:
		if st.Kind == startpos.Chess960 || st.Kind == startpos.DFRC {
			return number(st.Black)
		}
	}
	return Value{}
}

// gameDate is GameDate with the text it was read from.
func gameDate(g *pgn.Game) ([]byte, Date, bool) {
	if v, ok := g.Tag("Date"); ok {
		if d, ok := ParseDate(v); ok {
			return v, d, true
		}
	}
	if v, ok := g.Tag("UTCDate"); ok {
		if d, ok := ParseDate(v); ok {
			return v, d, true
		}
	}
	return nil, Date{}, false
}

// The largest values of the counted tags taken at their word. No player
// or engine has been rated 4000, and the longest games played lasted a
// few hundred moves: larger numbers are typing mistakes, and one of them
// would swamp every average it entered. Every command reads ratings and
// lengths through Rating and ParsePlyCount, so they all agree on this.
const (
	MaxRating   = 4000
	MaxPlyCount = 10000
)

// MaxYear is the latest year a PGN date can hold: it writes four digits.
const MaxYear = 9999

// Rating reads a rating tag value: a number from 1 to MaxRating. "", "?",
// "-", "0", anything but digits and absurd numbers are no rating: servers
// write the first ones for unrated players.
func Rating(v []byte) (int, bool) {
	n, ok := smallNumber(v)
	return n, ok && n > 0 && n <= MaxRating
}

// smallNumber reads a tag value of at most five digits, blanks around.
func smallNumber(v []byte) (int, bool) {
	v = trimBlanks(v)
	if len(v) == 0 || len(v) > 5 {
		return 0, false
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// Ratings returns the WhiteElo and BlackElo ratings, ok only when both
// are known.
func Ratings(g *pgn.Game) (white, black int, ok bool) {
	wv, _ := g.Tag("WhiteElo")
	bv, _ := g.Tag("BlackElo")
	w, wok := Rating(wv)
	b, bok := Rating(bv)
	return w, b, wok && bok
}

// Elo returns the mean of the two players' ratings, rounded down.
func Elo(g *pgn.Game) (int, bool) {
	w, b, ok := Ratings(g)
	return (w + b) / 2, ok
}

// MinElo returns the lower of the two players' ratings.
func MinElo(g *pgn.Game) (int, bool) {
	w, b, ok := Ratings(g)
	return min(w, b), ok
}

// EloDiff returns White's rating minus Black's.
func EloDiff(g *pgn.Game) (int, bool) {
	w, b, ok := Ratings(g)
	return w - b, ok
}

// EloBandWidth is the width of the rating bands of EloBand.
const EloBandWidth = 200

// EloBand returns Elo rounded down to a multiple of EloBandWidth: a game
// of mean rating 1937 is in the band 1800.
func EloBand(g *pgn.Game) (int, bool) {
	e, ok := Elo(g)
	return e / EloBandWidth * EloBandWidth, ok
}

// ParsePlyCount reads a PlyCount tag value: a number from 0 to
// MaxPlyCount.
func ParsePlyCount(v []byte) (int, bool) {
	n, ok := smallNumber(v)
	return n, ok && n <= MaxPlyCount
}

// Plies returns the number of half-moves of the game's main line: its
// PlyCount tag when that is a sane number, or else the moves counted
// (pgn.CountPlies). A part of a game too large to hold at once has no
// count unless its tags give one, since its moves are not all there.
func Plies(g *pgn.Game) (int, bool) {
	if v, ok := g.Tag("PlyCount"); ok {
		if n, ok := ParsePlyCount(v); ok {
			return n, true
		}
	}
	return CountedPlies(g)
}

// CountedPlies returns the half-moves of the game's main line as its
// movetext holds them (pgn.CountPlies), what Plies falls back on without
// a PlyCount tag: none for a part of a game too large to hold at once,
// whose moves are not all there.
func CountedPlies(g *pgn.Game) (int, bool) {
	if g.Partial || g.Continued {
		return 0, false
	}
	return g.CountPlies(), true
}

// ResultTag returns the game's Result tag, blanks trimmed, when it holds
// 1-0, 0-1, 1/2-1/2 or *: the value Result prefers to the termination
// marker.
func ResultTag(g *pgn.Game) ([]byte, bool) {
	if v, ok := g.Tag("Result"); ok {
		if v = trimBlanks(v); IsResult(v) {
			return v, true
		}
	}
	return nil, false
}

// Result returns the game's result by the one rule every command counts
// it by: the Result tag when it holds 1-0, 0-1, 1/2-1/2 or * (the
// standard's authority, and what most tools index), else the termination
// marker that ends the moves. A part of a game too large to hold has no
// marker: it is in a part not held. ok is false when neither gives one.
func Result(g *pgn.Game) ([]byte, bool) {
	if v, ok := ResultTag(g); ok {
		return v, true
	}
	if !g.Partial {
		if marker := g.TerminationMarker(); marker != nil {
			return marker, true
		}
	}
	return nil, false
}

// IsResult reports whether v is one of the four results PGN writes.
func IsResult(v []byte) bool {
	switch string(v) {
	case "1-0", "0-1", "1/2-1/2", "*":
		return true
	}
	return false
}

var botTitle = []byte("BOT")

// Bot reports whether a bot played: WhiteTitle or BlackTitle is "BOT", as
// lichess marks its bot accounts.
func Bot(g *pgn.Game) bool {
	for _, name := range [2]string{"WhiteTitle", "BlackTitle"} {
		if v, ok := g.Tag(name); ok && bytes.Equal(trimBlanks(v), botTitle) {
			return true
		}
	}
	return false
}

// GameSpeed returns the speed class of the game's TimeControl tag.
func GameSpeed(g *pgn.Game) (Speed, bool) {
	v, ok := g.Tag("TimeControl")
	if !ok {
		return UnknownSpeed, false
	}
	_, _, s, ok := TimeControl(v)
	return s, ok
}
