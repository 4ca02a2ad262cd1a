package render

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
	"github.com/frctool/frctool/stats"
)

// eventGames counts, grouped by Event, groups[i] games from every start
// position in a group of its own, E<i>, and i more from SP 518.
func eventGames(t *testing.T, groups int) *stats.Stats {
	t.Helper()
	var text strings.Builder
	game := func(event string, sp int) {
		r, _ := numbering.FromSP(sp)
		fmt.Fprintf(&text, "[Event %q]\n[FEN \"%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n\n1-0\n\n",
			event, strings.ToLower(r.String()), r.String())
	}
	for g := range groups {
		for sp := range numbering.Count {
			game(fmt.Sprintf("E%02d", g), sp)
		}
		for range g {
			game(fmt.Sprintf("E%02d", g), 518)
		}
	}
	var s stats.Stats
	if err := s.SetGroupBy([]string{"Event"}); err != nil {
		t.Fatal(err)
	}
	if err := stats.Run(context.Background(), pgn.NewReader(strings.NewReader(text.String())), &s, pipeline.Options{Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	return &s
}

// TestWriteTableInBlocks checks a table of more rows than the library is
// given at a time against the same rows given to it at once.
func TestWriteTableInBlocks(t *testing.T) {
	s := eventGames(t, 3) // 2,880 rows: three blocks
	var dfrc stats.Stats
	for i := range 2*tableBlock + 1 {
		if err := dfrc.Add(stats.Game{Counted: true, Outcome: stats.Draw,
			Start: startpos.Start{Kind: startpos.DFRC, White: i / numbering.Count, Black: i%numbering.Count + 1}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name string
		rep  *stats.Report
	}{
		{"grouped", &stats.Report{Stats: s}},
		{"DFRC pairs", &stats.Report{Stats: &dfrc, WithDFRC: true}},
		{"empty", &stats.Report{Stats: new(stats.Stats), WithDFRC: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got bytes.Buffer
			if err := WriteTable(&got, tt.rep); err != nil {
				t.Fatal(err)
			}
			want := atOnce(tt.rep.Rows(), tt.rep.Header(), "")
			if tt.rep.WithDFRC {
				want += atOnce(tt.rep.DFRCRows(), tt.rep.Header(), "DFRC pairs (white_sp:black_sp)")
			}
			if got.String() != want {
				g, w := strings.Split(got.String(), "\n"), strings.Split(want, "\n")
				for i := range min(len(g), len(w)) {
					if g[i] != w[i] {
						t.Fatalf("line %d of %d (want %d):\n%s\nwant\n%s", i+1, len(g), len(w), g[i], w[i])
					}
				}
				t.Fatalf("%d lines, want %d", len(g), len(w))
			}
		})
	}
}

// atOnce renders rows as one table, as WriteTable did before it gave the
// library blocks of rows.
func atOnce(rows []stats.Row, names []string, title string) string {
	t := table.NewWriter()
	style := table.StyleLight
	style.Format.Header = text.FormatDefault
	t.SetStyle(style)
	if title != "" {
		t.SetTitle(title)
	}
	header := make(table.Row, len(names))
	for i, c := range names {
		header[i] = c
	}
	t.AppendHeader(header)
	groups := len(names) - len(stats.Columns)
	cfg := make([]table.ColumnConfig, len(names))
	for i := range names {
		cfg[i] = table.ColumnConfig{Number: i + 1, Align: text.AlignRight, AlignHeader: text.AlignRight}
		if i < groups || i == groups+2 {
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
	return t.Render() + "\n"
}

// TestHTMLRowBound checks that the page's tables stay within MaxPageRows:
// the groups of the most games are shown, and a table too large alone
// shows its first rows, and the page says what it leaves out.
func TestHTMLRowBound(t *testing.T) {
	groups := MaxPageRows/numbering.Count + 4 // four groups too many
	s := eventGames(t, groups)
	var b bytes.Buffer
	if err := WriteHTML(&b, &stats.Report{Stats: s}, "Many groups"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	shown := MaxPageRows / numbering.Count
	sections := regexp.MustCompile(`<h2 class="group">Event = (E\d+)</h2>`).FindAllStringSubmatch(page, -1)
	if len(sections) != shown {
		t.Fatalf("%d groups shown, want %d", len(sections), shown)
	}
	for i, m := range sections { // the groups of the most games, in order
		if want := fmt.Sprintf("E%02d", groups-shown+i); m[1] != want {
			t.Errorf("group %d shown is %s, want %s", i+1, m[1], want)
		}
	}
	for _, want := range []string{
		fmt.Sprintf("This page shows the %d groups with the most games, of %d, so that its tables stay within %d rows", shown, groups, MaxPageRows),
		fmt.Sprintf(">all %d groups shown</option>", shown),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, "</td></tr>"); n != shown*numbering.Count {
		t.Errorf("%d rows on the page, want %d", n, shown*numbering.Count)
	}

	// One table too large for the page alone shows its first rows.
	var dfrc stats.Stats
	pairs := MaxPageRows + 5
	for i := range pairs {
		if err := dfrc.Add(stats.Game{Counted: true, Outcome: stats.Draw,
			Start: startpos.Start{Kind: startpos.DFRC, White: i / numbering.Count, Black: i%numbering.Count + 1}}); err != nil {
			t.Fatal(err)
		}
	}
	b.Reset()
	if err := WriteHTML(&b, &stats.Report{Stats: &dfrc, WithDFRC: true}, "Many pairs"); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("DFRC pairs, White's back rank : Black's (the first %d of %d)", MaxPageRows, pairs)
	if !strings.Contains(b.String(), want) {
		t.Errorf("page lacks %q:\n%s", want, regexp.MustCompile(`<h2>[^<]*`).FindAllString(b.String(), -1))
	}
	if want := fmt.Sprintf("This page shows the first %d rows of the tables, of %d, so that it stays readable; every row is in the CSV and JSON tables.", MaxPageRows, pairs); !strings.Contains(b.String(), want) {
		t.Errorf("page lacks %q", want)
	}
	if strings.Contains(b.String(), "groups with the most games") {
		t.Errorf("an ungrouped page speaks of groups left out")
	}
}

// TestReportChartUsesReportRows checks that the chart drawn from a
// report's rows is the chart of Chart, also when the report holds the
// positions never played (Options.All), which the chart leaves out, and
// a group of DFRC games only, which has no panel.
func TestReportChartUsesReportRows(t *testing.T) {
	const games = `[Event "a"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"]
[SetUp "1"]
[Result "1-0"]

1-0

[Event "a"]
[Result "1/2-1/2"]

1/2-1/2

[Event "b"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
[SetUp "1"]
[Result "0-1"]

0-1
`
	var s stats.Stats
	if err := s.SetGroupBy([]string{"Event"}); err != nil {
		t.Fatal(err)
	}
	if err := stats.Run(context.Background(), pgn.NewReader(strings.NewReader(games)), &s, pipeline.Options{Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	draw := func(f func(*bytes.Buffer) error) string {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	want := draw(func(b *bytes.Buffer) error { return Chart(b, &s, "svg", stats.Options{Sort: stats.SortScore}) })
	if strings.Contains(want, "Event = b") || !strings.Contains(want, "Event = a") {
		t.Fatalf("the chart's panels are not those of group a alone")
	}
	for _, opts := range []stats.Options{{Sort: stats.SortScore}, {Sort: stats.SortScore, All: true}} {
		rep := &stats.Report{Stats: &s, Options: opts}
		rows := len(rep.Rows())
		if got := draw(func(b *bytes.Buffer) error { return ReportChart(b, rep, "svg") }); got != want {
			t.Errorf("all %v: the chart from the report's %d rows differs from Chart's", opts.All, rows)
		}
	}
}
