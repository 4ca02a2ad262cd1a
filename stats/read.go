package stats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/startpos"
)

// Why a JSON document cannot be merged.
var (
	ErrNotStats   = errors.New("not a JSON document of frctool stats")
	ErrFiltered   = errors.New("written with a minimum number of games, so rows are missing: a merge would not equal one run")
	ErrNoDFRC     = errors.New("no table of DFRC pairs, though DFRC games were counted")
	ErrDuplicated = errors.New("a position has two rows")
)

var errEmpty = errors.New("empty input")

// Merged says what ReadJSON found beside the counts.
type Merged struct {
	// DFRCTable is false when the document has no DFRC table although
	// DFRC games were counted: those counts are in the totals only.
	DFRCTable bool
}

// ReadJSON reads a document written by WriteJSON and adds its counts to s.
// A document written with a minimum number of games is refused, since the
// rows it left out cannot be added back, and so is one with two rows for
// one position or DFRC pair of a group, which WriteJSON never writes:
// adding both would count games twice. Grouped documents keep their
// groups apart; empty Stats take the grouping of the first document, and
// a document grouped otherwise than s is refused (ErrGroupedOtherwise). On error
// s is unchanged.
//
// The document is read a row at a time into counts of its own, so that
// what it holds is bounded as counting games is (MaxGroups), however
// large the document.
func (s *Stats) ReadJSON(r io.Reader) (Merged, error) {
	d := docReader{dec: json.NewDecoder(r), seen: make(map[cellKey]int), skipPairs: s.SkipPairs}
	d.dec.UseNumber()
	if err := d.read(); err != nil {
		switch {
		case err == io.EOF && d.dec.InputOffset() == 0:
			err = errEmpty
		case errors.Is(err, io.EOF): // within a value, or the document
			err = io.ErrUnexpectedEOF
		}
		if errors.Is(err, ErrNotStats) || errors.Is(err, ErrDuplicated) || errors.Is(err, ErrTooManyGroups) || errors.Is(err, ErrTooManyRows) || errors.Is(err, ErrTooManyGames) {
			return Merged{}, err // says what is wrong once
		}
		return Merged{}, fmt.Errorf("%w: %w", ErrNotStats, err)
	}
	if d.format != jsonFormat {
		return Merged{}, fmt.Errorf("%w (format %s, want %q)", ErrNotStats, words.Quote(d.format), jsonFormat)
	}
	if d.minGames > 1 {
		return Merged{}, fmt.Errorf("%w (at least %d games a row)", ErrFiltered, d.minGames)
	}
	groupBy := d.groupBy
	if groupBy == nil { // ungrouped: rows with group values are refused
		groupBy = []string{}
	}
	if err := d.settle(groupBy); err != nil {
		return Merged{}, err
	}
	if err := d.totals.Check(); err != nil {
		return Merged{}, fmt.Errorf("%w: totals: %w", ErrNotStats, err)
	}
	if d.totals.Selected != nil && (*d.totals.Selected < 0 || *d.totals.Selected > d.totals.Games) {
		return Merged{}, fmt.Errorf("%w: totals: %d games selected of %d", ErrNotStats, *d.totals.Selected, d.totals.Games)
	}
	part := &d.part
	// The document's totals hold no SPs: Distinct comes from the rows.
	part.Totals = d.totals.Tally
	part.Totals.Merge(&d.marks)
	// Documents written before selection existed have all games selected.
	part.Selected = d.totals.Games
	if d.totals.Selected != nil {
		part.Selected = *d.totals.Selected
	}
	if !s.grouped() && s.empty() {
		s.grouping = grouping{}
		if err := s.SetGroupBy(d.names); err != nil {
			return Merged{}, err
		}
	}
	if err := s.merge(part, true); err != nil {
		return Merged{}, err
	}
	return Merged{DFRCTable: d.dfrcTable || d.totals.DFRC == 0}, nil
}

// empty reports whether s has counted nothing yet.
func (s *Stats) empty() bool {
	return s.Totals == (startpos.Tally{}) && len(s.groups) == 0
}

// docReader reads one stats document token by token. The rows come
// before group_by in what WriteJSON writes, so the grouping is taken from
// the first row's group values, which are its keys that name a field,
// and checked against group_by when that comes.
type docReader struct {
	dec *json.Decoder

	part    Stats          // the document's counts
	marks   startpos.Tally // the SPs of rows with games
	names   []string       // the group fields, once known
	settled bool           // part groups by names
	seen    map[cellKey]int
	row     readRow     // reused from row to row
	rowDec  *rowDecoder // made once the grouping is settled
	// skipPairs reads the DFRC rows without keeping them (Stats.SkipPairs).
	skipPairs bool

	keys      map[string]bool // the document's keys read so far
	format    string
	minGames  int64
	dfrcTable bool
	totals    jsonTotals
	groupBy   []string // nil when the document has none
}

