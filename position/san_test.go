package position

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/frctool/frctool/fen"
)

func TestSANOutput(t *testing.T) {
	tests := []struct {
		name, fen, move, want string
	}{
		{"pawn push", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", "e4"},
		{"knight", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", "Nf3"},
		{"file disambiguation", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2"},
		{"file disambiguation other", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3d2", "Nfd2"},
		{"rank disambiguation", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},
		{"square disambiguation", "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Qa1b2"},
		{"rank where file is shared", "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a3b2", "Q3b2"},
		{"file where rank is shared", "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "c1b2", "Qcb2"},
		{"pinned piece does not disambiguate", "4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1", "b1d2", "Nd2"},
		{"capture", "4k3/8/8/3p4/8/5N2/8/4K3 w - - 0 1", "f3d4", "Nd4"},
		{"piece capture", "4k3/8/8/8/3p4/5N2/8/4K3 w - - 0 1", "f3d4", "Nxd4"},
		{"pawn capture", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "exd5"},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"},
		{"promotion", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", "e8=Q"},
		{"underpromotion with check", "k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r", "e8=R+"},
		{"capture promotion", "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7d8n", "exd8=N"},
		{"check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+"},
		{"mate", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#"},
		{"standard O-O", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1", "O-O"},
		{"standard O-O-O with check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1a1", "O-O-O+"},
		{"960 king and rook swap", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1g1", "O-O"},
		{"960 king already on g1", "4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "O-O"},
		{"960 rook already on f1", "4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1f1", "O-O"},
		{"960 a-side with b1 rook", "4k3/8/8/8/8/8/8/1R1K4 w B - 0 1", "d1b1", "O-O-O"},
		{"960 king already on c1", "4k3/8/8/8/8/8/8/1RK5 w B - 0 1", "c1b1", "O-O-O"},
		{"960 black king stays on c8", "1rk5/8/8/8/8/8/5PPP/6K1 b b - 0 1", "c8b8", "O-O-O"},
		{"960 king b1 rook a1", "6k1/5ppp/8/8/8/8/8/RK6 w A - 0 1", "b1a1", "O-O-O"},
		{"castling mates", "2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - 0 1", "e1a1", "O-O-O#"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustParse(t, tc.fen)
			m := mustFindUCI(t, b, tc.move)
			if got := b.SAN(m); got != tc.want {
				t.Errorf("SAN(%s) = %q, want %q", tc.move, got, tc.want)
			}
		})
	}
}

// mustFindUCI returns the legal move whose Chess960-style UCI is uci.
func mustFindUCI(t testing.TB, b *Board, uci string) Move {
	t.Helper()
	for _, m := range b.LegalMoves() {
		if m.String() == uci {
			return m
		}
	}
	t.Fatalf("%s is not legal in %s (legal: %v)", uci, b.FEN(fen.Shredder), b.LegalMoves())
	return NullMove
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		name, fen, text, want string // want is the Chess960-style UCI
	}{
		{"SAN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Nf3", "g1f3"},
		{"long algebraic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2-e4", "e2e4"},
		{"long algebraic with piece", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Ng1-f3", "g1f3"},
		{"UCI", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", "g1f3"},
		{"glyphs and check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8+!?", "a1a8"},
		{"glyph ??", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra7??", "a1a7"},
		{"marks apart", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8+ !! ", "a1a8"},
		{"promotion with =", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=Q", "e7e8q"},
		{"promotion without =", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8N", "e7e8n"},
		{"UCI promotion", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", "e7e8q"},
		{"en passant suffix", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6 e.p.", "e5d6"},
		{"O-O", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", "e1h1"},
		{"0-0", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "0-0", "e1h1"},
		{"0-0-0+", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "0-0-0+", "e1a1"},
		{"standard UCI two-square", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "e1h1"},
		{"king takes rook", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1", "e1h1"},
		{"960 king takes rook", "4k3/8/8/8/8/8/8/1R1K4 w B - 0 1", "d1b1", "d1b1"},
		{"960 king move to castling square", "4k3/8/8/8/8/8/8/1R1K4 w B - 0 1", "d1c1", "d1c1"},
		{"960 king one step to g1 is a king move", "4k3/8/8/8/8/8/8/5K1R w H - 0 1", "f1g1", "f1g1"},
		{"960 king swaps with rook", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "O-O", "f1g1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustParse(t, tc.fen)
			m, err := b.ParseMove(tc.text)
			if err != nil {
				t.Fatalf("ParseMove(%q): %v", tc.text, err)
			}
			if m.String() != tc.want {
				t.Errorf("ParseMove(%q) = %v, want %s", tc.text, m, tc.want)
			}
		})
	}
}

func TestParseMoveErrors(t *testing.T) {
	tests := []struct {
		name, fen, text string
		kind            error
		want            string
	}{
		{"attacked square", "4k2r/8/8/8/8/8/8/4KR2 b k - 0 1", "O-O", ErrIllegalMove,
			"illegal move 'O-O': the king would pass through an attacked square f8"},
		{"attacked destination", "4k2r/8/8/8/8/8/8/4K1R1 b k - 0 1", "O-O", ErrIllegalMove,
			"illegal move 'O-O': the king would be in check on g8"},
		{"blocked", "4kb1r/8/8/8/8/8/8/4K3 b k - 0 1", "O-O", ErrIllegalMove,
			"illegal move 'O-O': the way is blocked by the bishop on f8"},
		{"no right", "4k2r/8/8/8/8/8/8/4K3 b - - 0 1", "O-O", ErrIllegalMove,
			"illegal move 'O-O': black has no right to castle king-side"},
		{"in check", "4k2r/8/8/8/8/8/8/4R1K1 b k - 0 1", "O-O", ErrIllegalMove,
			"illegal move 'O-O': the king is in check"},
		{"null move in check", "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", "--", ErrIllegalMove,
			"illegal move '--': a null move cannot answer a check"},
		{"960 rook's way blocked", "4k3/8/8/8/8/8/8/RN2K3 w A - 0 1", "O-O-O", ErrIllegalMove,
			"illegal move 'O-O-O': the way is blocked by the knight on b1"},
		{"960 rook uncovers check on c1", "4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", "O-O-O", ErrIllegalMove,
			"illegal move 'O-O-O': the king would be in check on c1"},
		{"960 blocked by the other rook", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR b HFhf - 0 1", "O-O", ErrIllegalMove,
			"illegal move 'O-O': the way is blocked by the rook on f8"},
		{"960 no queen-side rook", "4k3/8/8/8/8/8/8/3K3R w H - 0 1", "O-O-O", ErrIllegalMove,
			"illegal move 'O-O-O': white has no right to castle queen-side"},
		{"king takes rook without the right", "4k3/8/8/8/8/8/8/4K2R w - - 0 1", "e1h1", ErrIllegalMove,
			"illegal move 'e1h1': white has no right to castle king-side"},
		{"king takes a rook that cannot castle", "4k3/8/8/8/8/8/8/4KR1R w H - 0 1", "e1f1", ErrIllegalMove,
			"illegal move 'e1f1': white cannot castle with the rook on f1"},
		{"ambiguous", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", ErrAmbiguousMove,
			"ambiguous move 'Nd2' (Nb1, Nf3)"},
		{"no piece reaches", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "Ne5", ErrIllegalMove,
			"illegal move 'Ne5': no knight can move to e5"},
		{"no piece on file reaches", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Ncd2", ErrIllegalMove,
			"illegal move 'Ncd2': no knight on the c-file can move to d2"},
		{"pawn capture needs file", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "d5", ErrIllegalMove,
			"illegal move 'd5': no pawn can move to d5"},
		{"pinned", "4k3/8/8/3b4/8/5N2/8/7K w - - 0 1", "Nd2", ErrIllegalMove,
			"illegal move 'Nd2': the knight on f3 is pinned to the king"},
		{"check not answered", "4k3/8/8/8/8/8/3N4/r3K3 w - - 0 1", "Nf3", ErrIllegalMove,
			"illegal move 'Nf3': the king is in check and f3 does not stop it"},
		{"king into check", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "Kd1", ErrIllegalMove,
			"illegal move 'Kd1': the king would be in check on d1"},
		{"own piece", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "Ke2", ErrIllegalMove,
			"illegal move 'Ke2': e2 is occupied by white's own pawn"},
		{"wrong turn", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", "e2e4", ErrIllegalMove,
			"illegal move 'e2e4': the pawn on e2 is white's, and it is black's turn"},
		{"empty origin", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "d2d4", ErrIllegalMove,
			"illegal move 'd2d4': no piece on d2"},
		{"promotion missing", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8", ErrInvalidMove,
			"invalid move 'e8': a pawn reaching the last rank must name its promotion piece, as in e8=Q"},
		{"promotion too early", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e4=Q", ErrIllegalMove,
			"illegal move 'e4=Q': a pawn promotes only on the last rank"},
		{"promotion to king", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=K", ErrInvalidMove,
			"invalid move 'e8=K': not a move in SAN, long algebraic or UCI notation"},
		{"garbage", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "Zz9", ErrInvalidMove,
			"invalid move 'Zz9': not a move in SAN, long algebraic or UCI notation"},
		{"empty", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "", ErrInvalidMove,
			"invalid move '': not a move in SAN, long algebraic or UCI notation"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustParse(t, tc.fen)
			m, err := b.ParseMove(tc.text)
			if err == nil {
				t.Fatalf("ParseMove(%q) = %v, want an error", tc.text, m)
			}
			var me *MoveError
			if !errors.As(err, &me) || !errors.Is(err, tc.kind) {
				t.Errorf("error %v (%T) is not a *MoveError of kind %v", err, err, tc.kind)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}

// sanPositions are positions whose every legal move must survive SAN and
// UCI round trips, Chess960 castling corner cases first.
var sanPositions = []string{
	"4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
	"4k3/8/8/8/8/8/8/6KR w H - 0 1",
	"4k3/8/8/8/8/8/8/4KR2 w F - 0 1",
	"4k3/8/8/8/8/8/8/1R1K4 w B - 0 1",
	"4k3/8/8/8/8/8/8/1RK5 w B - 0 1",
	"4k3/8/8/8/8/8/8/RK6 w A - 0 1",
	"rk4r1/8/8/8/8/8/8/RK4R1 b GAga - 0 1",
	"1r3kr1/8/8/8/8/8/8/1R3KR1 w GBgb - 0 1",
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
	"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
}

func TestSANRoundTrip(t *testing.T) {
	for _, f := range sanPositions {
		b := mustParse(t, f)
		checkRoundTrip(t, b)
	}
	// Random games from Chess960 start positions reach castlings of every
	// shape, promotions and en passant captures.
	rng := rand.New(rand.NewPCG(960, 1))
	for sp := 0; sp < 960; sp += 7 {
		b, err := Start(sp)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 200; ply++ {
			checkRoundTrip(t, b)
			moves := b.LegalMoves()
			if len(moves) == 0 {
				break
			}
			// Prefer castling when it is there, to see many of them.
			m := moves[rng.IntN(len(moves))]
			for _, c := range moves {
				if c.IsCastling() && rng.IntN(2) == 0 {
					m = c
				}
			}
			b.Push(m)
		}
	}
}

func checkRoundTrip(t *testing.T, b *Board) {
	t.Helper()
	for _, m := range b.LegalMoves() {
		san := b.SAN(m)
		if want, ok := referencePieceSAN(b, m); ok && san != want {
			t.Errorf("%s: SAN of %v is %q, want %q", b.FEN(fen.Shredder), m, san, want)
		}
		if got, err := b.ParseMove(san); err != nil || got != m {
			t.Errorf("%s: SAN %q of %v parses to %v, %v", b.FEN(fen.Shredder), san, m, got, err)
		}
		for _, text := range []string{m.String(), b.UCI(m)} {
			if got, err := b.ParseMove(text); err != nil || got != m {
				t.Errorf("%s: UCI %q of %v parses to %v, %v", b.FEN(fen.Shredder), text, m, got, err)
			}
		}
	}
}

func TestUCIStandardCastling(t *testing.T) {
	b := mustParse(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	want := map[string]string{"O-O": "e1g1", "O-O-O": "e1c1"}
	for san, uci := range want {
		m, err := b.ParseMove(san)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.UCI(m); got != uci {
			t.Errorf("UCI(%s) = %s, want %s", san, got, uci)
		}
		b.SetChess960(true)
		if got := b.UCI(m); got != m.String() {
			t.Errorf("Chess960 UCI(%s) = %s, want %s", san, got, m)
		}
		b.SetChess960(false)
	}
}

// referencePieceSAN writes m, a legal move of a piece other than a pawn
// that does not castle, as SAN the long way: the other pieces of its kind
// that can move to its square are found among all legal moves, and
// check and mate by counting the replies. ok is false for other moves.
func referencePieceSAN(b *Board, m Move) (san string, ok bool) {
	pt := b.squares[m.From()].Type()
	if pt == Pawn || m.IsCastling() {
		return "", false
	}
	from, to := m.From(), m.To()
	var sameFile, sameRank, others bool
	for _, o := range b.LegalMoves() {
		if o.To() != to || o.From() == from || o.IsCastling() || b.squares[o.From()].Type() != pt {
			continue
		}
		others = true
		sameFile = sameFile || o.From().File() == from.File()
		sameRank = sameRank || o.From().Rank() == from.Rank()
	}
	s := string(pt.Letter())
	switch {
	case !others:
	case !sameFile:
		s += string(rune('a' + from.File()))
	case !sameRank:
		s += string(rune('1' + from.Rank()))
	default:
		s += from.String()
	}
	if b.squares[to] != NoPiece {
		s += "x"
	}
	s += to.String()
	b.Push(m)
	if b.InCheck() {
		if len(b.LegalMoves()) == 0 {
			s += "#"
		} else {
			s += "+"
		}
	}
	b.Pop()
	return s, true
}
