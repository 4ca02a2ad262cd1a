package fen

import (
	"errors"
	"strings"
	"testing"

	"github.com/frctool/frctool/numbering"
)

func mustRank(t testing.TB, sp int) numbering.Rank {
	t.Helper()
	r, err := numbering.FromSP(sp)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestStartFENExamples(t *testing.T) {
	tests := []struct {
		sp    int
		style Style
		want  string
	}{
		{518, XFEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{518, Shredder, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"},
		{0, XFEN, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"},
		{0, Shredder, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"},
		{959, Shredder, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1"},
		{909, Shredder, "rkqbrnbn/pppppppp/8/8/8/8/PPPPPPPP/RKQBRNBN w EAea - 0 1"},
	}
	for _, tt := range tests {
		if got := StartFEN(mustRank(t, tt.sp), tt.style); got != tt.want {
			t.Errorf("StartFEN(SP %d, %v) = %q, want %q", tt.sp, tt.style, got, tt.want)
		}
	}
}

// TestStartAll960 round-trips every start position through StartFEN, Parse
// and Start in both castling styles.
func TestStartAll960(t *testing.T) {
	for sp := range numbering.Count {
		r := mustRank(t, sp)
		var rooks []int
		for f, c := range r {
			if c == 'R' {
				rooks = append(rooks, f)
			}
		}
		shredder := string([]byte{'A' + byte(rooks[1]), 'A' + byte(rooks[0]), 'a' + byte(rooks[1]), 'a' + byte(rooks[0])})
		for style, field := range map[Style]string{XFEN: "KQkq", Shredder: shredder} {
			s := StartFEN(r, style)
			want := strings.ToLower(r.String()) + "/pppppppp/8/8/8/8/PPPPPPPP/" + r.String() + " w " + field + " - 0 1"
			if s != want {
				t.Fatalf("StartFEN(SP %d, %v) = %q, want %q", sp, style, s, want)
			}
			p, err := Parse(s)
			if err != nil {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			st := p.Start()
			if st != (Start{White: sp, Black: sp, Array: true}) {
				t.Fatalf("%q: Start() = %+v, want SP %d both sides", s, st, sp)
			}
			if got, ok := st.SP(); !ok || got != sp || st.DFRC() {
				t.Fatalf("%q: SP() = %d, %v; DFRC() = %v", s, got, ok, st.DFRC())
			}
			if err := p.StartError(); err != nil {
				t.Fatalf("%q: StartError() = %v", s, err)
			}
			full := Castling{White: files(rooks...), Black: files(rooks...)}
			if p.Castling != full {
				t.Fatalf("%q: Castling = %v, want %v", s, p.Castling, full)
			}
			if sp := StartPosition(r, r); p != sp {
				t.Fatalf("Parse(%q) = %+v, StartPosition gives %+v", s, p, sp)
			}
		}
	}
}

func TestDFRC(t *testing.T) {
	p := StartPosition(mustRank(t, 518), mustRank(t, 0))
	const wantFEN = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	if got := p.String(); got != wantFEN {
		t.Errorf("String() = %q, want %q", got, wantFEN)
	}
	if got := p.Format(Shredder); got != "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhf - 0 1" {
		t.Errorf("Format(Shredder) = %q", got)
	}
	st := p.Start()
	if st != (Start{White: 518, Black: 0, Array: true}) {
		t.Errorf("Start() = %+v, want White 518, Black 0, Array", st)
	}
	if !st.DFRC() {
		t.Error("DFRC() = false, want true")
	}
	if sp, ok := st.SP(); ok {
		t.Errorf("SP() = %d, true; want ok = false for DFRC", sp)
	}
	if err := p.StartError(); err != nil {
		t.Errorf("StartError() = %v, want nil for a DFRC array", err)
	}
}

func TestNotStart(t *testing.T) {
	tests := []struct {
		name       string
		fen        string
		want       Start
		err        string
		errIs      error
		wantNotArr bool
	}{
		{
			name: "after 1.e4",
			fen:  "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
			want: Start{White: 518, Black: 518}, err: "rank 4 is not empty",
		},
		{
			name: "mid-game",
			fen:  "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
			want: Start{White: -1, Black: -1}, err: "rank 3 is not empty",
		},
		{
			name: "a white pawn missing",
			fen:  "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
			want: Start{White: 518, Black: 518}, err: "rank 2 is not eight white pawns",
		},
		{
			name: "a black pawn on rank 2",
			fen:  "rnbqkbnr/pppppppp/8/8/8/8/PPPpPPPP/RNBQKBNR w KQkq - 0 1",
			want: Start{White: 518, Black: 518}, err: "rank 2 is not eight white pawns",
		},
		{
			name: "a black pawn missing",
			fen:  "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			want: Start{White: 518, Black: 518}, err: "rank 7 is not eight black pawns",
		},
		{
			name: "White has castled",
			fen:  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w kq - 0 1",
			want: Start{White: -1, Black: 518}, err: "White's back rank: e1 is empty",
		},
		{
			name: "bishops on one colour",
			fen:  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKNBR w KQkq - 0 1",
			want: Start{White: -1, Black: 518}, errIs: numbering.ErrBishops,
			err: `White's back rank: back rank "RNBQKNBR": the bishops must stand on squares of opposite colours (both on dark squares)`,
		},
		{
			name: "black king outside the rooks",
			fen:  "rrbqkbnn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			want: Start{White: 518, Black: -1}, errIs: numbering.ErrKing,
			err: `Black's back rank: back rank "rrbqkbnn": the king must stand between the rooks`,
		},
		{
			name: "white piece on Black's back rank",
			fen:  "Rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			want: Start{White: 518, Black: -1}, err: "Black's back rank: a8 holds 'R'",
		},
		{
			name: "pawn on White's back rank",
			fen:  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w KQkq - 0 1",
			want: Start{White: -1, Black: 518}, err: "White's back rank: h1 holds 'P'",
		},
		{
			name: "three knights",
			fen:  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKBNR w KQkq - 0 1",
			want: Start{White: -1, Black: 518}, errIs: numbering.ErrPieces,
			err: `White's back rank: back rank "RNNQKBNR": a back rank holds 2 rooks, 2 knights, 2 bishops, 1 queen and 1 king (3 knights, 1 bishop)`,
		},
		{
			name: "empty board",
			fen:  "8/8/8/8/8/8/8/8 w - - 0 1",
			want: Start{White: -1, Black: -1}, err: "rank 2 is not eight white pawns",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			st := p.Start()
			if st != tt.want {
				t.Errorf("Start() = %+v, want %+v", st, tt.want)
			}
			if _, ok := st.SP(); ok || st.DFRC() {
				t.Errorf("SP() ok or DFRC() for a position that is no start array")
			}
			err = p.StartError()
			if err == nil || err.Error() != tt.err {
				t.Errorf("StartError() = %v, want %q", err, tt.err)
			}
			if tt.errIs != nil && !errors.Is(err, tt.errIs) {
				t.Errorf("StartError() = %v, want errors.Is %v", err, tt.errIs)
			}
		})
	}
}

// TestStartIgnoresOtherFields checks that castling rights, side to move,
// en passant, counters and EPD operations never change the number.
func TestStartIgnoresOtherFields(t *testing.T) {
	for _, sp := range []int{0, 1, 518, 521, 631, 909, 959} {
		r := mustRank(t, sp)
		placement := strings.ToLower(r.String()) + "/pppppppp/8/8/8/8/PPPPPPPP/" + r.String()
		for _, rest := range []string{
			"w KQkq - 0 1", "b KQkq - 0 1", "w - - 0 1", "w Kq - 0 1", "b k - 10 30",
			"w " + StartFEN(r, Shredder)[len(placement)+3:len(placement)+7] + " - 0 1",
			"w KQkq -", "w - - bm e4;", "b - e6 0 1", "w KQkq - 0 1;",
		} {
			p, err := Parse(placement + " " + rest)
			if err != nil {
				t.Fatalf("%s %s: %v", placement, rest, err)
			}
			if st := p.Start(); st != (Start{White: sp, Black: sp, Array: true}) {
				t.Errorf("%s %s: Start() = %+v, want SP %d", placement, rest, st, sp)
			}
		}
	}
}

// TestStartErrorAgreesWithStart checks that StartError is nil exactly when
// Start reports an array.
func TestStartErrorAgreesWithStart(t *testing.T) {
	base := StartPosition(mustRank(t, 631), mustRank(t, 909))
	for sq := range 64 {
		for _, c := range []byte{0, 'P', 'p', 'R', 'k'} {
			p := base
			p.Board[sq] = c
			if array, err := p.Start().Array, p.StartError(); array != (err == nil) {
				t.Fatalf("square %d = %q: Start().Array = %v, StartError() = %v", sq, c, array, err)
			}
		}
	}
}
