package render

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/stats"
)

// TestFitColumns renders the table after FitColumns at several widths and
// checks that every line fits, that the columns kept are the first of
// fitOrder in Columns' order, and that those left out are the rest.
func TestFitColumns(t *testing.T) {
	s := fixture(t)
	grouped := eventGames(t, 3)
	for _, tt := range []struct {
		name     string
		s        *stats.Stats
		by       numbering.Scheme
		dfrc     bool
		width    int
		fits     bool // the key, rank and games fit in width
		allShown bool
	}{
		{"a wide terminal", s, numbering.Scharnagl, true, 400, true, true},
		{"120 columns", s, numbering.Scharnagl, true, 120, true, false},
		{"80 columns", s, numbering.Scharnagl, false, 80, true, false},
		{"80 columns, by Fritz9", s, numbering.Fritz9, false, 80, true, false},
		{"grouped, 100 columns", grouped, numbering.Scharnagl, false, 100, true, false},
		{"too narrow for the key, rank and games", s, numbering.Scharnagl, false, 20, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := &stats.Report{Stats: tt.s, Options: stats.Options{By: tt.by}, WithDFRC: tt.dfrc}
			left := FitColumns(rep, tt.width)
			if tt.allShown != (left == nil && rep.Columns == nil) {
				t.Fatalf("left out %q, columns %q", left, rep.Columns)
			}
			kept := rep.Columns
			if kept == nil {
				kept = stats.Columns
			}
			if got := append(slices.Clone(kept), left...); !sameSet(got, stats.Columns) {
				t.Errorf("kept %q and left out %q: not the columns, each once", kept, left)
			}
			if !isSubsequence(kept, stats.Columns) || !isSubsequence(left, stats.Columns) {
				t.Errorf("kept %q and left out %q: not in Columns' order", kept, left)
			}
			units := fitOrder(tt.by)
			var order []string // the columns, unit after unit
			n := 0             // how many of the units were kept
			for _, u := range units {
				if len(order) < len(kept) {
					n++
				}
				order = append(order, u...)
			}
			if !sameSet(kept, order[:len(kept)]) {
				t.Errorf("kept %q, want the first %d of %q", kept, len(kept), order)
			}
			if !slices.Contains(kept, order[0]) || !slices.Contains(kept, "rank") || !slices.Contains(kept, "games") {
				t.Errorf("kept %q: the key, rank and games must stay", kept)
			}
			if widest := tableWidth(t, rep); tt.fits && widest > tt.width {
				t.Errorf("a line of %d characters, over %d", widest, tt.width)
			}
			if !tt.allShown && tt.fits {
				// The next column would not have fitted.
				next := units[n]
				rep2 := &stats.Report{Stats: tt.s, Options: rep.Options, WithDFRC: tt.dfrc, Columns: inOrder(append(slices.Clone(kept), next...))}
				if wider := tableWidth(t, rep2); wider <= tt.width {
					t.Errorf("with %q too the table is %d wide, within %d: it should have been kept", next, wider, tt.width)
				}
			}
		})
	}
}

// tableWidth returns the length of the longest line of rep's table.
func tableWidth(t *testing.T, rep *stats.Report) int {
	t.Helper()
	var b bytes.Buffer
	if err := WriteTable(&b, rep); err != nil {
		t.Fatal(err)
	}
	widest := 0
	for line := range strings.Lines(b.String()) {
		widest = max(widest, utf8.RuneCountInString(strings.TrimSuffix(line, "\n")))
	}
	return widest
}

// inOrder returns names in Columns' order.
func inOrder(names []string) []string {
	var out []string
	for _, c := range stats.Columns {
		if slices.Contains(names, c) {
			out = append(out, c)
		}
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// isSubsequence reports whether sub's items stand in all in the same order.
func isSubsequence(sub, all []string) bool {
	i := 0
	for _, x := range all {
		if i < len(sub) && sub[i] == x {
			i++
		}
	}
	return i == len(sub)
}

// fitOrder holds every column once.
func TestFitOrder(t *testing.T) {
	for _, by := range []numbering.Scheme{numbering.Scharnagl, numbering.Fritz9} {
		var order []string
		for _, u := range fitOrder(by) {
			order = append(order, u...)
		}
		if !sameSet(order, stats.Columns) {
			t.Errorf("fitOrder(%v) = %q, not the columns each once", by, order)
		}
	}
}
