package fen

import (
	"bufio"
	"os"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
)

// TestRealStartLists reads public lists of the 960 start positions, each in
// a known order, and checks the number of every line, the castling rights
// and that rewriting a line in either style keeps those rights.
func TestRealStartLists(t *testing.T) {
	tests := []struct {
		name string
		path []string
		sp   func(line int) int // the SP of 0-based line
	}{
		{"FRC_openings", []string{"realdata", "stockfish-books", "FRC_openings.epd"}, func(i int) int { return i }},
		{"startpos_chess960 (mixed castling notation)", []string{"realdata", "stockfish-books", "startpos_chess960.epd"}, func(i int) int { return i }},
		{"fishtest Chess960 (1-based, 960 means 0)", []string{"realdata", "fishtest", "Chess960.epd"}, func(i int) int { return (i + 1) % 960 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := os.Open(sharedtest.Path(t, tt.path...))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			line := 0
			for ; sc.Scan(); line++ {
				text := sc.Text() // fishtest's lines end in CRLF: Parse must cope with the '\r'
				p, err := Parse(text)
				if err != nil {
					t.Fatalf("line %d %q: %v", line+1, text, err)
				}
				want := tt.sp(line)
				st := p.Start()
				if sp, ok := st.SP(); !ok || sp != want {
					t.Errorf("line %d %q: Start() = %+v, want SP %d", line+1, text, st, want)
				}
				if err := p.StartError(); err != nil {
					t.Errorf("line %d: StartError() = %v", line+1, err)
				}
				if full := StartPosition(mustRank(t, want), mustRank(t, want)).Castling; p.Castling != full {
					t.Errorf("line %d %q: Castling = %v, want every rook: %v", line+1, text, p.Castling, full)
				}
				for _, style := range []Style{Shredder, XFEN} {
					out := p.Format(style)
					q, err := Parse(out)
					if err != nil || q.Castling != p.Castling || q.Board != p.Board {
						t.Errorf("line %d: Format(%v) = %q re-parses differently (%v)", line+1, style, out, err)
					}
					rw, err := RewriteCastling(text, style)
					if err != nil {
						t.Fatalf("line %d: RewriteCastling: %v", line+1, err)
					}
					if q, err := Parse(rw); err != nil || q.Castling != p.Castling {
						t.Errorf("line %d: RewriteCastling(%v) = %q changes the rights (%v)", line+1, style, rw, err)
					}
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if line != 960 {
				t.Errorf("%d lines, want 960", line)
			}
		})
	}
}
