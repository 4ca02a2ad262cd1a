package pgn

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// tokens renders every token as "kind:text@line/depth".
func tokens(movetext string) []string {
	var out []string
	var s MovetextScanner
	s.Reset([]byte(movetext), 1)
	for s.Next() {
		t := s.Token()
		out = append(out, fmt.Sprintf("%s:%s@%d/%d", t.Kind, t.Text, t.Line, t.Depth))
	}
	return out
}

func TestMovetextScanner(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"blanks", " \r\n\t ", nil},
		{"simple", "1. e4 e5 2. Nf3 1-0", []string{
			"move-number:1.@1/0", "move:e4@1/0", "move:e5@1/0", "move-number:2.@1/0", "move:Nf3@1/0", "result:1-0@1/0"}},
		{"glued numbers", "1.e4 1...e5 12...Nf6", []string{
			"move-number:1.@1/0", "move:e4@1/0", "move-number:1...@1/0", "move:e5@1/0", "move-number:12...@1/0", "move:Nf6@1/0"}},
		{"bare number and dots", "3 ... Nc6", []string{"move-number:3@1/0", "move-number:...@1/0", "move:Nc6@1/0"}},
		{"results", "* 0-1 1/2-1/2", []string{"result:*@1/0", "result:0-1@1/0", "result:1/2-1/2@1/0"}},
		{"castling", "O-O O-O-O 0-0 0-0-0+ Kxh1#", []string{
			"move:O-O@1/0", "move:O-O-O@1/0", "move:0-0@1/0", "move:0-0-0+@1/0", "move:Kxh1#@1/0"}},
		{"null moves", "-- Z0", []string{"move:--@1/0", "move:Z0@1/0"}},
		{"promotion", "e8=Q+ exd1=N", []string{"move:e8=Q+@1/0", "move:exd1=N@1/0"}},
		{"nags", "e4 $1 $14 ! ?? !? +- = ±", []string{
			"move:e4@1/0", "nag:$1@1/0", "nag:$14@1/0", "nag:!@1/0", "nag:??@1/0", "nag:!?@1/0", "nag:+-@1/0", "nag:=@1/0", "nag:±@1/0"}},
		{"glued glyphs", "Nf3!? e5?! Qh5#!!", []string{
			"move:Nf3@1/0", "nag:!?@1/0", "move:e5@1/0", "nag:?!@1/0", "move:Qh5#@1/0", "nag:!!@1/0"}},
		{"glued nag", "e4$2", []string{"move:e4@1/0", "nag:$2@1/0"}},
		{"comment", "e4 {best by test\n(really) 1-0} e5", []string{
			"move:e4@1/0", "comment:{best by test\n(really) 1-0}@1/0", "move:e5@2/0"}},
		{"glued comment", "e4{x}e5", []string{"move:e4@1/0", "comment:{x}@1/0", "move:e5@1/0"}},
		{"open comment", "e4 {never closed", []string{"move:e4@1/0", "comment:{never closed@1/0"}},
		{"line comment", "e4 ; a comment {not a brace\r\ne5", []string{
			"move:e4@1/0", "line-comment:; a comment {not a brace@1/0", "move:e5@2/0"}},
		{"variations", "1. e4 (1. d4 d5 (1... Nf6)) e5", []string{
			"move-number:1.@1/0", "move:e4@1/0", "open-variation:(@1/1", "move-number:1.@1/1", "move:d4@1/1", "move:d5@1/1",
			"open-variation:(@1/2", "move-number:1...@1/2", "move:Nf6@1/2", "close-variation:)@1/2", "close-variation:)@1/1", "move:e5@1/0"}},
		{"unbalanced close", "e4 ) e5", []string{"move:e4@1/0", "invalid:)@1/0", "move:e5@1/0"}},
		{"escape", "% escaped line e4\ne4\n  %also\n e5 % not", []string{
			"escape:% escaped line e4@1/0", "move:e4@2/0", "escape:%also@3/0", "move:e5@4/0", "invalid:%@4/0", "move:not@4/0"}},
		{"junk", "[%clk 0:01:00] $ } <x>", []string{
			"invalid:[%clk@1/0", "invalid:0:01:00]@1/0", "invalid:$@1/0", "invalid:}@1/0", "invalid:<x>@1/0"}},
		{"bom", "\xef\xbb\xbf1. e4", []string{"move-number:1.@1/0", "move:e4@1/0"}},
		{"lines", "1. e4\n\ne5\r\n2. Nf3", []string{"move-number:1.@1/0", "move:e4@1/0", "move:e5@3/0", "move-number:2.@4/0", "move:Nf3@4/0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tokens(tt.in)
			if strings.Join(got, " | ") != strings.Join(tt.want, " | ") {
				t.Errorf("tokens(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMovetextScannerOffsets(t *testing.T) {
	in := []byte("1. e4 {c}\n( d4 ) e5!? *")
	s := NewMovetextScanner(in)
	for s.Next() {
		tok := s.Token()
		if !bytes.Equal(in[tok.Offset:tok.Offset+len(tok.Text)], tok.Text) {
			t.Errorf("token %q at offset %d does not match the input", tok.Text, tok.Offset)
		}
	}
}

// TestMovetextScannerTextAndLateLines holds Text to Token's text, and the
// line Token gives a token to the same whether Token was called for every
// token before it or for none: callers that want a line only on an error
// call Text and leave Token until then.
func TestMovetextScannerTextAndLateLines(t *testing.T) {
	tests := []struct{ name, movetext string }{
		{"one line", "1. e4 e5 2. Nf3 *"},
		{"comments over lines", "1. e4 {a\nlong\ncomment} e5\n2. Nf3 {[%clk 0:01:00]}\n\nNc6 1-0"},
		{"variations and CRLF", "1. e4 (1. d4\r\nd5)\r\n1... e5 ; rest\r\n2. Nf3 *"},
		{"lone CR", "1. e4\re5\r2. Nf3 *"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.movetext)
			var every, late MovetextScanner
			every.Reset(in, 7)
			late.Reset(in, 7)
			for i := 0; every.Next(); i++ {
				if !late.Next() {
					t.Fatalf("token %d: the second scanner ended early", i)
				}
				want := every.Token()
				if got := late.Text(); !bytes.Equal(got, want.Text) {
					t.Errorf("token %d: Text = %q, Token().Text = %q", i, got, want.Text)
				}
				// The second scanner asks for every third token's line
				// only.
				if i%3 == 2 {
					if got := late.Token().Line; got != want.Line {
						t.Errorf("token %d %q: line %d asked late, %d asked every time", i, want.Text, got, want.Line)
					}
				}
			}
		})
	}
}

func TestMovetextScannerFirstLine(t *testing.T) {
	var s MovetextScanner
	s.Reset([]byte("\n\n1. e4"), 40)
	s.Next()
	if tok := s.Token(); tok.Line != 42 {
		t.Errorf("line = %d, want 42", tok.Line)
	}
}

// scannedPlies counts the moves of Depth 0 the scanner returns: what
// CountPlies must count.
func scannedPlies(movetext []byte) int {
	var s MovetextScanner
	s.Reset(movetext, 1)
	n := 0
	for s.Next() {
		if s.Kind() == TokenMove && s.Depth() == 0 {
			n++
		}
	}
	return n
}

// lichessMovetext is a lichess game's movetext, wrapped at 80 columns.
const lichessMovetext = "1. e4 { [%clk 0:10:00] } 1... d6 { [%clk 0:10:00] } 2. Qh5 { [%clk 0:09:18] }\n" +
	"2... a5 { [%clk 0:09:39] } 3. Qf3 { [%clk 0:09:01] } 3... Ne8\n{ [%clk 0:02:40] } " +
	"4. O-O-O { [%clk 0:09:01] } 4... Nh6 { [%clk 0:09:06] } 5. Qxf7# { [%clk 0:08:34] } 1-0\n\n"

func TestCountPlies(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"result only", "*", 0},
		{"result only, as a header-only game has it", "\n1/2-1/2\n\n", 0},
		{"result only after a BOM and blanks", "\xef\xbb\xbf \t1-0 \r\n", 0},
		{"two results", "* 1-0", 0},
		{"a move after the result", "1-0 e4", 1},
		{"a move before the result", "e4 0-1", 1},
		{"a result cut short", "1/2-1/", 0},
		{"one move", "1. e4 *", 1},
		{"main line", "1. e4 e5 2. Nf3 Nc6 1-0", 4},
		{"glued numbers", "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 1/2-1/2", 6},
		{"glued black numbers", "1...e5 2.Nf3 2...Nc6 12...Rxa1+ 13. Kd2 *", 5},
		{"comment, variation, NAG, glyph", "1. e4 {comment with 2. d4 d5} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6!? 0-1", 4},
		{"nested variations", "1. e4 (1. d4 (1. c4 e5) d5) 1... e5 *", 2},
		{"nested variations with comments", "1. e4 (1. d4 {a (b) c} d5 ({x} 1... Nf6 {y)}) 2. c4) e5 {z} *", 2},
		{"castling with zeros and null moves", "1. O-O 0-0 2. -- Kh8 *", 4},
		{"castling with zeros, checks and glyphs", "0-0+ 0-0-0# 0-0!? 0-0-0+?", 4},
		{"null moves", "1. -- Z0 2. --+ -- *", 4},
		{"line comment and escape", "; only a comment\n% and an escape e4 e5\n*", 0},
		{"brace inside a line comment", "1. e4 ; a } or a { here\ne5 *", 2},
		{"escape after CRLF", "1. e4\r\n% escaped e5 d5\r\n1... e5 *", 2},
		{"escape after CRLF and blanks", "1. e4\r\n \t%escaped e5\r\nd5 *", 2},
		{"escape after lone CR", "1. e4\r% escaped e5\r1... d5 *", 2},
		{"percent inside a line", "1. e4 % e5 *", 2},
		{"percent after a comment on its line", "1. e4 {x\n}% e5 *", 2},
		{"percent first after a BOM", "\xef\xbb\xbf% escaped e4\ne5 *", 1},
		{"open comment", "1. e4 {open comment e5 Nf3", 1},
		{"number at a line end", "1. e4 e5 12.\nNf3 12...\nNc6 *", 4},
		{"number at the end", "1. e4 12.", 1},
		{"bare number", "3 Nc6 4", 1},
		{"dots", "1. e4 ... e5 .e4", 3},
		{"results in variations", "1. e4 (1. d4 1-0) (1. c4 *) (1. f4 1/2-1/2) e5 0-1", 2},
		{"result glued to a move", "31. Qxf7#1-0", 1},
		{"result then junk", "1-0x 1-0e4 0-1-- 1/2", 0},
		{"NAGs", "1. e4 $1 $14 $ e5$2 Nf3$ 2$3 *", 3},
		{"glued parentheses", "1. e4(1. d4)e5(e6(f6)) Nf3)", 3},
		{"unbalanced close", ") e4 )) e5 (d4", 2},
		{"non-ASCII in comments", "1. e4 {Ça va – très bien ±} e5 {€} 2. Nf3 *", 3},
		{"figurines and symbols", "1. \xe2\x99\x98f3 \xc2\xb1 \xe2\x88\x9e e5\xc2\xb1 *", 2},
		{"non-ASCII in a move", "Nf3\xc2\xb1 e5 exd5\xe2\x80\xa6 d6", 4},
		{"control bytes in moves", "e4\x00 e5\x01x Nf3\x1fNc6 Bb5\x1a", 4},
		{"blanks", "e4\te5\vNf3\fNc6\rBb5\x1aa6", 6},
		{"long words", "Nbxd7+!?!? exd8=Q+!! abcdefghijklmnop Qh5xf7xg8#", 4},
		{"words glued to comments", "e4{x}e5{ [%clk 0:10:00] }Nf3{y}", 3},
		{"words glued to line comments", "e4;x\ne5;y", 2},
		{"clock comments", "e4 { [%clk 0:10:00] } e5 { [%clk 0:10:00] }\nNf3 { [%clk 0:09:58] }Nc6", 4},
		{"clock comment cut short", "e4 { [%clk 0:10:00] }", 1},
		{"clock comment with a brace inside", "e4 { [%clk 0:1}:00] } e5 { [%clk }:10:00] } d4 } e4", 4},
		{"clock comment closed early", "e4 { [%clk }Nf3 d5] } e5", 4},
		{"clock comment not closed at its end", "e4 { [%clk 0:10:00]  } e5 { [%clk 0:10:00] x} d4 *", 3},
		{"short comments", "e4 {+0.31/11 0.30s} e5 {-0.12/1 0.1s} Nf3 {} Nc6 {1234567}Bb5 {12345678}a6 {123456789012345}O-O *", 7},
		{"comments of 16 and 17 bytes", "e4 {12345678901234} e5 {123456789012345} Nf3 {1234567890123456} Nc6 *", 4},
		{"lichess", lichessMovetext, 9},
		{"lichess with CRLF", strings.ReplaceAll(lichessMovetext, "\n", "\r\n"), 9},
		{"bom", "\xef\xbb\xbf1. e4 e5 *", 2},
		{"broken bom", "\xef\xbb1. e4 e5 *", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.in)
			if got := scannedPlies(in); got != tt.want {
				t.Fatalf("the scanner finds %d moves in %q, the test wants %d", got, tt.in, tt.want)
			}
			if got := CountPlies(in); got != tt.want {
				t.Errorf("CountPlies(%q) = %d, want %d", tt.in, got, tt.want)
			}
			// CountPlies reads ahead up to 19 bytes: the movetext cut
			// anywhere must count as the scanner does.
			for k := range in {
				if got, want := CountPlies(in[:k]), scannedPlies(in[:k]); got != want {
					t.Errorf("CountPlies(%q) = %d, the scanner finds %d", in[:k], got, want)
				}
			}
		})
	}
}

