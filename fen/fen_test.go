package fen

import (
	"errors"
	"testing"
)

// Placements used across the tests.
const (
	stdPlacement = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" // SP 518
	sp0Placement = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR" // SP 0: rooks f and h, king g
	eaPlacement  = "rbbkrqnn/pppppppp/8/8/8/8/PPPPPPPP/RBBKRQNN" // rooks a and e, king d
	bhPlacement  = "nrbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBNR" // rooks b and h, king d
)

// files returns the Castling bitmask of the given files.
func files(fs ...int) uint8 {
	var m uint8
	for _, f := range fs {
		m |= 1 << f
	}
	return m
}

func TestParseDialects(t *testing.T) {
	both := func(fs ...int) Castling { return Castling{White: files(fs...), Black: files(fs...)} }
	tests := []struct {
		name      string
		in        string
		placement string // stdPlacement when ""
		turn      byte   // 'w' when 0
		castling  Castling
		ep        int
		half      int
		full      int
		ops       string
	}{
		{name: "standard X-FEN", in: stdPlacement + " w KQkq - 0 1", castling: both(0, 7), full: 1, ep: -1},
		{name: "standard Shredder", in: stdPlacement + " w HAha - 0 1", castling: both(0, 7), full: 1, ep: -1},
		{name: "Shredder ascending AHah", in: stdPlacement + " w AHah - 0 1", castling: both(0, 7), full: 1, ep: -1},
		{name: "Shredder HFhf", in: sp0Placement + " w HFhf - 0 1", placement: sp0Placement, castling: both(5, 7), full: 1, ep: -1},
		{name: "X-FEN on SP 0", in: sp0Placement + " w KQkq - 0 1", placement: sp0Placement, castling: both(5, 7), full: 1, ep: -1},
		{name: "Shredder ascending EAea", in: eaPlacement + " w EAea - 0 1", placement: eaPlacement, castling: both(0, 4), full: 1, ep: -1},
		{name: "Shredder ascending BHbh", in: bhPlacement + " w BHbh - 0 1", placement: bhPlacement, castling: both(1, 7), full: 1, ep: -1},
		{name: "mixture KFkf", in: sp0Placement + " w KFkf - 0 1", placement: sp0Placement, castling: both(5, 7), full: 1, ep: -1},
		{name: "mixture HQhq", in: sp0Placement + " w HQhq - 0 1", placement: sp0Placement, castling: both(5, 7), full: 1, ep: -1},
		{name: "no rights", in: stdPlacement + " w - - 0 1", full: 1, ep: -1},
		{name: "some rights Kq", in: stdPlacement + " b Kq - 3 9", turn: 'b', castling: Castling{White: files(7), Black: files(0)}, half: 3, full: 9, ep: -1},
		{name: "repeated letters", in: stdPlacement + " w KKQQkHh - 0 1", castling: Castling{White: files(0, 7), Black: files(7)}, full: 1, ep: -1},
		{
			name: "inner rook named by its file", in: "4k3/8/8/8/8/8/8/4K1RR w G - 0 1", placement: "4k3/8/8/8/8/8/8/4K1RR",
			castling: Castling{White: files(6)}, full: 1, ep: -1,
		},
		{
			name: "K is the outermost rook", in: "4k3/8/8/8/8/8/8/4K1RR w K - 0 1", placement: "4k3/8/8/8/8/8/8/4K1RR",
			castling: Castling{White: files(7)}, full: 1, ep: -1,
		},
		// Lenient: letters naming no rook are skipped, never turned into rights.
		{name: "file letter naming a bishop", in: stdPlacement + " w KQkqCf - 0 1", castling: both(0, 7), full: 1, ep: -1},
		{
			name: "K with no rook on the king side", in: "4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1", placement: "4k3/8/8/8/8/8/8/R3K3",
			castling: Castling{White: files(0)}, full: 1, ep: -1,
		},
		{
			name: "white king off its back rank", in: "r3k2r/8/8/8/8/8/4K3/R6R w KQkqAH - 0 1", placement: "r3k2r/8/8/8/8/8/4K3/R6R",
			castling: Castling{Black: files(0, 7)}, full: 1, ep: -1,
		},
		{
			name: "black letter naming a white rook", in: "4k3/8/8/8/8/8/8/R3K2R w KQa - 0 1", placement: "4k3/8/8/8/8/8/8/R3K2R",
			castling: Castling{White: files(0, 7)}, full: 1, ep: -1,
		},
		{name: "EPD, four fields", in: stdPlacement + " w KQkq -", castling: both(0, 7), full: 1, ep: -1},
		{
			name: "EPD operations", in: stdPlacement + ` w KQkq - bm e4; id "x";`, castling: both(0, 7), full: 1, ep: -1,
			ops: `bm e4; id "x";`,
		},
		{
			name: "EPD operations after counters", in: stdPlacement + " w KQkq - 2 5 bm e4;", castling: both(0, 7), half: 2, full: 5, ep: -1,
			ops: "bm e4;",
		},
		{name: "five fields", in: stdPlacement + " w KQkq - 7", castling: both(0, 7), half: 7, full: 1, ep: -1},
		{name: "trailing semicolon", in: stdPlacement + " w KQkq - 0 1;", castling: both(0, 7), full: 1, ep: -1},
		{name: "trailing spaced semicolon", in: stdPlacement + " w KQkq - 0 1 ;", castling: both(0, 7), full: 1, ep: -1},
		{name: "semicolon after en passant", in: stdPlacement + " w KQkq -;", castling: both(0, 7), full: 1, ep: -1},
		{name: "semicolon after half-move clock", in: stdPlacement + " w KQkq - 4;", castling: both(0, 7), half: 4, full: 1, ep: -1},
		{name: "spaces and tabs", in: "  \t" + stdPlacement + " \t w   KQkq\t\t-  3   17 \t ", castling: both(0, 7), half: 3, full: 17, ep: -1},
		{name: "CRLF line end", in: stdPlacement + " w KQkq - 0 1\r\n", castling: both(0, 7), full: 1, ep: -1},
		{name: "full-move 0 read as 1", in: stdPlacement + " w KQkq - 0 0", castling: both(0, 7), full: 1, ep: -1},
		{name: "plus sign", in: stdPlacement + " w KQkq - +1 +2", castling: both(0, 7), half: 1, full: 2, ep: -1},
		{name: "upper-case turn", in: stdPlacement + " B KQkq - 0 1", turn: 'b', castling: both(0, 7), full: 1, ep: -1},
		{
			name: "en passant e3", in: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
			placement: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", turn: 'b', castling: both(0, 7), full: 1, ep: 20,
		},
		{
			name: "en passant c6", in: "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
			placement: "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR", castling: both(0, 7), full: 2, ep: 42,
		},
		{
			name: "adjacent digits", in: "rnbqkbnr/pppppppp/44/8/8/332/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			castling: both(0, 7), full: 1, ep: -1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			placement, turn := tt.placement, tt.turn
			if placement == "" {
				placement = stdPlacement
			}
			if turn == 0 {
				turn = 'w'
			}
			if got := p.Placement(); got != placement {
				t.Errorf("Placement() = %q, want %q", got, placement)
			}
			if p.Turn != turn {
				t.Errorf("Turn = %q, want %q", p.Turn, turn)
			}
			if p.Castling != tt.castling {
				t.Errorf("Castling = %+v (%v), want %+v (%v)", p.Castling, p.Castling, tt.castling, tt.castling)
			}
			if p.EnPassant != tt.ep {
				t.Errorf("EnPassant = %d, want %d", p.EnPassant, tt.ep)
			}
			if p.HalfMove != tt.half || p.FullMove != tt.full {
				t.Errorf("counters = %d %d, want %d %d", p.HalfMove, p.FullMove, tt.half, tt.full)
			}
			if p.Operations != tt.ops {
				t.Errorf("Operations = %q, want %q", p.Operations, tt.ops)
			}
			pb, err := ParseBytes([]byte(tt.in))
			if err != nil || pb != p {
				t.Errorf("ParseBytes differs from Parse: %+v, %v", pb, err)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, field, want string
	}{
		{"empty", "", "placement", "fen: placement: missing"},
		{"blank", " \t ", "placement", "fen: placement: missing"},
		{"placement only", stdPlacement, "turn", "fen: turn: missing"},
		{"no castling", stdPlacement + " w", "castling", "fen: castling: missing"},
		{"no en passant", stdPlacement + " w KQkq", "en passant", "fen: en passant: missing"},
		{"seven ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "fen: placement: 7 ranks, want 8"},
		{"nine ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "fen: placement: 9 ranks, want 8"},
		{"too many squares", "rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "fen: placement: rank 6 describes 9 squares"},
		{"too few squares", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "placement", "fen: placement: rank 1 describes 7 squares"},
		{"empty rank", "rnbqkbnr//8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "fen: placement: rank 7 describes 0 squares"},
		{"digit 9", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "fen: placement: digit '9' in rank 6, want 1 to 8"},
		{"digit 0", "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "fen: placement: digit '0' in rank 6, want 1 to 8"},
		{"unknown piece", "rnbqkbnr/pppppppp/8/3x4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "fen: placement: unknown piece 'x'"},
		{"German piece", "tsldklst/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "fen: placement: unknown piece 't'"},
		{"non-ASCII piece", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN♖ w KQkq - 0 1", "placement", "fen: placement: unknown piece '♖'"},
		{"bad turn", stdPlacement + " x KQkq - 0 1", "turn", `fen: turn: "x" is not w or b`},
		{"long turn", stdPlacement + " white KQkq - 0 1", "turn", `fen: turn: "white" is not w or b`},
		{"bad castling letter", stdPlacement + " w KQxk - 0 1", "castling", `fen: castling: unknown letter 'x' in "KQxk"`},
		{"dash among letters", stdPlacement + " w KQ-kq - 0 1", "castling", `fen: castling: '-' among letters in "KQ-kq"`},
		{"en passant rank 4", stdPlacement + " w KQkq e4 0 1", "en passant", `fen: en passant: "e4" is not - or a square on rank 3 or 6`},
		{"en passant file i", stdPlacement + " w KQkq i3 0 1", "en passant", `fen: en passant: "i3" is not - or a square on rank 3 or 6`},
		{"negative half-move clock", stdPlacement + " w KQkq - -1 1", "halfmove", `fen: halfmove: "-1" is not a non-negative integer`},
		{"bad full-move number", stdPlacement + " w KQkq - 0 1x", "fullmove", `fen: fullmove: "1x" is not a non-negative integer`},
		{"huge half-move clock", stdPlacement + " w KQkq - 99999999999 1", "halfmove", `fen: halfmove: "99999999999" is too large`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want error %q", tt.in, p.String(), tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("Parse(%q) error = %q, want %q", tt.in, err, tt.want)
			}
			var fe *Error
			if !errors.As(err, &fe) || fe.Field != tt.field {
				t.Errorf("error %#v, want *Error with Field %q", err, tt.field)
			}
			if p != (Position{}) {
				t.Errorf("Parse returned %+v with its error, want the zero Position", p)
			}
			if _, err := ParseBytes([]byte(tt.in)); err == nil || err.Error() != tt.want {
				t.Errorf("ParseBytes error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name, in, xfen, shredder string
	}{
		{"standard", stdPlacement + " w KQkq - 0 1", stdPlacement + " w KQkq - 0 1", stdPlacement + " w HAha - 0 1"},
		{"standard from Shredder ascending", stdPlacement + " w AHah - 0 1", stdPlacement + " w KQkq - 0 1", stdPlacement + " w HAha - 0 1"},
		{"SP 0", sp0Placement + " w KQkq - 0 1", sp0Placement + " w KQkq - 0 1", sp0Placement + " w HFhf - 0 1"},
		{"mixture", sp0Placement + " b KFk - 5 12", sp0Placement + " b KQk - 5 12", sp0Placement + " b HFh - 5 12"},
		{"EAea", eaPlacement + " w EAea - 0 1", eaPlacement + " w KQkq - 0 1", eaPlacement + " w EAea - 0 1"},
		{"no rights", stdPlacement + " w - - 0 1", stdPlacement + " w - - 0 1", stdPlacement + " w - - 0 1"},
		{"black only", stdPlacement + " w q - 0 1", stdPlacement + " w q - 0 1", stdPlacement + " w a - 0 1"},
		{"inner rook", "4k3/8/8/8/8/8/8/4K1RR w G - 0 1", "4k3/8/8/8/8/8/8/4K1RR w G - 0 1", "4k3/8/8/8/8/8/8/4K1RR w G - 0 1"},
		{"inner and outer rook", "4k3/8/8/8/8/8/8/4K1RR w GK - 0 1", "4k3/8/8/8/8/8/8/4K1RR w KG - 0 1", "4k3/8/8/8/8/8/8/4K1RR w HG - 0 1"},
		{"inner a-side rook", "r3k3/8/8/8/8/8/8/RR2K3 w Bq - 0 1", "r3k3/8/8/8/8/8/8/RR2K3 w Bq - 0 1", "r3k3/8/8/8/8/8/8/RR2K3 w Ba - 0 1"},
		{"en passant", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3 0 1"},
		{"EPD operations dropped", stdPlacement + ` w KQkq - bm e4; id "x";`, stdPlacement + " w KQkq - 0 1", stdPlacement + " w HAha - 0 1"},
		{"spacing normalised", "  " + stdPlacement + "\tw  KQkq - 0 1;", stdPlacement + " w KQkq - 0 1", stdPlacement + " w HAha - 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.String(); got != tt.xfen {
				t.Errorf("String() = %q, want %q", got, tt.xfen)
			}
			if got := p.Format(XFEN); got != tt.xfen {
				t.Errorf("Format(XFEN) = %q, want %q", got, tt.xfen)
			}
			if got := p.Format(Shredder); got != tt.shredder {
				t.Errorf("Format(Shredder) = %q, want %q", got, tt.shredder)
			}
			for _, out := range []string{tt.xfen, tt.shredder} {
				q, err := Parse(out)
				if err != nil || q.Board != p.Board || q.Castling != p.Castling {
					t.Errorf("Parse(%q) does not give back the position: %v", out, err)
				}
			}
		})
	}
}

func TestFormatZeroPosition(t *testing.T) {
	var p Position
	const want = "8/8/8/8/8/8/8/8 w - - 0 0"
	if got := p.String(); got != want {
		t.Errorf("zero Position String() = %q, want %q", got, want)
	}
}

func TestCastling(t *testing.T) {
	var c Castling
	if !c.IsEmpty() || c.String() != "-" {
		t.Fatalf("zero Castling: IsEmpty %v, String %q", c.IsEmpty(), c)
	}
	c.Add(true, 0)
	c.Add(true, 7)
	c.Add(false, 5)
	c.Add(false, 8) // off the board: ignored
	if c.String() != "HAf" {
		t.Errorf("String() = %q, want HAf", c)
	}
	if !c.Has(true, 7) || c.Has(false, 7) || c.Has(true, -1) || c.Has(true, 8) {
		t.Errorf("Has wrong for %v", c)
	}
	if got := c.Files(true); len(got) != 2 || got[0] != 0 || got[1] != 7 {
		t.Errorf("Files(white) = %v, want [0 7]", got)
	}
	if got := c.Files(false); len(got) != 1 || got[0] != 5 {
		t.Errorf("Files(black) = %v, want [5]", got)
	}
	c.Remove(true, 0)
	c.Remove(false, 5)
	if c != (Castling{White: files(7)}) {
		t.Errorf("after Remove: %+v", c)
	}
}

func TestStyleString(t *testing.T) {
	for s, want := range map[Style]string{XFEN: "X-FEN", Shredder: "Shredder-FEN", 7: "Style(7)"} {
		if got := s.String(); got != want {
			t.Errorf("Style(%d).String() = %q, want %q", int(s), got, want)
		}
	}
}

func TestRewriteCastling(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		style Style
		want  string
	}{
		{"to Shredder", stdPlacement + " w KQkq - 0 1", Shredder, stdPlacement + " w HAha - 0 1"},
		{"to X-FEN", sp0Placement + " w HFhf - 0 1", XFEN, sp0Placement + " w KQkq - 0 1"},
		{"spacing, EPD operations, semicolons kept", "  " + sp0Placement + "\tw  KQkq \t -  bm e4; id \"x\";  ", Shredder, "  " + sp0Placement + "\tw  HFhf \t -  bm e4; id \"x\";  "},
		{"trailing semicolon kept", stdPlacement + " w HAha - 0 1;", XFEN, stdPlacement + " w KQkq - 0 1;"},
		{"CRLF kept", stdPlacement + " b AHah c6 3 4\r\n", Shredder, stdPlacement + " b HAha c6 3 4\r\n"},
		{"letter naming no rook dropped", stdPlacement + " w KQkqC - 0 1", Shredder, stdPlacement + " w HAha - 0 1"},
		{"no rights", stdPlacement + " w - - 0 1", Shredder, stdPlacement + " w - - 0 1"},
		{"same style is identity", stdPlacement + " w KQkq - 0 1", XFEN, stdPlacement + " w KQkq - 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RewriteCastling(tt.in, tt.style)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("RewriteCastling(%q, %v) =\n%q, want\n%q", tt.in, tt.style, got, tt.want)
			}
		})
	}
	if got, err := RewriteCastling(stdPlacement+" w KQxq - 0 1", Shredder); err == nil {
		t.Errorf("RewriteCastling of a bad field = %q, want an error", got)
	}
}

func TestCastlingStyle(t *testing.T) {
	tests := []struct {
		name, record string
		want         Style
	}{
		{"x-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", XFEN},
		{"shredder", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", Shredder},
		{"shredder one rook", "4k3/8/8/8/8/8/8/R3K3 w A - 0 1", Shredder},
		{"mixture is x-fen", "qrbkrbnn/pppppppp/8/8/8/8/PPPPPPPP/QRBKRBNN w KBkb - 0 1", XFEN},
		{"no rights", "4k3/8/8/8/8/8/8/4K3 b - - 0 40", XFEN},
		{"extra spacing", "  4k3/8/8/8/8/8/8/R3K3\tw   A - 0 1", Shredder},
		{"too short", "4k3/8/8/8/8/8/8/4K3 w", XFEN},
		{"empty", "", XFEN},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CastlingStyle([]byte(tt.record)); got != tt.want {
				t.Errorf("CastlingStyle(%q) = %v, want %v", tt.record, got, tt.want)
			}
		})
	}
}
