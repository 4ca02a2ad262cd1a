package numbering

import (
	"errors"
	"strings"
	"testing"
)

// legalByRule reports whether s (eight English letters) is a Chess960 back
// rank, written from the rules alone so that it is independent of the
// package's own check.
func legalByRule(s string) bool {
	b1, b2 := strings.IndexByte(s, 'B'), strings.LastIndexByte(s, 'B')
	r1, r2 := strings.IndexByte(s, 'R'), strings.LastIndexByte(s, 'R')
	k := strings.IndexByte(s, 'K')
	return b1%2 != b2%2 && r1 < k && k < r2
}

// allArrangements returns every distinct ordering of RRNNBBQK (5040 of them).
func allArrangements() []string {
	var out []string
	seen := map[string]bool{}
	var permute func(prefix string, rest string)
	permute = func(prefix, rest string) {
		if rest == "" {
			if !seen[prefix] {
				seen[prefix] = true
				out = append(out, prefix)
			}
			return
		}
		for i := range rest {
			permute(prefix+rest[i:i+1], rest[:i]+rest[i+1:])
		}
	}
	permute("", "RRNNBBQK")
	return out
}

// TestAllArrangements enumerates the arrangements of the eight pieces
// independently of the package and checks that exactly the 960 legal ones
// are accepted and that each round-trips through both numberings.
func TestAllArrangements(t *testing.T) {
	arrangements := allArrangements()
	if len(arrangements) != 5040 {
		t.Fatalf("%d arrangements of RRNNBBQK, want 5040", len(arrangements))
	}
	spSeen := map[int]string{}
	fritzSeen := map[int]string{}
	for _, s := range arrangements {
		r, err := ParseRank(s)
		if legal := legalByRule(s); legal != (err == nil) {
			t.Errorf("ParseRank(%q) error %v, legal by the rules: %v", s, err, legal)
			continue
		} else if !legal {
			if r.SP() != -1 || r.Fritz9() != -1 {
				t.Errorf("illegal %q: SP %d, Fritz9 %d, want -1, -1", s, r.SP(), r.Fritz9())
			}
			continue
		}
		sp, f := r.SP(), r.Fritz9()
		if sp < 0 || sp >= Count || f < 1 || f > Count {
			t.Errorf("%s: SP %d, Fritz9 %d out of range", s, sp, f)
			continue
		}
		if prev, dup := spSeen[sp]; dup {
			t.Errorf("%s and %s share SP %d", prev, s, sp)
		}
		if prev, dup := fritzSeen[f]; dup {
			t.Errorf("%s and %s share Fritz9 %d", prev, s, f)
		}
		spSeen[sp], fritzSeen[f] = s, s
	}
	if len(spSeen) != Count || len(fritzSeen) != Count {
		t.Errorf("%d SPs and %d Fritz9 numbers, want %d of each", len(spSeen), len(fritzSeen), Count)
	}
}

// TestRoundTrip checks both directions of both numberings for every number.
func TestRoundTrip(t *testing.T) {
	fritzHit := make([]bool, Count+1)
	for sp := 0; sp < Count; sp++ {
		r, err := FromSP(sp)
		if err != nil {
			t.Fatalf("FromSP(%d): %v", sp, err)
		}
		if err := r.Check(); err != nil {
			t.Errorf("FromSP(%d) = %s: %v", sp, r, err)
		}
		if got := r.SP(); got != sp {
			t.Errorf("FromSP(%d).SP() = %d", sp, got)
		}
		f := r.Fritz9()
		if f < 1 || f > Count || fritzHit[f] {
			t.Errorf("SP %d (%s): Fritz9 %d out of range or repeated", sp, r, f)
			continue
		}
		fritzHit[f] = true
		if got, err := FromFritz9(f); err != nil || got != r {
			t.Errorf("FromFritz9(%d) = %s, %v; want %s", f, got, err, r)
		}
		if got, err := SPToFritz9(sp); err != nil || got != f {
			t.Errorf("SPToFritz9(%d) = %d, %v; want %d", sp, got, err, f)
		}
		if got, err := Fritz9ToSP(f); err != nil || got != sp {
			t.Errorf("Fritz9ToSP(%d) = %d, %v; want %d", f, got, err, sp)
		}
		for _, text := range []string{r.String(), strings.ToLower(r.String()), r.German(), strings.ToLower(r.German()), r.Black()} {
			if got, err := ParseRank(text); err != nil || got != r {
				t.Errorf("ParseRank(%q) = %s, %v; want %s", text, got, err, r)
			}
		}
	}
	for f := 1; f <= Count; f++ {
		if !fritzHit[f] {
			t.Errorf("Fritz9 %d is the number of no arrangement", f)
		}
	}
}

