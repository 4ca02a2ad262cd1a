package position

import (
	"errors"
	"testing"

	"github.com/frctool/frctool/fen"
)

func TestSetupErrors(t *testing.T) {
	tests := []struct{ name, fen, want string }{
		{"no white king", "4k3/8/8/8/8/8/8/8 w - - 0 1", "invalid position: white has 0 kings"},
		{"two black kings", "4k2k/8/8/8/8/8/8/4K3 w - - 0 1", "invalid position: black has 2 kings"},
		{"pawn on back rank", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "invalid position: pawn on a1"},
		{"side not to move in check", "4k3/8/8/8/8/8/8/4K2r b - - 0 1", "invalid position: white is in check but it is black's turn"},
		{"two rights on one side", "4k3/8/8/8/8/8/8/4KRR1 w GF - 0 1", "invalid position: white has two castling rights on the same side, rooks f1 and g1"},
		{"en passant without a pushed pawn", "4k3/8/8/8/8/8/8/4K3 w - d6 0 1", "invalid position: en passant square d6 does not follow a double pawn push"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFEN(tc.fen)
			var se *SetupError
			if !errors.As(err, &se) {
				t.Fatalf("ParseFEN(%q) error = %v, want a *SetupError", tc.fen, err)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}

// Package fen rejects some of these itself, so they are built field by field.
func TestFromFENErrors(t *testing.T) {
	p, err := fen.Parse("4k3/8/8/3p4/8/8/4K3/7R w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	castling := p
	castling.Castling.Add(true, 7)
	ep := p
	ep.EnPassant = int(D5)
	tests := []struct {
		name string
		pos  fen.Position
		want string
	}{
		{"right with king off back rank", castling, "invalid position: white has a castling right but its king is on e2"},
		{"en passant on the wrong rank", ep, "invalid position: en passant square d5 is not on black's third rank"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromFEN(tc.pos)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestFENAfterMoves(t *testing.T) {
	tests := []struct {
		name, start    string
		moves          []string
		xfen, shredder string
	}{
		{"no en passant square without a capture",
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", []string{"e4"},
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1"},
		{"en passant square when a capture is legal",
			"rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3", []string{"e4"},
			"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
			"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b HAha e3 0 3"},
		{"960 castling swaps king and rook",
			"rk4r1/pppppppp/8/8/8/8/PPPPPPPP/5KR1 w Gga - 0 1", []string{"O-O", "O-O-O"},
			"2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/5RK1 w - - 2 2",
			"2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/5RK1 w - - 2 2"},
		{"rook move loses one right, inner rook in X-FEN",
			"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", []string{"Rh1", "Rh8"},
			"1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w Qq - 2 2",
			"1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w Bb - 2 2"},
		{"null moves pass the turn and clear the en passant square",
			"rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3", []string{"e4", "--", "Z0", "0000"},
			"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 3 5",
			"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w HAha - 3 5"},
		{"capturing a castling rook removes its right",
			"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"Rxa8+"},
			"R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1",
			"R3k2r/8/8/8/8/8/8/4K2R b Hh - 0 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustParse(t, tc.start)
			for _, m := range tc.moves {
				if _, err := b.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			if got := b.FEN(fen.XFEN); got != tc.xfen {
				t.Errorf("X-FEN\n got %s\nwant %s", got, tc.xfen)
			}
			if got := b.FEN(fen.Shredder); got != tc.shredder {
				t.Errorf("Shredder-FEN\n got %s\nwant %s", got, tc.shredder)
			}
			for range tc.moves {
				b.Pop()
			}
			if got, want := b.FEN(fen.Shredder), mustParse(t, tc.start).FEN(fen.Shredder); got != want {
				t.Errorf("after Pop: %s, want %s", got, want)
			}
		})
	}
}

func TestGameState(t *testing.T) {
	tests := []struct {
		name                        string
		fen                         string
		check, checkmate, stalemate bool
	}{
		{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, false, false},
		{"fool's mate", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", true, true, false},
		{"check", "4k3/8/8/8/8/8/8/R3K2r w - - 0 1", true, false, false},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false, false, true},
		{"mate by castling", "5k2/4ppp1/8/8/8/8/8/R3K3 w Q - 0 1", false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustParse(t, tc.fen)
			if b.InCheck() != tc.check || b.IsCheckmate() != tc.checkmate || b.IsStalemate() != tc.stalemate {
				t.Errorf("InCheck, IsCheckmate, IsStalemate = %v, %v, %v; want %v, %v, %v",
					b.InCheck(), b.IsCheckmate(), b.IsStalemate(), tc.check, tc.checkmate, tc.stalemate)
			}
		})
	}
}

func TestPlyAndHistory(t *testing.T) {
	if b, err := Start(0); err != nil || !b.Chess960() {
		t.Errorf("Start(0) = %v, %v, want a Chess960 board", b, err)
	}
	b := New()
	if b.Chess960() {
		t.Error("New().Chess960() = true")
	}
	var played []Move
	for _, san := range []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6"} {
		m, err := b.Play(san)
		if err != nil {
			t.Fatalf("%s: %v", san, err)
		}
		played = append(played, m)
	}
	if got := b.Ply(); got != 8 {
		t.Errorf("Ply() = %d, want 8", got)
	}
	if got := b.FullMoveNumber(); got != 5 {
		t.Errorf("FullMoveNumber() = %d, want 5", got)
	}
	if got := b.HalfMoveClock(); got != 6 {
		t.Errorf("HalfMoveClock() = %d, want 6", got)
	}
	if got, want := b.FEN(fen.XFEN), "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 6 5"; got != want {
		t.Errorf("FEN\n got %s\nwant %s", got, want)
	}
	c := b.Copy()
	c.Pop()
	if got := b.Moves(); len(got) != len(played) || got[7] != played[7] {
		t.Errorf("Moves() = %v after popping a copy, want %v", got, played)
	}
	if m := played[6]; !m.IsCastling() || !m.IsKingSide() || m.String() != "e1h1" || b.UCI(m) != "e1g1" {
		t.Errorf("O-O = %v, want castling e1h1 (UCI e1g1)", m)
	}
	if k, r := played[6].CastlingSquares(); k != G1 || r != F1 {
		t.Errorf("CastlingSquares() = %v, %v, want g1, f1", k, r)
	}
}

// TestSetBoard sets boards that have played moves of their own to the
// position of another, which must come over whole (pieces, side to move,
// castling rooks, en passant square, counters, Chess960 castling) with no
// move to Pop, leave the other untouched when the board plays on, and
// cost no allocation once the board has memory for its moves.
func TestSetBoard(t *testing.T) {
	tests := []struct {
		name, from string
		chess960   bool
		moves      []string // played on the source after it is set up
	}{
		{"a Chess960 start", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", true, nil},
		{"standard chess after moves", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, []string{"e4", "d5", "e5", "f5"}},
		{"an en passant capture to make", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30", false, nil},
		{"Black to move, rights of one rook", "1r2k3/8/8/8/8/8/8/R3K2R b Kb - 3 12", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := ParseFEN(tt.from)
			if err != nil {
				t.Fatal(err)
			}
			o.SetChess960(tt.chess960)
			for _, san := range tt.moves {
				if _, err := o.Play(san); err != nil {
					t.Fatalf("%s: %v", san, err)
				}
			}
			want := o.FEN(fen.Shredder)
			b := New()
			for _, san := range []string{"Nf3", "Nf6", "g3"} {
				if _, err := b.Play(san); err != nil {
					t.Fatal(err)
				}
			}
			b.SetBoard(o)
			if got := b.FEN(fen.Shredder); got != want {
				t.Errorf("FEN %s, want %s", got, want)
			}
			if b.MovesPlayed() != 0 || b.Key() != o.Key() || b.Chess960() != o.Chess960() || b.Ply() != o.Ply() {
				t.Errorf("moves %d, key equal %v, Chess960 %v, ply %d; want 0, true, %v, %d", b.MovesPlayed(), b.Key() == o.Key(), b.Chess960(), b.Ply(), o.Chess960(), o.Ply())
			}
			// Playing on b leaves o as it was.
			moves := b.LegalMoves()
			if len(moves) == 0 {
				t.Fatal("no legal move")
			}
			b.Push(moves[0])
			if got := o.FEN(fen.Shredder); got != want || o.MovesPlayed() != len(tt.moves) {
				t.Errorf("the source is %s with %d moves after the copy played, want %s with %d", got, o.MovesPlayed(), want, len(tt.moves))
			}
			if n := testing.AllocsPerRun(100, func() {
				b.SetBoard(o)
				b.Push(moves[0])
			}); n != 0 {
				t.Errorf("%.0f allocations setting up and playing a move", n)
			}
		})
	}
}

// TestHasLegalMove: hasLegalMove stops generating at the first kind of
// move it finds, so it is held to the whole list on positions whose only
// legal moves are of one kind, one for each of generate's stages, and on
// positions with none.
func TestHasLegalMove(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		only string // what every legal move is: its piece ("king"), "ep", "castling", or "" for none
	}{
		{"king alone", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "king"},
		{"knight", "8/8/8/8/8/8/5k2/N4n1K w - - 0 1", "knight"},
		{"bishop", "8/8/8/8/8/8/5k2/B4n1K w - - 0 1", "bishop"},
		{"rook", "R7/8/8/8/8/8/5k2/5n1K w - - 0 1", "rook"},
		{"pawn", "8/8/8/8/8/8/P4k2/5n1K w - - 0 1", "pawn"},
		{"en passant", "8/8/4p3/3pP3/8/8/5k2/5n1K w - d6 0 2", "ep"},
		{"castling", "k4r2/8/8/8/8/7p/7P/6KR w H - 0 1", "castling"},
		{"checkmate", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", ""},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustParse(t, tc.fen)
			moves := b.LegalMoves()
			for _, m := range moves {
				kind := b.PieceAt(m.From()).Type().String()
				switch {
				case m.IsEnPassant():
					kind = "ep"
				case m.IsCastling():
					kind = "castling"
				}
				if kind != tc.only {
					t.Fatalf("legal move %s is a %s move; the case is of %q moves only", m, kind, tc.only)
				}
			}
			if got, want := b.hasLegalMove(), len(moves) > 0; got != want {
				t.Errorf("hasLegalMove() = %v with %d legal moves", got, len(moves))
			}
		})
	}
}
