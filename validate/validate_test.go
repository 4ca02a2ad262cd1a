package validate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/startpos"
)

// validateFile runs Run over one file and returns the summary and the
// problems' texts.
func validateFile(t *testing.T, path string, opts Options, jobs int) (Summary, []string, []*pgn.ParseError) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := pgn.NewReader(bytes.NewReader(data))
	r.Name = filepath.Base(path)
	var sum Summary
	var texts []string
	var problems []*pgn.ParseError
	warn := func(p *pgn.ParseError) {
		texts = append(texts, p.Error())
		problems = append(problems, p)
	}
	if err := Run(context.Background(), r, opts, pipeline.Options{Jobs: jobs, Warn: warn}, &sum); err != nil {
		t.Fatal(err)
	}
	return sum, texts, problems
}

func TestHandMadeGames(t *testing.T) {
	tests := []struct {
		file       string
		variations bool
		summary    string
		problems   []string
		kind       error // what errors.Is finds in the first problem
	}{
		{
			file:    "good.pgn",
			summary: "3 games checked, 0 failed, 12 plies replayed",
		},
		{
			file:     "attacked.pgn",
			summary:  "1 game checked, 1 failed, 0 plies replayed",
			problems: []string{"attacked.pgn:9: game 1 (Alpha - Beta), move 1...: illegal move 'O-O': the king would pass through an attacked square f8"},
			kind:     position.ErrIllegalMove,
		},
		{
			file:     "blocked.pgn",
			summary:  "1 game checked, 1 failed, 0 plies replayed",
			problems: []string{"blocked.pgn:9: game 1 (Alpha - Beta), move 1.: illegal move 'O-O': the way is blocked by the rook on f1"},
			kind:     position.ErrIllegalMove,
		},
		{
			file:     "noright.pgn",
			summary:  "1 game checked, 1 failed, 0 plies replayed",
			problems: []string{"noright.pgn:9: game 1 (Alpha - Beta), move 1...: illegal move 'O-O': black has no right to castle king-side"},
			kind:     position.ErrIllegalMove,
		},
		{
			file:     "ambiguous.pgn",
			summary:  "1 game checked, 1 failed, 4 plies replayed",
			problems: []string{"ambiguous.pgn:6: game 1 (Alpha - Beta), move 3.: ambiguous move 'Nd2' (Nb1, Nf3)"},
			kind:     position.ErrAmbiguousMove,
		},
		{
			file:     "garbage.pgn",
			summary:  "1 game checked, 1 failed, 3 plies replayed",
			problems: []string{"garbage.pgn:7: game 1 (Alpha - Beta), move 2...: invalid move 'Xyzzy': not a move in SAN, long algebraic or UCI notation"},
			kind:     position.ErrInvalidMove,
		},
		{
			file:     "wrongresult.pgn",
			summary:  "1 game checked, 1 failed, 4 plies replayed",
			problems: []string{`wrongresult.pgn:4: game 1 (Alpha - Beta): wrong result: [Result "1-0"], but White is checkmated`},
			kind:     ErrResult,
		},
		{
			file:    "marker.pgn",
			summary: "2 games checked, 2 failed, 6 plies replayed",
			problems: []string{
				`marker.pgn:6: game 1 (Alpha - Beta): wrong result: [Result "1-0"], but the moves end with "0-1"`,
				`marker.pgn:14: game 2 (Gamma - Delta): wrong result: [Result "1/2-1/2"], but the moves end with "*"`,
			},
			kind: ErrResult,
		},
		{
			file:     "nullmove.pgn",
			summary:  "2 games checked, 1 failed, 6 plies replayed",
			problems: []string{"nullmove.pgn:13: game 2 (Gamma - Delta), move 1...: illegal move '--': a null move can stand in a variation, not in the game"},
			kind:     position.ErrIllegalMove,
		},
		{
			file:       "nullmove.pgn",
			variations: true,
			summary:    "2 games checked, 1 failed, 8 plies replayed",
			problems:   []string{"nullmove.pgn:13: game 2 (Gamma - Delta), move 1...: illegal move '--': a null move can stand in a variation, not in the game"},
			kind:       position.ErrIllegalMove,
		},
		{
			// Not checkable is a warning, not a failure.
			file:     "unknown.pgn",
			summary:  "0 games checked, 0 failed, 0 plies replayed, 1 not checkable",
			problems: []string{`unknown.pgn:6: game 1 (Alpha - Beta): not checked: start position unknown: [SetUp "1"] without a FEN tag`},
			kind:     ErrNotChecked,
		},
		{
			// Variations are skipped unless asked for.
			file:    "variation.pgn",
			summary: "1 game checked, 0 failed, 3 plies replayed",
		},
		{
			file:       "variation.pgn",
			variations: true,
			summary:    "1 game checked, 1 failed, 6 plies replayed",
			problems: []string{
				"variation.pgn:9: game 1 (Alpha - Beta), move 1...: illegal move 'O-O': the king would pass through an attacked square f8",
				"variation.pgn:10: game 1 (Alpha - Beta), move 2...: illegal move 'O-O': black has no right to castle king-side",
			},
			kind: position.ErrIllegalMove,
		},
	}
	for _, tc := range tests {
		name := tc.file
		if tc.variations {
			name += "/variations"
		}
		t.Run(name, func(t *testing.T) {
			sum, texts, problems := validateFile(t, filepath.Join("../testdata/validate", tc.file), Options{Variations: tc.variations}, 1)
			if got := sum.String(); got != tc.summary {
				t.Errorf("summary %q, want %q", got, tc.summary)
			}
			if len(texts) != len(tc.problems) {
				t.Fatalf("problems:\n%q\nwant:\n%q", texts, tc.problems)
			}
			for i := range texts {
				if texts[i] != tc.problems[i] {
					t.Errorf("problem %d:\n%s\nwant:\n%s", i, texts[i], tc.problems[i])
				}
			}
			if tc.kind != nil && !errors.Is(problems[0], tc.kind) {
				t.Errorf("errors.Is(%v, %v) is false", problems[0], tc.kind)
			}
		})
	}
}