// TestExamples holds the worked examples of spec.md and the seed documents.
func TestExamples(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rank   string
		sp     int
		fritz9 int // 0: not given by the sources
	}{
		{"standard chess", "RNBQKBNR", 518, 359},
		{"first SP", "BBQNNRKR", 0, 81},
		{"last SP", "RKRNNQBB", 959, 928},
		{"SP 631", "RNBKQRNB", 631, 0},
		{"SP 909", "RKQBRNBN", 909, 0},
		{"SP 521", "RNQBBKNR", 521, 0},
		{"Fritz9 518", "", 261, 518},
		{"German standard", "TSLDKLST", 518, 359},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := FromSP(tc.sp)
			if err != nil {
				t.Fatal(err)
			}
			if tc.rank != "" {
				want, err := ParseRank(tc.rank)
				if err != nil {
					t.Fatal(err)
				}
				if r != want {
					t.Errorf("FromSP(%d) = %s, want %s", tc.sp, r, want)
				}
			}
			if tc.fritz9 != 0 {
				if got := r.Fritz9(); got != tc.fritz9 {
					t.Errorf("%s: Fritz9 %d, want %d", r, got, tc.fritz9)
				}
				if got, _ := Fritz9ToSP(tc.fritz9); got != tc.sp {
					t.Errorf("Fritz9ToSP(%d) = %d, want %d", tc.fritz9, got, tc.sp)
				}
			}
		})
	}

	// The seed's worked derivation of the standard position: bishop code 6,
	// NQ-skeleton -NQ-N-, queen on the third of six squares, N5N code 5.
	r, _ := FromSP(StandardSP)
	if c, _ := r.codes(); c.bishops != 6 || c.queen6 != 2 || c.knights5 != 5 || skeleton(r) != "-NQ-N-" {
		t.Errorf("SP 518 codes %+v, skeleton %s; want bishops 6, queen 2, N5N 5, -NQ-N-", c, skeleton(r))
	}
	if r.String() != "RNBQKBNR" || r.German() != "TSLDKLST" || r.Black() != "rnbqkbnr" {
		t.Errorf("SP 518 prints as %s, %s, %s", r, r.German(), r.Black())
	}
	if StandardSP != 518 || StandardFritz9 != 359 || r.Fritz9() != StandardFritz9 {
		t.Errorf("standard constants %d, %d disagree with the arithmetic", StandardSP, StandardFritz9)
	}
	// 1..960 numbering: 960 is SP 0, every other number is itself.
	if r960, err := FromSP(960); err != nil || r960.String() != "BBQNNRKR" {
		t.Errorf("FromSP(960) = %s, %v; want BBQNNRKR", r960, err)
	}
	if f, err := SPToFritz9(960); err != nil || f != 81 {
		t.Errorf("SPToFritz9(960) = %d, %v; want 81", f, err)
	}
}