// TestCountPliesPieces holds CountPlies to the scanner on movetext made of
// random pieces of PGN: byte-level fuzzing rarely writes a whole clock
// comment or a move number glued to a move, which CountPlies reads in
// ways of its own.
func TestCountPliesPieces(t *testing.T) {
	pieces := []string{" ", " ", " ", "\n", "\r\n", "\r", "\t", "1.", "12.", "1...", "...", ".", "e4", "Nf3", "exd8=Q+", "O-O-O",
		"0-0", "0-0-0+", "--", "Z0", "{", "}", "(", ")", ";", "%", "$", "$12", "1-0", "0-1", "1/2-1/2", "*", "!", "?!", "+",
		"\xc2\xb1", "\xe2\x99\x98f3", "\xef\xbb\xbf", "{ [%clk 0:10:00] }", "{ [%clk ", "{+0.31/11 0.30s}", "abcdefgh",
		"x", "5", "\x00", "\x1a", "\f", "-", "#", "é", "12.e4", "1-0e4", "e4.e5"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 50000 {
		var in []byte
		for range r.IntN(40) {
			in = append(in, pieces[r.IntN(len(pieces))]...)
		}
		if got, want := CountPlies(in), scannedPlies(in); got != want {
			t.Fatalf("CountPlies(%q) = %d, the scanner finds %d", in, got, want)
		}
	}
}

func TestTermination(t *testing.T) {
	tests := []struct {
		in   string
		want string
		off  int
	}{
		{"1. e4 1-0", "1-0", 6},
		{"1. e4 0-1\n\n", "0-1", 6},
		{"1. e4 1/2-1/2 {agreed}\r\n", "1/2-1/2", 6},
		{"*", "*", 0},
		{"1. e4", "", -1},
		{"1. e4 {1-0}", "", -1},
		{"", "", -1},
		{"31. Qxf7#1-0", "", -1},
		{"1. e4 1-0\n%an escape line", "1-0", 6},
		{"1. e4 1-0\r%with lone CRs", "1-0", 6},
		{"1. e4\n%escaped 1-0", "", -1},
		{"%first\n1. e4 *", "*", 13},
		{"1. e4 {[%clk 0:03:00]} 1-0", "1-0", 23},
		{"1. e4 e5 % 1-0", "1-0", 11},
	}
	for _, tt := range tests {
		m, off := Termination([]byte(tt.in))
		if string(m) != tt.want || off != tt.off {
			t.Errorf("Termination(%q) = %q, %d; want %q, %d", tt.in, m, off, tt.want, tt.off)
		}
	}
}

// terminationByList is Termination written as the export format says it,
// trying each marker in turn: the reference FuzzTermination holds the
// reader's last-byte switch to.
func terminationByList(movetext []byte) ([]byte, int) {
	nl := lineBreak(movetext)
	b := movetext
	for {
		b = bytes.TrimRight(b, " \t\n\r\v\f\x1a")
		if len(b) == 0 {
			return nil, -1
		}
		bol := bytes.LastIndexByte(b, nl) + 1
		switch {
		case b[bol] == '%':
			b = b[:bol]
			continue
		case b[len(b)-1] == '}':
			k := bytes.LastIndexByte(b, '{')
			if k < 0 {
				return nil, -1
			}
			b = b[:k]
			continue
		}
		for _, r := range []string{"1-0", "0-1", "1/2-1/2", "*"} {
			before := len(b) - len(r)
			if bytes.HasSuffix(b, []byte(r)) && (before == 0 || strings.ContainsRune(" \t\n\r\v\f\x1a.)}", rune(b[before-1]))) {
				return b[before:], before
			}
		}
		return nil, -1
	}
}

func FuzzTermination(f *testing.F) {
	for _, s := range []string{"1. e4 1-0", "\n*\n\n", "1/2-1/2", "x1/2-1/2", "1. e4 {c} 0-1 {d}\r\n", "e4\n%1-0", "2-1/2", "-0", "Qxf7#1-0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, movetext []byte) {
		m, off := Termination(movetext)
		wantM, wantOff := terminationByList(movetext)
		if !bytes.Equal(m, wantM) || off != wantOff || (m == nil) != (wantM == nil) {
			t.Fatalf("Termination(%q) = %q, %d; want %q, %d", movetext, m, off, wantM, wantOff)
		}
	})
}