// cellKey is a row's place: its table (the Stats or a group) and its
// position or pair.
type cellKey struct {
	table cells
	pair  Pair
	dfrc  bool
}

func (d *docReader) read() error {
	if err := d.delim('{'); err != nil {
		return err
	}
	d.keys = make(map[string]bool)
	for d.dec.More() {
		key, err := d.key()
		if err != nil {
			return err
		}
		if d.keys[key] {
			return fmt.Errorf("%w: the key %s is there twice", ErrNotStats, words.Quote(key))
		}
		d.keys[key] = true
		switch key {
		case "rows":
			err = d.rows(false)
		case "dfrc":
			err = d.rows(true)
		case "totals":
			err = d.dec.Decode(&d.totals)
		case "format":
			err = d.dec.Decode(&d.format)
		case "min_games":
			err = d.dec.Decode(&d.minGames)
		case "dfrc_table":
			err = d.dec.Decode(&d.dfrcTable)
		case "group_by":
			if err = d.dec.Decode(&d.groupBy); err == nil {
				if d.groupBy == nil {
					d.groupBy = []string{}
				}
				err = d.settle(d.groupBy)
			}
		default:
			err = d.skip()
		}
		if err != nil {
			return err
		}
	}
	return d.delim('}')
}

// settle makes the document's counts group by names: those of group_by,
// or of the first row's group values when the rows come first. Once the
// grouping is settled, names given again (group_by after the rows, or
// none at the end of a document without it) must be the same.
func (d *docReader) settle(names []string) error {
	if d.settled {
		if !slices.Equal(names, d.names) {
			return fmt.Errorf("%w: group_by is %s, and the rows are grouped by %s", ErrNotStats, listOf(names), listOf(d.names))
		}
		return nil
	}
	if err := d.part.SetGroupBy(names); err != nil {
		return fmt.Errorf("%w: group_by: %w", ErrNotStats, err)
	}
	d.names, d.settled = slices.Clone(names), true
	if d.names == nil {
		d.names = []string{}
	}
	return nil
}

// groupedBy says how counts grouped by names are grouped, for a message.
func groupedBy(names []string) string {
	if len(names) == 0 {
		return "not grouped"
	}
	return "grouped by " + strings.Join(names, ",")
}

func listOf(names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ",")
}

// rows reads the array of rows, or of DFRC rows, one row at a time.
func (d *docReader) rows(dfrc bool) error {
	t, err := d.dec.Token()
	if err != nil || t == nil { // null: no rows
		return err
	}
	if t != json.Delim('[') {
		return fmt.Errorf("%w: the rows are not an array", ErrNotStats)
	}
	what := "row"
	if dfrc {
		what = "DFRC row"
	}
	for n := 1; d.dec.More(); n++ {
		if err := d.readRow(); err != nil {
			return fmt.Errorf("%s %d: %w", what, n, err)
		}
		if err := d.add(dfrc, n); err != nil {
			return err
		}
	}
	return d.delim(']')
}

// readRow reads the next row into d.row. The first row of a document
// whose grouping is not known yet is read twice: once for the names of its
// group values, which settle the grouping, then as every row is.
func (d *docReader) readRow() error {
	if d.rowDec != nil {
		return d.rowDec.decode(d.dec, &d.row)
	}
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		return err
	}
	if !d.settled {
		names, err := groupKeys(raw)
		if err != nil {
			return err
		}
		if err := d.settle(names); err != nil {
			return err
		}
	}
	d.rowDec = newRowDecoder(d.names)
	return d.rowDec.unmarshal(raw, &d.row)
}

