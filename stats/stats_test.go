package stats

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/stats")

const fixture = "../testdata/stats/games.pgn"

// count runs the statistics over a PGN text.
func count(t testing.TB, data []byte, jobs int) (*Stats, []*pgn.ParseError) {
	t.Helper()
	var s Stats
	var warnings []*pgn.ParseError
	r := pgn.NewReader(bytes.NewReader(data))
	r.Name = "games.pgn"
	if err := Run(context.Background(), r, jobs, &s, pgn.Hooks{Warn: func(p *pgn.ParseError) { warnings = append(warnings, p) }}); err != nil {
		t.Fatal(err)
	}
	return &s, warnings
}

func readFixture(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFixtureCounts checks the fixture against counts worked out by hand
// from the games' comments in testdata/stats/games.pgn.
func TestFixtureCounts(t *testing.T) {
	s, warnings := count(t, readFixture(t), 1)

	// SP 518 (no FEN): G1..G8.
	//   G1 1-0 PlyCount 41, Elo 2500/2400
	//   G2 0-1, 6 main-line plies (comments, variations, NAGs skipped), Elo ?/2600
	//   G3 1/2, 3 plies, no Elo;  G4 *, 1 ply, WhiteElo 2450
	//   G5 no result at all: unfinished, 2 plies
	//   G6 [Result "?"], marker 0-1 decides, 4 plies
	//   G7 tag 1-0 wins over marker 0-1, 1 ply;  G8 1/2, PlyCount "many": 3 plies
	want518 := Counts{Games: 8, WhiteWins: 2, Draws: 2, BlackWins: 2, Unfinished: 2,
		Plies:       41 + 6 + 3 + 1 + 2 + 4 + 1 + 3,
		WhiteEloSum: 2500 + 2450, WhiteEloGames: 2, BlackEloSum: 2400 + 2600, BlackEloGames: 2}
	if s.SP[518] != want518 {
		t.Errorf("SP 518:\n got %+v\nwant %+v", s.SP[518], want518)
	}
	// SP 0: G9 1-0 PlyCount 10, Elo 2000/0; G10 1-0, 2 plies (the ; comment
	// and the % line hold no moves).
	want0 := Counts{Games: 2, WhiteWins: 2, Plies: 12, WhiteEloSum: 2000, WhiteEloGames: 1}
	if s.SP[0] != want0 {
		t.Errorf("SP 0:\n got %+v\nwant %+v", s.SP[0], want0)
	}
	// DFRC 0:518: G11 0-1 PlyCount 60 Elo 3000/3100; G12 1/2, 3 plies.
	wantPair := Counts{Games: 2, Draws: 1, BlackWins: 1, Plies: 63, WhiteEloSum: 3000, WhiteEloGames: 1, BlackEloSum: 3100, BlackEloGames: 1}
	if c := s.DFRC[Pair{0, 518}]; c == nil || *c != wantPair || len(s.DFRC) != 1 {
		t.Errorf("DFRC: got %v, want only 0:518 = %+v", s.DFRC, wantPair)
	}
	wantTotals := Totals{Games: 14, Identified: 10, DFRC: 2, Other: 1, Unknown: 1, Warnings: 3}
	if s.Totals != wantTotals {
		t.Errorf("totals:\n got %+v\nwant %+v", s.Totals, wantTotals)
	}
	for i, want := range []error{pgn.ErrNoResult, ErrResultConflict, startpos.ErrNoFEN} {
		if i >= len(warnings) || !errors.Is(warnings[i], want) {
			t.Errorf("warning %d: got %v, want %v", i, warnings, want)
		}
	}
	if len(warnings) == 3 && warnings[1].Line != 43 {
		t.Errorf("conflict reported on line %d, want 43 (G7's moves)", warnings[1].Line)
	}

	rows := s.Rows(Options{})
	if len(rows) != 2 || rows[0].SP != 0 || rows[1].SP != 518 {
		t.Fatalf("rows: %+v", rows)
	}
	r := rows[1]
	if r.WhiteScore != 0.5 || math.Abs(r.DrawRate-1.0/3) > 1e-12 || r.AvgPlies != 61.0/8 || r.AvgWhiteElo != 2475 || r.AvgBlackElo != 2500 {
		t.Errorf("derived values of 518: %+v", r)
	}
	if r.Fritz9 != 359 || r.Rank.String() != "RNBQKBNR" {
		t.Errorf("518 is Fritz9 %d, rank %s", r.Fritz9, r.Rank)
	}
	if !math.IsNaN(rows[0].AvgBlackElo) {
		t.Errorf("SP 0 has no numeric BlackElo, but avg_black_elo = %v", rows[0].AvgBlackElo)
	}
}

func TestWilsonEdges(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 5e-5 }
	tests := []struct {
		name      string
		p         float64
		n         int64
		low, high float64
	}{
		{"0 of 10", 0, 10, 0, 0.2775},
		{"10 of 10", 1, 10, 0.7225, 1},
		{"one win", 1, 1, 0.2065, 1},
		{"one loss", 0, 1, 0, 0.7935},
		{"one draw", 0.5, 1, 0.0546, 0.9454},
		{"half of 100", 0.5, 100, 0.4038, 0.5962},
	}
	for _, tt := range tests {
		low, high := Wilson(tt.p, tt.n, Z95)
		if !near(low, tt.low) || !near(high, tt.high) {
			t.Errorf("%s: Wilson = [%.4f, %.4f], want [%.4f, %.4f]", tt.name, low, high, tt.low, tt.high)
		}
		if low < 0 || high > 1 || low > tt.p || high < tt.p {
			t.Errorf("%s: [%v, %v] does not hold %v within [0, 1]", tt.name, low, high, tt.p)
		}
	}
	if low, high := Wilson(0.5, 0, Z95); !math.IsNaN(low) || !math.IsNaN(high) {
		t.Errorf("0 games: [%v, %v], want NaN", low, high)
	}
	// A position with only unfinished games has no score and no interval.
	var s Stats
	s.SP[5] = Counts{Games: 3, Unfinished: 3}
	r := s.Rows(Options{})[0]
	if !math.IsNaN(r.WhiteScore) || !math.IsNaN(r.ScoreLow) || !math.IsNaN(r.DrawRate) {
		t.Errorf("unfinished only: %+v", r)
	}
}

