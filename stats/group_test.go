package stats

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/where"
)

// countWhere counts data with a selection and a grouping.
func countWhere(t testing.TB, data []byte, expr string, groupBy []string, jobs int) *Stats {
	t.Helper()
	var s Stats
	if err := s.SetGroupBy(groupBy); err != nil {
		t.Fatal(err)
	}
	var sel *where.Expr
	if expr != "" {
		var err error
		if sel, err = where.Parse(expr); err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
	}
	r := pgn.NewReader(bytes.NewReader(data))
	if err := Run(context.Background(), r, &s, pipeline.Options{Jobs: jobs, Where: sel}); err != nil {
		t.Fatal(err)
	}
	return &s
}

// condition is the --where expression selecting the games of one group
// value.
func condition(name string, v GroupValue) string {
	switch {
	case v.Missing:
		return "not exists(" + name + ")"
	case v.Number:
		return name + " = " + v.String()
	case name == "speed" || name == "kind":
		return name + " = " + v.Text
	}
	return name + " = " + strconv.Quote(v.Text)
}

// TestGroupsEqualSelections is the property that defines grouping: the
// rows of each group are exactly those of a separate count of the games
// that a --where expression for the group's values selects, over a
// generated archive with every speed, rating bands and missing values.
func TestGroupsEqualSelections(t *testing.T) {
	data := archivegen.Bytes(archivegen.Options{Seed: 3, Shape: archivegen.Lichess, Dialects: true}, 400<<10)
	// A few games without ratings or clock, so that missing values form
	// groups of their own.
	data = append(data, "\n[Event \"no clock\"]\n[Result \"1-0\"]\n\n1-0\n\n[Event \"no clock\"]\n[WhiteElo \"2001\"]\n[BlackElo \"1999\"]\n[Result \"0-1\"]\n\n0-1\n"...)
	for _, tc := range []struct {
		name    string
		groupBy []string
		where   string
	}{
		{"speed", []string{"speed"}, ""},
		{"speed and rating band", []string{"speed", "elo_band"}, ""},
		{"a tag and a year", []string{"Event", "year"}, ""},
		{"band within a selection", []string{"elo_band"}, "speed = blitz or speed = bullet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			grouped := countWhere(t, data, tc.where, tc.groupBy, 2)
			groups := grouped.Groups()
			if len(groups) < 2 {
				t.Fatalf("only %d groups: the fixture does not exercise grouping", len(groups))
			}
			rows := grouped.Rows(Options{})
			var total int64
			for _, g := range groups {
				var conds []string
				for i, v := range g.Values {
					conds = append(conds, condition(tc.groupBy[i], v))
				}
				if tc.where != "" {
					conds = append(conds, "("+tc.where+")")
				}
				expr := strings.Join(conds, " and ")
				alone := countWhere(t, data, expr, nil, 1)
				for sp := range alone.SP {
					want := alone.SP[sp]
					var got Counts
					if c := g.counts(sp); c != nil {
						got = *c
					}
					if got != want {
						t.Fatalf("%s, sp %d:\n got %+v\nwant %+v", expr, sp, got, want)
					}
				}
				if len(alone.DFRC) != len(g.dfrc) {
					t.Fatalf("%s: %d DFRC pairs grouped, %d alone", expr, len(g.dfrc), len(alone.DFRC))
				}
				for p, c := range alone.DFRC {
					if g.dfrc[p] == nil || *g.dfrc[p] != *c {
						t.Fatalf("%s: DFRC %s differs", expr, p)
					}
				}
				// The rows' derived values are those of the separate count.
				var mine []Row
				for _, r := range rows {
					if sameValues(r.Group, g.Values) {
						mine = append(mine, r)
					}
				}
				theirs := alone.Rows(Options{})
				if len(mine) != len(theirs) {
					t.Fatalf("%s: %d rows grouped, %d alone", expr, len(mine), len(theirs))
				}
				for i := range mine {
					a, b := mine[i], theirs[i]
					if a.SP != b.SP || a.Counts != b.Counts || !sameFloat(a.WhiteScore, b.WhiteScore) ||
						!sameFloat(a.ScoreVsExpected, b.ScoreVsExpected) || !sameFloat(a.PValue, b.PValue) {
						t.Fatalf("%s: row %d differs:\n got %+v\nwant %+v", expr, i, a, b)
					}
				}
				total += alone.Selected
			}
			if total != grouped.Selected {
				t.Errorf("the groups' separate counts select %d games, the grouped count %d", total, grouped.Selected)
			}
		})
	}
}

