package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// classes is what startpos.Classify makes of an input, to hold every
// command to.
type classes struct {
	tally startpos.Tally
	kinds []startpos.Kind // of every counted game, in order
	sps   map[int]int     // games per SP of the Chess960 games
	// tooLarge counts the games of a known start too large to hold,
	// which validate cannot replay.
	tooLarge int
}

func classify(t *testing.T, path string) classes {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := pgn.NewReader(f)
	r.Name = path
	c := classes{sps: map[int]int{}}
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		cl := startpos.Classify(g)
		c.tally.Add(&cl, len(g.Problems)+len(cl.Problems))
		if !cl.Counted {
			continue
		}
		c.kinds = append(c.kinds, cl.Start.Kind)
		if (g.Partial || g.TagsIncomplete) && cl.Start.Kind != startpos.Unknown {
			c.tooLarge++
		}
		if sp, ok := cl.Start.SP(); ok {
			c.sps[sp]++
		}
	}
	return c
}

// runCmd runs frctool with args and returns its stdout and the numbers
// of its summary line, which must match summary.
func runCmd(t *testing.T, summary *regexp.Regexp, args ...string) (stdout []byte, nums []int64) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"frctool"}, args...), strings.NewReader(""), &out, &errOut)
	if code != 0 && !(args[0] == "validate" && code == 1) {
		t.Fatalf("%v: exit status %d\n%s", args, code, tail(errOut.String()))
	}
	m := summary.FindStringSubmatch(errOut.String())
	if m == nil {
		t.Fatalf("%v: no summary line matching %v in\n%s", args, summary, tail(errOut.String()))
	}
	for _, c := range countPhrase.FindAllStringSubmatch(m[0], -1) {
		if plural := c[2] == "plies" || c[3] == "s"; plural == (c[1] == "1") {
			t.Errorf("%v: %q in the summary line %q", args, c[0], m[0])
		}
	}
	for _, s := range m[1:] {
		if s == "" {
			nums = append(nums, 0)
			continue
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		nums = append(nums, n)
	}
	return out.Bytes(), nums
}

// tail returns the end of a command's stderr, enough to see its summary.
func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

// The summary lines, their nouns singular or plural: countPhrase finds
// each count and its noun, which must agree.
var (
	countPhrase  = regexp.MustCompile(`\b(\d+) (?:distinct |other start |prefix )?(game|SP|position|warning|ply|plies|row|file|duplicate|tree)(s?)\b`)
	tallyLine    = `(\d+) games?, (\d+) identified \((\d+) distinct SPs?\), (\d+) DFRC, (\d+) other start positions?, (\d+) unknown, (\d+) warnings?`
	annotateLine = regexp.MustCompile(`(?m)^frctool: annotate: ` + tallyLine + `$`)
	statsLine    = regexp.MustCompile(`(?m)^frctool: stats: ` + tallyLine + `(;.*)?$`)
	dedupLine    = regexp.MustCompile(`(?m)^frctool: dedup: (\d+) games? read, (\d+) unique, (\d+) duplicates?, (\d+) prefix duplicates?(?:, (\d+) not compared)?, (\d+) warnings?$`)
	treeLine     = regexp.MustCompile(`(?m)^frctool: tree: ` + tallyLine + `; (\d+) games? in (\d+) trees? \((\d+) positions?\)(?:, (\d+) from other starts skipped)?.*$`)
	exportLine   = regexp.MustCompile(`(?m)^frctool: export: ` + tallyLine + `; (\d+) rows?$`)
	filterLine   = regexp.MustCompile(`(?m)^frctool: filter: (\d+) games? read, (\d+) selected, (\d+) rejected, (\d+) warnings?$`)
	splitLine    = regexp.MustCompile(`(?m)^frctool: split: (\d+) games? read, (\d+) files? written \((\d+) games? with a number, (\d+) DFRC, (\d+) other\), (\d+) warnings?$`)
	validateLine = regexp.MustCompile(`(?m)^frctool: validate: (\d+) games? checked, (\d+) failed, (\d+) (?:ply|plies) replayed(?:, (\d+) not checkable)?$`)
)

// inputEmpty reports whether the file at path is empty.
func inputEmpty(t *testing.T, path string) bool {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size() == 0
}

// reread classifies the games of a command's output.
func reread(t *testing.T, b []byte) classes {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.pgn")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return classify(t, path)
}

