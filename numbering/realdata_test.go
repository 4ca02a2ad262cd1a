package numbering

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
)

// backRanks reads an EPD file of start positions and returns, per line,
// White's back rank (the last rank of the placement field) and Black's
// (the first), the latter in upper case. It reads the text with strings
// only, so that the numbering oracle does not depend on package fen.
func backRanks(t *testing.T, path string) (white, black []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		placement, _, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		ranks := strings.Split(placement, "/")
		if len(ranks) != 8 {
			t.Fatalf("%s:%d: %d ranks in %q", path, line, len(ranks), placement)
		}
		white = append(white, ranks[7])
		black = append(black, strings.ToUpper(ranks[0]))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return white, black
}

func TestRealEPD(t *testing.T) {
	for _, tc := range []struct {
		file  []string
		first int // the SP of the first line; the number increases by one per line, mod 960
	}{
		{[]string{"stockfish-books", "FRC_openings.epd"}, 0},
		{[]string{"stockfish-books", "startpos_chess960.epd"}, 0},
		{[]string{"fishtest", "Chess960.epd"}, 1}, // 1-based: line 960 is SP 0
	} {
		t.Run(strings.Join(tc.file, "/"), func(t *testing.T) {
			path := sharedtest.Path(t, append([]string{"realdata"}, tc.file...)...)
			white, black := backRanks(t, path)
			if len(white) != Count {
				t.Fatalf("%d lines, want %d", len(white), Count)
			}
			for i, w := range white {
				n := tc.first + i // as the file numbers it
				want, err := NormalizeSP(n)
				if err != nil {
					t.Fatal(err)
				}
				r, err := ParseRank(w)
				if err != nil {
					t.Errorf("line %d: %v", i+1, err)
					continue
				}
				if got := r.SP(); got != want {
					t.Errorf("line %d: %s is SP %d, want %d", i+1, w, got, want)
				}
				if fromN, _ := FromSP(n); fromN != r {
					t.Errorf("line %d: FromSP(%d) = %s, file has %s", i+1, n, fromN, w)
				}
				if black[i] != w {
					t.Errorf("line %d: Black's rank %s does not mirror White's %s", i+1, black[i], w)
				}
			}
		})
	}
}
