package startpos

import (
	"errors"
	"strings"
	"testing"

	"github.com/frctool/frctool/numbering"
)

func TestParseNotation(t *testing.T) {
	for _, n := range []Notation{Scharnagl, Fritz9, Rank, FEN, ShredderFEN} {
		got, err := ParseNotation(n.String())
		if err != nil || got != n {
			t.Errorf("ParseNotation(%q) = %v, %v", n.String(), got, err)
		}
	}
	for _, bad := range []string{"", "Scharnagl", "sp", "xfen"} {
		if _, err := ParseNotation(bad); !errors.Is(err, ErrNotation) {
			t.Errorf("ParseNotation(%q): error %v, want ErrNotation", bad, err)
		}
	}
}

// TestReadAppend writes every start position in every notation and reads it
// back.
func TestReadAppend(t *testing.T) {
	for _, n := range []Notation{Scharnagl, Fritz9, Rank, FEN, ShredderFEN} {
		t.Run(n.String(), func(t *testing.T) {
			for sp := 0; sp < numbering.Count; sp++ {
				text := n.Append(nil, sp)
				got, err := n.Read(text)
				if err != nil || got != sp {
					t.Fatalf("SP %d written as %q reads as %d, %v", sp, text, got, err)
				}
			}
		})
	}
}

func TestAppendExamples(t *testing.T) {
	for _, tc := range []struct {
		n    Notation
		sp   int
		want string
	}{
		{Scharnagl, 518, "518"},
		{Fritz9, 518, "359"},
		{Fritz9, 0, "81"},
		{Rank, 0, "BBQNNRKR"},
		{FEN, 518, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{ShredderFEN, 518, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"},
	} {
		if got := string(tc.n.Append([]byte("x "), tc.sp)); got != "x "+tc.want {
			t.Errorf("%v.Append(SP %d) = %q, want %q", tc.n, tc.sp, got, "x "+tc.want)
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     Notation
		input string
		want  string // in the message
	}{
		{"scharnagl word", Scharnagl, "abc", `"abc" is not a Scharnagl number`},
		{"scharnagl 961", Scharnagl, "961", "out of range"},
		{"scharnagl negative", Scharnagl, "-1", "out of range"},
		{"fritz9 zero", Fritz9, "0", "out of range"},
		{"fritz9 space", Fritz9, "35 9", "not a Fritz9 number"},
		{"rank", Rank, "RNBQRBNK", "between the rooks"},
		{"fen syntax", FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "fen:"},
		{"fen game", FEN, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "not a Chess960 start position"},
		{"fen DFRC", FEN, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "DFRC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp, err := tc.n.Read([]byte(tc.input))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read(%q) = %d, %v; want an error saying %q", tc.input, sp, err, tc.want)
			}
		})
	}
}

// TestReadNumbersAllocateNothing guards the bulk conversion's speed.
func TestReadNumbersAllocateNothing(t *testing.T) {
	in := []byte("359")
	var dst []byte
	allocs := testing.AllocsPerRun(1000, func() {
		sp, err := Fritz9.Read(in)
		if err != nil {
			t.Fatal(err)
		}
		dst = Scharnagl.Append(dst[:0], sp)
	})
	if allocs != 0 {
		t.Errorf("Fritz9 to Scharnagl: %v allocations per line, want 0", allocs)
	}
}

func TestIdentify(t *testing.T) {
	const (
		standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
		sp0      = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR"
	)
	for _, tc := range []struct {
		name         string
		input        string
		white, black int
		sp, fritz9   int // -1, 0 when absent
		notStart     string
	}{
		{"rank", "RNBQKBNR", 518, 518, 518, 359, ""},
		{"German rank lower case", "  tsldklst ", 518, 518, 518, 359, ""},
		{"X-FEN", sp0 + " w KQkq - 0 1", 0, 0, 0, 81, ""},
		{"Shredder FEN", sp0 + " w HFhf - 0 1", 0, 0, 0, 81, ""},
		{"no castling, black to move", standard + " b - - 5 9", 518, 518, 518, 359, ""},
		{"EPD", standard + " w KQkq - id \"x\";", 518, 518, 518, 359, ""},
		{"DFRC", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 518, 0, -1, 0, ""},
		{"game in progress", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", 518, 518, -1, 0, "rank 4 is not empty"},
		{"no legal back rank", "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", -1, -1, -1, 0, "back rank"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := Identify(tc.input)
			if err != nil {
				t.Fatal(err)
			}
			if id.White != tc.white || id.Black != tc.black {
				t.Errorf("White SP %d, Black SP %d; want %d, %d", id.White, id.Black, tc.white, tc.black)
			}
			if sp, ok := id.SP(); sp != tc.sp || ok != (tc.sp >= 0) {
				t.Errorf("SP() = %d, %v; want %d", sp, ok, tc.sp)
			}
			if f, ok := id.Fritz9(); f != tc.fritz9 || ok != (tc.fritz9 > 0) {
				t.Errorf("Fritz9() = %d, %v; want %d", f, ok, tc.fritz9)
			}
			switch {
			case tc.notStart == "" && id.NotStart != nil:
				t.Errorf("NotStart = %v, want nil", id.NotStart)
			case tc.notStart != "" && (id.NotStart == nil || !strings.Contains(id.NotStart.Error(), tc.notStart)):
				t.Errorf("NotStart = %v, want one mentioning %q", id.NotStart, tc.notStart)
			}
			if r, ok := id.WhiteRank(); ok != (tc.white >= 0) || (ok && r.SP() != tc.white) {
				t.Errorf("WhiteRank() = %s, %v", r, ok)
			}
			if r, ok := id.BlackRank(); ok != (tc.black >= 0) || (ok && r.SP() != tc.black) {
				t.Errorf("BlackRank() = %s, %v", r, ok)
			}
		})
	}
}

func TestIdentifyErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string
		want  error // errors.Is, or nil to accept any error
	}{
		{"short rank", "RNBQKB", numbering.ErrLength},
		{"number", "518", numbering.ErrLength},
		{"bad rank", "RNBQKBNP", numbering.ErrLetter},
		{"bad FEN", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", nil},
		{"empty", "", numbering.ErrLength},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := Identify(tc.input)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Errorf("Identify(%q) = %+v, %v; want error %v", tc.input, id, err, tc.want)
			}
		})
	}
}
