package stats

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// TestReportColumns checks the CSV and Markdown of a choice of columns
// against the full CSV, cut down and reordered here column by column, with
// and without groups and DFRC pairs.
func TestReportColumns(t *testing.T) {
	data := readFixture(t)
	for _, tt := range []struct {
		name    string
		groupBy []string
		columns []string
	}{
		{"reordered", nil, []string{"games", "sp", "white_score"}},
		{"one column", nil, []string{"p_value"}},
		{"grouped, the group first", []string{"Event"}, []string{"rank", "games"}},
		{"every column, backwards", nil, backwards(Columns)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s Stats
			if err := s.SetGroupBy(tt.groupBy); err != nil {
				t.Fatal(err)
			}
			if err := runOver(&s, data); err != nil {
				t.Fatal(err)
			}
			full := csvTables(t, &Report{Stats: &s, WithDFRC: true})
			chosen := csvTables(t, &Report{Stats: &s, WithDFRC: true, Columns: tt.columns})
			if len(full) != 2 || len(chosen) != 2 {
				t.Fatalf("%d and %d tables, want the rows' and the DFRC pairs'", len(full), len(chosen))
			}
			for k := range full {
				header := full[k][0]
				want := make([][]string, len(full[k]))
				for i, row := range full[k] {
					want[i] = append([]string(nil), row[:len(tt.groupBy)]...)
					for _, name := range tt.columns {
						want[i] = append(want[i], row[slices.Index(header, name)])
					}
				}
				if !slices.EqualFunc(chosen[k], want, slices.Equal) {
					t.Errorf("table %d:\n got %q\nwant %q", k, chosen[k], want)
				}
			}
			var md bytes.Buffer
			if err := (&Report{Stats: &s, Columns: tt.columns}).WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(md.String(), "\n")
			if want := "| " + strings.Join(chosen[0][0], " | ") + " |"; lines[0] != want {
				t.Errorf("Markdown header %q, want %q", lines[0], want)
			}
			var align []string
			for i, name := range chosen[0][0] {
				if i < len(tt.groupBy) || name == "rank" || name == "sp" || name == "fritz9" {
					align = append(align, " --- ")
				} else {
					align = append(align, " ---: ")
				}
			}
			if want := "|" + strings.Join(align, "|") + "|"; lines[1] != want {
				t.Errorf("Markdown alignment %q, want %q", lines[1], want)
			}
		})
	}
}

func backwards(s []string) []string {
	b := slices.Clone(s)
	slices.Reverse(b)
	return b
}

// runOver counts the games of data into s on one worker.
func runOver(s *Stats, data []byte) error {
	return Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), s, pipeline.Options{Jobs: 1})
}

// csvTables writes rep as CSV and reads back its tables, which a blank
// line parts.
func csvTables(t *testing.T, rep *Report) [][][]string {
	t.Helper()
	var b bytes.Buffer
	if err := rep.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	var tables [][][]string
	for _, part := range strings.Split(b.String(), "\n\n") {
		rows, err := csv.NewReader(strings.NewReader(part)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, rows)
	}
	return tables
}

func TestCheckColumns(t *testing.T) {
	for _, tt := range []struct {
		name    string
		columns []string
		want    error
		message string
	}{
		{"all", Columns, nil, ""},
		{"one", []string{"games"}, nil, ""},
		{"none", []string{}, ErrColumn, "bad column choice: no column named"},
		{"unknown", []string{"sp", "wins"}, ErrUnknownColumn, `unknown column "wins"; the columns are ` + strings.Join(Columns, ", ")},
		{"a group-by field is not a column", []string{"Event"}, ErrUnknownColumn, ""},
		{"twice", []string{"sp", "games", "sp"}, ErrColumn, "bad column choice: sp is named twice"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckColumns(tt.columns)
			if !errors.Is(err, tt.want) || tt.want == nil && err != nil {
				t.Fatalf("CheckColumns(%q) = %v, want %v", tt.columns, err, tt.want)
			}
			if tt.message != "" && err.Error() != tt.message {
				t.Errorf("message %q, want %q", err, tt.message)
			}
			rep := &Report{Stats: &Stats{}, Columns: tt.columns}
			if err := rep.WriteCSV(&bytes.Buffer{}); !errors.Is(err, tt.want) || tt.want == nil && err != nil {
				t.Errorf("WriteCSV: %v, want %v", err, tt.want)
			}
		})
	}
}
