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
}

// Cells returns the row's columns as text, in the order of Columns, as
// every text format writes them. Empty strings stand for values that
// cannot be derived.
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
	return []string{
		key(r.SP, r.BlackSP), key(r.Fritz9, r.BlackFritz9), rank,
		i(r.Games), i(r.WhiteWins), i(r.Draws), i(r.BlackWins), i(r.Unfinished),
		fixed(r.WhiteScore, 4), fixed(r.DrawRate, 4), fixed(r.ScoreLow, 4), fixed(r.ScoreHigh, 4),
		fixed(r.AvgPlies, 1), fixed(r.AvgWhiteElo, 1), fixed(r.AvgBlackElo, 1),
	}
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
	write := func(rows []Row) error {
		if err := cw.Write(Columns); err != nil {
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
	if err := write(rep.Stats.Rows(rep.Options)); err != nil {
		return fmt.Errorf("writing CSV: %w", err)
	}
	if rep.WithDFRC {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return fmt.Errorf("writing CSV: %w", err)
		}
		if err := write(rep.Stats.DFRCRows(rep.Options)); err != nil {
			return fmt.Errorf("writing CSV: %w", err)
		}
	}
	return nil
}

// WriteMarkdown writes the rows as a Markdown table, and the DFRC pairs as
// a second one under a heading.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	var b bytes.Buffer
	write := func(rows []Row) {
		b.WriteString("| " + strings.Join(Columns, " | ") + " |\n|")
		for i := range Columns {
			if i < 3 {
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
	write(rep.Stats.Rows(rep.Options))
	if rep.WithDFRC {
		b.WriteString("\n### DFRC pairs (white_sp:black_sp)\n\n")
		write(rep.Stats.DFRCRows(rep.Options))
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

	SumPlies      int64 `json:"sum_plies"`
	WhiteEloSum   int64 `json:"white_elo_sum"`
	WhiteEloGames int64 `json:"white_elo_games"`
	BlackEloSum   int64 `json:"black_elo_sum"`
	BlackEloGames int64 `json:"black_elo_games"`
}

type jsonTotals struct {
	startpos.Tally
	Positions int `json:"positions"` // start positions with at least one game
}

type jsonDoc struct {
	Rows   []jsonRow  `json:"rows"`
	DFRC   []jsonRow  `json:"dfrc,omitempty"`
	Totals jsonTotals `json:"totals"`
	// What merging needs to know: whether rows were left out.
	Format    string `json:"format"`
	MinGames  int64  `json:"min_games"`
	DFRCTable bool   `json:"dfrc_table"`
}

func toJSON(r *Row) jsonRow {
	j := jsonRow{
		Rank:  r.Rank.String(),
		Games: r.Games, WhiteWins: r.WhiteWins, Draws: r.Draws, BlackWins: r.BlackWins, Unfinished: r.Unfinished,
		WhiteScore: rounded(r.WhiteScore, 4), DrawRate: rounded(r.DrawRate, 4),
		ScoreLow: rounded(r.ScoreLow, 4), ScoreHigh: rounded(r.ScoreHigh, 4),
		AvgPlies: rounded(r.AvgPlies, 1), AvgWhiteElo: rounded(r.AvgWhiteElo, 1), AvgBlackElo: rounded(r.AvgBlackElo, 1),
		SumPlies: r.Plies, WhiteEloSum: r.WhiteEloSum, WhiteEloGames: r.WhiteEloGames,
		BlackEloSum: r.BlackEloSum, BlackEloGames: r.BlackEloGames,
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
	doc := jsonDoc{
		Rows:      []jsonRow{},
		Totals:    jsonTotals{Tally: rep.Stats.Totals, Positions: rep.Stats.Positions()},
		Format:    jsonFormat,
		MinGames:  rep.Options.MinGames,
		DFRCTable: rep.WithDFRC,
	}
	for _, r := range rep.Stats.Rows(rep.Options) {
		doc.Rows = append(doc.Rows, toJSON(&r))
	}
	if rep.WithDFRC {
		doc.DFRC = []jsonRow{}
		for _, r := range rep.Stats.DFRCRows(rep.Options) {
			doc.DFRC = append(doc.DFRC, toJSON(&r))
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
// one position or DFRC pair, which WriteJSON never writes: adding both
// would count games twice. On error s is unchanged.
func (s *Stats) ReadJSON(r io.Reader) (Merged, error) {
	var doc struct {
		Rows   []readRow  `json:"rows"`
		DFRC   []readRow  `json:"dfrc"`
		Totals jsonTotals `json:"totals"`
		Format string     `json:"format"`
		Min    int64      `json:"min_games"`
		Table  bool       `json:"dfrc_table"`
	}
	dec := json.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		return Merged{}, fmt.Errorf("%w: %w", ErrNotStats, err)
	}
	if doc.Format != jsonFormat {
		return Merged{}, fmt.Errorf("%w (format %q, want %q)", ErrNotStats, doc.Format, jsonFormat)
	}
	if doc.Min > 1 {
		return Merged{}, fmt.Errorf("%w (at least %d games a row)", ErrFiltered, doc.Min)
	}
	// The document's totals hold no SPs: Distinct comes from the rows.
	part := Stats{Totals: doc.Totals.Tally}
	var rowOf [numbering.Count]int // the row of each SP, from 1
	for i := range doc.Rows {
		row := &doc.Rows[i]
		sp, err := strconv.Atoi(string(row.SP))
		if err != nil || sp < 0 || sp >= len(part.SP) {
			return Merged{}, fmt.Errorf("%w: row %d has sp %s", ErrNotStats, i+1, row.SP)
		}
		if err := row.check(); err != nil {
			return Merged{}, fmt.Errorf("row %d (sp %d): %w", i+1, sp, err)
		}
		if rowOf[sp] != 0 {
			return Merged{}, fmt.Errorf("%w: sp %d, in rows %d and %d", ErrDuplicated, sp, rowOf[sp], i+1)
		}
		rowOf[sp] = i + 1
		part.SP[sp] = row.Counts
		if row.Games > 0 {
			part.Totals.Mark(sp)
		}
	}
	pairRow := make(map[Pair]int, len(doc.DFRC))
	for i := range doc.DFRC {
		row := &doc.DFRC[i]
		var p Pair
		var key string
		if err := json.Unmarshal(row.SP, &key); err != nil {
			return Merged{}, fmt.Errorf("%w: DFRC row %d has sp %s", ErrNotStats, i+1, row.SP)
		}
		if _, err := fmt.Sscanf(key, "%d:%d", &p.White, &p.Black); err != nil || p.White < 0 || p.White >= 960 || p.Black < 0 || p.Black >= 960 {
			return Merged{}, fmt.Errorf("%w: DFRC row %d has sp %q", ErrNotStats, i+1, key)
		}
		if err := row.check(); err != nil {
			return Merged{}, fmt.Errorf("DFRC row %d (%s): %w", i+1, key, err)
		}
		if first := pairRow[p]; first != 0 {
			return Merged{}, fmt.Errorf("%w: DFRC pair %s, in DFRC rows %d and %d", ErrDuplicated, p, first, i+1)
		}
		pairRow[p] = i + 1
		*part.pair(p) = row.Counts
	}
	s.Merge(&part)
	return Merged{DFRCTable: doc.Table || doc.Totals.DFRC == 0}, nil
}

// readRow is a jsonRow as read back: only the raw counts matter.
type readRow struct {
	SP json.RawMessage `json:"sp"`
	Counts
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
		WhiteEloSum   int64           `json:"white_elo_sum"`
		WhiteEloGames int64           `json:"white_elo_games"`
		BlackEloSum   int64           `json:"black_elo_sum"`
		BlackEloGames int64           `json:"black_elo_games"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	if j.SumPlies == nil {
		return fmt.Errorf("%w: a row has no sum_plies", ErrNotStats)
	}
	r.SP = j.SP
	r.Counts = Counts{Games: j.Games, WhiteWins: j.WhiteWins, Draws: j.Draws, BlackWins: j.BlackWins, Unfinished: j.Unfinished,
		Plies: *j.SumPlies, WhiteEloSum: j.WhiteEloSum, WhiteEloGames: j.WhiteEloGames, BlackEloSum: j.BlackEloSum, BlackEloGames: j.BlackEloGames}
	return nil
}

// check catches rows edited by hand into nonsense.
func (r *readRow) check() error {
	c := &r.Counts
	if c.Games < 0 || c.WhiteWins < 0 || c.Draws < 0 || c.BlackWins < 0 || c.Unfinished < 0 || c.Plies < 0 ||
		c.WhiteEloGames < 0 || c.BlackEloGames < 0 || c.WhiteEloGames > c.Games || c.BlackEloGames > c.Games {
		return fmt.Errorf("%w: negative or impossible counts", ErrNotStats)
	}
	if c.WhiteWins+c.Draws+c.BlackWins+c.Unfinished != c.Games {
		return fmt.Errorf("%w: white_wins + draws + black_wins + unfinished is not games", ErrNotStats)
	}
	return nil
}