func TestNormalizeSP(t *testing.T) {
	for _, tc := range []struct {
		in, want int
		ok       bool
	}{
		{0, 0, true}, {1, 1, true}, {518, 518, true}, {959, 959, true},
		{960, 0, true}, {961, 0, false}, {-1, 0, false}, {100000, 0, false},
	} {
		got, err := NormalizeSP(tc.in)
		if tc.ok && (err != nil || got != tc.want) {
			t.Errorf("NormalizeSP(%d) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
		if !tc.ok && !errors.Is(err, ErrRange) {
			t.Errorf("NormalizeSP(%d) = %d, %v; want ErrRange", tc.in, got, err)
		}
	}
}

func TestRangeErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"FromSP(-1)", func() error { _, err := FromSP(-1); return err }},
		{"FromSP(961)", func() error { _, err := FromSP(961); return err }},
		{"FromFritz9(0)", func() error { _, err := FromFritz9(0); return err }},
		{"FromFritz9(961)", func() error { _, err := FromFritz9(961); return err }},
		{"SPToFritz9(961)", func() error { _, err := SPToFritz9(961); return err }},
		{"Fritz9ToSP(0)", func() error { _, err := Fritz9ToSP(0); return err }},
		{"Fritz9ToSP(-5)", func() error { _, err := Fritz9ToSP(-5); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); !errors.Is(err, ErrRange) {
				t.Errorf("error %v, want ErrRange", err)
			}
		})
	}
}

func TestParseRankErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string
		rule  error
		text  string // must appear in the message
	}{
		{"empty", "", ErrLength, "8 squares (got 0)"},
		{"seven letters", "RNBQKBN", ErrLength, "got 7"},
		{"nine letters", "RNBQKBNRR", ErrLength, "got 9"},
		{"German too long", "TSLDKLSTT", ErrLength, "got 9"},
		{"pawn", "RNBQKBNP", ErrLetter, "'P' on the h-file"},
		{"digit", "RNBQ1BNR", ErrLetter, "'1' on the e-file"},
		{"German unknown", "TSLDKLSX", ErrLetter, "'X' on the h-file"},
		{"non-ASCII", "RNBQKBNé", ErrLetter, "'é' on the h-file"},
		{"three knights", "RNBQKNNR", ErrPieces, "1 bishop"},
		{"two queens English", "RNBQQBNR", ErrPieces, "2 queens, 0 kings"},
		{"two queens German lower case", "tsldDlst", ErrPieces, "2 queens, 0 kings"},
		{"bishops both light", "RBNBKQNR", ErrBishops, "both on light squares"},
		{"bishops both dark German", "ltlsksdt", ErrBishops, "both on dark squares"},
		{"king outside rooks", "KRNBBQNR", ErrKing, "between the rooks"},
		{"king outside rooks German mixed case", "kTsLlDsT", ErrKing, "between the rooks"},
		{"king on h", "RNBQRBNK", ErrKing, "between the rooks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRank(tc.input)
			if !errors.Is(err, tc.rule) {
				t.Fatalf("ParseRank(%q) = %s, %v; want %v", tc.input, r, err, tc.rule)
			}
			var re *RankError
			if !errors.As(err, &re) || re.Input != tc.input {
				t.Errorf("error %#v is not a *RankError for %q", err, tc.input)
			}
			if !strings.Contains(err.Error(), tc.text) || !strings.Contains(err.Error(), tc.rule.Error()) {
				t.Errorf("error %q does not say %q and %q", err, tc.rule, tc.text)
			}
			if r != (Rank{}) {
				t.Errorf("ParseRank(%q) returned %q with its error, want the zero Rank", tc.input, r[:])
			}
		})
	}
}

func TestCheckZeroRank(t *testing.T) {
	var r Rank
	if err := r.Check(); !errors.Is(err, ErrLetter) {
		t.Errorf("zero Rank: Check() = %v, want ErrLetter", err)
	}
	if r.SP() != -1 || r.Fritz9() != -1 {
		t.Errorf("zero Rank: SP %d, Fritz9 %d, want -1, -1", r.SP(), r.Fritz9())
	}
}
