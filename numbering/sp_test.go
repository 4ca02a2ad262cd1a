package numbering

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// numbersByRule returns the Scharnagl and Fritz9 numbers of the eight bytes
// s, or -1, -1 if they are no Chess960 back rank in upper-case English
// letters. It follows the seed documents' derivation with strings and
// their lists of knight placements, sharing no code with the package, so
// that it can judge Rank.SP and Rank.Fritz9.
func numbersByRule(s string) (sp, fritz9 int) {
	if len(s) != 8 || strings.Count(s, "R") != 2 || strings.Count(s, "N") != 2 ||
		strings.Count(s, "B") != 2 || strings.Count(s, "Q") != 1 || strings.Count(s, "K") != 1 {
		return -1, -1
	}
	b1, b2 := strings.IndexByte(s, 'B'), strings.LastIndexByte(s, 'B')
	k := strings.IndexByte(s, 'K')
	if b1%2 == b2%2 || k < strings.IndexByte(s, 'R') || k > strings.LastIndexByte(s, 'R') {
		return -1, -1
	}
	light, dark := b1, b2 // files b, d, f, h are light, a, c, e, g dark
	if light%2 == 0 {
		light, dark = dark, light
	}
	bishops := light/2 + 4*(dark/2)

	six := strings.ReplaceAll(s, "B", "")
	knightsOnly := func(t string) string {
		return strings.Map(func(c rune) rune {
			if c == 'N' {
				return 'N'
			}
			return '-'
		}, t)
	}
	n5n := []string{"NN---", "N-N--", "N--N-", "N---N", "-NN--", "-N-N-", "-N--N", "--NN-", "--N-N", "---NN"}
	n6n := []string{
		"NN----", "N-N---", "N--N--", "N---N-", "N----N", "-NN---", "-N-N--", "-N--N-",
		"-N---N", "--NN--", "--N-N-", "--N--N", "---NN-", "---N-N", "----NN",
	}
	indexOf := func(list []string, x string) int {
		for i, y := range list {
			if y == x {
				return i
			}
		}
		panic(x)
	}
	queen6 := strings.IndexByte(six, 'Q')
	knights5 := indexOf(n5n, knightsOnly(strings.ReplaceAll(six, "Q", "")))
	knights6 := indexOf(n6n, knightsOnly(six))
	queen4 := strings.IndexByte(strings.ReplaceAll(six, "N", ""), 'Q')
	return bishops + 16*queen6 + 96*knights5, 1 + bishops + 16*knights6 + 240*queen4
}

func checkByRule(t *testing.T, r Rank) {
	t.Helper()
	sp, f := numbersByRule(string(r[:]))
	if r.SP() != sp || r.Fritz9() != f {
		t.Fatalf("%q: SP %d, Fritz9 %d; by the rules %d, %d", r[:], r.SP(), r.Fritz9(), sp, f)
	}
}

// TestSPByRule compares SP and Fritz9 with the rules on every start, on
// every other word of the five letters, on every start with one square
// changed to any byte, and on named and random misfits.
func TestSPByRule(t *testing.T) {
	seen := map[int]bool{}
	for _, s := range allArrangements() {
		var r Rank
		copy(r[:], s)
		checkByRule(t, r)
		if sp := r.SP(); sp >= 0 {
			seen[sp] = true
		}
	}
	if len(seen) != Count {
		t.Fatalf("%d of the arrangements of RRNNBBQK have an SP, want %d", len(seen), Count)
	}

	const letters = "RNBQK"
	var r Rank
	var place func(i int)
	place = func(i int) {
		if i == len(r) {
			checkByRule(t, r)
			return
		}
		for j := range len(letters) {
			r[i] = letters[j]
			place(i + 1)
		}
	}
	place(0)

	for sp := range Count {
		start, _ := FromSP(sp)
		for i := range start {
			for c := range 256 {
				r := start
				r[i] = byte(c)
				checkByRule(t, r)
			}
		}
	}

	for _, s := range []string{
		"rnbqkbnr", // lower case
		"RNBQKBNr",
		"TSLDKLST", // German letters: ParseRank's, not a Rank's
		"RNBKKBNR", // two kings
		"RNBQQBNR", // two queens, no king
		"RBBQKNNR", // bishops on b1 and c1: fine
		"BRBQKNNR", // bishops on a1 and c1: both dark
		"RBNBKQNR", // both light
		"KRNBBQNR", // king before the rooks
		"RNBQRBNK", // king after them
		"RNBQKBNP", // a pawn
		"RNBQ1BNR", // a digit
		"\x00\x00\x00\x00\x00\x00\x00\x00",
		"\xd2\xceB\xd1\xcbB\xceR",          // the letters with bit 7 set
		"\x12\x0e\x02\x11\x0b\x02\x0e\x12", // and with bit 6 clear
		"RNBQKBNR",
	} {
		var r Rank
		copy(r[:], s)
		checkByRule(t, r)
	}

	// Words of letters and of bytes that share their bits 0, 2 and 4.
	const mix = "RNBQKrnbqk\x12\x0e\x02\x11\x0b\xd2\xce\xc2\xd1\xcb\x00\xff"
	rng := rand.New(rand.NewPCG(960, 8))
	for range 200000 {
		var r Rank
		for i := range r {
			r[i] = mix[rng.IntN(len(mix))]
		}
		checkByRule(t, r)
		// And starts with two squares swapped for such bytes.
		r, _ = FromSP(rng.IntN(Count))
		r[rng.IntN(8)] = mix[rng.IntN(len(mix))]
		r[rng.IntN(8)] = mix[rng.IntN(len(mix))]
		checkByRule(t, r)
	}
}

// TestPieceLetter holds the literal table to the letters ParseRank
// documents: English and German, in either case.
func TestPieceLetter(t *testing.T) {
	for c := range 256 {
		want := byte(0)
		if i := strings.IndexByte("RNBQKTSLDKrnbqktsldk", byte(c)); i >= 0 {
			want = "RNBQKRNBQK"[i%10]
		}
		if pieceLetter[c] != want {
			t.Errorf("pieceLetter[%q] = %q, want %q", byte(c), pieceLetter[c], want)
		}
	}
}