// add counts the row just read at its place.
func (d *docReader) add(dfrc bool, n int) error {
	row := &d.row
	var p Pair
	if dfrc {
		_, err := fmt.Sscanf(row.sp, "%d:%d", &p.White, &p.Black)
		if !row.spText || err != nil || p.White < 0 || p.White >= numbering.Count || p.Black < 0 || p.Black >= numbering.Count {
			return fmt.Errorf("%w: DFRC row %d has sp %s", ErrNotStats, n, row.shownSP())
		}
	} else {
		sp, err := strconv.Atoi(row.sp)
		if row.spText || err != nil || sp < 0 || sp >= numbering.Count {
			return fmt.Errorf("%w: row %d has sp %s", ErrNotStats, n, row.shownSP())
		}
		p = Pair{sp, sp}
	}
	table, err := d.table(row)
	if err == nil {
		err = row.check()
	}
	if err != nil {
		if dfrc {
			return fmt.Errorf("DFRC row %d (%s): %w", n, p, err)
		}
		return fmt.Errorf("row %d (sp %d): %w", n, p.White, err)
	}
	k := cellKey{table, p, dfrc}
	if first := d.seen[k]; first != 0 {
		if dfrc {
			return fmt.Errorf("%w: DFRC pair %s, in DFRC rows %d and %d", ErrDuplicated, p, first, n)
		}
		return fmt.Errorf("%w: sp %d, in rows %d and %d", ErrDuplicated, p.White, first, n)
	}
	d.seen[k] = n
	if dfrc && d.skipPairs {
		return nil
	}
	if row.Games > MaxGames-d.part.games {
		return fmt.Errorf("row %d: %w: the rows so far hold more than %d", n, ErrTooManyGames, int64(MaxGames))
	}
	d.part.games += row.Games
	var c *Counts
	var made bool
	if dfrc {
		c, made = table.pair(p)
	} else {
		c, made = table.sp(p.White)
		if row.Games > 0 {
			d.marks.Mark(p.White)
		}
	}
	if err := d.part.grow(made); err != nil {
		if dfrc {
			return fmt.Errorf("DFRC row %d: %w", n, err)
		}
		return fmt.Errorf("row %d: %w", n, err)
	}
	*c = row.Counts
	return nil
}

// shownSP is the row's sp as the document has it.
func (r *readRow) shownSP() string {
	switch {
	case r.spText:
		return words.Quote(r.sp)
	case len(r.sp) > 64: // a number of many digits
		return r.sp[:64] + "... (" + strconv.Itoa(len(r.sp)) + " digits)"
	}
	return r.sp
}

// table returns where the row is counted: the document's Stats, or the
// group of the row's values.
func (d *docReader) table(row *readRow) (cells, error) {
	if len(d.names) == 0 {
		return &d.part, nil
	}
	key := encodeKey(row.values)
	if g := d.part.groups[key]; g != nil {
		return g, nil
	}
	return d.part.addGroup(key, slices.Clone(row.values))
}

func (d *docReader) delim(want json.Delim) error {
	t, err := d.dec.Token()
	if err != nil {
		return err
	}
	if t != want {
		return fmt.Errorf("%w: want %s, found %v", ErrNotStats, want, t)
	}
	return nil
}

func (d *docReader) key() (string, error) {
	t, err := d.dec.Token()
	if err != nil {
		return "", err
	}
	k, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("%w: want a key, found %v", ErrNotStats, t)
	}
	return k, nil
}

// skip reads past one value of any kind.
func (d *docReader) skip() error { return skipValue(d.dec) }

func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('['), json.Delim('{'):
			depth++
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// readRow is a row as read back: its position, its raw counts and its
// group values. The averages and rates beside them are derived, and not
// read.
type readRow struct {
	sp     string // the number as written, or the text of a DFRC pair
	spText bool   // sp was a JSON string
	Counts
	values []GroupValue // in the order of the group fields
}

// rowKeys are the keys a row's counts are read from, in the order of the
// fields of rowDecoder's struct, each with the count it fills; sp has
// none. sum_plies and ply_games may be missing (ply_games is, in
// documents written before it), and are read as pointers.
var rowKeys = [...]struct {
	key   string
	count func(c *Counts) *int64
}{
	{"sp", nil},
	{"games", func(c *Counts) *int64 { return &c.Games }},
	{"white_wins", func(c *Counts) *int64 { return &c.WhiteWins }},
	{"draws", func(c *Counts) *int64 { return &c.Draws }},
	{"black_wins", func(c *Counts) *int64 { return &c.BlackWins }},
	{"unfinished", func(c *Counts) *int64 { return &c.Unfinished }},
	{"sum_plies", func(c *Counts) *int64 { return &c.Plies }},
	{"ply_games", func(c *Counts) *int64 { return &c.PlyGames }},
	{"white_elo_sum", func(c *Counts) *int64 { return &c.WhiteEloSum }},
	{"white_elo_games", func(c *Counts) *int64 { return &c.WhiteEloGames }},
	{"black_elo_sum", func(c *Counts) *int64 { return &c.BlackEloSum }},
	{"black_elo_games", func(c *Counts) *int64 { return &c.BlackEloGames }},
	{"rated_games", func(c *Counts) *int64 { return &c.RatedGames }},
	{"rated_half_points", func(c *Counts) *int64 { return &c.RatedHalfPoints }},
	{"expected_sum_e9", func(c *Counts) *int64 { return &c.ExpectedSum }},
	{"diff_sq_sum_e9", func(c *Counts) *int64 { return &c.DiffSqSum }},
}

