package numbering

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// seedTable reads a transcription of a seed table from testdata: one
// "number text" entry per line, '#' lines are comments.
func seedTable(t *testing.T, name string) []SkeletonRow {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []SkeletonRow
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		num, entry, ok := strings.Cut(text, " ")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			t.Fatalf("%s:%d: want \"number text\", got %q", name, line, text)
		}
		rows = append(rows, SkeletonRow{Number: n, Skeleton: entry})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestKingTable(t *testing.T) {
	seed := seedTable(t, "kings_table.txt")
	got := KingTable()
	if len(got) != 60 || len(seed) != 60 {
		t.Fatalf("%d rows generated, %d transcribed; want 60", len(got), len(seed))
	}
	for i, want := range seed {
		if got[i].SP != want.Number || got[i].Pieces != want.Skeleton {
			t.Errorf("row %d: %d %s, seed %d %s", i, got[i].SP, got[i].Pieces, want.Number, want.Skeleton)
		}
	}
}

func TestBishopTable(t *testing.T) {
	seed := seedTable(t, "bishops_table.txt")
	got := BishopTable()
	if len(got) != 16 || len(seed) != 16 {
		t.Fatalf("%d rows generated, %d transcribed; want 16", len(got), len(seed))
	}
	for i, want := range seed {
		if got[i].Code != want.Number || got[i].Squares != want.Skeleton {
			t.Errorf("row %d: %d %s, seed %d %s", i, got[i].Code, got[i].Squares, want.Number, want.Skeleton)
		}
	}
}

func TestSkeletonTables(t *testing.T) {
	for _, tc := range []struct {
		file  string
		table func() []SkeletonRow
	}{
		{"scharnagl_skeleton_table.txt", SkeletonTable},
		{"fritz9_skeleton_table.txt", Fritz9SkeletonTable},
	} {
		t.Run(tc.file, func(t *testing.T) {
			seed := seedTable(t, tc.file)
			got := tc.table()
			if len(got) != 60 || len(seed) != 60 {
				t.Fatalf("%d entries generated, %d transcribed; want 60", len(got), len(seed))
			}
			for i, want := range seed {
				if got[i] != want {
					t.Errorf("entry %d: %d %s, seed %d %s", i, got[i].Number, got[i].Skeleton, want.Number, want.Skeleton)
				}
			}
		})
	}
}

// TestTablesAgreeWithConversions uses the tables the way the seed tells a
// reader to: the number of a rank is its skeleton's entry plus its bishop
// code, in either numbering.
func TestTablesAgreeWithConversions(t *testing.T) {
	scharnagl := map[string]int{}
	for _, e := range SkeletonTable() {
		scharnagl[e.Skeleton] = e.Number
	}
	fritz9 := map[string]int{}
	for _, e := range Fritz9SkeletonTable() {
		fritz9[e.Skeleton] = e.Number
	}
	bishopCode := map[string]int{}
	for _, b := range BishopTable() {
		bishopCode[b.Squares] = b.Code
	}
	if len(scharnagl) != 60 || len(fritz9) != 60 || len(bishopCode) != 16 {
		t.Fatalf("tables have %d, %d, %d distinct entries; want 60, 60, 16", len(scharnagl), len(fritz9), len(bishopCode))
	}
	for sp := 0; sp < Count; sp++ {
		r, _ := FromSP(sp)
		squares := []byte("--------")
		for i, p := range r {
			if p == 'B' {
				squares[i] = 'B'
			}
		}
		code, ok := bishopCode[string(squares)]
		if !ok {
			t.Fatalf("%s: bishops %s not in the Bishop's table", r, squares)
		}
		sk := skeleton(r)
		if got := scharnagl[sk] + code; got != sp {
			t.Errorf("%s: skeleton %s + bishops %d = %d, want SP %d", r, sk, code, got, sp)
		}
		if got, want := fritz9[sk]+code, r.Fritz9(); got != want {
			t.Errorf("%s: skeleton %s + bishops %d = %d, want Fritz9 %d", r, sk, code, got, want)
		}
	}
}
