package startpos

import (
	"errors"
	"strings"
	"testing"

	"github.com/frctool/frctool/pgn"
)

func firstGame(t *testing.T, input string) *pgn.Game {
	t.Helper()
	r := pgn.NewReader(strings.NewReader(input))
	r.Name = "t.pgn"
	g, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

const (
	fen518   = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	fen0     = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
	fenDFRC  = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" // White 518, Black 0
	fenMid   = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	fen959Sh = "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1"
)

func TestGameStart(t *testing.T) {
	tests := []struct {
		name    string
		tags    string
		kind    Kind
		white   int
		black   int
		problem error // nil: none
	}{
		{"no FEN is standard chess", `[Event "x"]`, Chess960, 518, 518, nil},
		{"FEN before Variant and SetUp", `[FEN "` + fen0 + `"]` + "\n" + `[Variant "Chess960"]` + "\n" + `[SetUp "1"]`, Chess960, 0, 0, nil},
		{"FEN after Variant and SetUp", `[Variant "chess 960"]` + "\n" + `[SetUp "1"]` + "\n" + `[FEN "` + fen959Sh + `"]`, Chess960, 959, 959, nil},
		{"Variant Standard on a Chess960 FEN", `[Variant "Standard"]` + "\n" + `[FEN "` + fen0 + `"]`, Chess960, 0, 0, nil},
		{"no Variant at all", `[FEN "` + fen959Sh + `"]`, Chess960, 959, 959, nil},
		{"FEN ending in a semicolon", `[FEN "` + fen0 + `;"]`, Chess960, 0, 0, nil},
		{"FEN with extra blanks", `[FEN "  ` + fen0 + ` "]`, Chess960, 0, 0, nil},
		{"two FENs, one position in two dialects", `[FEN "` + fen0 + `"]` + "\n" + `[FEN "` + strings.Replace(fen0, "HFhf", "KQkq", 1) + `"]`, Chess960, 0, 0, nil},
		{"two FENs that conflict", `[FEN "` + fen0 + `"]` + "\n" + `[FEN "` + fen518 + `"]`, Chess960, 0, 0, ErrFENConflict},
		{"three FENs, the third of another position", `[FEN "` + fen0 + `"]` + "\n" + `[FEN "` + strings.Replace(fen0, "HFhf", "KQkq", 1) + `"]` + "\n" + `[FEN "` + fen518 + `"]`, Chess960, 0, 0, ErrFENConflict},
		{"a parsed FEN, then one of another position", `[FEN "` + fen959Sh + `"]` + "\n" + `[FEN "` + fen518 + `"]`, Chess960, 959, 959, ErrFENConflict},
		{"DFRC", `[FEN "` + fenDFRC + `"]`, DFRC, 518, 0, nil},
		{"mid-game FEN", `[SetUp "1"]` + "\n" + `[FEN "` + fenMid + `"]`, Other, -1, -1, nil},
		{"FEN question mark", `[FEN "?"]`, Unknown, -1, -1, ErrNoFEN},
		{"unreadable FEN", `[FEN "rnbqkbnr/ppp/8 w"]`, Unknown, -1, -1, ErrFEN},
		{"Chess960 Variant without FEN is the standard array", `[Variant "Fischerandom"]`, Chess960, 518, 518, nil},
		{"Chess960 Variant and SetUp without FEN", `[Variant "Chess960"]` + "\n" + `[SetUp "1"]`, Unknown, -1, -1, ErrNoFEN},
		{"SetUp without FEN", `[SetUp "1"]`, Unknown, -1, -1, ErrNoFEN},
		{"SetUp 0 without FEN", `[SetUp "0"]`, Chess960, 518, 518, nil},
		{"SetUp 0, then 1, without FEN", `[SetUp "0"]` + "\n" + `[Event "x"]` + "\n" + `[SetUp " 1 "]`, Unknown, -1, -1, ErrNoFEN},
		{"FEN question mark after another tag", `[Event "x"]` + "\n" + `[FEN "?"]`, Unknown, -1, -1, ErrNoFEN},
		{"other variant without FEN", `[Variant "Crazyhouse"]`, Chess960, 518, 518, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := firstGame(t, tt.tags+"\n\n1. e4 *\n")
			st, problems := OfGame(g)
			if st.Kind != tt.kind || st.White != tt.white || st.Black != tt.black {
				t.Errorf("Start = %v %d/%d, want %v %d/%d", st.Kind, st.White, st.Black, tt.kind, tt.white, tt.black)
			}
			// The first FEN tag is the one read: its index is the number
			// of tags before it (one tag a line in these cases).
			wantFEN := -1
			if i := strings.Index(tt.tags, "[FEN "); i >= 0 {
				wantFEN = strings.Count(tt.tags[:i], "\n")
			}
			if st.FEN != wantFEN {
				t.Errorf("Start.FEN = %d, want %d", st.FEN, wantFEN)
			}
			switch {
			case tt.problem == nil && len(problems) > 0:
				t.Errorf("unexpected problems %v", problems)
			case tt.problem != nil && (len(problems) != 1 || !errors.Is(problems[0], tt.problem)):
				t.Errorf("problems = %v, want one %v", problems, tt.problem)
			case tt.problem != nil && !strings.HasPrefix(problems[0].Error(), "t.pgn:"):
				t.Errorf("problem %q does not name the file and line", problems[0])
			}
		})
	}
}

func TestStartNumbers(t *testing.T) {
	st, _ := OfGame(firstGame(t, `[FEN "`+fenDFRC+`"]`+"\n\n*\n"))
	if _, ok := st.SP(); ok {
		t.Error("a DFRC game has a single SP")
	}
	if w, b, ok := st.Fritz9(); !ok || w != 359 || b != 81 {
		t.Errorf("Fritz9 = %d:%d %v, want 359:81", w, b, ok)
	}
	st, _ = OfGame(firstGame(t, "[Event \"x\"]\n\n*\n"))
	if sp, ok := st.SP(); !ok || sp != 518 {
		t.Errorf("SP = %d %v, want 518", sp, ok)
	}
}

func TestIsChess960Variant(t *testing.T) {
	for _, v := range []string{"Chess960", "chess960", "chess 960", "chess-960", "Fischerandom", "fischerrandom", "Fischer Random", "960", "FRC", "wild/fr", "w22"} {
		if !IsChess960Variant([]byte(v)) {
			t.Errorf("%q not recognized", v)
		}
	}
	for _, v := range []string{"Standard", "", "Crazyhouse", "wild/0", "chess", strings.Repeat("9", 100)} {
		if IsChess960Variant([]byte(v)) {
			t.Errorf("%q taken for Chess960", v)
		}
	}
}