// splitGames returns the raw bytes of each game of data.
func splitGames(t testing.TB, data []byte) [][]byte {
	all, err := pgn.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	games := make([][]byte, len(all))
	for i := range all {
		games[i] = all[i].Raw
	}
	return games
}

// TestMergeEqualsOneRun splits the games at random into parts, counts each
// part, writes it as JSON, reads the parts back and merges them: the result
// must equal counting everything at once, down to the bytes written.
func TestMergeEqualsOneRun(t *testing.T) {
	data := readFixture(t)
	if root := sharedtest.Root(); root != "" {
		files, _ := filepath.Glob(filepath.Join(root, "realdata", "*", "*.pgn"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			data = append(append(data, '\n'), b...)
		}
	}
	games := splitGames(t, data)
	whole, _ := count(t, data, 4)
	opts := Options{Sort: SortGames}
	wantJSON := render(t, whole, opts, JSON)
	wantCSV := render(t, whole, opts, CSV)

	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		parts := make([][]byte, 1+rng.IntN(6))
		for _, g := range games {
			k := rng.IntN(len(parts))
			parts[k] = append(parts[k], g...)
			// Each game ends with its blank line, so concatenating keeps
			// every game whole.
			if !bytes.HasSuffix(g, []byte("\n")) {
				parts[k] = append(parts[k], '\n')
			}
		}
		var merged Stats
		for _, p := range parts {
			s, _ := count(t, p, 1+rng.IntN(3))
			var buf bytes.Buffer
			if err := (&Report{Stats: s, WithDFRC: true}).WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			if _, err := merged.ReadJSON(&buf); err != nil {
				t.Fatal(err)
			}
		}
		if merged.SP != whole.SP || merged.Totals != whole.Totals {
			t.Fatalf("trial %d (%d parts): merged totals %+v, one run %+v", trial, len(parts), merged.Totals, whole.Totals)
		}
		if got := render(t, &merged, opts, JSON); got != wantJSON {
			t.Fatalf("trial %d: merged JSON differs from one run", trial)
		}
		if got := render(t, &merged, opts, CSV); got != wantCSV {
			t.Fatalf("trial %d: merged CSV differs from one run", trial)
		}
	}
}

