package pgn

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// How countPliesVector must treat a movetext.
const (
	countsAll   = iota // counts it all
	leavesAll          // leaves it all to CountPlies' loop
	handsOver          // counts up to a long comment, and leaves the rest
	countsOrNot        // either of the first two
)

// countPliesVectorCases are movetexts of at least 64 bytes, named by what
// they exercise, with how countPliesVector must treat them.
var countPliesVectorCases = []struct {
	name, in string
	path     int
}{
	{"lichess", lichessMovetext, countsAll},
	{"lichess with CRLF", strings.ReplaceAll(lichessMovetext, "\n", "\r\n"), countsAll},
	{"engine comments holding what the loop would read", "1. d4 {+0.13/12 (d5) ; $1 % 0.29s} d5 {-0.17/15 \xc3\xa9\x01 0.30s} 2. c3 {+0.22/13 0.28s}\nNb6 *", countsAll},
	{"glued numbers", strings.Repeat("1.e4 1...e5 ", 8) + "...Nf3 .e4 12 13. 1-0", countsAll},
	{"a comment over two blocks", "1. e4 {" + strings.Repeat("x ", 40) + "} e5 2. Nf3 *", countsAll},
	{"words glued to comments", strings.Repeat("e4{x}e5{ [%clk 0:10:00] }", 4) + "Nf3{y}", countsAll},
	{"open comment at the end", strings.Repeat("1. e4 e5 ", 8) + "{open e4 e5 Nf3", countsAll},
	{"result only at the end", strings.Repeat("1. e4 e5 ", 8) + "1/2-1/2 \n\n", countsAll},
	{"variation", strings.Repeat("1. e4 e5 ", 8) + "(1... c5) *", leavesAll},
	{"NAG", strings.Repeat("1. e4 e5 ", 8) + "$1 *", leavesAll},
	{"line comment", strings.Repeat("1. e4 e5 ", 8) + "; e4\n*", leavesAll},
	{"escape line", strings.Repeat("1. e4 e5 ", 8) + "\n% e4\n*", leavesAll},
	// A '{' inside a comment is left to the loop when it is seen, and not
	// when the comment is passed over from the start of a block.
	{"brace inside a comment", strings.Repeat("1. e4 e5 ", 8) + "{a { b} e4 *", countsOrNot},
	{"long comment", "1. e4 {" + strings.Repeat("x", longComment+64) + "} e5 2. Nf3 *", handsOver},
	{"comment just short of long", "1. e4 {" + strings.Repeat("x", longComment-64) + "} e5 2. Nf3 Nc6 3. Bb5 a6 *", countsAll},
	{"engine comments", "1. d4 {d=27, sd=44, mt=30977, tl=1700000, s=173945, n=6866301, pv=d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3 Bxc3+ Qxc3 d5 Nf3 dxc4 Qxc4 b6 Bg5 Ba6 Qa4 c5, tb=0, h=17.2, ph=0.0, wv=0.75, R50=50, Rd=-11, Rr=-11, mb=+0+0+0+0+0,}\n1... Nf6 {d=28}\n2. c4 *", handsOver},
	{"brace outside a comment", strings.Repeat("1. e4 e5 ", 8) + "} e4 *", leavesAll},
	{"castling with zeros", strings.Repeat("1. e4 e5 ", 8) + "0-0 *", leavesAll},
	{"null move", strings.Repeat("1. e4 e5 ", 8) + "-- *", leavesAll},
	{"digits glued to a move", strings.Repeat("1. e4 e5 ", 8) + "12e4 *", leavesAll},
	{"digits, a dot and digits glued to a move", strings.Repeat("1. e4 e5 ", 8) + "1.2e4 *", leavesAll},
	{"result inside the moves", strings.Repeat("1. e4 e5 ", 8) + "1-0 e4 *", leavesAll},
	{"figurine", strings.Repeat("1. e4 e5 ", 8) + "\xe2\x99\x98f3 *", leavesAll},
	{"control byte", strings.Repeat("1. e4 e5 ", 8) + "e4\x01 *", leavesAll},
	{"glyph word", strings.Repeat("1. e4 e5 ", 8) + "!? *", leavesAll},
}

// TestCountPliesVector checks which movetexts the vector loop counts, and
// that its counts are the scanner's, at every alignment of the input to
// its 64-byte blocks, with bytes after the input that it must not count.
func TestCountPliesVector(t *testing.T) {
	if !vectorScan {
		t.Skip("no vector loop here")
	}
	for _, c := range countPliesVectorCases {
		t.Run(c.name, func(t *testing.T) {
			for shift := range 64 {
				in := []byte(strings.Repeat(" ", shift) + c.in + "e4 {")
				in = in[:len(in)-4]
				want := scannedPlies(in)
				n, next, done := countPliesVector(in, 0)
				path := leavesAll
				switch {
				case done:
					path = countsAll
				case next > 0:
					path = handsOver
				}
				if path != c.path && (c.path != countsOrNot || path == handsOver) {
					t.Fatalf("shifted by %d: path %d, want %d", shift, path, c.path)
				}
				if done && n != want {
					t.Fatalf("shifted by %d: %d moves, the scanner finds %d", shift, n, want)
				}
				if path == handsOver && n != scannedPlies(in[:next]) {
					t.Fatalf("shifted by %d: %d moves before %d, the scanner finds %d", shift, n, next, scannedPlies(in[:next]))
				}
				if got := CountPlies(in); got != want {
					t.Fatalf("shifted by %d: CountPlies = %d, the scanner finds %d", shift, got, want)
				}
			}
		})
	}
}

// TestCountPliesVectorPieces holds the vector loop to the scanner on
// random movetexts made of the pieces it must count itself, and requires
// it to count every one of them.
func TestCountPliesVectorPieces(t *testing.T) {
	if !vectorScan {
		t.Skip("no vector loop here")
	}
	pieces := []string{" ", " ", " ", "\n", "\r\n", "\t", "1.", "12.", "1...", "...", ".", "12.e4", "1...Nf6", ".e5",
		"e4", "Nf3", "exd8=Q+", "O-O-O", "Z0", "e4!?", "Qxf7#", "abcdefghijklmnop", "e.p.",
		"{ [%clk 0:10:00] }", "{+0.31/11 0.30s}", "{}", "{ (a) ; $1 % \xc3\xa9 }", "{\n}"}
	results := []string{"", " 1-0", "\n0-1", " 1/2-1/2", " *", " *\n\n"}
	r := rand.New(rand.NewPCG(3, 4))
	buf := guarded(t, 8192) // a read past a movetext faults (on Linux)
	for range 20000 {
		var in []byte
		for range r.IntN(80) {
			in = append(in, pieces[r.IntN(len(pieces))]...)
			if r.IntN(3) > 0 {
				in = append(in, ' ')
			}
		}
		in = append(in, results[r.IntN(len(results))]...)
		if len(in) < 64 || len(in) > len(buf) {
			continue
		}
		in = buf[len(buf)-len(in):][:copy(buf[len(buf)-len(in):], in)]
		want := scannedPlies(in)
		if n, _, done := countPliesVector(in, 0); !done || n != want {
			t.Fatalf("countPliesVector(%q) = %d, %v; the scanner finds %d", in, n, done, want)
		}
	}
}
