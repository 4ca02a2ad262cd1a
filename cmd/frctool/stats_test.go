package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/stats"
)

const statsFixture = "../../testdata/stats/games.pgn"

// statsRun runs the command line and returns stdout, stderr and the status.
func statsRun(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"frctool"}, args...), strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestStatsCSVByDefault(t *testing.T) {
	out, errs, code := statsRun(t, "", "stats", statsFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, err := os.ReadFile("../../testdata/stats/games.csv.golden")
	if err != nil {
		t.Fatal(err)
	}
	// The golden file has the DFRC table too; without --dfrc only the first.
	first := strings.SplitN(string(want), "\n\n", 2)[0] + "\n"
	if out != first {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, first)
	}
	for _, w := range []string{
		"games.pgn:33: game has no result",
		"games.pgn:43: the Result tag and the termination marker of the moves disagree",
		"frctool: stats: 14 games, 10 identified (2 distinct SPs), 2 DFRC, 1 other start position, 1 unknown, 3 warnings",
	} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errs)
		}
	}
}

func TestStatsFromStdin(t *testing.T) {
	data, err := os.ReadFile(statsFixture)
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := statsRun(t, string(data), "stats", "-q", "--format", "json")
	var doc struct {
		Totals struct{ Games int } `json:"totals"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.Totals.Games != 14 {
		t.Errorf("stdin: exit %d, %s", code, out)
	}
}

func TestStatsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"stats", "--sort", "elo", statsFixture},
		{"stats", "--by", "letters", statsFixture},
		{"stats", "--format", "xml", statsFixture},
		{"stats", "--min-games", "-1", statsFixture},
		{"stats", "--chart", "x.gif", statsFixture},
		{"stats", "--columns", "sp,wins", statsFixture},
		{"stats", "--columns", "sp,sp", statsFixture},
		{"stats", "--columns", "sp", "--format", "json", statsFixture},
		{"stats", "--columns", "sp", "-o", "x.json", statsFixture},
	} {
		if _, errs, code := statsRun(t, "", args...); code != 2 || !strings.Contains(errs, "frctool stats --help") {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
}

// TestStatsSplitMerge runs the README's workflow: count parts as JSON,
// merge them, and compare with one run over everything.
func TestStatsSplitMerge(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(statsFixture)
	if err != nil {
		t.Fatal(err)
	}
	inputs := []string{statsFixture}
	if root := sharedtest.Root(); root != "" {
		files, _ := filepath.Glob(filepath.Join(root, "realdata", "tcec", "*.pgn"))
		inputs = append(inputs, files...)
	}
	// One part per input file, plus the fixture split in two at a game.
	cut := bytes.Index(data, []byte("\n[Event \"G9"))
	a, b := filepath.Join(dir, "a.pgn"), filepath.Join(dir, "b.pgn")
	if err := os.WriteFile(a, data[:cut+1], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, data[cut+1:], 0o644); err != nil {
		t.Fatal(err)
	}
	parts := append([]string{a, b}, inputs[1:]...)
	var jsons []string
	for i, p := range parts {
		j := filepath.Join(dir, "part"+string(rune('a'+i))+".json")
		if _, errs, code := statsRun(t, "", "stats", "-q", "--dfrc", p, "-o", j); code != 0 {
			t.Fatalf("part %s: exit %d: %s", p, code, errs)
		}
		jsons = append(jsons, j)
	}
	for _, format := range []string{"csv", "json", "markdown"} {
		args := []string{"stats", "-q", "--dfrc", "--sort", "games", "--format", format}
		want, _, code := statsRun(t, "", append(args, inputs...)...)
		if code != 0 {
			t.Fatal("one run failed")
		}
		got, errs, code := statsRun(t, "", append(append(args, "--merge"), jsons...)...)
		if code != 0 || got != want {
			t.Errorf("%s: merged (exit %d, %s):\n%s\none run:\n%s", format, code, errs, got, want)
		}
	}
	// A part without the DFRC table cannot give a merged one.
	noDFRC := filepath.Join(dir, "nodfrc.json")
	statsRun(t, "", "stats", "-q", statsFixture, "-o", noDFRC)
	if _, errs, code := statsRun(t, "", "stats", "--merge", "--dfrc", noDFRC); code != 1 || !strings.Contains(errs, "without --dfrc") {
		t.Errorf("merge --dfrc of a part without it: exit %d, %s", code, errs)
	}
	// PGN is not a merge input.
	if _, errs, code := statsRun(t, "", "stats", "--merge", statsFixture); code != 1 || !strings.Contains(errs, "not a JSON document") {
		t.Errorf("merge of PGN: exit %d, %s", code, errs)
	}
	// Documents grouped otherwise are refused, with both groupings named.
	bySpeed := filepath.Join(dir, "speed.json")
	if _, errs, code := statsRun(t, "", "stats", "-q", "--group-by", "speed", statsFixture, "-o", bySpeed); code != 0 {
		t.Fatalf("grouped part: exit %d: %s", code, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--merge", noDFRC, bySpeed}, bySpeed + ": counts grouped otherwise cannot be added up: the counts so far are not grouped, these are grouped by speed; merge documents counted with the same --group-by\n"},
		{[]string{"--merge", "--group-by", "year", bySpeed}, bySpeed + ": counts grouped otherwise cannot be added up: the counts so far are grouped by year, these are grouped by speed; merge documents counted with the same --group-by, or leave --group-by out\n"},
	} {
		out, errs, code := statsRun(t, "", append([]string{"stats", "-q"}, tc.args...)...)
		if code != 1 || out != "" || errs != "frctool: "+tc.want {
			t.Errorf("stats %v: exit %d, stdout %q, stderr %q; want 1, nothing and %q", tc.args, code, out, errs, "frctool: "+tc.want)
		}
	}
}

func TestStatsFiles(t *testing.T) {
	dir := t.TempDir()
	csvName, svg, png, html := filepath.Join(dir, "s.csv"), filepath.Join(dir, "c.svg"), filepath.Join(dir, "c.png"), filepath.Join(dir, "p.html")
	if _, errs, code := statsRun(t, "", "stats", "-q", "--dfrc", "--chart", svg, "--html", html, "-o", csvName, statsFixture); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, errs, code := statsRun(t, "", "stats", "-q", "--chart", png, "-o", filepath.Join(dir, "s.md"), statsFixture); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for name, prefix := range map[string]string{csvName: "sp,fritz9,rank,", svg: "<?xml", png: "\x89PNG", html: "<!DOCTYPE html>", filepath.Join(dir, "s.md"): "| sp | fritz9 |"} {
		b, err := os.ReadFile(name)
		if err != nil || !bytes.HasPrefix(b, []byte(prefix)) {
			t.Errorf("%s: %v, starts %q", name, err, b[:min(len(b), 20)])
		}
	}
	// Only the finished files: no temporary files left beside them.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 5 {
		t.Errorf("%d files in the output folder, want 5", len(entries))
	}
}

func TestStatsTableFormat(t *testing.T) {
	out, _, code := statsRun(t, "", "stats", "-q", "--format", "table", "--by", "fritz9", statsFixture)
	if code != 0 || !strings.Contains(out, "│ white_score │") || !strings.Contains(out, "RNBQKBNR") {
		t.Errorf("table (exit %d):\n%s", code, out)
	}
}

// TestStatsFormatFromName checks that -o's name chooses the format with
// its compression extension looked through, whichever spelling it has.
func TestStatsFormatFromName(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		file   string
		prefix string
	}{
		{"json", "s.json", "{\n  \"rows\""},
		{"json zst", "s.json.zst", "{\n  \"rows\""},
		{"json zstd", "s.json.zstd", "{\n  \"rows\""},
		{"json gzip", "s.json.gz", "{\n  \"rows\""},
		{"markdown bzip2", "s.md.bz2", "| sp | fritz9 |"},
		{"csv zstd", "s.csv.zstd", "sp,fritz9,rank,"},
		{"unknown extension", "s.txt.zst", "sp,fritz9,rank,"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := filepath.Join(dir, tt.file)
			if _, errs, code := statsRun(t, "", "stats", "-q", "-o", name, statsFixture); code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			in, err := stream.Open(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			got, err := io.ReadAll(in)
			if err != nil || !bytes.HasPrefix(got, []byte(tt.prefix)) {
				t.Errorf("%s holds %q..., %v; want it to start with %q", tt.file, got[:min(len(got), 30)], err, tt.prefix)
			}
		})
	}
}

// TestStatsMergeDuplicate checks that --merge refuses a document holding
// a position twice, naming the file and the position.
func TestStatsMergeDuplicate(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if _, errs, code := statsRun(t, "", "stats", "-q", "--dfrc", "-o", good, statsFixture); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		table string // rows or dfrc: the table whose first row is repeated
		want  string
	}{
		{"sp", "rows", "bad.json: a position has two rows: sp 0, in rows 1 and 3"},
		{"DFRC pair", "dfrc", "bad.json: a position has two rows: DFRC pair 0:518, in DFRC rows 1 and 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := doc[tt.table].([]any)
			bad := map[string]any{}
			for k, v := range doc {
				bad[k] = v
			}
			bad[tt.table] = append(rows[:len(rows):len(rows)], rows[0])
			b, err := json.Marshal(bad)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, "bad.json")
			if err := os.WriteFile(name, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, errs, code := statsRun(t, "", "stats", "--merge", "--dfrc", good, name); code != 1 || out != "" || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %s; want 1 and %q", code, out, errs, tt.want)
			}
		})
	}
}

// TestStatsImplausibleValues checks that an absurd rating or length is
// reported as file:line and kept out of the averages.
func TestStatsImplausibleValues(t *testing.T) {
	const in = "[Result \"1-0\"]\n[WhiteElo \"9223372036854775807\"]\n[PlyCount \"9223372036854775807\"]\n\n1. e4 1-0\n\n" +
		"[Result \"1-0\"]\n[WhiteElo \"2000\"]\n[PlyCount \"-3\"]\n\n1. e4 e5 1-0\n"
	out, errs, code := statsRun(t, in, "stats", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "518,359,RNBQKBNR,2,2,0,0,0,1.0000,0.0000,0.3424,1.0000,1.5,2000.0,,0,,,,,,\n"; !strings.HasSuffix(out, want) {
		t.Errorf("stdout:\n%s\nwant the row %s", out, want)
	}
	for _, w := range []string{
		`stdin:2: implausible value: [WhiteElo "9223372036854775807"] is not within 1..4000; counted as no rating`,
		`stdin:3: implausible value: [PlyCount "9223372036854775807"] is not within 0..10000; the moves are counted instead`,
		`stdin:9: implausible value: [PlyCount "-3"] is not within 0..10000`,
		"3 warnings",
	} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errs)
		}
	}
}

// TestStatsTooManyRows checks the bound on a table's rows as a user meets
// it: every position of too many groups is refused before an earlier
// output is replaced, with what to do instead.
func TestStatsTooManyRows(t *testing.T) {
	var games strings.Builder
	for g := range stats.MaxRows/numbering.Count + 1 {
		fmt.Fprintf(&games, "[Event \"e%d\"]\n[Result \"1-0\"]\n\n1-0\n\n", g)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "many.pgn")
	if err := os.WriteFile(in, []byte(games.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "table.csv")
	if err := os.WriteFile(out, []byte("earlier\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	groups := stats.MaxRows/numbering.Count + 1
	stdout, stderr, code := statsRun(t, "", "stats", "-q", "--all", "--group-by", "Event", "-o", out, in)
	want := fmt.Sprintf("frctool: too many rows: every position of %d groups is %d rows, more than %d; leave out --all, or group by fewer fields\n",
		groups, groups*numbering.Count, stats.MaxRows)
	if code != 1 || stderr != want || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, stdout, stderr, want)
	}
	if got, _ := os.ReadFile(out); string(got) != "earlier\n" {
		t.Errorf("the earlier output became %q", got)
	}
	// Without --all the same groups are a table of one row each.
	if _, stderr, code := statsRun(t, "", "stats", "-q", "--group-by", "Event", "-o", out, in); code != 0 {
		t.Errorf("without --all: exit %d: %s", code, stderr)
	}
}

// TestStatsColumns: --columns chooses and orders the columns of CSV and
// Markdown, after the group-by fields, and leaves the rows as they are.
func TestStatsColumns(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"csv", []string{"--columns", "games,sp", "--sort", "games", "--min-games", "2"}, "games,sp\n8,518\n2,0\n"},
		{"grouped", []string{"--columns", "sp", "--group-by", "Round", "--min-games", "8"}, "Round,sp\n,518\n"},
		{"markdown", []string{"--columns", "rank,games", "--format", "markdown", "--min-games", "8"}, "| rank | games |\n| --- | ---: |\n| RNBQKBNR | 8 |\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := statsRun(t, "", append([]string{"stats", "-q", statsFixture}, tt.args...)...)
			if code != 0 || out != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want 0, %q", code, out, errs, tt.want)
			}
		})
	}
}
