package stats

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/startpos"
)

// Report is what a writer puts out: the rows, the DFRC rows when asked
// for, and the totals.
type Report struct {
	Stats   *Stats
	Options Options
	// WithDFRC adds the table of DFRC pairs.
	WithDFRC bool

	rows, dfrcRows []Row
	made, dfrcMade bool
}

// Rows returns Stats.Rows(Options), worked out on the first call and kept:
// a report is written once the counting is done, in one or more formats
// and a summary line, and a grouped table's tests and sorting are a good
// part of a run. The rows are shared: do not change them, nor the
// report's Stats or Options after the first call.
func (rep *Report) Rows() []Row {
	if !rep.made {
		rep.rows, rep.made = rep.Stats.Rows(rep.Options), true
	}
	return rep.rows
}

// DFRCRows returns Stats.DFRCRows(Options), as Rows does.
func (rep *Report) DFRCRows() []Row {
	if !rep.dfrcMade {
		rep.dfrcRows, rep.dfrcMade = rep.Stats.DFRCRows(rep.Options), true
	}
	return rep.dfrcRows
}

// Header returns the names of the columns: the group-by fields, then
// Columns.
func (rep *Report) Header() []string {
	return append(rep.Stats.GroupBy(), Columns...)
}

// Cells returns the row's columns as text, its group values then those of
// Columns, as every text format writes them. Empty strings stand for
// values that cannot be derived, and for missing group values.
func (r *Row) Cells() []string {
	key := func(w, b int) string {
		if r.DFRC {
			return strconv.Itoa(w) + ":" + strconv.Itoa(b)
		}
		return strconv.Itoa(w)
	}
	rank := r.Rank.String()
	if r.DFRC {
		rank += ":" + r.BlackRank.Black()
	}
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	cells := make([]string, 0, len(r.Group)+len(Columns))
	for _, v := range r.Group {
		cells = append(cells, v.String())
	}
	return append(cells,
		key(r.SP, r.BlackSP), key(r.Fritz9, r.BlackFritz9), rank,
		i(r.Games), i(r.WhiteWins), i(r.Draws), i(r.BlackWins), i(r.Unfinished),
		fixed(r.WhiteScore, 4), fixed(r.DrawRate, 4), fixed(r.ScoreLow, 4), fixed(r.ScoreHigh, 4),
		fixed(r.AvgPlies, 1), fixed(r.AvgWhiteElo, 1), fixed(r.AvgBlackElo, 1),
		i(r.RatedGames), fixed(r.ExpectedScore, 4), fixed(r.ScoreVsExpected, 4),
		fixed(r.VsExpectedLow, 4), fixed(r.VsExpectedHigh, 4),
		pValue(r.PValue), verdict(r),
	)
}

// pValue writes a p-value with four significant digits, which keeps the
// size of very small ones: 0.0312, 2.113e-09.
func pValue(p float64) string {
	if math.IsNaN(p) {
		return ""
	}
	return strconv.FormatFloat(p, 'g', 4, 64)
}

// verdict writes Significant, or "" for a row not tested.
func verdict(r *Row) string {
	if r.Test == NoTest {
		return ""
	}
	return strconv.FormatBool(r.Significant)
}

// fixed formats x with prec decimals, or "" for NaN.
func fixed(x float64, prec int) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

// rounded returns x rounded to prec decimals, or nil for NaN: what JSON
// writes as a number or null.
func rounded(x float64, prec int) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	p := math.Pow10(prec)
	v := math.Round(x*p) / p
	return &v
}

// WriteCSV writes the rows as CSV with a header row. With WithDFRC the
// DFRC pairs follow after an empty line, under the same header, with
// "W:B" pairs in the sp, fritz9 and rank columns.
func (rep *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := rep.Header()
	write := func(rows []Row) error {
		if err := cw.Write(header); err != nil {
			return err
		}
		for i := range rows {
			if err := cw.Write(rows[i].Cells()); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	}
	if err := write(rep.Rows()); err != nil {
		return fmt.Errorf("writing CSV: %w", err)
	}
	if rep.WithDFRC {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return fmt.Errorf("writing CSV: %w", err)
		}
		if err := write(rep.DFRCRows()); err != nil {
			return fmt.Errorf("writing CSV: %w", err)
		}
	}
	return nil
}

