package export

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// Type is the type of a column's values.
type Type uint8

// The column types. Every column but file, index, offset, line and kind
// may be null.
const (
	String Type = iota // text, UTF-8
	Int32              // a whole number that fits 32 bits
	Int64              // a whole number
	Float              // a decimal number (seconds of a clock)
	Date               // a calendar date: ISO 2024-05-17 in text, DATE in Parquet
	Bool               // true or false
	Map                // tag name to value, in the game's order
)

var typeNames = [...]string{String: "string", Int32: "int32", Int64: "int64", Float: "float", Date: "date", Bool: "bool", Map: "map"}

// String returns the type's name: "int32".
func (t Type) String() string { return typeNames[t] }

// Column is one column of the export.
type Column struct {
	Name string
	Type Type
	// Required columns are never null.
	Required bool
	// Doc says what the column holds, in one line.
	Doc string

	tag     string // the tag a tag column holds; "" for the others
	compute func(x *row, c *cell)
}

// Errors of the column choice.
var (
	ErrUnknownColumn = errors.New("unknown column")
	ErrColumn        = errors.New("bad column choice")
)

// row is what a worker knows of the game it is exporting; the columns'
// compute functions read it.
type row struct {
	g    *pgn.Game
	c    *startpos.Class
	file []byte
	// slots holds the value of each wanted tag (by tagSlot), first
	// occurrence only; nil when absent.
	slots [][]byte
	// The replay's findings, when the options ask for one.
	checked, valid bool
	finalFEN       []byte
	replayErr      []byte
	moves          []byte
	movesOK        bool
	errText        []byte
	// tagsUTF8 reports that the game's tag section is valid UTF-8, and so
	// every tag value; fileUTF8 the same of file.
	tagsUTF8, fileUTF8 bool
}

// cell is one value of a row. Strings point into the game or the
// worker's scratch buffers, valid until the row is encoded.
type cell struct {
	null bool
	i    int64 // Int32, Int64, Date (days since 1970-01-01), Bool (0 or 1)
	f    float64
	s    []byte
	tags []pgn.Tag // Map
	// utf8 reports that s, or the map's names and values, are known to be
	// valid UTF-8, so that encoding them needs no check.
	utf8 bool
}

// The tags the default columns read, each with its slot in row.slots.
const (
	slotEvent = iota
	slotSite
	slotDate
	slotRound
	slotWhite
	slotBlack
	slotResult
	slotFEN
	slotWhiteElo
	slotBlackElo
	slotWhiteTitle
	slotBlackTitle
	slotTimeControl
	slotUTCDate
	slotUTCTime
	slotECO
	slotOpening
	slotTermination
	fixedSlots
)

var fixedTags = [fixedSlots]string{
	slotEvent: "Event", slotSite: "Site", slotDate: "Date", slotRound: "Round",
	slotWhite: "White", slotBlack: "Black", slotResult: "Result", slotFEN: "FEN",
	slotWhiteElo: "WhiteElo", slotBlackElo: "BlackElo", slotWhiteTitle: "WhiteTitle",
	slotBlackTitle: "BlackTitle", slotTimeControl: "TimeControl", slotUTCDate: "UTCDate",
	slotUTCTime: "UTCTime", slotECO: "ECO", slotOpening: "Opening", slotTermination: "Termination",
}

// fixedSlot returns the slot of a tag the default columns read, or -1.
// A switch finds it in a few comparisons, where a map would hash the name.
func fixedSlot(name []byte) int {
	switch string(name) {
	case "Event":
		return slotEvent
	case "Site":
		return slotSite
	case "Date":
		return slotDate
	case "Round":
		return slotRound
	case "White":
		return slotWhite
	case "Black":
		return slotBlack
	case "Result":
		return slotResult
	case "FEN":
		return slotFEN
	case "WhiteElo":
		return slotWhiteElo
	case "BlackElo":
		return slotBlackElo
	case "WhiteTitle":
		return slotWhiteTitle
	case "BlackTitle":
		return slotBlackTitle
	case "TimeControl":
		return slotTimeControl
	case "UTCDate":
		return slotUTCDate
	case "UTCTime":
		return slotUTCTime
	case "ECO":
		return slotECO
	case "Opening":
		return slotOpening
	case "Termination":
		return slotTermination
	}
	return -1
}

func tagText(slot int) func(x *row, c *cell) {
	return func(x *row, c *cell) {
		if v := x.slots[slot]; v != nil {
			c.s, c.utf8 = v, x.tagsUTF8
		} else {
			c.null = true
		}
	}
}

func setText(c *cell, v []byte) {
	if v == nil {
		c.null = true
		return
	}
	c.s = v
}