func TestGameMovetextLine(t *testing.T) {
	r := NewReader(strings.NewReader("[Event \"x\"]\n[Result \"*\"]\n\n1. e4 *\n"))
	g, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got := g.MovetextLine(); got != 3 {
		t.Errorf("MovetextLine = %d, want 3", got)
	}
}

func TestGameTermination(t *testing.T) {
	tests := []struct {
		name, in string
		marker   string
		line     int
	}{
		{"same line", "[Event \"x\"]\n\n1. e4 1-0\n", "1-0", 3},
		{"own line after a comment", "\n[Event \"x\"]\n\n1. e4 {long\ncomment}\n\n0-1\n\n", "0-1", 7},
		{"none", "[Event \"x\"]\n\n1. e4\n", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewReader(strings.NewReader(tt.in)).Next()
			if err != nil {
				t.Fatal(err)
			}
			if m, line := g.Termination(); string(m) != tt.marker || line != tt.line {
				t.Errorf("Termination() = %q, %d; want %q, %d", m, line, tt.marker, tt.line)
			}
		})
	}
}

func TestMovetextScannerAllocs(t *testing.T) {
	in := []byte("1. e4 {c} e5 (1... c5 $1) 2. Nf3!? Nc6 ; x\n% y\n1-0")
	allocs := testing.AllocsPerRun(100, func() {
		var s MovetextScanner
		s.Reset(in, 1)
		for s.Next() {
			_ = s.Token()
		}
		_ = CountPlies(in)
	})
	if allocs != 0 {
		t.Errorf("scanning allocates %.1f times, want 0", allocs)
	}
}