func render(t testing.TB, s *Stats, opts Options, f Format) string {
	t.Helper()
	var b bytes.Buffer
	if err := (&Report{Stats: s, Options: opts, WithDFRC: true}).Write(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestMergeRefuses(t *testing.T) {
	s, _ := count(t, readFixture(t), 1)
	write := func(rep Report) *bytes.Buffer {
		var b bytes.Buffer
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		return &b
	}
	var m Stats
	if _, err := m.ReadJSON(write(Report{Stats: s, Options: Options{MinGames: 5}})); !errors.Is(err, ErrFiltered) {
		t.Errorf("--min-games 5 document: %v, want ErrFiltered", err)
	}
	if got, err := m.ReadJSON(write(Report{Stats: s})); err != nil || got.DFRCTable {
		t.Errorf("document without DFRC table: %+v, %v; want DFRCTable false", got, err)
	}
	for _, bad := range []string{`{}`, `[1]`, `{"format":"frctool-stats/1","rows":[{"sp":3,"games":2,"white_wins":1,"sum_plies":0}]}`, `not json`} {
		if _, err := m.ReadJSON(strings.NewReader(bad)); !errors.Is(err, ErrNotStats) {
			t.Errorf("ReadJSON(%s) = %v, want ErrNotStats", bad, err)
		}
	}
}

func TestSortAndFilter(t *testing.T) {
	var s Stats
	s.SP[1] = Counts{Games: 5, WhiteWins: 1, BlackWins: 4}
	s.SP[2] = Counts{Games: 9, Draws: 9}
	s.SP[3] = Counts{Games: 2, WhiteWins: 2}
	s.SP[4] = Counts{Games: 1, Unfinished: 1}
	keys := func(opts Options) string {
		var b strings.Builder
		for _, r := range s.Rows(opts) {
			b.WriteString(r.Key(opts.By) + " ")
		}
		return strings.TrimSpace(b.String())
	}
	tests := []struct {
		opts Options
		want string
	}{
		{Options{}, "1 2 3 4"},
		{Options{Sort: SortGames}, "2 1 3 4"},
		{Options{Sort: SortScore}, "3 2 1 4"}, // no score last
		{Options{Sort: SortDraws}, "2 1 3 4"},
		{Options{MinGames: 2}, "1 2 3"},
	}
	for _, tt := range tests {
		if got := keys(tt.opts); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.opts, got, tt.want)
		}
	}
	// By Fritz9 the rows are keyed and ordered by their Fritz9 numbers.
	rows := s.Rows(Options{By: numbering.Fritz9})
	for i := 1; i < len(rows); i++ {
		if rows[i-1].Fritz9 >= rows[i].Fritz9 {
			t.Errorf("--by fritz9 rows not in Fritz9 order: %d before %d", rows[i-1].Fritz9, rows[i].Fritz9)
		}
	}
	if n := len(s.Rows(Options{All: true})); n != 960 {
		t.Errorf("--all gives %d rows, want 960", n)
	}
	if n := len(s.Rows(Options{All: true, MinGames: 2})); n != 3 {
		t.Errorf("--all --min-games 2 gives %d rows, want 3", n)
	}
}

// TestGolden compares the layouts of CSV, JSON and Markdown with files in
// testdata/stats; go test -update rewrites them.
func TestGolden(t *testing.T) {
	s, _ := count(t, readFixture(t), 2)
	for _, tc := range []struct {
		file string
		f    Format
		opts Options
	}{
		{"games.csv.golden", CSV, Options{}},
		{"games.json.golden", JSON, Options{}},
		{"games-fritz9-all.csv.golden", CSV, Options{By: numbering.Fritz9, Sort: SortScore, All: true, MinGames: 0}},
		{"games.md.golden", Markdown, Options{}},
	} {
		got := render(t, s, tc.opts, tc.f)
		path := filepath.Join("..", "testdata", "stats", tc.file)
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs:\n%s", tc.file, got)
		}
	}
}

func TestCSVHeader(t *testing.T) {
	got := strings.SplitN(render(t, new(Stats), Options{}, CSV), "\n", 2)[0]
	want := "sp,fritz9,rank,games,white_wins,draws,black_wins,unfinished,white_score,draw_rate,score_low,score_high,avg_plies,avg_white_elo,avg_black_elo"
	if got != want {
		t.Errorf("CSV header\n got %s\nwant %s", got, want)
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
		var s Stats
		for sp := 0; sp < n; sp++ {
			s.SP[sp] = Counts{Games: 10, WhiteWins: int64(sp % 7), Draws: 3, BlackWins: 7 - int64(sp%7), Plies: 800}
		}
		s.SP[n-1] = Counts{Games: 2, Unfinished: 2} // no score: no mark
		var b bytes.Buffer
		if err := s.Chart(&b, "svg", Options{}); err != nil {
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
	if err := new(Stats).Chart(&b, "png", Options{}); err != nil || !bytes.HasPrefix(b.Bytes(), []byte("\x89PNG")) {
		t.Errorf("empty PNG chart: %v", err)
	}
}

func TestHTML(t *testing.T) {
	s, _ := count(t, readFixture(t), 1)
	var b bytes.Buffer
	if err := (&Report{Stats: s, WithDFRC: true}).WriteHTML(&b, "Fixture <games>"); err != nil {
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

func BenchmarkRun(b *testing.B) {
	data := readFixture(b)
	for len(data) < 4<<20 {
		data = append(data, data...)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		count(b, data, 1)
	}
}
