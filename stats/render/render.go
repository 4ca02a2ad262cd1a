// Package render puts the statistics of package stats out for people: as
// aligned columns for a terminal, as a chart of White's score per start
// position (SVG or PNG), and as a self-contained HTML page. It also names
// the output formats, and picks one from a file's name.
//
// The counting package stays free of the table and plotting libraries,
// which only this package brings in.
package render

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/frctool/frctool/internal/stream"
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
	return 0, fmt.Errorf("unknown format %q (want table, csv, json or markdown)", s)
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
func WriteTable(w io.Writer, rep *stats.Report) error {
	write := func(rows []stats.Row, title string) error {
		t := table.NewWriter()
		t.SetOutputMirror(nil)
		style := table.StyleLight
		style.Format.Header = text.FormatDefault // keep the column names as CSV and JSON write them
		t.SetStyle(style)
		if title != "" {
			t.SetTitle(title)
		}
		names := rep.Header()
		groups := len(names) - len(stats.Columns)
		header := make(table.Row, len(names))
		for i, c := range names {
			header[i] = c
		}
		t.AppendHeader(header)
		cfg := make([]table.ColumnConfig, len(names))
		for i := range names {
			cfg[i] = table.ColumnConfig{Number: i + 1, Align: text.AlignRight, AlignHeader: text.AlignRight}
			if i < groups || i == groups+2 { // the group values and the rank are text
				cfg[i].Align, cfg[i].AlignHeader = text.AlignLeft, text.AlignLeft
			}
		}
		t.SetColumnConfigs(cfg)
		for i := range rows {
			cells := rows[i].Cells()
			row := make(table.Row, len(cells))
			for j, c := range cells {
				row[j] = c
			}
			t.AppendRow(row)
		}
		_, err := io.WriteString(w, t.Render()+"\n")
		return err
	}
	if err := write(rep.Rows(), ""); err != nil {
		return err
	}
	if rep.WithDFRC {
		return write(rep.DFRCRows(), "DFRC pairs (white_sp:black_sp)")
	}
	return nil
}