// FuzzMovetextScanner checks that scanning never panics, that tokens come
// in order without overlap and point into the input, that depths stay
// balanced, and that CountPlies agrees with the tokens.
func FuzzMovetextScanner(f *testing.F) {
	for _, s := range []string{"1. e4 e5 1-0", "1. e4 (1. d4 {x} d5) *", "e4!? $1 ; c\n% e\n", "{open", ")(", "12...e5",
		lichessMovetext, "1. d4 {+0.13/12 0.29s} d5 {-0.17/15 0.30s} 2. c3 {+0.22/13 0.28s}\nNb6 *"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		// With the line break guessed from the movetext (Reset), and
		// with each given, as for a game's (ResetGame).
		for _, nl := range []byte{0, '\n', '\r'} {
			checkMovetextScanner(t, in, nl)
		}
	})
}

// checkMovetextScanner scans in with lines ending at nl, or as Reset
// guesses when nl is 0, and holds the tokens to the input and countPlies
// to the moves among them.
func checkMovetextScanner(t *testing.T, in []byte, nl byte) {
	t.Helper()
	var s MovetextScanner
	brk := nl
	if nl == 0 {
		s.Reset(in, 1)
		brk = lineBreak(in)
	} else {
		s.reset(in, 1, nl)
	}
	prevEnd, plies, line := 0, 0, 1
	{
		for s.Next() {
			tok := s.Token()
			if tok.Offset < prevEnd || tok.Offset+len(tok.Text) > len(in) || len(tok.Text) == 0 {
				t.Fatalf("token %v at %d out of order or out of range (previous end %d)", tok.Kind, tok.Offset, prevEnd)
			}
			if !bytes.Equal(in[tok.Offset:tok.Offset+len(tok.Text)], tok.Text) {
				t.Fatalf("token text %q does not match the input at %d", tok.Text, tok.Offset)
			}
			// Guessed, lines end with '\n', or with a lone '\r' in a
			// movetext that has no '\n' at all (see lineBreak).
			if want := 1 + bytes.Count(in[:tok.Offset], []byte{brk}); tok.Line != want || tok.Line < line {
				t.Fatalf("line break %q: token at %d on line %d, want %d", brk, tok.Offset, tok.Line, want)
			}
			if tok.Depth < 0 || (tok.Kind == TokenOpenVariation || tok.Kind == TokenCloseVariation) && tok.Depth == 0 {
				t.Fatalf("token %v has depth %d", tok.Kind, tok.Depth)
			}
			if tok.Kind == TokenMove && tok.Depth == 0 {
				plies++
			}
			prevEnd, line = tok.Offset+len(tok.Text), tok.Line
		}
		if got := countPlies(in, nl); got != plies {
			t.Fatalf("line break %q: countPlies = %d, tokens say %d", brk, got, plies)
		}
		if got := CountPlies(in); nl == 0 && got != plies {
			t.Fatalf("CountPlies = %d, tokens say %d", got, plies)
		}
	}
}

