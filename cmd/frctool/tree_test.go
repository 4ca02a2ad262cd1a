package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/tree"
)

const treeFixture = "../../tree/testdata/small.pgn"

func TestTreeOutputs(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		file string // the output, when not stdout
		want []string
		not  []string
	}{
		{
			name: "csv on a pipe",
			args: []string{"tree", "--depth", "2", treeFixture},
			want: []string{
				"sp,ply,line,move,games,white_wins,draws,black_wins,score,score_low,score_high,draw_rate,avg_elo,performance,avg_year,last_played,uci,fen\n",
				"443,0,,e4,3,2,1,0,0.8333,0.3100,0.9823,0.3333,2100,2300,2022.3,2024.01.10,e2e4,",
				"518,0,,e4,1,1,0,0,1.0000,0.2065,1.0000,0.0000,,,2020.0,2020.02.02,e2e4,",
			},
		},
		{
			name: "table",
			args: []string{"tree", "--format", "table", "--sp", "443", "--min-games", "2", treeFixture},
			want: []string{
				" sp  ply  line              move  games  white_wins",
				"443    0                    e4        4           2      1           0  0.8333     0.3100      0.9823     0.3333     2100         2300    2022.3  2024.01.10\n",
				"443    3  1. e4 O-O 2. O-O  e5        2           1      0           1  0.5000",
			},
			not: []string{"Nb3"},
		},
		{
			name: "json by the output's name",
			args: []string{"tree", "-q", "--rank", "RNNQBKRB", "--moves", "1. e4 O-O", "-o", filepath.Join(dir, "t.json"), treeFixture},
			file: filepath.Join(dir, "t.json"),
			want: []string{`"format":"frctool-tree/1"`, `"moves":"1. e4 O-O"`, `"sp":443`, `"not_reached":1`},
		},
		{
			name: "html by the output's name, compressed",
			args: []string{"tree", "-q", "--fritz9", "332", "-o", filepath.Join(dir, "t.html"), treeFixture},
			file: filepath.Join(dir, "t.html"),
			want: []string{"<!DOCTYPE html>", "<title>Opening tree: small.pgn</title>", `<script id="tree-data" type="application/json">{"format":"frctool-tree/1"`},
			not:  []string{"http://", "https://", "<link", "src="},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := statsRun(t, "", tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if tt.file != "" {
				data, err := os.ReadFile(tt.file)
				if err != nil {
					t.Fatal(err)
				}
				out = string(data)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%.3000s", w, out)
				}
			}
			for _, n := range tt.not {
				// The page's SVG namespace is a name, not a load.
				if strings.Contains(strings.ReplaceAll(out, `"http://www.w3.org/2000/svg"`, ""), n) {
					t.Errorf("output has %q", n)
				}
			}
		})
	}
}

func TestTreeStartFlagsAgree(t *testing.T) {
	const sp443 = "rnnqbkrb/pppppppp/8/8/8/8/PPPPPPPP/RNNQBKRB w GAga - 0 1"
	var first string
	for _, flags := range [][]string{{"--sp", "443"}, {"--fritz9", "332"}, {"--rank", "RNNQBKRB"}, {"--fen", sp443}} {
		out, errs, code := statsRun(t, "", append(append([]string{"tree", "-q", "--format", "csv"}, flags...), treeFixture)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", flags, code, errs)
		}
		if first == "" {
			first = out
			if !strings.Contains(out, "443,5,1. e4 O-O 2. e5 d5 3. exd6,cxd6,1,") {
				t.Errorf("%v: no en passant line:\n%s", flags, out)
			}
		} else if out != first {
			t.Errorf("%v: output differs from --sp 443's:\n%s", flags, out)
		}
	}
}