// isRowKey reports whether key is one of rowKeys.
func isRowKey(key string) bool {
	for _, k := range rowKeys {
		if k.key == key {
			return true
		}
	}
	return false
}

// rowDecoder decodes rows into a struct made for the document's group
// fields (reflect.StructOf): a field for each count, each group value and
// each other column. encoding/json decodes a struct several times faster
// than token by token. As when a struct is decoded, a key given twice
// counts once, and keys that name nothing the row is read for are passed
// over. The other columns are fields of their own, so that a group field
// of the same name in other capitals (a tag "Rank") is not given a
// column's value: encoding/json matches names regardless of case when no
// field has the exact name.
type rowDecoder struct {
	v     reflect.Value // a pointer to the struct
	names []string      // the group fields, whose values follow the counts
}

// passedOver is a column that is not read: its value is skipped.
type passedOver struct{}

func (*passedOver) UnmarshalJSON([]byte) error { return nil }

var (
	rawType    = reflect.TypeFor[json.RawMessage]()
	countType  = reflect.TypeFor[int64]()
	maybeType  = reflect.TypeFor[*int64]()
	passedType = reflect.TypeFor[passedOver]()
)

func newRowDecoder(names []string) *rowDecoder {
	var fields []reflect.StructField
	field := func(key string, t reflect.Type) {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", len(fields)), Type: t, Tag: reflect.StructTag(`json:"` + key + `"`)})
	}
	for _, k := range rowKeys {
		switch k.key {
		case "sp":
			field(k.key, rawType)
		case "sum_plies", "ply_games":
			field(k.key, maybeType)
		default:
			field(k.key, countType)
		}
	}
	for _, name := range names {
		field(name, rawType)
	}
	rd := &rowDecoder{names: names}
	for _, c := range Columns {
		if !isRowKey(c) {
			field(c, passedType)
		}
	}
	rd.v = reflect.New(reflect.StructOf(fields))
	return rd
}

func (rd *rowDecoder) decode(dec *json.Decoder, r *readRow) error {
	rd.v.Elem().SetZero()
	if err := dec.Decode(rd.v.Interface()); err != nil {
		return rd.explain(err)
	}
	return rd.fill(r)
}

func (rd *rowDecoder) unmarshal(raw []byte, r *readRow) error {
	rd.v.Elem().SetZero()
	if err := json.Unmarshal(raw, rd.v.Interface()); err != nil {
		return rd.explain(err)
	}
	return rd.fill(r)
}

// explain words a value of the wrong type by the row's key, where
// encoding/json names the struct's field.
func (rd *rowDecoder) explain(err error) error {
	var bad *json.UnmarshalTypeError
	if !errors.As(err, &bad) {
		return err
	}
	key := bad.Field
	if f, ok := rd.v.Elem().Type().FieldByName(bad.Field); ok {
		key = f.Tag.Get("json")
	}
	return fmt.Errorf("%w: %s is %s, not a whole number", ErrNotStats, key, bad.Value)
}

// fill copies the row decoded into r.
func (rd *rowDecoder) fill(r *readRow) error {
	v := rd.v.Elem()
	sp := v.Field(0).Bytes()
	switch {
	case len(sp) == 0:
		return fmt.Errorf("%w: a row has no sp", ErrNotStats)
	case sp[0] == '"':
		r.spText = true
		if err := json.Unmarshal(sp, &r.sp); err != nil {
			return fmt.Errorf("%w: sp: %w", ErrNotStats, err)
		}
	case sp[0] == '-' || sp[0] >= '0' && sp[0] <= '9':
		r.sp, r.spText = string(sp), false
	default:
		return fmt.Errorf("%w: a row has sp %s", ErrNotStats, words.Quote(sp))
	}
	c := &r.Counts
	*c = Counts{}
	hasPlyGames := false
	for i, k := range rowKeys[1:] {
		f := v.Field(1 + i)
		switch {
		case f.Kind() != reflect.Pointer:
			*k.count(c) = f.Int()
		case !f.IsNil():
			*k.count(c) = f.Elem().Int()
			hasPlyGames = hasPlyGames || k.key == "ply_games"
		case k.key == "sum_plies":
			return fmt.Errorf("%w: a row has no sum_plies", ErrNotStats)
		}
	}
	// Documents written before ply_games counted every game's length.
	if !hasPlyGames {
		c.PlyGames = c.Games
	}
	r.values = r.values[:0]
	for i, name := range rd.names {
		value, err := groupValue(v.Field(len(rowKeys)+i).Bytes(), name)
		if err != nil {
			return err
		}
		r.values = append(r.values, value)
	}
	return nil
}