func sameValues(a, b []GroupValue) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestGroupOrder checks that groups come in the order of their values:
// speeds by speed, numbers by value, missing values last.
func TestGroupOrder(t *testing.T) {
	var text strings.Builder
	for _, g := range []struct{ tc, elo string }{
		{"600+0", "2100"}, {"60+0", "1500"}, {"-", "2100"}, {"", "1900"}, {"15+0", "900"}, {"180+2", ""}, {"60+0", "2100"},
	} {
		if g.tc != "" {
			fmt.Fprintf(&text, "[TimeControl %q]\n", g.tc)
		}
		if g.elo != "" {
			fmt.Fprintf(&text, "[WhiteElo %q]\n[BlackElo %q]\n", g.elo, g.elo)
		}
		text.WriteString("[Result \"1-0\"]\n\n1-0\n\n")
	}
	s := countWhere(t, []byte(text.String()), "", []string{"speed", "elo_band"}, 1)
	var got []string
	for _, g := range s.Groups() {
		got = append(got, g.Values[0].String()+"/"+g.Values[1].String())
	}
	want := "ultrabullet/800 bullet/1400 bullet/2000 blitz/ rapid/2000 correspondence/2000 /1800"
	if strings.Join(got, " ") != want {
		t.Errorf("groups in order\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestSetGroupByErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		groupBy []string
		want    error
	}{
		{"a position number", []string{"sp"}, ErrGroupBy},
		{"a name twice", []string{"speed", "speed"}, ErrGroupBy},
		{"an unknown field", []string{"sped"}, fields.ErrUnknownField},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Stats
			if err := s.SetGroupBy(tc.groupBy); !errors.Is(err, tc.want) {
				t.Errorf("SetGroupBy(%q) = %v, want %v", tc.groupBy, err, tc.want)
			}
		})
	}
	var s Stats
	if _, err := s.AddGame(mustGame(t, "[Result \"1-0\"]\n\n1-0\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.SetGroupBy([]string{"speed"}); !errors.Is(err, ErrGroupedCounts) {
		t.Errorf("SetGroupBy after counting = %v, want %v", err, ErrGroupedCounts)
	}
}

func mustGame(t *testing.T, text string) *pgn.Game {
	t.Helper()
	games, err := pgn.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(games) != 1 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	return &games[0]
}

// TestTooManyGroups checks the bound on groups.
func TestTooManyGroups(t *testing.T) {
	var text strings.Builder
	for i := range MaxGroups + 1 {
		fmt.Fprintf(&text, "[White \"player %d\"]\n[Result \"1-0\"]\n\n1-0\n\n", i)
	}
	var s Stats
	if err := s.SetGroupBy([]string{"White"}); err != nil {
		t.Fatal(err)
	}
	err := Run(context.Background(), pgn.NewReader(strings.NewReader(text.String())), &s, pipeline.Options{Jobs: 2})
	if !errors.Is(err, ErrTooManyGroups) {
		t.Errorf("Run over %d players = %v, want %v", MaxGroups+1, err, ErrTooManyGroups)
	}
}