func setInt(c *cell, n int, ok bool) {
	if !ok {
		c.null = true
		return
	}
	c.i = int64(n)
}

func tagDate(slot int) func(x *row, c *cell) {
	return func(x *row, c *cell) {
		d, ok := fields.ParseDate(x.slots[slot])
		if !ok || d.Month == 0 || d.Day == 0 {
			c.null = true
			return
		}
		c.i = time.Date(d.Year, time.Month(d.Month), d.Day, 0, 0, 0, 0, time.UTC).Unix() / 86400
	}
}

func tagRating(slot int) func(x *row, c *cell) {
	return func(x *row, c *cell) {
		n, ok := fields.Rating(x.slots[slot])
		setInt(c, n, ok)
	}
}

// ranks holds the 960 back ranks, so that a row points at its rank's
// letters without allocating; made on first use rather than at start-up.
var ranks = sync.OnceValue(func() *[numbering.Count][8]byte {
	var r [numbering.Count][8]byte
	for sp := range r {
		r[sp], _ = numbering.FromSP(sp)
	}
	return &r
})

var kindNames = func() (k [4][]byte) {
	for i := range k {
		k[i] = []byte(startpos.Kind(i).String())
	}
	return k
}()

var speedNames = func() (s [fields.Correspondence + 1][]byte) {
	for i := range s {
		s[i] = []byte(fields.Speed(i).String())
	}
	return s
}()

func spColumn(x *row, side int) (int, bool) {
	st := x.c.Start
	if st.Kind != startpos.Chess960 && st.Kind != startpos.DFRC {
		return 0, false
	}
	if side == 0 {
		return st.White, st.White >= 0
	}
	return st.Black, st.Black >= 0
}

func rankColumn(side int) func(x *row, c *cell) {
	return func(x *row, c *cell) {
		sp, ok := spColumn(x, side)
		if !ok || sp >= numbering.Count {
			c.null = true
			return
		}
		c.s, c.utf8 = ranks()[sp][:], true
	}
}

func timeControl(x *row) (base, inc float64, speed fields.Speed, ok bool) {
	if v := x.slots[slotTimeControl]; v != nil {
		return fields.TimeControl(v)
	}
	return 0, 0, 0, false
}

// gameStart is where the game begins: its first tag, or else the first
// byte that is not blank, so that offset and line point at the game
// rather than at the blank lines before it.
func gameStart(g *pgn.Game) (offset int64, line int) {
	if len(g.Tags) > 0 {
		return g.Offset + int64(g.Tags[0].Start), g.Tags[0].Line
	}
	line = g.Line
	for i, b := range g.Raw {
		if !pgn.IsSpace(b) {
			return g.Offset + int64(i), line
		}
		if b == '\n' {
			line++
		}
	}
	return g.Offset, g.Line
}

