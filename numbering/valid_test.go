package numbering

import "testing"

// TestValidAgreesWithCheck tries every 8-letter word over R, N, B, Q, K:
// the allocation-free test behind SP and Fritz9 must accept exactly what
// Check accepts, and exactly 960 words.
func TestValidAgreesWithCheck(t *testing.T) {
	const letters = "RNBQK"
	var r Rank
	n := 0
	var place func(i int)
	place = func(i int) {
		if i == len(r) {
			if r.valid() != (r.check() == nil) {
				t.Fatalf("%s: valid says %v, Check says %v", r, r.valid(), r.check())
			}
			if r.valid() {
				n++
			}
			return
		}
		for j := range len(letters) {
			r[i] = letters[j]
			place(i + 1)
		}
	}
	place(0)
	if n != Count {
		t.Errorf("%d valid arrangements, want %d", n, Count)
	}
}

func TestSPOfInvalidRankAllocatesNothing(t *testing.T) {
	bad := Rank{'R', 'R', 'B', 'Q', 'K', 'B', 'N', 'R'}
	if allocs := testing.AllocsPerRun(100, func() {
		if bad.SP() != -1 || bad.Fritz9() != -1 {
			t.Fatal("an invalid rank got a number")
		}
	}); allocs != 0 {
		t.Errorf("SP of an invalid rank: %v allocations", allocs)
	}
}
