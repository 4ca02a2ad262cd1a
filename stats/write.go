package stats

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/frctool/frctool/internal/csvfield"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// Report is what a writer puts out: the rows, the DFRC rows when asked
// for, and the totals.
type Report struct {
	Stats   *Stats
	Options Options
	// WithDFRC adds the table of DFRC pairs.
	WithDFRC bool
	// Columns, when not nil, are the columns of Columns that the table,
	// CSV and Markdown writers write after the group-by fields, in this
	// order (CheckColumns tells a choice that cannot be). JSON documents
	// keep every column, which merging them needs. Set it before the
	// report is first written.
	Columns []string

	rows, dfrcRows []Row
	made, dfrcMade bool
	pick           []int // Columns' index of each of the report's Columns
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

// Check returns ErrTooManyRows when the rows asked for would be more than
// MaxRows (Stats.CheckRows), and CheckColumns' error for a choice of
// Columns that cannot be; the writers check before they write.
func (rep *Report) Check() error {
	if rep.Columns != nil {
		if err := CheckColumns(rep.Columns); err != nil {
			return err
		}
	}
	return rep.Stats.CheckRows(rep.Options)
}

// Errors of a choice of columns.
var (
	ErrUnknownColumn = errors.New("unknown column")
	ErrColumn        = errors.New("bad column choice")
)

// CheckColumns returns an error wrapping ErrUnknownColumn or ErrColumn when
// names cannot be Report.Columns: a name not in Columns, a name given
// twice, or no name at all.
func CheckColumns(names []string) error {
	if len(names) == 0 {
		return fmt.Errorf("%w: no column named", ErrColumn)
	}
	for i, name := range names {
		if !slices.Contains(Columns, name) {
			return fmt.Errorf("%w %s; the columns are %s", ErrUnknownColumn, words.Quote(name), strings.Join(Columns, ", "))
		}
		if slices.Contains(names[:i], name) {
			return fmt.Errorf("%w: %s is named twice", ErrColumn, name)
		}
	}
	return nil
}

// DFRCRows returns Stats.DFRCRows(Options), as Rows does.
func (rep *Report) DFRCRows() []Row {
	if !rep.dfrcMade {
		rep.dfrcRows, rep.dfrcMade = rep.Stats.DFRCRows(rep.Options), true
	}
	return rep.dfrcRows
}

// Header returns the names of the columns the text formats write: the
// group-by fields, then Columns, or the report's choice of them.
func (rep *Report) Header() []string {
	if rep.Columns != nil {
		return append(rep.Stats.GroupBy(), rep.Columns...)
	}
	return append(rep.Stats.GroupBy(), Columns...)
}

// Cells returns r's cells under Header: r.Cells, or the report's choice of
// them.
func (rep *Report) Cells(r *Row) []string {
	all := r.Cells()
	if rep.Columns == nil {
		return all
	}
	if rep.pick == nil {
		for _, name := range rep.Columns {
			rep.pick = append(rep.pick, slices.Index(Columns, name))
		}
	}
	groups := len(r.Group)
	cells := all[:groups:groups]
	for _, i := range rep.pick {
		if i >= 0 { // an unknown name, which Check refuses
			cells = append(cells, all[groups+i])
		}
	}
	return cells
}

// TextColumn reports whether Header's column i holds text, which tables
// align to the left, rather than numbers: a group-by field's value or the
// back rank.
func (rep *Report) TextColumn(i int) bool {
	i -= len(rep.Stats.names)
	names := Columns
	if rep.Columns != nil {
		names = rep.Columns
	}
	return i < 0 || i < len(names) && names[i] == "rank"
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
	if err := rep.Check(); err != nil {
		return err
	}
	b := bufio.NewWriterSize(w, 64<<10)
	var line []byte
	record := func(fields []string) {
		line = line[:0]
		for i, f := range fields {
			if i > 0 {
				line = append(line, ',')
			}
			line = csvfield.Append(line, []byte(f))
		}
		b.Write(csvfield.EndRecord(line, 0))
	}
	write := func(rows []Row) {
		record(rep.Header())
		for i := range rows {
			record(rep.Cells(&rows[i]))
		}
	}
	write(rep.Rows())
	if rep.WithDFRC {
		b.WriteByte('\n')
		write(rep.DFRCRows())
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("writing CSV: %w", err)
	}
	return nil
}

// WriteMarkdown writes the rows as a Markdown table, and the DFRC pairs as
// a second one under a heading.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	if err := rep.Check(); err != nil {
		return err
	}
	b := bufio.NewWriterSize(w, 64<<10)
	header := rep.Header()
	write := func(rows []Row) {
		b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
		for i := range header {
			if rep.TextColumn(i) || header[i] == "sp" || header[i] == "fritz9" { // the keys
				b.WriteString(" --- |")
			} else {
				b.WriteString(" ---: |")
			}
		}
		b.WriteByte('\n')
		for i := range rows {
			b.WriteString("| ")
			for j, c := range rep.Cells(&rows[i]) {
				if j > 0 {
					b.WriteString(" | ")
				}
				b.WriteString(markdownCell(c))
			}
			b.WriteString(" |\n")
		}
	}
	write(rep.Rows())
	if rep.WithDFRC {
		b.WriteString("\n### DFRC pairs (white_sp:black_sp)\n\n")
		write(rep.DFRCRows())
	}
	return b.Flush()
}