// builtin are the columns every export can have, in the default order;
// date_text and the replay's columns are in it too, and are chosen by the
// format and the options.
var builtin = []Column{
	{Name: "file", Type: String, Required: true, Doc: "the input's name", compute: func(x *row, c *cell) { c.s, c.utf8 = x.file, x.fileUTF8 }},
	{Name: "index", Type: Int64, Required: true, Doc: "the game's number in its file, from 1", compute: func(x *row, c *cell) { c.i = int64(x.g.Index) }},
	{Name: "offset", Type: Int64, Required: true, Doc: "byte offset of the game's first tag in the decompressed input", compute: func(x *row, c *cell) { c.i, _ = gameStart(x.g) }},
	{Name: "line", Type: Int64, Required: true, Doc: "line of the game's first tag", compute: func(x *row, c *cell) { _, l := gameStart(x.g); c.i = int64(l) }},
	{Name: "kind", Type: String, Required: true, Doc: "chess960, dfrc, other or unknown", compute: func(x *row, c *cell) { c.s, c.utf8 = kindNames[x.c.Start.Kind&3], true }},
	{Name: "sp", Type: Int32, Doc: "Scharnagl number 0..959 of a Chess960 start (518: standard chess)", compute: func(x *row, c *cell) { sp, ok := x.c.Start.SP(); setInt(c, sp, ok) }},
	{Name: "fritz9", Type: Int32, Doc: "Fritz9 number 1..960 of a Chess960 start", compute: func(x *row, c *cell) {
		_, ok := x.c.Start.SP()
		w, _, ok2 := x.c.Start.Fritz9()
		setInt(c, w, ok && ok2)
	}},
	{Name: "white_sp", Type: Int32, Doc: "SP of White's back rank (Chess960 and DFRC)", compute: func(x *row, c *cell) { sp, ok := spColumn(x, 0); setInt(c, sp, ok) }},
	{Name: "black_sp", Type: Int32, Doc: "SP of Black's back rank (Chess960 and DFRC)", compute: func(x *row, c *cell) { sp, ok := spColumn(x, 1); setInt(c, sp, ok) }},
	{Name: "white_rank", Type: String, Doc: "White's back rank, RNBQKBNR", compute: rankColumn(0)},
	{Name: "black_rank", Type: String, Doc: "Black's back rank in upper case, RNBQKBNR", compute: rankColumn(1)},
	{Name: "fen", Type: String, Doc: "the FEN tag as written", tag: "FEN", compute: tagText(slotFEN)},
	{Name: "event", Type: String, tag: "Event", compute: tagText(slotEvent)},
	{Name: "site", Type: String, tag: "Site", compute: tagText(slotSite)},
	{Name: "round", Type: String, tag: "Round", compute: tagText(slotRound)},
	{Name: "white", Type: String, tag: "White", compute: tagText(slotWhite)},
	{Name: "black", Type: String, tag: "Black", compute: tagText(slotBlack)},
	{Name: "result", Type: String, tag: "Result", compute: tagText(slotResult)},
	{Name: "date", Type: Date, Doc: "the Date tag when year, month and day are known", compute: tagDate(slotDate)},
	{Name: "date_text", Type: String, Doc: "the Date tag as written", tag: "Date", compute: tagText(slotDate)},
	{Name: "white_elo", Type: Int32, Doc: "WhiteElo when it is a rating (not ?, -, 0)", compute: tagRating(slotWhiteElo)},
	{Name: "black_elo", Type: Int32, Doc: "BlackElo when it is a rating", compute: tagRating(slotBlackElo)},
	{Name: "white_title", Type: String, tag: "WhiteTitle", compute: tagText(slotWhiteTitle)},
	{Name: "black_title", Type: String, tag: "BlackTitle", compute: tagText(slotBlackTitle)},
	{Name: "time_control", Type: String, tag: "TimeControl", compute: tagText(slotTimeControl)},
	{Name: "base_seconds", Type: Float, Doc: "the clock's base time, as --where's base reads TimeControl", compute: func(x *row, c *cell) {
		base, _, _, ok := timeControl(x)
		c.f, c.null = base, !ok
	}},
	{Name: "increment_seconds", Type: Float, Doc: "the clock's increment per move", compute: func(x *row, c *cell) {
		_, inc, _, ok := timeControl(x)
		c.f, c.null = inc, !ok
	}},
	{Name: "speed", Type: String, Doc: "ultrabullet, bullet, blitz, rapid, classical or correspondence", compute: func(x *row, c *cell) {
		_, _, sp, ok := timeControl(x)
		if !ok || int(sp) >= len(speedNames) {
			c.null = true
			return
		}
		c.s, c.utf8 = speedNames[sp], true
	}},
	{Name: "utc_date", Type: Date, Doc: "the UTCDate tag when complete", compute: tagDate(slotUTCDate)},
	{Name: "utc_time", Type: String, tag: "UTCTime", compute: tagText(slotUTCTime)},
	{Name: "eco", Type: String, tag: "ECO", compute: tagText(slotECO)},
	{Name: "opening", Type: String, tag: "Opening", compute: tagText(slotOpening)},
	{Name: "termination", Type: String, tag: "Termination", compute: tagText(slotTermination)},
	{Name: "plies", Type: Int32, Doc: "half-moves of the main line: PlyCount, or the moves counted", compute: func(x *row, c *cell) { n, ok := fields.Plies(x.g); setInt(c, n, ok) }},
	{Name: "error", Type: String, Doc: "the game's first problem, from reading it or its start tags", compute: func(x *row, c *cell) { setText(c, x.errText) }},
	{Name: "valid", Type: Bool, Doc: "the moves and result pass frctool validate; null when the game cannot be checked", compute: func(x *row, c *cell) {
		if !x.checked {
			c.null = true
			return
		}
		if x.valid {
			c.i = 1
		}
	}},
	{Name: "final_fen", Type: String, Doc: "the position after the main line, in the FEN tag's castling notation", compute: func(x *row, c *cell) { setText(c, x.finalFEN); c.utf8 = true }},
	{Name: "replay_error", Type: String, Doc: "why the game is not valid or cannot be checked", compute: func(x *row, c *cell) { setText(c, x.replayErr) }},
	{Name: "moves", Type: String, Doc: "the first plies of the main line in UCI, castling as king takes rook", compute: func(x *row, c *cell) {
		if !x.movesOK {
			c.null = true
			return
		}
		c.s, c.utf8 = x.moves, true
	}},
	{Name: "tags", Type: Map, Doc: "every tag of the game, name to value", compute: func(x *row, c *cell) { c.tags, c.utf8 = x.g.Tags, x.tagsUTF8 }},
}