// TestGameLineBreak: a game's moves are scanned and counted with the line
// ending the Reader found for its file, not one guessed from the moves:
// a lone CR in a file of line feeds is a blank, so a '%' after it begins
// no escape line, and a line feed in a file of lone CRs likewise.
func TestGameLineBreak(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		plies       int    // of the first game
		moves       string // its moves, as the scanner gives them
		line        int    // of its last move
	}{
		// A movetext with no line feed, as the last game of a file may
		// have with no blank line before its moves: guessed, its lines
		// end with CRs.
		{"line feeds, a lone CR in the moves", "[A \"1\"]\n1. e4\r%a3 d5 *", 3, "e4 a3 d5", 2},
		{"line feeds, an escape line", "[A \"1\"]\n\n1. e4\n%a3 d5\n2. d4 *\n", 2, "e4 d4", 5},
		{"lone CRs, a line feed in the moves", "[A \"1\"]\r\r1. e4\n%a3 d5 *\r", 3, "e4 a3 d5", 3},
		{"lone CRs, an escape line", "[A \"1\"]\r\r1. e4\r%a3 d5\r2. d4 *\r", 2, "e4 d4", 5},
		{"line feeds, moves on a tag line, a lone CR in them", "[A \"1\"]\n[B \"2\"] 1. e4\r% e5 *", 2, "e4 e5", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := NewReader(strings.NewReader(tc.input)).Next()
			if err != nil {
				t.Fatal(err)
			}
			if got := g.CountPlies(); got != tc.plies {
				t.Errorf("CountPlies = %d, want %d", got, tc.plies)
			}
			var s MovetextScanner
			s.ResetGame(g)
			var moves []string
			line := 0
			for s.Next() {
				if tok := s.Token(); tok.Kind == TokenMove {
					moves, line = append(moves, string(tok.Text)), tok.Line
				}
			}
			if got := strings.Join(moves, " "); got != tc.moves || line != tc.line {
				t.Errorf("moves %q, the last on line %d; want %q on line %d", got, line, tc.moves, tc.line)
			}
		})
	}
}