// markdownCell writes a cell's text so that it stays one cell of one row:
// a group's name is a tag's value, which may hold a '|' (the next cell), a
// line break (the next row) or a control character. Backslashes are
// doubled, so that one before a '|' or other punctuation shows as itself.
func markdownCell(c string) string {
	if !strings.ContainsAny(c, "|\\\n\r") {
		return pgn.EscapeControls(c)
	}
	c = strings.NewReplacer("\\", "\\\\", "|", "\\|", "\r\n", " ", "\n", " ", "\r", " ").Replace(c)
	return pgn.EscapeControls(c)
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

// jsonDocEnd is what a document has after its rows.
type jsonDocEnd struct {
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
// that ReadJSON and Merge can add documents up exactly. The rows are
// written one at a time, so that a large table takes no more memory than
// its rows do: the document as a whole is never held.
func (rep *Report) WriteJSON(w io.Writer) error {
	if err := rep.Check(); err != nil {
		return err
	}
	names := rep.Stats.GroupBy()
	rows := rep.Rows()
	sig, tested := Significance(rows)
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("{\n  \"rows\": ")
	if err := writeJSONRows(bw, rows, names); err != nil {
		return err
	}
	// A table of DFRC pairs without any is left out, as it always was.
	if dfrc := rep.dfrcTable(); len(dfrc) > 0 {
		bw.WriteString(",\n  \"dfrc\": ")
		if err := writeJSONRows(bw, dfrc, names); err != nil {
			return err
		}
	}
	rest, err := json.MarshalIndent(jsonDocEnd{
		Totals: jsonTotals{Tally: rep.Stats.Totals, Positions: rep.Stats.Positions(), Selected: &rep.Stats.Selected,
			Tested: tested, Significant: sig, FDR: rep.Options.fdr()},
		Format:    jsonFormat,
		MinGames:  rep.Options.MinGames,
		DFRCTable: rep.WithDFRC,
		GroupBy:   names,
	}, "", "  ")
	if err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	bw.WriteByte(',')
	bw.Write(rest[1:]) // the keys after the rows, and the closing brace
	bw.WriteByte('\n')
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

func (rep *Report) dfrcTable() []Row {
	if !rep.WithDFRC {
		return nil
	}
	return rep.DFRCRows()
}

// writeJSONRows writes an array of rows indented as the second level of
// the document.
func writeJSONRows(bw *bufio.Writer, rows []Row, names []string) error {
	if len(rows) == 0 {
		bw.WriteString("[]")
		return nil
	}
	bw.WriteByte('[')
	var indented bytes.Buffer
	for i := range rows {
		row, err := json.Marshal(toJSON(&rows[i], names))
		if err != nil {
			return fmt.Errorf("writing JSON: %w", err)
		}
		indented.Reset()
		if err := json.Indent(&indented, row, "    ", "  "); err != nil {
			return fmt.Errorf("writing JSON: %w", err)
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		bw.Write(indented.Bytes())
	}
	bw.WriteString("\n  ]")
	return nil
}
