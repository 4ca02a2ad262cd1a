package render

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/stats"
)

// fixture counts the games of testdata/stats/games.pgn.
func fixture(t *testing.T) *stats.Stats {
	t.Helper()
	f, err := os.Open("../../testdata/stats/games.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var s stats.Stats
	if err := stats.Run(context.Background(), pgn.NewReader(f), &s, pipeline.Options{Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	return &s
}

func TestFormatOf(t *testing.T) {
	tests := []struct {
		name string
		file string
		want Format
	}{
		{"csv", "s.csv", CSV},
		{"json", "s.json", JSON},
		{"markdown", "s.md", Markdown},
		{"long markdown", "s.markdown", Markdown},
		{"upper case", "S.JSON", JSON},
		{"unknown extension", "s.txt", CSV},
		{"no extension", "stats", CSV},
		{"gzip", "s.json.gz", JSON},
		{"gzip long", "s.json.gzip", JSON},
		{"bzip2", "s.md.bz2", Markdown},
		{"zstd", "s.json.zst", JSON},
		{"zstd long", "s.json.zstd", JSON},
		{"compression upper case", "s.json.ZST", JSON},
		{"compression alone", "s.zst", CSV},
		{"only the last compression is looked through", "s.json.gz.zst", CSV},
		{"folder with a dot", "out.json/s", CSV},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatOf(tt.file); got != tt.want {
				t.Errorf("FormatOf(%q) = %d, want %d", tt.file, got, tt.want)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Format
		wantErr bool
	}{
		{"table", "table", Table, false},
		{"csv", "csv", CSV, false},
		{"json", "json", JSON, false},
		{"markdown", "markdown", Markdown, false},
		{"md", "md", Markdown, false},
		{"unknown", "xml", 0, true},
		{"case matters", "CSV", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFormat(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ParseFormat(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "--") {
				t.Errorf("the error names a flag: %v", err)
			}
		})
	}
}

func TestChartFormat(t *testing.T) {
	tests := []struct {
		name, file, want string
		wantErr          bool
	}{
		{"svg", "c.svg", "svg", false},
		{"png", "c.PNG", "png", false},
		{"compressed svg", "c.svg.gz", "svg", false},
		{"gif", "c.gif", "", true},
		{"no extension", "chart", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ChartFormat(tt.file)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ChartFormat(%q) = %q, %v; want %q, error %v", tt.file, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestWrite checks that each format goes to its writer, the table to
// go-pretty's.
func TestWrite(t *testing.T) {
	s := fixture(t)
	rep := &stats.Report{Stats: s, WithDFRC: true}
	tests := []struct {
		name   string
		f      Format
		prefix string
		holds  string
	}{
		{"table", Table, "┌", "DFRC pairs (white_sp:black_sp)"},
		{"csv", CSV, "sp,fritz9,rank,", "0:518,"},
		{"json", JSON, "{", `"format": "frctool-stats/1"`},
		{"markdown", Markdown, "| sp | fritz9 |", "### DFRC pairs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, rep, tt.f); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); !strings.HasPrefix(got, tt.prefix) || !strings.Contains(got, tt.holds) {
				t.Errorf("%s output does not start with %q and hold %q:\n%s", tt.name, tt.prefix, tt.holds, got)
			}
		})
	}
}

// svgMarks parses an SVG and counts the paths filled or stroked with each
// colour.
func svgMarks(t *testing.T, svg []byte) map[string]int {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	counts := map[string]int{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return counts
		}
		if err != nil {
			t.Fatalf("chart is not well-formed XML: %v", err)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "path" {
			for _, a := range el.Attr {
				if a.Name.Local == "style" {
					for _, c := range []string{"fill:#1F5FA8", "stroke:#8AA9CF", "stroke:#C0392B"} {
						if strings.Contains(a.Value, c) {
							counts[c]++
						}
					}
				}
			}
		}
	}
}

func TestChartSVG(t *testing.T) {
	for _, n := range []int{5, 960} {
		var s stats.Stats
		for sp := 0; sp < n; sp++ {
			s.SP[sp] = stats.Counts{Games: 10, WhiteWins: int64(sp % 7), Draws: 3, BlackWins: 7 - int64(sp%7), Plies: 800}
		}
		s.SP[n-1] = stats.Counts{Games: 2, Unfinished: 2} // no score: no mark
		var b bytes.Buffer
		if err := Chart(&b, &s, "svg", stats.Options{}); err != nil {
			t.Fatal(err)
		}
		m := svgMarks(t, b.Bytes())
		marks := n - 1
		// One dot per scored position and one in the legend; an error bar
		// is three strokes (the bar and its two caps); the mean line is
		// drawn once on the plot and once in the legend.
		if m["fill:#1F5FA8"] != marks+1 || m["stroke:#8AA9CF"] != 3*marks || m["stroke:#C0392B"] != 2 {
			t.Errorf("%d positions: marks %v, want %d dots, %d bar strokes, 2 mean lines", n, m, marks+1, 3*marks)
		}
	}
	var b bytes.Buffer
	if err := Chart(&b, new(stats.Stats), "png", stats.Options{}); err != nil || !bytes.HasPrefix(b.Bytes(), []byte("\x89PNG")) {
		t.Errorf("empty PNG chart: %v", err)
	}
}

func TestHTML(t *testing.T) {
	s := fixture(t)
	var b bytes.Buffer
	if err := WriteHTML(&b, &stats.Report{Stats: s, WithDFRC: true}, "Fixture <games>"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"<title>Fixture &lt;games&gt;</title>", "<svg", "</svg>", "<style>",
		`<span class="board" title="RNBQKBNR"><span class="d">♖`, // a1 is dark
		`title="RNBQKBNR"><span class="l">♜`,                     // Black's a8 is light
		"BBQNNRKR:rnbqkbnr", "<dd>14</dd>", "<dd>0.625</dd>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Self-contained: nothing fetched. The only URLs are SVG's namespaces.
	rest := strings.NewReplacer(`"http://www.w3.org/2000/svg"`, "", `"http://www.w3.org/1999/xlink"`, "").Replace(page)
	for _, bad := range []string{"http:", "https:", "<link", "<script", "<img", "url(", "@import", "@font-face"} {
		if strings.Contains(rest, bad) {
			t.Errorf("page refers to outside resources: %q", bad)
		}
	}
}

// The group menu counts in words that agree with the numbers.
func TestHTMLGroupMenuCounts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		games string
		want  []string
	}{
		{"one group of one game", "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n",
			[]string{">all 1 group</option>", ">Event = a (1 game)</option>"}},
		{"two groups", "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n\n[Event \"b\"]\n[Result \"*\"]\n\n*\n",
			[]string{">all 2 groups</option>", ">Event = a (1 game)</option>", ">Event = b (2 games)</option>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s stats.Stats
			if err := s.SetGroupBy([]string{"Event"}); err != nil {
				t.Fatal(err)
			}
			if err := stats.Run(context.Background(), pgn.NewReader(strings.NewReader(tc.games)), &s, pipeline.Options{Jobs: 1}); err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WriteHTML(&b, &stats.Report{Stats: &s}, "Groups"); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				if !strings.Contains(b.String(), want) {
					t.Errorf("page lacks %q", want)
				}
			}
		})
	}
}

// TestGroupNamesKeepTheirCells: a group's name is a tag's value, and may
// hold a '|', a line break, a backslash or a terminal's escape sequence.
// Markdown keeps it one cell of one row, and the terminal's table shows
// it escaped and its columns lined up; CSV writes it as it is, quoted.
func TestGroupNamesKeepTheirCells(t *testing.T) {
	// The tag's value is a|b\c and an escape sequence; a PGN value
	// writes its backslash twice.
	const game = "[Event \"a|b\\\\c\x1b[31m\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n"
	var s stats.Stats
	if err := s.SetGroupBy([]string{"Event"}); err != nil {
		t.Fatal(err)
	}
	if err := stats.Run(context.Background(), pgn.NewReader(strings.NewReader(game)), &s, pipeline.Options{Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	rep := &stats.Report{Stats: &s, Columns: []string{"sp", "games"}}
	for _, tc := range []struct {
		name string
		f    Format
		want string // the row's line
	}{
		{"markdown", Markdown, `| a\|b\\c\x1b[31m | 518 | 1 |`},
		{"table", Table, `│ a|b\c\x1b[31m │ 518 │     1 │`},
		{"csv", CSV, "a|b\\c\x1b[31m,518,1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, rep, tc.f); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(b.String(), "\n")
			if !slices.Contains(lines, tc.want) {
				t.Errorf("no line %q in:\n%s", tc.want, b.String())
			}
			if tc.f != CSV && strings.ContainsRune(b.String(), 0x1b) {
				t.Errorf("a raw escape in:\n%q", b.String())
			}
		})
	}
}