// replayColumns need the game replayed.
var replayColumns = []string{"valid", "final_fen", "replay_error"}

func builtinColumn(name string) (Column, bool) {
	for _, c := range builtin {
		if c.Name == name {
			return c, true
		}
	}
	return Column{}, false
}

// defaultNames are the columns of an export with no options, in order.
func defaultNames(f Format) []string {
	var names []string
	for _, c := range builtin {
		switch c.Name {
		case "date_text":
			if f != Parquet {
				continue
			}
		case "valid", "final_fen", "replay_error", "moves", "tags":
			continue
		}
		names = append(names, c.Name)
	}
	return names
}

// SnakeCase returns the column name of a tag: lower case, words joined by
// '_' where the case changes, "WhiteFideId" → "white_fide_id", "UTCDate"
// → "utc_date", "ECO" → "eco"; bytes other than letters and digits become
// '_'.
func SnakeCase(tag string) string {
	var b strings.Builder
	isUpper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	isLower := func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
	for i := 0; i < len(tag); i++ {
		c := tag[i]
		switch {
		case isUpper(c):
			if i > 0 && (isLower(tag[i-1]) || isUpper(tag[i-1]) && i+1 < len(tag) && isLower(tag[i+1]) && !('0' <= tag[i+1] && tag[i+1] <= '9')) {
				b.WriteByte('_')
			}
			b.WriteByte(c + 'a' - 'A')
		case isLower(c):
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Columns returns the columns an export in format f with options opts
// writes, in order: opts.Columns when given, else the default columns
// followed by those the options add (tag columns, the map of all tags,
// the replay's columns, moves).
func Columns(f Format, opts Options) ([]Column, error) {
	extra, err := tagColumns(opts.Tags)
	if err != nil {
		return nil, err
	}
	lookup := func(name string) (Column, bool) {
		if c, ok := builtinColumn(name); ok {
			return c, true
		}
		for _, c := range extra {
			if c.Name == name {
				return c, true
			}
		}
		return Column{}, false
	}
	names := opts.Columns
	if len(names) == 0 {
		names = defaultNames(f)
		for _, c := range extra {
			names = append(names, c.Name)
		}
		if opts.AllTags {
			names = append(names, "tags")
		}
		if opts.Replay {
			names = append(names, replayColumns...)
		}
		if opts.Moves > 0 {
			names = append(names, "moves")
		}
	}
	var cols []Column
	for _, name := range names {
		c, ok := lookup(name)
		if !ok {
			valid := make([]string, 0, len(builtin)+len(extra))
			for _, c := range builtin {
				valid = append(valid, c.Name)
			}
			for _, c := range extra {
				valid = append(valid, c.Name)
			}
			return nil, fmt.Errorf("%w %s; the columns are %s", ErrUnknownColumn, words.Quote(name), strings.Join(valid, ", "))
		}
		if slices.ContainsFunc(cols, func(o Column) bool { return o.Name == name }) {
			return nil, fmt.Errorf("%w: %s is named twice", ErrColumn, name)
		}
		switch {
		case c.Type == Map && f == CSV:
			return nil, fmt.Errorf("%w: the map of all tags cannot be written as CSV; name the tags, or write JSON Lines or Parquet", ErrColumn)
		case c.Name == "moves" && opts.Moves <= 0:
			return nil, fmt.Errorf("%w: moves needs a number of plies", ErrColumn)
		}
		cols = append(cols, c)
	}
	return cols, nil
}

// tagColumns makes a string column of each tag, named by SnakeCase.
func tagColumns(tags []string) ([]Column, error) {
	var cols []Column
	for i, tag := range tags {
		if _, err := fields.Lookup(tag); errors.Is(err, fields.ErrBadName) || tag == "" {
			return nil, fmt.Errorf("%w: %s is not a tag name", ErrColumn, words.Quote(tag))
		}
		name := SnakeCase(tag)
		if c, ok := builtinColumn(name); ok {
			if c.tag == tag {
				return nil, fmt.Errorf("%w: the tag %s is the column %s: choose that column instead", ErrColumn, tag, name)
			}
			return nil, fmt.Errorf("%w: the tag %s would be named %s, which is a column already", ErrColumn, tag, name)
		}
		for _, o := range cols {
			if o.Name == name {
				return nil, fmt.Errorf("%w: the tags %s and %s would both be the column %s", ErrColumn, o.tag, tag, name)
			}
		}
		cols = append(cols, Column{Name: name, Type: String, Doc: "the tag " + tag, tag: tag, compute: tagText(fixedSlots + i)})
	}
	return cols, nil
}