// WriteMarkdown writes the rows as a Markdown table, and the DFRC pairs as
// a second one under a heading.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	var b bytes.Buffer
	header := rep.Header()
	keys := len(header) - len(Columns) + 3 // group columns, sp, fritz9, rank
	write := func(rows []Row) {
		b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
		for i := range header {
			if i < keys {
				b.WriteString(" --- |")
			} else {
				b.WriteString(" ---: |")
			}
		}
		b.WriteByte('\n')
		for i := range rows {
			b.WriteString("| " + strings.Join(rows[i].Cells(), " | ") + " |\n")
		}
	}
	write(rep.Rows())
	if rep.WithDFRC {
		b.WriteString("\n### DFRC pairs (white_sp:black_sp)\n\n")
		write(rep.DFRCRows())
	}
	_, err := w.Write(b.Bytes())
	return err
}

// jsonFormat identifies frctool's stats documents, so that merging can
// refuse other JSON.
const jsonFormat = "frctool-stats/1"

// jsonRow is a row of the JSON document: the columns of Columns in order,
// then the raw sums that merging needs.
type jsonRow struct {
	SP          any      `json:"sp"`     // a number, or "W:B" for a DFRC pair
	Fritz9      any      `json:"fritz9"` // likewise
	Rank        string   `json:"rank"`
	Games       int64    `json:"games"`
	WhiteWins   int64    `json:"white_wins"`
	Draws       int64    `json:"draws"`
	BlackWins   int64    `json:"black_wins"`
	Unfinished  int64    `json:"unfinished"`
	WhiteScore  *float64 `json:"white_score"`
	DrawRate    *float64 `json:"draw_rate"`
	ScoreLow    *float64 `json:"score_low"`
	ScoreHigh   *float64 `json:"score_high"`
	AvgPlies    *float64 `json:"avg_plies"`
	AvgWhiteElo *float64 `json:"avg_white_elo"`
	AvgBlackElo *float64 `json:"avg_black_elo"`

	RatedGames      int64    `json:"rated_games"`
	ExpectedScore   *float64 `json:"expected_score"`
	ScoreVsExpected *float64 `json:"score_vs_expected"`
	VsExpectedLow   *float64 `json:"vs_expected_low"`
	VsExpectedHigh  *float64 `json:"vs_expected_high"`
	PValue          *float64 `json:"p_value"`
	Significant     *bool    `json:"significant"`

	SumPlies      int64 `json:"sum_plies"`
	PlyGames      int64 `json:"ply_games"`
	WhiteEloSum   int64 `json:"white_elo_sum"`
	WhiteEloGames int64 `json:"white_elo_games"`
	BlackEloSum   int64 `json:"black_elo_sum"`
	BlackEloGames int64 `json:"black_elo_games"`
	RatedHalf     int64 `json:"rated_half_points"`
	ExpectedSum   int64 `json:"expected_sum_e9"` // in units of 1/Scale
	DiffSqSum     int64 `json:"diff_sq_sum_e9"`

	// group and its names are written before the other keys.
	group []GroupValue
	names []string
}