// TestRealGames checks that every game of the shared real-world archives,
// all of them legal, validates, main lines and variations, and that the
// parallel run counts what the serial one does.
func TestRealGames(t *testing.T) {
	root := sharedtest.Path(t, "realdata")
	files, _ := filepath.Glob(filepath.Join(root, "*", "*.pgn"))
	if len(files) == 0 {
		t.Skip("no PGN files in", root)
	}
	var total Summary
	for _, path := range files {
		serial, problems, _ := validateFile(t, path, Options{Variations: true}, 1)
		for _, p := range problems {
			t.Error(p)
		}
		if serial.Failed > 0 || serial.NotChecked > 0 || serial.Checked == 0 {
			t.Errorf("%s: %s", path, &serial)
		}
		parallel, _, _ := validateFile(t, path, Options{Variations: true}, 4)
		if parallel != serial {
			t.Errorf("%s: with 4 jobs %s, with 1 %s", path, &parallel, &serial)
		}
		total.Checked += serial.Checked
		total.Plies += serial.Plies
	}
	t.Logf("%s", &total)
}

// TestNotCheckable covers the games validate cannot replay: each problem
// is reported once, the start tags' one in validate's words, naming the
// game.
func TestNotCheckable(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		summary  string
		problems []string
		kinds    []error // what errors.Is finds in the first problem
	}{
		{
			name:     "text without tags",
			in:       "\n\n1. e4 e5 *\n",
			summary:  "0 games checked, 0 failed, 0 plies replayed, 1 not checkable",
			problems: []string{"in.pgn:3: game 1 (? - ?): not checked: start position unknown: no tags"},
			kinds:    []error{ErrNotChecked, startpos.ErrNoFEN},
		},
		{
			name:    "unreadable FEN, and a second FEN reported beside it",
			in:      "[White \"A\"]\n[Black \"B\"]\n[FEN \"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 *\n",
			summary: "0 games checked, 0 failed, 0 plies replayed, 1 not checkable",
			problems: []string{
				"in.pgn:3: game 1 (A - B): not checked: FEN: fen: placement: digit '9' in rank 6, want 1 to 8",
				"in.pgn:4: conflicting FEN tags: line 4 describes another position than line 3; the first is used",
			},
			kinds: []error{ErrNotChecked, startpos.ErrFEN},
		},
		{
			name:     "a position that cannot be played from",
			in:       "[White \"A\"]\n[Black \"B\"]\n[FEN \"8/8/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. Kb2 *\n",
			summary:  "0 games checked, 0 failed, 0 plies replayed, 1 not checkable",
			problems: []string{"in.pgn:3: game 1 (A - B): not checked: FEN: invalid position: black has 0 kings"},
			kinds:    []error{ErrNotChecked, startpos.ErrFEN},
		},
	}
	tests = append(tests, struct {
		name     string
		in       string
		summary  string
		problems []string
		kinds    []error
	}{
		name:    "more tags than a game holds",
		in:      strings.Repeat("[Tag \"x\"]\n", pgn.MaxTags+1) + "\n1. e4 *\n",
		summary: "0 games checked, 0 failed, 0 plies replayed, 1 not checkable",
		problems: []string{
			fmt.Sprintf("in.pgn:%d: game too large: over %d tags; the game is passed through unexamined", pgn.MaxTags+1, pgn.MaxTags),
			"in.pgn:1: game 1 (? - ?): not checked: game too large",
		},
		kinds: []error{pgn.ErrGameTooLarge},
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := pgn.NewReader(strings.NewReader(tt.in))
			r.Name = "in.pgn"
			var sum Summary
			var problems []*pgn.ParseError
			var texts []string
			run := pipeline.Options{Jobs: 1, Warn: func(p *pgn.ParseError) {
				problems = append(problems, p)
				texts = append(texts, p.Error())
			}}
			if err := Run(context.Background(), r, Options{}, run, &sum); err != nil {
				t.Fatal(err)
			}
			if got := sum.String(); got != tt.summary {
				t.Errorf("summary %q, want %q", got, tt.summary)
			}
			if strings.Join(texts, "\n") != strings.Join(tt.problems, "\n") {
				t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(texts, "\n"), strings.Join(tt.problems, "\n"))
			}
			for _, kind := range tt.kinds {
				if !errors.Is(problems[0], kind) {
					t.Errorf("errors.Is(%v, %v) is false", problems[0], kind)
				}
			}
			if sum.Warnings != int64(len(tt.problems)) {
				t.Errorf("%d warnings counted, %d reported", sum.Warnings, len(tt.problems))
			}
		})
	}
}
