// Package render puts the statistics of package stats out for people: as
// aligned columns for a terminal, as a chart of White's score per start
// position (SVG or PNG), and as a self-contained HTML page. It also names
// the output formats, and picks one from a file's name.
//
// The counting package stays free of the table and plotting libraries,
// which only this package brings in.
package render

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/stats"
)

// Format is an output format of the table.
type Format uint8

// The formats.
const (
	Table    Format = iota // aligned columns for a terminal
	CSV                    // comma-separated, one header row
	JSON                   // one document, with raw sums for merging
	Markdown               // a GitHub-flavoured Markdown table
)

// ParseFormat reads a format's name: table, csv, json, markdown (or md).
func ParseFormat(s string) (Format, error) {
	switch s {
	case "table":
		return Table, nil
	case "csv":
		return CSV, nil
	case "json":
		return JSON, nil
	case "markdown", "md":
		return Markdown, nil
	}
	return 0, fmt.Errorf("unknown format %s (want table, csv, json or markdown)", words.Quote(s))
}

// FormatOf returns the format a file's name asks for: JSON for .json,
// Markdown for .md or .markdown, CSV for anything else. A compression
// extension the file will be written with (.gz, .zst and the others
// internal/stream knows) is looked through, so "x.json.zst" is JSON.
func FormatOf(name string) Format {
	if stream.ByExtension(name) != stream.None {
		name = strings.TrimSuffix(name, filepath.Ext(name))
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return JSON
	case ".md", ".markdown":
		return Markdown
	}
	return CSV
}

// Write writes the report in format f.
func Write(w io.Writer, rep *stats.Report, f Format) error {
	switch f {
	case CSV:
		return rep.WriteCSV(w)
	case JSON:
		return rep.WriteJSON(w)
	case Markdown:
		return rep.WriteMarkdown(w)
	default:
		return WriteTable(w, rep)
	}
}

// WriteTable writes the rows as aligned columns for a terminal, and the
// DFRC pairs as a second table.
//
// The table library holds every row it is given, several times over in
// its cells and their text, so a large table is given to it a block of
// rows at a time. The columns' widths are measured over all the rows
// first, so that the blocks line up as one table; each block but the
// first leaves out its top border, and each but the last its bottom one.
func WriteTable(w io.Writer, rep *stats.Report) error {
	if err := rep.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	names := rep.Header()
	write := func(rows []stats.Row, title string) {
		widths := make([]int, len(names))
		for i, name := range names {
			widths[i] = text.StringWidthWithoutEscSequences(name)
		}
		for i := range rows {
			for j, c := range rep.Cells(&rows[i]) {
				widths[j] = max(widths[j], text.StringWidthWithoutEscSequences(shown(c)))
			}
		}
		for start := 0; start == 0 || start < len(rows); start += tableBlock {
			end := min(start+tableBlock, len(rows))
			t := newTable(rep, widths)
			if start == 0 {
				if title != "" {
					t.SetTitle(title)
				}
				header := make(table.Row, len(names))
				for i, c := range names {
					header[i] = c
				}
				t.AppendHeader(header)
			}
			for i := start; i < end; i++ {
				cells := rep.Cells(&rows[i])
				row := make(table.Row, len(cells))
				for j, c := range cells {
					row[j] = shown(c)
				}
				t.AppendRow(row)
			}
			out := t.Render()
			if start > 0 { // the top border
				_, out, _ = strings.Cut(out, "\n")
			}
			if end < len(rows) { // the bottom border
				out = out[:max(strings.LastIndexByte(out, '\n'), 0)]
			}
			bw.WriteString(out)
			bw.WriteByte('\n')
		}
	}
	write(rep.Rows(), "")
	if rep.WithDFRC {
		write(rep.DFRCRows(), "DFRC pairs (white_sp:black_sp)")
	}
	return bw.Flush()
}

// shown is a cell as the table shows it on a terminal: a group's name is a
// tag's value, whose control characters (an escape sequence) would act on
// the terminal, so they are escaped as every message escapes them.
func shown(c string) string { return pgn.EscapeControls(c) }

// tableBlock is how many rows the table library is given at a time.
const tableBlock = 1000

// newTable returns a table of the report's columns, each at least as wide
// as widths says.
func newTable(rep *stats.Report, widths []int) table.Writer {
	t := table.NewWriter()
	t.SetOutputMirror(nil)
	style := table.StyleLight
	style.Format.Header = text.FormatDefault // keep the column names as CSV and JSON write them
	t.SetStyle(style)
	cfg := make([]table.ColumnConfig, len(widths))
	for i := range widths {
		cfg[i] = table.ColumnConfig{Number: i + 1, Align: text.AlignRight, AlignHeader: text.AlignRight, WidthMin: widths[i]}
		if rep.TextColumn(i) {
			cfg[i].Align, cfg[i].AlignHeader = text.AlignLeft, text.AlignLeft
		}
	}
	t.SetColumnConfigs(cfg)
	return t
}

// FitColumns chooses the report's Columns so that its table (and the DFRC
// pairs' table) is at most width characters wide, keeping the columns a
// reader needs most: the key, the back rank, the games and White's score
// with its interval first, then the draw rate, the score against the
// ratings' expectation and the test, the counts behind the score, and the
// ratings' own columns last (fitOrder). The group-by fields, the key, the back
// rank and the games are kept even when they alone are wider. It returns
// the columns left out, in Columns' order, and leaves Columns as it is
// when the whole table fits.
func FitColumns(rep *stats.Report, width int) (left []string) {
	names := append(rep.Stats.GroupBy(), stats.Columns...)
	widths := make([]int, len(names))
	for i, name := range names {
		widths[i] = text.StringWidthWithoutEscSequences(name)
	}
	measure := func(rows []stats.Row) {
		for i := range rows {
			for j, c := range rows[i].Cells() {
				widths[j] = max(widths[j], text.StringWidthWithoutEscSequences(shown(c)))
			}
		}
	}
	measure(rep.Rows())
	if rep.WithDFRC {
		measure(rep.DFRCRows())
	}
	groups := len(names) - len(stats.Columns)
	used := 1 // the left border; each column adds its padding and a border
	for _, w := range widths[:groups] {
		used += w + 3
	}
	kept := make(map[string]bool, len(stats.Columns))
	for i, unit := range fitOrder(rep.Options.By) {
		w := 0
		for _, name := range unit {
			w += widths[groups+slices.Index(stats.Columns, name)] + 3
		}
		if used+w > width && i >= 3 {
			break
		}
		used += w
		for _, name := range unit {
			kept[name] = true
		}
	}
	if len(kept) == len(stats.Columns) {
		return nil
	}
	rep.Columns = nil
	for _, name := range stats.Columns {
		if kept[name] {
			rep.Columns = append(rep.Columns, name)
		} else {
			left = append(left, name)
		}
	}
	return left
}

// fitOrder is the order in which FitColumns keeps the columns, the rows'
// key first; columns read together, as an interval's two ends, are kept
// or left out together.
func fitOrder(by numbering.Scheme) [][]string {
	key, other := "sp", "fritz9"
	if by == numbering.Fritz9 {
		key, other = other, key
	}
	return [][]string{{key}, {"rank"}, {"games"}, {"white_score"}, {"score_low", "score_high"},
		{"draw_rate"}, {"score_vs_expected"}, {"significant"}, {"p_value"},
		{"white_wins", "draws", "black_wins"}, {"avg_plies"}, {other}, {"rated_games"},
		{"expected_score"}, {"vs_expected_low", "vs_expected_high"},
		{"avg_white_elo", "avg_black_elo"}, {"unfinished"}}
}