// TestGroupedMergeEqualsOneRun counts parts of an archive grouped, writes
// each as JSON, reads them back and compares with one count of the whole.
func TestGroupedMergeEqualsOneRun(t *testing.T) {
	data := archivegen.Bytes(archivegen.Options{Seed: 5, Shape: archivegen.Lichess}, 300<<10)
	// DFRC games, and tags of every kind of value, in some games only.
	data = append(data, `[Event "<Open> & \"Cup\""]
[Bot "yes"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
[SetUp "1"]
[Result "1-0"]

1-0

[Event "Café"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"]
[SetUp "1"]
[Result "1/2-1/2"]

1/2-1/2
`...)
	games := splitGames(t, data)
	opts := Options{Sort: SortGames}
	for _, groupBy := range [][]string{
		{"speed", "elo_band"}, {"year"}, {"bot"}, {"kind"}, {"date"}, {"Event"}, {"WhiteElo"}, {"speed", "bot", "year"},
	} {
		name := strings.Join(groupBy, ",")
		whole := countWhere(t, data, "", groupBy, 2)
		want := render(t, whole, opts, (*Report).WriteJSON)
		for _, parts := range []int{1, 2, 5} {
			chunks := make([][]byte, parts)
			for i, g := range games {
				chunks[i%parts] = append(chunks[i%parts], g...)
			}
			var merged Stats
			for _, c := range chunks {
				part := countWhere(t, c, "", groupBy, 1)
				var buf bytes.Buffer
				if err := (&Report{Stats: part, WithDFRC: true}).WriteJSON(&buf); err != nil {
					t.Fatal(err)
				}
				if _, err := merged.ReadJSON(&buf); err != nil {
					t.Fatalf("%s, %d parts: %v", name, parts, err)
				}
			}
			if got := strings.Join(merged.GroupBy(), ","); got != name {
				t.Fatalf("%d parts: merged groups by %q, want %q", parts, got, name)
			}
			if got := render(t, &merged, opts, (*Report).WriteJSON); got != want {
				t.Errorf("%s, %d parts: merged JSON differs from one run", name, parts)
			}
		}
	}
	groupBy := []string{"speed", "elo_band"}
	// Documents grouped otherwise do not merge.
	var other bytes.Buffer
	if err := (&Report{Stats: countWhere(t, data, "", []string{"year"}, 1)}).WriteJSON(&other); err != nil {
		t.Fatal(err)
	}
	merged := *countWhere(t, data, "", groupBy, 1)
	if _, err := merged.ReadJSON(&other); !errors.Is(err, ErrGroupedOtherwise) {
		t.Errorf("merging a document grouped by year into one grouped by speed,elo_band: %v, want %v", err, ErrGroupedOtherwise)
	}
}