// groupValue reads the value of a group field: a number, a string or null
// for a missing value.
func groupValue(raw []byte, name string) (GroupValue, error) {
	switch {
	case len(raw) == 0:
		return GroupValue{}, fmt.Errorf("%w: no value of the group field %s", ErrNotStats, name)
	case string(raw) == "null":
		return GroupValue{Missing: true}, nil
	case raw[0] == '"':
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return GroupValue{}, fmt.Errorf("%w: %s: %w", ErrNotStats, name, err)
		}
		return GroupValue{Text: text}, nil
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		x, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return GroupValue{}, fmt.Errorf("%w: %s: %w", ErrNotStats, name, err)
		}
		return GroupValue{Number: true, Num: x}, nil
	}
	return GroupValue{}, fmt.Errorf("%w: %s is neither a number, a string nor null", ErrNotStats, name)
}

// groupKeys returns the keys of a row that name a field a row can be
// grouped by, in their order.
func groupKeys(raw []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return nil, fmt.Errorf("%w: a row is not an object", ErrNotStats)
	}
	var names []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		if !isRowColumn(key) && isGroupField(key) && !slices.Contains(names, key) {
			names = append(names, key)
		}
		if err := skipValue(dec); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// isRowColumn reports whether key is one of a row's columns or counts, or
// a field that cannot group (a position's number), so that it is not a
// group value. The columns are looked up first: they are most of a row's
// keys, and fields.Lookup makes an error for each.
func isRowColumn(key string) bool {
	switch key {
	case "white_sp", "black_sp":
		return true
	}
	return slices.Contains(Columns, key) || isRowKey(key)
}

// isGroupField reports whether key names a field a row can be grouped by.
func isGroupField(key string) bool {
	_, err := fields.Lookup(key)
	return err == nil
}

// maxPlies is more plies than any game a count holds can have, so that the
// plies of MaxGames such games still fit in an int64.
const maxPlies = 1 << 26

// check catches rows edited by hand into nonsense.
func (r *readRow) check() error {
	c := &r.Counts
	if c.Games < 0 || c.WhiteWins < 0 || c.Draws < 0 || c.BlackWins < 0 || c.Unfinished < 0 || c.Plies < 0 ||
		c.PlyGames < 0 || c.PlyGames > c.Games || c.PlyGames == 0 && c.Plies > 0 ||
		c.WhiteEloGames < 0 || c.BlackEloGames < 0 || c.WhiteEloGames > c.Games || c.BlackEloGames > c.Games {
		return fmt.Errorf("%w: negative or impossible counts", ErrNotStats)
	}
	if c.Games > MaxGames {
		return fmt.Errorf("%w: %d games, more than one count holds (%d)", ErrTooManyGames, c.Games, int64(MaxGames))
	}
	// Each at most Games, so that their sum cannot wrap around to it.
	if c.WhiteWins > c.Games || c.Draws > c.Games || c.BlackWins > c.Games || c.Unfinished > c.Games ||
		c.WhiteWins+c.Draws+c.BlackWins+c.Unfinished != c.Games {
		return fmt.Errorf("%w: white_wins + draws + black_wins + unfinished is not games", ErrNotStats)
	}
	// A game's counted moves are not bounded by MaxPlyCount, but by what a
	// game the Reader holds whole can have: far fewer than maxPlies.
	if c.Plies > c.PlyGames*maxPlies ||
		c.WhiteEloSum < 0 || c.WhiteEloSum > c.WhiteEloGames*MaxElo || c.BlackEloSum < 0 || c.BlackEloSum > c.BlackEloGames*MaxElo {
		return fmt.Errorf("%w: impossible sums of plies or ratings", ErrNotStats)
	}
	if c.RatedGames < 0 || c.RatedGames > c.WhiteWins+c.Draws+c.BlackWins ||
		c.RatedHalfPoints < 0 || c.RatedHalfPoints > 2*c.RatedGames ||
		c.ExpectedSum < 0 || c.ExpectedSum > c.RatedGames*Scale || c.DiffSqSum < 0 || c.DiffSqSum > c.RatedGames*Scale {
		return fmt.Errorf("%w: impossible sums of rated games", ErrNotStats)
	}
	return nil
}