func TestTreeSummary(t *testing.T) {
	_, errs, code := statsRun(t, "", "tree", treeFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "small.pgn:53: game 4 (White D - Black D), move 2.: illegal move 'Nf3': no knight can move to f3\n" +
		"frctool: tree: 7 games, 6 identified (2 distinct SPs), 1 DFRC, 0 other start positions, 0 unknown, 1 warning; " +
		"6 games in 2 trees (18 positions), 1 from other starts skipped, 1 cut short by a move that cannot be played\n"
	if !strings.HasSuffix(errs, want) {
		t.Errorf("stderr:\n%s\nwant it to end with\n%s", errs, want)
	}
}

func TestTreeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"tree", "--sp", "443", "--rank", "RNBQKBNR", treeFixture},
		{"tree", "--sp", "1000", treeFixture},
		{"tree", "--fritz9", "0", treeFixture},
		{"tree", "--rank", "RNBQKBN", treeFixture},
		{"tree", "--fen", "not a fen", treeFixture},
		{"tree", "--moves", "1. e4", treeFixture},
		{"tree", "--sp", "518", "--moves", "1. e5", treeFixture},
		{"tree", "--depth", "0", treeFixture},
		{"tree", "--min-games", "0", treeFixture},
		{"tree", "--max-nodes", "-1", treeFixture},
		{"tree", "--format", "xml", treeFixture},
		{"tree", "--merge", "--sp", "518", "x.json"},
		{"tree", "--merge", "--min-elo", "2000", "x.json"},
	} {
		if _, errs, code := statsRun(t, "", args...); code != 2 || !strings.Contains(errs, "frctool tree --help") {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
}

// TestTreeSplitMerge builds trees of a file's parts as JSON, merges them,
// and compares with the tree of the whole file.
func TestTreeSplitMerge(t *testing.T) {
	data, err := os.ReadFile(treeFixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	games := strings.SplitAfter(string(data), "\n\n[Event")
	cut := len(games) / 2
	part1 := strings.Join(games[:cut], "")
	part1 = strings.TrimSuffix(part1, "[Event")
	part2 := "[Event" + strings.Join(games[cut:], "")
	var jsons []string
	for i, p := range []string{part1, part2} {
		in := filepath.Join(dir, "part"+string(rune('1'+i))+".pgn")
		if err := os.WriteFile(in, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
		out := in + ".json.gz"
		if _, errs, code := statsRun(t, "", "tree", "-q", "--depth", "6", "-o", out, in); code != 0 {
			t.Fatalf("part %d: exit %d: %s", i+1, code, errs)
		}
		jsons = append(jsons, out)
	}
	whole, _, code := statsRun(t, "", "tree", "-q", "--depth", "6", "--format", "json", treeFixture)
	if code != 0 {
		t.Fatal("whole: exit", code)
	}
	merged, errs, code := statsRun(t, "", append([]string{"tree", "--merge", "--format", "json"}, jsons...)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if merged != whole {
		t.Errorf("merged:\n%.2000s\nwhole:\n%.2000s", merged, whole)
	}
	if !strings.Contains(errs, "tree: 7 games, 6 identified (2 distinct SPs), 1 DFRC") {
		t.Errorf("merge summary: %s", errs)
	}
	if _, errs, code := statsRun(t, "", "tree", "--merge", "--depth", "8", jsons[0]); code != 1 || !strings.Contains(errs, "6 plies, not --depth 8") {
		t.Errorf("merge at another depth: exit %d, %s", code, errs)
	}
	if _, errs, code := statsRun(t, "", "tree", "--merge", treeFixture); code != 1 || !strings.Contains(errs, "--merge reads what frctool tree --format json writes") {
		t.Errorf("merge of PGN: exit %d, %s", code, errs)
	}
}

// TestTreeTCEC builds the trees of a real engine tournament: every game
// replays, and every SP of the file has a tree.
func TestTreeTCEC(t *testing.T) {
	path := sharedtest.Path(t, "realdata", "tcec", "TCEC_Season_6_-_FRC.pgn")
	out, errs, code := statsRun(t, "", "tree", "--format", "json", "--depth", "4", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Summary struct{ Games, Failed int }
		Trees   []struct{ Games int }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Summary.Games != 112 || doc.Summary.Failed != 0 || len(doc.Trees) != 107 {
		t.Errorf("%d games, %d failed, %d trees; want 112, 0, 107\n%s", doc.Summary.Games, doc.Summary.Failed, len(doc.Trees), errs)
	}
}

// TestTreeTCECNoCastling builds the tree of a TCEC event played from
// arrays without castling rights, chosen by --fen: the tree keeps the
// array's SP, and two move orders of the same opening meet.
func TestTreeTCECNoCastling(t *testing.T) {
	path := sharedtest.Path(t, "realdata", "tcec", "TCEC_Season_26_-_Frc_No_Castling_Kibitzer_Bonus.pgn")
	out, errs, code := statsRun(t, "", "tree", "--fen", "qrkrnnbb/pppppppp/8/8/8/8/PPPPPPPP/QRKRNNBB w - - 0 1", "--depth", "6", "--format", "csv", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"879,0,,b4,6,5,1,0,",
		// 1. b4 a5 2. b5 b6 3. Ne3 and 1. b4 b6 2. Ne3 a5 3. b5, three
		// games each.
		"879,5,1. b4 a5 2. b5 b6 3. Ne3,Nd6,6,5,1,0,",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no row %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "12 games in 1 tree (") || !strings.Contains(errs, "12 from other starts skipped") {
		t.Errorf("summary: %s", errs)
	}
	// Without --fen, each of the event's two arrays has its tree.
	out, errs, code = statsRun(t, "", "tree", "--depth", "1", "--format", "csv", path)
	if code != 0 || !strings.Contains(out, "\n80,0,,g4,6,6,0,0,") || !strings.Contains(out, "\n879,0,,b4,6,5,1,0,") || !strings.Contains(errs, "24 games in 2 trees (") {
		t.Errorf("exit %d:\n%s\n%s", code, out, errs)
	}
}

// TestTreeBoundsMemory checks that tree holds the collector to the
// memory budget when its positions are bounded to fit in it, and not
// when they are not.
func TestTreeBoundsMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, tc := range []struct {
		name string
		args []string
		want int64
	}{
		{"the default bound", []string{"tree", "-q", "-o", os.DevNull, treeFixture}, softLimit},
		{"a smaller bound", []string{"tree", "-q", "--max-nodes", "1000", "-o", os.DevNull, treeFixture}, softLimit},
		{"no bound", []string{"tree", "-q", "--max-nodes", "0", "-o", os.DevNull, treeFixture}, math.MaxInt64},
		{"a larger bound", []string{"tree", "-q", "--max-nodes", "5000000", "-o", os.DevNull, treeFixture}, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", "")
			debug.SetMemoryLimit(math.MaxInt64)
			frctool(t, "", tc.args...)
			if got := debug.SetMemoryLimit(-1); got != tc.want {
				t.Errorf("memory limit %d after %v, want %d", got, tc.args, tc.want)
			}
		})
	}
	if defaultMaxNodes*tree.NodeBytes > softLimit/2 {
		t.Errorf("%d positions of %d bytes leave too little of the soft limit %d to the rest of a run", defaultMaxNodes, tree.NodeBytes, softLimit)
	}
}