// BenchmarkRunWhere measures the cost of a selection on an archive of
// short games: the same count with no selection, with an expression over
// two derived fields, and with the shortcuts' four conditions.
func BenchmarkRunWhere(b *testing.B) {
	data := archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Lichess}, 8<<20)
	for _, bc := range []struct{ name, expr string }{
		{"none", ""},
		{"where", "speed = blitz and min_elo >= 1500"},
		{"shortcuts", `speed = blitz and min_elo >= 1500 and not bot and date >= "2015"`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var sel *where.Expr
			if bc.expr != "" {
				var err error
				if sel, err = where.Parse(bc.expr); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var s Stats
				if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), &s, pipeline.Options{Jobs: 1, Where: sel}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRowsMadeInOneSlice checks that the rows of many groups are made in
// one slice of the size they need. Grown group by group, with a slice of
// its own per group, they took a fifth of a grouped run's time.
func TestRowsMadeInOneSlice(t *testing.T) {
	data := archivegen.Bytes(archivegen.Options{Seed: 3, Shape: archivegen.Lichess}, 400<<10)
	s := countWhere(t, data, "", []string{"White"}, 1)
	opts := Options{FDR: 0.05}
	rows := s.Rows(opts)
	if len(s.Groups()) < 100 || len(rows) < len(s.Groups()) {
		t.Fatalf("%d rows in %d groups: too few to tell", len(rows), len(s.Groups()))
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rows = s.Rows(opts)
	runtime.ReadMemStats(&after)
	// The rows, and the indexes of the tested ones for the correction.
	most := uint64(len(rows))*uint64(unsafe.Sizeof(Row{})) + 2*uint64(len(rows))*8 + 4<<10
	if got := after.TotalAlloc - before.TotalAlloc; got > most {
		t.Errorf("%d rows in %d groups: %d bytes allocated, want at most %d", len(rows), len(s.Groups()), got, most)
	}
}

// A report works its rows out once, for all the formats it is written in:
// a grouped table's tests and sorting are a good part of a run.
func TestReportRowsOnce(t *testing.T) {
	s := countWhere(t, archivegen.Bytes(archivegen.Options{Seed: 3, Shape: archivegen.Lichess}, 256<<10), "", []string{"speed", "elo_band"}, 2)
	opts := Options{All: true}
	rowBytes := float64(len(s.Rows(opts))) * float64(unsafe.Sizeof(Row{}))
	// The bytes a WriteCSV allocates, over a few runs.
	written := func(report func() *Report) float64 {
		const runs = 4
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			if err := report().WriteCSV(io.Discard); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / runs
	}
	rep := &Report{Stats: s, Options: opts}
	rows := rep.Rows()
	alone := written(func() *Report { return &Report{Stats: s, Options: opts} })
	after := written(func() *Report { return rep })
	if alone-after < rowBytes {
		t.Errorf("WriteCSV allocated %.0f bytes on its own and %.0f after Rows, want %.0f fewer (the rows)", alone, after, rowBytes)
	}
	if again := rep.Rows(); &again[0] != &rows[0] {
		t.Errorf("Rows made the rows again")
	}
}

// TestGroupLatin1: a group value whose bytes are not UTF-8 is read as
// Latin-1, so that it is one group with the same value in UTF-8, is
// written as UTF-8 in every format, and comes back the same from JSON.
func TestGroupLatin1(t *testing.T) {
	data := []byte("[Event \"M\xfcnchen\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n" +
		"[Event \"München\"]\n[Result \"0-1\"]\n\n1. e4 0-1\n\n" +
		"[Event \"M\xf6nchen\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n")
	var s Stats
	if err := s.SetGroupBy([]string{"Event"}); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), &s, pipeline.Options{Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	var csvOut, jsonOut bytes.Buffer
	if err := (&Report{Stats: &s, Columns: []string{"sp", "games"}}).WriteCSV(&csvOut); err != nil {
		t.Fatal(err)
	}
	if want := "Event,sp,games\nMönchen,518,1\nMünchen,518,2\n"; csvOut.String() != want {
		t.Errorf("CSV %q, want %q", csvOut.String(), want)
	}
	if err := (&Report{Stats: &s}).WriteJSON(&jsonOut); err != nil {
		t.Fatal(err)
	}
	var merged Stats
	if _, err := merged.ReadJSON(bytes.NewReader(jsonOut.Bytes())); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := (&Report{Stats: &merged, Columns: []string{"sp", "games"}}).WriteCSV(&again); err != nil {
		t.Fatal(err)
	}
	if again.String() != csvOut.String() {
		t.Errorf("read back from JSON %q, counted %q", again.String(), csvOut.String())
	}
}

// TestAppendKeyText holds appendKeyText, which makes a Latin-1 value's
// UTF-8 text in place, to appendKeyValue given that text, for lengths
// whose varint takes one, two and three bytes.
func TestAppendKeyText(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 127, 128, 8191, 8192, 20000} {
		latin1 := bytes.Repeat([]byte{0xfc}, n) // ü, two bytes in UTF-8
		utf := pgn.AppendUTF8(nil, latin1)
		prefix := []byte("key so far")
		got := appendKeyText(append([]byte(nil), prefix...), latin1)
		want := appendKeyValue(append([]byte(nil), prefix...), keyText, 0, utf)
		if !bytes.Equal(got, want) {
			t.Fatalf("%d Latin-1 bytes: %q, want %q", n, got[:min(len(got), 40)], want[:min(len(want), 40)])
		}
	}
}