// MarshalJSON writes the group values first, as numbers, strings or null,
// keyed by their fields' names, then the columns.
func (j jsonRow) MarshalJSON() ([]byte, error) {
	type plain jsonRow // without this method
	body, err := json.Marshal(plain(j))
	if err != nil || len(j.group) == 0 {
		return body, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, v := range j.group {
		name, _ := json.Marshal(j.names[i])
		b.Write(name)
		b.WriteByte(':')
		switch {
		case v.Missing:
			b.WriteString("null")
		case v.Number:
			b.WriteString(v.String())
		default:
			text, _ := json.Marshal(v.Text)
			b.Write(text)
		}
		b.WriteByte(',')
	}
	b.Write(body[1:])
	return b.Bytes(), nil
}

type jsonTotals struct {
	startpos.Tally
	Positions int    `json:"positions"` // start positions with at least one game
	Selected  *int64 `json:"selected"`  // games selected for the rows (all without a selection)
	// The verdicts of the tests of the rows: how many were tested, and
	// how many differ from the rest at the false discovery rate FDR.
	Tested      int     `json:"tested"`
	Significant int     `json:"significant"`
	FDR         float64 `json:"fdr"`
}

type jsonDoc struct {
	Rows   []jsonRow  `json:"rows"`
	DFRC   []jsonRow  `json:"dfrc,omitempty"`
	Totals jsonTotals `json:"totals"`
	// What merging needs to know: whether rows were left out.
	Format    string   `json:"format"`
	MinGames  int64    `json:"min_games"`
	DFRCTable bool     `json:"dfrc_table"`
	GroupBy   []string `json:"group_by,omitempty"`
}

func toJSON(r *Row, names []string) jsonRow {
	j := jsonRow{
		Rank:  r.Rank.String(),
		Games: r.Games, WhiteWins: r.WhiteWins, Draws: r.Draws, BlackWins: r.BlackWins, Unfinished: r.Unfinished,
		WhiteScore: rounded(r.WhiteScore, 4), DrawRate: rounded(r.DrawRate, 4),
		ScoreLow: rounded(r.ScoreLow, 4), ScoreHigh: rounded(r.ScoreHigh, 4),
		AvgPlies: rounded(r.AvgPlies, 1), AvgWhiteElo: rounded(r.AvgWhiteElo, 1), AvgBlackElo: rounded(r.AvgBlackElo, 1),
		SumPlies: r.Plies, PlyGames: r.PlyGames, WhiteEloSum: r.WhiteEloSum, WhiteEloGames: r.WhiteEloGames,
		BlackEloSum: r.BlackEloSum, BlackEloGames: r.BlackEloGames,
		RatedGames: r.RatedGames, ExpectedScore: rounded(r.ExpectedScore, 4), ScoreVsExpected: rounded(r.ScoreVsExpected, 4),
		VsExpectedLow: rounded(r.VsExpectedLow, 4), VsExpectedHigh: rounded(r.VsExpectedHigh, 4),
		RatedHalf: r.RatedHalfPoints, ExpectedSum: r.ExpectedSum, DiffSqSum: r.DiffSqSum,
		group: r.Group, names: names,
	}
	if !math.IsNaN(r.PValue) {
		p := r.PValue
		j.PValue = &p
	}
	if r.Test != NoTest {
		sig := r.Significant
		j.Significant = &sig
	}
	if r.DFRC {
		j.SP = Pair{r.SP, r.BlackSP}.String()
		j.Fritz9 = Pair{r.Fritz9, r.BlackFritz9}.String()
		j.Rank += ":" + r.BlackRank.Black()
	} else {
		j.SP, j.Fritz9 = r.SP, r.Fritz9
	}
	return j
}

// WriteJSON writes one JSON document: {"rows": [...], "dfrc": [...],
// "totals": {...}, ...}. Rows carry the raw sums beside the averages, so
// that ReadJSON and Merge can add documents up exactly.
func (rep *Report) WriteJSON(w io.Writer) error {
	names := rep.Stats.GroupBy()
	rows := rep.Rows()
	sig, tested := Significance(rows)
	doc := jsonDoc{
		Rows: []jsonRow{},
		Totals: jsonTotals{Tally: rep.Stats.Totals, Positions: rep.Stats.Positions(), Selected: &rep.Stats.Selected,
			Tested: tested, Significant: sig, FDR: rep.Options.fdr()},
		Format:    jsonFormat,
		MinGames:  rep.Options.MinGames,
		DFRCTable: rep.WithDFRC,
		GroupBy:   names,
	}
	for _, r := range rows {
		doc.Rows = append(doc.Rows, toJSON(&r, names))
	}
	if rep.WithDFRC {
		doc.DFRC = []jsonRow{}
		for _, r := range rep.DFRCRows() {
			doc.DFRC = append(doc.DFRC, toJSON(&r, names))
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

// Why a JSON document cannot be merged.
var (
	ErrNotStats   = errors.New("not a JSON document of frctool stats")
	ErrFiltered   = errors.New("written with a minimum number of games, so rows are missing: a merge would not equal one run")
	ErrNoDFRC     = errors.New("no table of DFRC pairs, though DFRC games were counted")
	ErrDuplicated = errors.New("a position has two rows")
)

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
// a document grouped otherwise than s is refused (ErrGroupBy). On error
// s is unchanged.
func (s *Stats) ReadJSON(r io.Reader) (Merged, error) {
	var doc struct {
		Rows    []readRow  `json:"rows"`
		DFRC    []readRow  `json:"dfrc"`
		Totals  jsonTotals `json:"totals"`
		Format  string     `json:"format"`
		Min     int64      `json:"min_games"`
		Table   bool       `json:"dfrc_table"`
		GroupBy []string   `json:"group_by"`
	}
	dec := json.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, ErrNotStats) {
			return Merged{}, err // a row's own, which says what is wrong
		}
		return Merged{}, fmt.Errorf("%w: %w", ErrNotStats, err)
	}
	if doc.Format != jsonFormat {
		return Merged{}, fmt.Errorf("%w (format %q, want %q)", ErrNotStats, doc.Format, jsonFormat)
	}
	if doc.Min > 1 {
		return Merged{}, fmt.Errorf("%w (at least %d games a row)", ErrFiltered, doc.Min)
	}
	var part Stats
	if err := part.SetGroupBy(doc.GroupBy); err != nil {
		return Merged{}, fmt.Errorf("%w: group_by: %w", ErrNotStats, err)
	}
	// The document's totals hold no SPs: Distinct comes from the rows.
	part.Totals = doc.Totals.Tally
	// Documents written before selection existed have all games selected.
	part.Selected = doc.Totals.Games
	if doc.Totals.Selected != nil {
		part.Selected = *doc.Totals.Selected
	}
	type rowKey struct {
		group string
		pair  Pair
	}
	seen := make(map[rowKey]int)
	for i := range doc.Rows {
		row := &doc.Rows[i]
		sp, err := strconv.Atoi(string(row.SP))
		if err != nil || sp < 0 || sp >= numbering.Count {
			return Merged{}, fmt.Errorf("%w: row %d has sp %s", ErrNotStats, i+1, row.SP)
		}
		if err := row.check(); err != nil {
			return Merged{}, fmt.Errorf("row %d (sp %d): %w", i+1, sp, err)
		}
		cells, key, err := part.rowCells(row, doc.GroupBy)
		if err != nil {
			return Merged{}, fmt.Errorf("row %d (sp %d): %w", i+1, sp, err)
		}
		k := rowKey{key, Pair{sp, sp}}
		if first := seen[k]; first != 0 {
			return Merged{}, fmt.Errorf("%w: sp %d, in rows %d and %d", ErrDuplicated, sp, first, i+1)
		}
		seen[k] = i + 1
		*cells.sp(sp) = row.Counts
		if row.Games > 0 {
			part.Totals.Mark(sp)
		}
	}
	for i := range doc.DFRC {
		row := &doc.DFRC[i]
		var p Pair
		var name string
		if err := json.Unmarshal(row.SP, &name); err != nil {
			return Merged{}, fmt.Errorf("%w: DFRC row %d has sp %s", ErrNotStats, i+1, row.SP)
		}
		if _, err := fmt.Sscanf(name, "%d:%d", &p.White, &p.Black); err != nil || p.White < 0 || p.White >= 960 || p.Black < 0 || p.Black >= 960 {
			return Merged{}, fmt.Errorf("%w: DFRC row %d has sp %q", ErrNotStats, i+1, name)
		}
		if err := row.check(); err != nil {
			return Merged{}, fmt.Errorf("DFRC row %d (%s): %w", i+1, name, err)
		}
		cells, key, err := part.rowCells(row, doc.GroupBy)
		if err != nil {
			return Merged{}, fmt.Errorf("DFRC row %d (%s): %w", i+1, name, err)
		}
		k := rowKey{"dfrc" + key, p}
		if first := seen[k]; first != 0 {
			return Merged{}, fmt.Errorf("%w: DFRC pair %s, in DFRC rows %d and %d", ErrDuplicated, p, first, i+1)
		}
		seen[k] = i + 1
		*cells.pair(p) = row.Counts
	}
	if !s.grouped() && s.empty() {
		s.grouping = grouping{}
		if err := s.SetGroupBy(doc.GroupBy); err != nil {
			return Merged{}, err
		}
	}
	if err := s.Merge(&part); err != nil {
		return Merged{}, err
	}
	return Merged{DFRCTable: doc.Table || doc.Totals.DFRC == 0}, nil
}

// empty reports whether s has counted nothing yet.
func (s *Stats) empty() bool {
	return s.Totals == (startpos.Tally{}) && len(s.groups) == 0
}

// rowCells returns where a row read back is counted: s itself, or the
// group of the row's values, with the group's key.
func (s *Stats) rowCells(row *readRow, names []string) (cells, string, error) {
	if len(names) == 0 {
		return s, "", nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(row.raw, &obj); err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrNotStats, err)
	}
	values := make([]GroupValue, len(names))
	for i, name := range names {
		raw, ok := obj[name]
		if !ok {
			return nil, "", fmt.Errorf("%w: no value of the group field %s", ErrNotStats, name)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, "", fmt.Errorf("%w: %s: %w", ErrNotStats, name, err)
		}
		switch x := v.(type) {
		case nil:
			values[i] = GroupValue{Missing: true}
		case float64:
			values[i] = GroupValue{Number: true, Num: x}
		case string:
			values[i] = GroupValue{Text: x}
		default:
			return nil, "", fmt.Errorf("%w: %s is neither a number, a string nor null", ErrNotStats, name)
		}
	}
	key := encodeKey(values)
	if g := s.groups[key]; g != nil {
		return g, key, nil
	}
	g, err := s.addGroup(key, values)
	if err != nil {
		return nil, "", err
	}
	return g, key, nil
}

// readRow is a jsonRow as read back: only the raw counts matter.
type readRow struct {
	SP json.RawMessage `json:"sp"`
	Counts
	raw []byte // the row's JSON, for its group values
}

// UnmarshalJSON reads the counts from their JSON names.
func (r *readRow) UnmarshalJSON(b []byte) error {
	var j struct {
		SP            json.RawMessage `json:"sp"`
		Games         int64           `json:"games"`
		WhiteWins     int64           `json:"white_wins"`
		Draws         int64           `json:"draws"`
		BlackWins     int64           `json:"black_wins"`
		Unfinished    int64           `json:"unfinished"`
		SumPlies      *int64          `json:"sum_plies"`
		PlyGames      *int64          `json:"ply_games"`
		WhiteEloSum   int64           `json:"white_elo_sum"`
		WhiteEloGames int64           `json:"white_elo_games"`
		BlackEloSum   int64           `json:"black_elo_sum"`
		BlackEloGames int64           `json:"black_elo_games"`
		RatedGames    int64           `json:"rated_games"`
		RatedHalf     int64           `json:"rated_half_points"`
		ExpectedSum   int64           `json:"expected_sum_e9"`
		DiffSqSum     int64           `json:"diff_sq_sum_e9"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	r.raw = append(r.raw[:0], b...)
	if j.SumPlies == nil {
		return fmt.Errorf("%w: a row has no sum_plies", ErrNotStats)
	}
	// Documents written before ply_games counted every game's length.
	plyGames := j.Games
	if j.PlyGames != nil {
		plyGames = *j.PlyGames
	}
	r.SP = j.SP
	r.Counts = Counts{Games: j.Games, WhiteWins: j.WhiteWins, Draws: j.Draws, BlackWins: j.BlackWins, Unfinished: j.Unfinished,
		Plies: *j.SumPlies, PlyGames: plyGames, WhiteEloSum: j.WhiteEloSum, WhiteEloGames: j.WhiteEloGames, BlackEloSum: j.BlackEloSum, BlackEloGames: j.BlackEloGames,
		RatedGames: j.RatedGames, RatedHalfPoints: j.RatedHalf, ExpectedSum: j.ExpectedSum, DiffSqSum: j.DiffSqSum}
	return nil
}

// check catches rows edited by hand into nonsense.
func (r *readRow) check() error {
	c := &r.Counts
	if c.Games < 0 || c.WhiteWins < 0 || c.Draws < 0 || c.BlackWins < 0 || c.Unfinished < 0 || c.Plies < 0 ||
		c.PlyGames < 0 || c.PlyGames > c.Games || c.PlyGames == 0 && c.Plies > 0 ||
		c.WhiteEloGames < 0 || c.BlackEloGames < 0 || c.WhiteEloGames > c.Games || c.BlackEloGames > c.Games {
		return fmt.Errorf("%w: negative or impossible counts", ErrNotStats)
	}
	if c.WhiteWins+c.Draws+c.BlackWins+c.Unfinished != c.Games {
		return fmt.Errorf("%w: white_wins + draws + black_wins + unfinished is not games", ErrNotStats)
	}
	if c.RatedGames < 0 || c.RatedGames > c.WhiteWins+c.Draws+c.BlackWins ||
		c.RatedHalfPoints < 0 || c.RatedHalfPoints > 2*c.RatedGames ||
		c.ExpectedSum < 0 || c.ExpectedSum > c.RatedGames*Scale || c.DiffSqSum < 0 || c.DiffSqSum > c.RatedGames*Scale {
		return fmt.Errorf("%w: impossible sums of rated games", ErrNotStats)
	}
	return nil
}