// generated writes the inputs the fixtures lack and returns their paths.
func generated(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	const sp0 = "[Event \"SP 0\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"" + fenSP0 + "\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
	const dfrc = "[Event \"DFRC\"]\n[SetUp \"1\"]\n[FEN \"" + fenDFRC + "\"]\n[Result \"*\"]\n\n1. Nf3 *\n\n"
	const mid = "[Event \"mid-game\"]\n[SetUp \"1\"]\n[FEN \"" + fenGame + "\"]\n[Result \"*\"]\n\n2. Nf3 *\n\n"
	// A comment larger than the reader holds at once makes the game come
	// in parts, of which only the first is a game.
	huge := "[Event \"huge\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"" + fenSP0 + "\"]\n[Result \"1-0\"]\n\n1. e4 {" +
		strings.Repeat("a long comment line\n", (17<<20)/20) + "} e5 1-0\n\n"
	inputs := []struct{ name, text string }{
		{"huge.pgn", sp0 + huge + dfrc + mid},
		{"tagless.pgn", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n"},
		{"escapes.pgn", "% written by a test\n" + sp0 + "% between games\n\n" + dfrc +
			"[Event \"after\"]\n[Result \"*\"]\n\n1. d4 *\n% after a result\n\n" + mid},
		{"variant.pgn", "[Event \"Chess960 without FEN\"]\n[Variant \"Chess960\"]\n[Result \"*\"]\n\n1. e4 *\n"},
	}
	var paths []string
	for _, in := range inputs {
		p := filepath.Join(dir, in.name)
		if err := os.WriteFile(p, []byte(in.text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	// The brief's own promises about the generated inputs, so that the
	// comparison below is over what it means to be.
	if c := classify(t, paths[0]); c.tally.Games != 4 || c.sps[0] != 2 {
		t.Fatalf("huge.pgn: %v, SPs %v; want 4 games, two from SP 0", &c.tally, c.sps)
	}
	if c := classify(t, paths[1]); c.tally.Games != 1 || c.tally.Unknown != 1 {
		t.Fatalf("tagless.pgn: %v, want 1 unknown game", &c.tally)
	}
	if c := classify(t, paths[3]); c.tally.Games != 1 || c.sps[518] != 1 {
		t.Fatalf("variant.pgn: %v, SPs %v; want one game from SP 518", &c.tally, c.sps)
	}
	return paths
}

// TestCommandsConsistent holds annotate, stats, filter, split and validate to
// one classification of the games of every fixture and of generated
// inputs: each must see the same games, of the same kinds.
func TestCommandsConsistent(t *testing.T) {
	var inputs []string
	for _, pattern := range []string{"../../testdata/*.pgn", "../../testdata/*/*.pgn"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, m...)
	}
	if len(inputs) == 0 {
		t.Fatal("no fixtures found")
	}
	inputs = append(inputs, generated(t)...)

	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			want := classify(t, in)
			w := &want.tally
			wantTally := []int64{w.Games, w.Identified, int64(w.Distinct()), w.DFRC, w.Other, w.Unknown, w.Warnings}

			t.Run("annotate", func(t *testing.T) {
				out, got := runCmd(t, annotateLine, "annotate", in)
				if !slices.Equal(got, wantTally) {
					t.Errorf("annotate counts %v, Classify %v", got, wantTally)
				}
				// Annotate writes every game, so its output holds the same
				// games of the same kinds in the same order.
				if back := reread(t, out); !slices.Equal(back.kinds, want.kinds) {
					t.Errorf("annotate wrote games of kinds %v, Classify %v", back.kinds, want.kinds)
				}
			})

			t.Run("export", func(t *testing.T) {
				out, got := runCmd(t, exportLine, "export", "--format", "csv", "--columns", "kind,sp", in)
				if !slices.Equal(got[:7], wantTally) || got[7] != w.Games {
					t.Errorf("export counts %v, Classify %v and a row a game", got, wantTally)
				}
				// One row per game, in input order, of the game's kind.
				var kinds []startpos.Kind
				for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n")[1:] {
					kind, _, _ := strings.Cut(line, ",")
					kinds = append(kinds, map[string]startpos.Kind{"chess960": startpos.Chess960, "dfrc": startpos.DFRC, "other": startpos.Other, "unknown": startpos.Unknown}[kind])
				}
				if len(out) > 0 && !slices.Equal(kinds, want.kinds) {
					t.Errorf("export's rows are of kinds %v, Classify %v", kinds, want.kinds)
				}
			})

			t.Run("dedup", func(t *testing.T) {
				dups := filepath.Join(t.TempDir(), "dups.pgn")
				out, got := runCmd(t, dedupLine, "dedup", "--duplicates", dups, in)
				read, unique, duplicates, prefixes, passed := got[0], got[1], got[2], got[3], got[4]
				if read != w.Games || unique+duplicates+prefixes+passed != read {
					t.Errorf("dedup counts %v, Classify %d games", got, w.Games)
				}
				// The two outputs together hold every game once.
				b, err := os.ReadFile(dups)
				if err != nil {
					t.Fatal(err)
				}
				kept, dropped := reread(t, out), reread(t, b)
				if kept.tally.Games+dropped.tally.Games != w.Games || kept.tally.Games != unique+passed {
					t.Errorf("dedup wrote %d games and %d duplicates, of %d", kept.tally.Games, dropped.tally.Games, w.Games)
				}
			})

			t.Run("tree", func(t *testing.T) {
				_, got := runCmd(t, treeLine, "tree", "-o", filepath.Join(t.TempDir(), "tree.csv"), in)
				if !slices.Equal(got[:6], wantTally[:6]) {
					t.Errorf("tree counts %v, Classify %v", got, wantTally)
				}
				// Every game from a Chess960 array is in a tree, one tree
				// per SP at most (more only for arrays set up without
				// castling rights), and every other game is skipped.
				inTrees, trees, skipped := got[7], got[8], got[10]
				if inTrees != w.Identified || trees < int64(w.Distinct()) || inTrees+skipped != w.Games {
					t.Errorf("tree: %d games in %d trees, %d skipped; Classify %d identified of %d SPs, %d games", inTrees, trees, skipped, w.Identified, w.Distinct(), w.Games)
				}
			})

			t.Run("stats", func(t *testing.T) {
				out, got := runCmd(t, statsLine, "stats", "--format", "json", in)
				if !slices.Equal(got[:6], wantTally[:6]) {
					t.Errorf("stats counts %v, Classify %v", got, wantTally)
				}
				// Stats adds warnings of its own (a Result tag the moves
				// disagree with, absurd Elo), on top of the reader's and
				// the start tags'.
				if got[6] < w.Warnings {
					t.Errorf("stats: %d warnings, fewer than Classify's %d", got[6], w.Warnings)
				}
				var doc struct {
					Totals struct {
						Games, Identified, DFRC, Other, Unknown, Positions int64
					} `json:"totals"`
					Rows []struct {
						SP    int   `json:"sp"`
						Games int64 `json:"games"`
					} `json:"rows"`
				}
				if err := json.Unmarshal(out, &doc); err != nil {
					t.Fatalf("stats JSON: %v", err)
				}
				tot := doc.Totals
				if g := []int64{tot.Games, tot.Identified, tot.Positions, tot.DFRC, tot.Other, tot.Unknown}; !slices.Equal(g, wantTally[:6]) {
					t.Errorf("stats JSON totals %v, Classify %v", g, wantTally[:6])
				}
				rows := map[int]int{}
				for _, r := range doc.Rows {
					rows[r.SP] += int(r.Games)
				}
				if fmt.Sprint(rows) != fmt.Sprint(want.sps) {
					t.Errorf("stats JSON games per SP %v, Classify %v", rows, want.sps)
				}
			})

			t.Run("filter", func(t *testing.T) {
				tests := []struct {
					name string
					args []string
					kind func(startpos.Kind) bool
				}{
					{"dfrc", []string{"--dfrc"}, func(k startpos.Kind) bool { return k == startpos.DFRC }},
					{"other", []string{"--other"}, func(k startpos.Kind) bool { return k == startpos.Other || k == startpos.Unknown }},
					{"complement", []string{"--dfrc", "--other", "--invert"}, func(k startpos.Kind) bool { return k == startpos.Chess960 }},
					{"every SP", []string{"--sp", "0-959"}, func(k startpos.Kind) bool { return k == startpos.Chess960 }},
				}
				for _, tc := range tests {
					t.Run(tc.name, func(t *testing.T) {
						var n int64
						for _, k := range want.kinds {
							if tc.kind(k) {
								n++
							}
						}
						out, got := runCmd(t, filterLine, append(append([]string{"filter"}, tc.args...), in)...)
						if g := got[:3]; !slices.Equal(g, []int64{w.Games, n, w.Games - n}) {
							t.Errorf("filter %v: read, selected, rejected %v; Classify %v", tc.args, g, []int64{w.Games, n, w.Games - n})
						}
						if got[3] != w.Warnings {
							t.Errorf("filter %v: %d warnings, Classify %d", tc.args, got[3], w.Warnings)
						}
						// What filter wrote must be read again as the
						// same games, of the kinds selected.
						back := reread(t, out)
						if back.tally.Games != n {
							t.Errorf("filter %v wrote %d games (%v), want %d", tc.args, back.tally.Games, &back.tally, n)
						}
						for _, k := range back.kinds {
							if !tc.kind(k) {
								t.Errorf("filter %v wrote a game of kind %v", tc.args, k)
							}
						}
					})
				}
				for sp, n := range want.sps {
					out, got := runCmd(t, filterLine, "filter", "--sp", strconv.Itoa(sp), in)
					if got[1] != int64(n) {
						t.Errorf("filter --sp %d selected %d games, Classify %d", sp, got[1], n)
					}
					if back := reread(t, out); back.sps[sp] != n || back.tally.Games != int64(n) {
						t.Errorf("filter --sp %d wrote %v, SPs %v; want %d games of SP %d", sp, &back.tally, back.sps, n, sp)
					}
				}
			})

			t.Run("split", func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "split")
				_, got := runCmd(t, splitLine, "split", "-o", dir, in)
				var wantFiles []string
				for sp := range want.sps {
					wantFiles = append(wantFiles, fmt.Sprintf("sp-%03d.pgn", sp))
				}
				if w.DFRC > 0 {
					wantFiles = append(wantFiles, "dfrc.pgn")
				}
				// Bytes that are no game go with the game before them, and
				// to other.pgn when there is no game at all.
				if w.Other+w.Unknown > 0 || (w.Games == 0 && !inputEmpty(t, in)) {
					wantFiles = append(wantFiles, "other.pgn")
				}
				slices.Sort(wantFiles)
				wantNums := []int64{w.Games, int64(len(wantFiles)), w.Identified, w.DFRC, w.Other + w.Unknown, w.Warnings}
				if !slices.Equal(got, wantNums) {
					t.Errorf("split counts %v, Classify %v", got, wantNums)
				}
				entries, err := os.ReadDir(dir)
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				var files []string
				for _, e := range entries {
					files = append(files, e.Name())
				}
				if !slices.Equal(files, wantFiles) {
					t.Errorf("split wrote %v, want %v", files, wantFiles)
				}
				for sp, n := range want.sps {
					b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("sp-%03d.pgn", sp)))
					if err != nil {
						t.Error(err)
						continue
					}
					if back := reread(t, b); back.sps[sp] != n || back.tally.Games != int64(n) {
						t.Errorf("split's sp-%03d.pgn holds %v, SPs %v; want %d games of SP %d", sp, &back.tally, back.sps, n, sp)
					}
				}
				if w.DFRC > 0 {
					b, err := os.ReadFile(filepath.Join(dir, "dfrc.pgn"))
					if err != nil {
						t.Fatal(err)
					}
					if back := reread(t, b); back.tally.DFRC != w.DFRC || back.tally.Games != w.DFRC {
						t.Errorf("split's dfrc.pgn holds %v, want %d DFRC games", &back.tally, w.DFRC)
					}
				}
				if w.Other+w.Unknown > 0 {
					b, err := os.ReadFile(filepath.Join(dir, "other.pgn"))
					if err != nil {
						t.Fatal(err)
					}
					back := reread(t, b)
					if back.tally.Other != w.Other || back.tally.Unknown != w.Unknown || back.tally.Games != w.Other+w.Unknown {
						t.Errorf("split's other.pgn holds %v, want %d other and %d unknown games", &back.tally, w.Other, w.Unknown)
					}
				}
			})

			t.Run("validate", func(t *testing.T) {
				_, got := runCmd(t, validateLine, "validate", in)
				checked, notCheckable := got[0], got[3]
				if checked+notCheckable != w.Games {
					t.Errorf("validate: %d checked + %d not checkable, Classify %d games", checked, notCheckable, w.Games)
				}
				if notCheckable != w.Unknown+int64(want.tooLarge) {
					t.Errorf("validate: %d not checkable, Classify %d unknown and %d too large", notCheckable, w.Unknown, want.tooLarge)
				}
			})
		})
	}
}