// TestMovetextLineEndings scans one movetext written with each line
// ending: LF, CRLF and the lone CR of old Mac exports. The tokens, their
// lines, the plies and the termination marker must not depend on it; a
// ';' comment or a '%' escape ends at the line's end in each.
func TestMovetextLineEndings(t *testing.T) {
	const text = "1. e4 ; to the end of the line e5\n% an escape line 2. d4\n2. Nf3 {a\ncomment} Nc6\n3. Bb5 *\n"
	type tok struct {
		kind TokenKind
		text string
		line int
	}
	scan := func(movetext []byte, ending string) []tok {
		var s MovetextScanner
		s.Reset(movetext, 10)
		var toks []tok
		for s.Next() {
			tk := s.Token()
			toks = append(toks, tok{tk.Kind, strings.ReplaceAll(string(tk.Text), ending, "\n"), tk.Line})
		}
		return toks
	}
	want := scan([]byte(text), "\n")
	if len(want) != 11 || want[2].kind != TokenLineComment || want[3].kind != TokenEscape || want[10].line != 14 {
		t.Fatalf("the LF movetext scans as %v", want)
	}
	for _, ending := range []string{"\r\n", "\r"} {
		movetext := []byte(strings.ReplaceAll(text, "\n", ending))
		name := strconv.Quote(ending)
		if got := scan(movetext, ending); !slices.Equal(got, want) {
			t.Errorf("%s: tokens\n got %v\nwant %v", name, got, want)
		}
		if got := CountPlies(movetext); got != 4 {
			t.Errorf("%s: CountPlies = %d, want 4 (e4 Nf3 Nc6 Bb5)", name, got)
		}
		if m, _ := Termination(append(movetext, "% a last escape"...)); string(m) != "*" {
			t.Errorf("%s: Termination = %q, want *", name, m)
		}
	}
}
