package stats

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
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
	if err := Run(context.Background(), r, &s, pipeline.Options{Jobs: jobs, Warn: func(p *pgn.ParseError) { warnings = append(warnings, p) }}); err != nil {
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
	// Only G1 (and G11 below) is rated: finished, with both ratings. By
	// the Elo formula White, 100 points above Black, expects
	// 1/(1+10^(-1/4)) = 0.640065 and scored 1.
	e := 1 / (1 + math.Pow(10, -100.0/400))
	scaled := func(x float64) int64 { return int64(math.Round(x * 1e9)) }
	want518 := Counts{Games: 8, WhiteWins: 2, Draws: 2, BlackWins: 2, Unfinished: 2,
		Plies: 41 + 6 + 3 + 1 + 2 + 4 + 1 + 3, PlyGames: 8,
		WhiteEloSum: 2500 + 2450, WhiteEloGames: 2, BlackEloSum: 2400 + 2600, BlackEloGames: 2,
		RatedGames: 1, RatedHalfPoints: 2, ExpectedSum: scaled(e), DiffSqSum: scaled((1 - e) * (1 - e))}
	if s.SP[518] != want518 {
		t.Errorf("SP 518:\n got %+v\nwant %+v", s.SP[518], want518)
	}
	// SP 0: G9 1-0 PlyCount 10, Elo 2000/0; G10 1-0, 2 plies (the ; comment
	// and the % line hold no moves).
	want0 := Counts{Games: 2, WhiteWins: 2, Plies: 12, PlyGames: 2, WhiteEloSum: 2000, WhiteEloGames: 1}
	if s.SP[0] != want0 {
		t.Errorf("SP 0:\n got %+v\nwant %+v", s.SP[0], want0)
	}
	// DFRC 0:518: G11 0-1 PlyCount 60 Elo 3000/3100; G12 1/2, 3 plies.
	// G11: White, 100 below, expects 1 - 0.640065 and scored 0.
	wantPair := Counts{Games: 2, Draws: 1, BlackWins: 1, Plies: 63, PlyGames: 2, WhiteEloSum: 3000, WhiteEloGames: 1, BlackEloSum: 3100, BlackEloGames: 1,
		RatedGames: 1, ExpectedSum: scaled(1 - e), DiffSqSum: scaled((1 - e) * (1 - e))}
	if c := s.DFRC[Pair{0, 518}]; c == nil || *c != wantPair || len(s.DFRC) != 1 {
		t.Errorf("DFRC: got %v, want only 0:518 = %+v", s.DFRC, wantPair)
	}
	wantTotals := "14 games, 10 identified (2 distinct SPs), 2 DFRC, 1 other start position, 1 unknown, 3 warnings"
	if got := s.Totals.String(); got != wantTotals {
		t.Errorf("totals:\n got %s\nwant %s", got, wantTotals)
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
	for _, no := range []struct {
		name string
		p    float64
		n    int64
	}{{"0 games", 0.5, 0}, {"games below 0", 0.5, -3}, {"p NaN", math.NaN(), 10}, {"p above 1", 2, 10}, {"p below 0", -0.5, 10}} {
		if low, high := Wilson(no.p, no.n, Z95); !math.IsNaN(low) || !math.IsNaN(high) {
			t.Errorf("%s: [%v, %v], want NaN", no.name, low, high)
		}
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
	wantJSON := render(t, whole, opts, (*Report).WriteJSON)
	wantCSV := render(t, whole, opts, (*Report).WriteCSV)

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
		// The totals compare with the SPs seen, so Distinct is right too.
		if merged.SP != whole.SP || merged.Totals != whole.Totals {
			t.Fatalf("trial %d (%d parts): merged totals %v, one run %v", trial, len(parts), &merged.Totals, &whole.Totals)
		}
		if d, p := merged.Totals.Distinct(), merged.Positions(); d != p {
			t.Fatalf("trial %d: %d distinct SPs in the totals, %d positions with games", trial, d, p)
		}
		if got := render(t, &merged, opts, (*Report).WriteJSON); got != wantJSON {
			t.Fatalf("trial %d: merged JSON differs from one run", trial)
		}
		if got := render(t, &merged, opts, (*Report).WriteCSV); got != wantCSV {
			t.Fatalf("trial %d: merged CSV differs from one run", trial)
		}
	}
}

// writer is one of the Report's writers.
type writer func(*Report, io.Writer) error

func render(t testing.TB, s *Stats, opts Options, write writer) string {
	t.Helper()
	var b bytes.Buffer
	if err := write(&Report{Stats: s, Options: opts, WithDFRC: true}, &b); err != nil {
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
	for _, bad := range []string{`{}`, `[1]`, `{"rows":[{"sp":5,"games":-3}]}`, `{"format":"frctool-stats/1","rows":[{"sp":3,"games":2,"white_wins":1,"sum_plies":0}]}`, `not json`} {
		_, err := m.ReadJSON(strings.NewReader(bad))
		if !errors.Is(err, ErrNotStats) {
			t.Errorf("ReadJSON(%s) = %v, want ErrNotStats", bad, err)
		} else if n := strings.Count(err.Error(), ErrNotStats.Error()); n != 1 {
			t.Errorf("ReadJSON(%s) = %v, which says what it is %d times", bad, err, n)
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
		file  string
		write writer
		opts  Options
	}{
		{"games.csv.golden", (*Report).WriteCSV, Options{}},
		{"games.json.golden", (*Report).WriteJSON, Options{}},
		{"games-fritz9-all.csv.golden", (*Report).WriteCSV, Options{By: numbering.Fritz9, Sort: SortScore, All: true, MinGames: 0}},
		{"games.md.golden", (*Report).WriteMarkdown, Options{}},
	} {
		got := render(t, s, tc.opts, tc.write)
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
	got := strings.SplitN(render(t, new(Stats), Options{}, (*Report).WriteCSV), "\n", 2)[0]
	want := "sp,fritz9,rank,games,white_wins,draws,black_wins,unfinished,white_score,draw_rate,score_low,score_high,avg_plies,avg_white_elo,avg_black_elo," +
		"rated_games,expected_score,score_vs_expected,vs_expected_low,vs_expected_high,p_value,significant"
	if got != want {
		t.Errorf("CSV header\n got %s\nwant %s", got, want)
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

// TestImplausibleValues checks that ratings and lengths no game has are
// reported and left out of the counts, and that the spellings of "not
// known" are left out silently.
func TestImplausibleValues(t *testing.T) {
	tests := []struct {
		name                string
		tags                string
		whiteElo, blackElo  int
		plies               int
		warnings            []string // what the problems say, in order
		warnLines           []int
		whiteAvg, pliesAvgs float64
	}{
		{"plausible", `[WhiteElo "2800"] [BlackElo " 1 "] [PlyCount "10000"]`, 2800, 1, 10000, nil, nil, 2800, 10000},
		{"spellings of unknown", `[WhiteElo "?"] [BlackElo "0"] [PlyCount "-"]`, 0, 0, 3, nil, nil, math.NaN(), 3},
		{"Elo too high", `[WhiteElo "40000"] [BlackElo "2000"]`, 0, 2000, 3,
			[]string{`[WhiteElo "40000"] is not within 1..4000; counted as no rating`}, []int{2}, math.NaN(), 3},
		{"negative Elo", `[BlackElo "-2500"]`, 0, 0, 3,
			[]string{`[BlackElo "-2500"] is not within 1..4000; counted as no rating`}, []int{2}, math.NaN(), 3},
		{"Elo overflowing int", `[WhiteElo "99999999999999999999"]`, 0, 0, 3,
			[]string{`[WhiteElo "99999999999999999999"] is not within 1..4000`}, []int{2}, math.NaN(), 3},
		{"PlyCount too high", `[PlyCount "9223372036854775807"]`, 0, 0, 3,
			[]string{`[PlyCount "9223372036854775807"] is not within 0..10000; the moves are counted instead`}, []int{2}, math.NaN(), 3},
		{"negative PlyCount", `[PlyCount "-40"]`, 0, 0, 3,
			[]string{`[PlyCount "-40"] is not within 0..10000`}, []int{2}, math.NaN(), 3},
		{"PlyCount overflowing int", `[PlyCount "123456789012345678901234567890"]`, 0, 0, 3,
			[]string{`[PlyCount "123456789012345678901234567890"] is not within 0..10000`}, []int{2}, math.NaN(), 3},
		{"all three", "[WhiteElo \"5000\"]\n[BlackElo \"6000\"]\n[PlyCount \"20000\"]", 0, 0, 3,
			[]string{`[WhiteElo "5000"]`, `[BlackElo "6000"]`, `[PlyCount "20000"]`}, []int{2, 3, 4}, math.NaN(), 3},
		{"all three, in another order", "[PlyCount \"20000\"]\n[BlackElo \"6000\"]\n[WhiteElo \"5000\"]", 0, 0, 3,
			[]string{`[WhiteElo "5000"]`, `[BlackElo "6000"]`, `[PlyCount "20000"]`}, []int{4, 3, 2}, math.NaN(), 3},
		{"the first of two tags of a name", "[WhiteElo \"2100\"]\n[WhiteElo \"9999\"]\n[PlyCount \"7\"]\n[PlyCount \"8\"]", 2100, 0, 7,
			nil, nil, 2100, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pgnText := "[Result \"1-0\"]\n" + tt.tags + "\n\n1. e4 e5 2. Nf3 1-0\n"
			r := pgn.NewReader(strings.NewReader(pgnText))
			r.Name = "elo.pgn"
			games, err := r.ReadAll()
			if err != nil || len(games) != 1 {
				t.Fatalf("%d games, %v", len(games), err)
			}
			g := Examine(&games[0])
			if g.WhiteElo != tt.whiteElo || g.BlackElo != tt.blackElo || g.Plies != tt.plies {
				t.Errorf("Elo %d/%d, %d plies; want %d/%d, %d", g.WhiteElo, g.BlackElo, g.Plies, tt.whiteElo, tt.blackElo, tt.plies)
			}
			if len(g.Problems) != len(tt.warnings) {
				t.Fatalf("problems %v, want %d", g.Problems, len(tt.warnings))
			}
			for i, p := range g.Problems {
				if !errors.Is(p, ErrImplausible) || !strings.Contains(p.Error(), tt.warnings[i]) || p.Line != tt.warnLines[i] ||
					!strings.HasPrefix(p.Error(), "elo.pgn:") {
					t.Errorf("problem %d: %q (line %d), want ErrImplausible saying %q on line %d", i, p, p.Line, tt.warnings[i], tt.warnLines[i])
				}
			}
			// Counted, the averages stay those of the plausible values.
			s, warnings := count(t, []byte(pgnText), 1)
			row := s.Rows(Options{})[0]
			same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
			if !same(row.AvgWhiteElo, tt.whiteAvg) || row.AvgPlies != tt.pliesAvgs || len(warnings) != len(tt.warnings) {
				t.Errorf("avg_white_elo %v, avg_plies %v, %d warnings; want %v, %v, %d",
					row.AvgWhiteElo, row.AvgPlies, len(warnings), tt.whiteAvg, tt.pliesAvgs, len(tt.warnings))
			}
		})
	}
}

// TestNumbersReadAsFieldsReadThem holds stats to the one rule for ratings
// and PlyCount (package fields), on values written oddly: what --where and
// export read as a rating or a length, stats counts, and nothing else.
func TestNumbersReadAsFieldsReadThem(t *testing.T) {
	values := []string{"2000", " 2000 ", "2000\t", "02000", "+2000", "-5", "0", "?", "", "4000", "4001", "123456", "99999999999999999999", "20 00", "1e3"}
	for _, v := range values {
		t.Run(fmt.Sprintf("%q", v), func(t *testing.T) {
			text := fmt.Sprintf("[WhiteElo \"%s\"]\n[BlackElo \"1500\"]\n[PlyCount \"%[1]s\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n", v)
			games, err := pgn.NewReader(strings.NewReader(text)).ReadAll()
			if err != nil || len(games) != 1 {
				t.Fatalf("%d games, %v", len(games), err)
			}
			g := Examine(&games[0])
			wantElo, ok := fields.Rating([]byte(v))
			if !ok {
				wantElo = 0 // unknown
			}
			if g.WhiteElo != wantElo {
				t.Errorf("WhiteElo %d, fields.Rating gives %d", g.WhiteElo, wantElo)
			}
			wantPlies, ok := fields.ParsePlyCount([]byte(v))
			if !ok {
				wantPlies = 1 // the moves counted
			}
			if g.Plies != wantPlies {
				t.Errorf("plies %d, want %d", g.Plies, wantPlies)
			}
		})
	}
}

// TestPartialGame checks that a game too large to hold at once counts
// under the start position its tags give, with the result of its tag,
// and that its length counts only when its PlyCount tag gives it: as for
// fields.Plies, the moves of the part held are not the game's.
func TestPartialGame(t *testing.T) {
	moves := strings.Repeat("1. Nf3 Nf6 2. Ng1 Ng8 ", 200)
	large := func(fen, result, plyCount string) string {
		tags := "[Variant \"Chess960\"]\n[FEN \"" + fen + "\"]\n[Result \"" + result + "\"]\n"
		if plyCount != "" {
			tags += "[PlyCount \"" + plyCount + "\"]\n"
		}
		return tags + "\n" + moves + result + "\n\n"
	}
	const sp0 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
	small := "[Result \"1-0\"]\n\n1. e4 1-0\n\n"
	tests := []struct {
		name     string
		data     string
		want0    Counts
		avgPlies string // SP 0's avg_plies in CSV
	}{
		{"no PlyCount", large(sp0, "0-1", "") + small,
			Counts{Games: 1, BlackWins: 1}, ""},
		{"PlyCount 800", large(sp0, "0-1", "800") + small,
			Counts{Games: 1, BlackWins: 1, Plies: 800, PlyGames: 1}, "800.0"},
		{"one of two with PlyCount", large(sp0, "0-1", "") + large(sp0, "1-0", "801") + small,
			Counts{Games: 2, WhiteWins: 1, BlackWins: 1, Plies: 801, PlyGames: 1}, "801.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := pgn.NewReader(strings.NewReader(tt.data))
			r.MaxGameSize = 1 << 10
			var s Stats
			if err := Run(context.Background(), r, &s, pipeline.Options{Jobs: 1}); err != nil {
				t.Fatal(err)
			}
			if c := s.SP[0]; c != tt.want0 {
				t.Errorf("SP 0: %+v, want %+v", c, tt.want0)
			}
			if c := s.SP[518]; c.Games != 1 || c.WhiteWins != 1 || c.Plies != 1 || c.PlyGames != 1 {
				t.Errorf("SP 518: %+v, want the small game after the large ones", c)
			}
			lines := strings.Split(render(t, &s, Options{}, (*Report).WriteCSV), "\n")
			col := slices.Index(strings.Split(lines[0], ","), "avg_plies")
			if got := strings.Split(lines[1], ",")[col]; !strings.HasPrefix(lines[1], "0,") || got != tt.avgPlies {
				t.Errorf("avg_plies of SP 0 %q in %q, want %q", got, lines[1], tt.avgPlies)
			}
		})
	}
}

// TestMergeOlderDocument reads a document written before ply_games:
// every game's length was counted then.
func TestMergeOlderDocument(t *testing.T) {
	doc := `{"format":"frctool-stats/1","totals":{"games":3},"rows":[{"sp":7,"games":3,"white_wins":3,"sum_plies":90}]}`
	var s Stats
	if _, err := s.ReadJSON(strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	if c := s.SP[7]; c.Plies != 90 || c.PlyGames != 3 {
		t.Errorf("SP 7: %+v, want 90 plies over 3 games", c)
	}
	for _, bad := range []string{`"ply_games":4`, `"ply_games":-1`, `"ply_games":0`} {
		doc := `{"format":"frctool-stats/1","totals":{"games":3},"rows":[{"sp":7,"games":3,"white_wins":3,"sum_plies":90,` + bad + `}]}`
		var s Stats
		if _, err := s.ReadJSON(strings.NewReader(doc)); !errors.Is(err, ErrNotStats) {
			t.Errorf("%s: ReadJSON = %v, want ErrNotStats", bad, err)
		}
	}
}

// TestMergeRefusesDuplicates checks that a document with two rows for one
// position is refused, since adding both would count games twice.
func TestMergeRefusesDuplicates(t *testing.T) {
	const head = `{"format":"frctool-stats/1","totals":{"games":4},`
	row := func(sp string) string {
		return `{"sp":` + sp + `,"games":1,"white_wins":1,"sum_plies":3}`
	}
	tests := []struct {
		name string
		doc  string
		want string // the error names the position
	}{
		{"same sp", head + `"rows":[` + row("518") + `,` + row("0") + `,` + row("518") + `]}`, "sp 518, in rows 1 and 3"},
		{"same DFRC pair", head + `"rows":[],"dfrc":[` + row(`"0:518"`) + `,` + row(`"518:0"`) + `,` + row(`"0:518"`) + `]}`,
			"DFRC pair 0:518, in DFRC rows 1 and 3"},
		{"same DFRC pair spelt otherwise", head + `"rows":[],"dfrc":[` + row(`"7:9"`) + `,` + row(`"07:9"`) + `]}`,
			"DFRC pair 7:9, in DFRC rows 1 and 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Stats
			s.SP[518] = Counts{Games: 1, Draws: 1}
			before := s.SP
			_, err := s.ReadJSON(strings.NewReader(tt.doc))
			if !errors.Is(err, ErrDuplicated) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadJSON = %v, want ErrDuplicated naming %q", err, tt.want)
			}
			if s.SP != before || len(s.DFRC) != 0 {
				t.Errorf("a refused document changed the counts")
			}
		})
	}
	// The same position in the table and among the DFRC pairs is not a
	// duplicate: a pair has two back ranks.
	var s Stats
	if _, err := s.ReadJSON(strings.NewReader(head + `"rows":[` + row("5") + `],"dfrc":[` + row(`"5:6"`) + `]}`)); err != nil {
		t.Errorf("sp 5 and pair 5:6: %v", err)
	}
}

// TestNoFlagsInErrors keeps the library's errors free of command-line
// flags, which only the command knows.
func TestNoFlagsInErrors(t *testing.T) {
	var s Stats
	for _, doc := range []string{
		`not json`,
		`{"format":"frctool-stats/1","min_games":5,"rows":[]}`,
		`{"format":"other"}`,
	} {
		if _, err := s.ReadJSON(strings.NewReader(doc)); err == nil || strings.Contains(err.Error(), "--") {
			t.Errorf("ReadJSON(%s) = %v, want an error naming no flag", doc, err)
		}
	}
	for _, err := range []error{ErrNotStats, ErrFiltered, ErrNoDFRC, ErrDuplicated, ErrResultConflict, ErrImplausible} {
		if strings.Contains(err.Error(), "--") {
			t.Errorf("%v names a flag", err)
		}
	}
	if _, err := ParseOrder("elo"); err == nil || strings.Contains(err.Error(), "--") {
		t.Errorf("ParseOrder: %v", err)
	}
}

// TestResultConflict holds Examine's report of a Result tag that the moves'
// marker contradicts to the rule written out here: a tag holding a result,
// a marker, and the two different. examine infers it from fields.Result's
// answer, which takes the tag before the marker.
func TestResultConflict(t *testing.T) {
	for _, c := range []struct {
		name, tags, moves string
		conflict          bool
	}{
		{"tag and marker agree", `[Result "1-0"]`, "1. e4 1-0", false},
		{"tag and marker differ", `[Result "1-0"]`, "1. e4 0-1", true},
		{"tag with blanks agrees", `[Result " 1-0 "]`, "1. e4 1-0", false},
		{"tag with blanks differs", `[Result " 1-0 "]`, "1. e4 *", true},
		{"tag not a result", `[Result "?"]`, "1. e4 1-0", false},
		{"no tag", `[Event "x"]`, "1. e4 1/2-1/2", false},
		{"no marker", `[Result "1-0"]`, "1. e4", false},
		{"two result tags, the first counts", "[Result \"0-1\"]\n[Result \"1-0\"]", "1. e4 1-0", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			input := c.tags + "\n\n" + c.moves + "\n"
			g, err := pgn.NewReader(strings.NewReader(input)).Next()
			if err != nil {
				t.Fatal(err)
			}
			tag, tagOK := fields.ResultTag(g)
			marker := g.TerminationMarker()
			want := tagOK && marker != nil && !bytes.Equal(tag, marker)
			if want != c.conflict {
				t.Fatalf("the rule gives %v, the case says %v", want, c.conflict)
			}
			got := false
			for _, p := range Examine(g).Problems {
				got = got || errors.Is(p, ErrResultConflict)
			}
			if got != want {
				t.Errorf("%q: conflict reported %v, want %v", input, got, want)
			}
		})
	}
}

// TestRunWorkersCountAlike: counted on several workers, each into a table
// of its own, an input of many parts gives the counts of one worker; and
// Run called again adds the second input to the first.
func TestRunWorkersCountAlike(t *testing.T) {
	headers := archivegen.Bytes(archivegen.Options{Seed: 5, Shape: archivegen.Headers}, 3<<20)
	lichess := archivegen.Bytes(archivegen.Options{Seed: 6, Shape: archivegen.Lichess}, 2<<20)
	one, _ := count(t, append(append([]byte{}, headers...), lichess...), 1)
	var two Stats
	for _, data := range [][]byte{headers, lichess} {
		if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), &two, pipeline.Options{Jobs: 4}); err != nil {
			t.Fatal(err)
		}
	}
	if two.SP != one.SP || two.Totals != one.Totals {
		t.Errorf("two inputs on four workers: totals %v; one input on one worker: %v", &two.Totals, &one.Totals)
	}
	var games int64
	for i := range one.SP {
		games += one.SP[i].Games
	}
	if games != one.Totals.Identified || games < 10000 {
		t.Errorf("%d games in the positions' counts, %d identified in the totals", games, one.Totals.Identified)
	}
}

// TestExpectation holds the Elo expectation to values worked out by hand
// (1/(1+10^-0.25) = 0.640065, 1/(1+10^-0.5) = 0.759747), to its symmetry,
// and to ratings as far apart as int allows, which wrapped around when
// their difference was taken in int.
func TestExpectation(t *testing.T) {
	tests := []struct {
		name         string
		white, black int
		want         float64
	}{
		{"equals", 1500, 1500, 0.5},
		{"100 more", 1600, 1500, 0.640065},
		{"200 more", 2200, 2000, 0.759747},
		{"200 fewer", 2000, 2200, 1 - 0.759747},
		{"800 more", 2800, 2000, 1 / (1 + 0.01)},
		{"as far apart as int allows", math.MaxInt, math.MinInt, 1},
		{"the other way", math.MinInt, math.MaxInt, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Expectation(tc.white, tc.black)
			if math.Abs(got-tc.want) > 1e-6 {
				t.Errorf("Expectation(%d, %d) = %.7f, want %.7f", tc.white, tc.black, got, tc.want)
			}
			if other := Expectation(tc.black, tc.white); math.Abs(got+other-1) > 1e-12 {
				t.Errorf("Expectation both ways adds up to %v, want 1", got+other)
			}
		})
	}
}
