package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
)

// played is one game of a test fixture.
type played struct {
	sp           int
	result       string // 1-0, 1/2-1/2, 0-1
	white, black int    // ratings; 0 for none
}

// pgnOf writes the games as PGN.
func pgnOf(games []played) string {
	var b strings.Builder
	for _, g := range games {
		rank, _ := numbering.FromSP(g.sp)
		fen := fen.StartFEN(rank, fen.Shredder)
		fmt.Fprintf(&b, "[Variant \"Chess960\"]\n[FEN %q]\n[Result %q]\n", fen, g.result)
		if g.white > 0 {
			fmt.Fprintf(&b, "[WhiteElo \"%d\"]\n[BlackElo \"%d\"]\n", g.white, g.black)
		}
		fmt.Fprintf(&b, "\n%s\n\n", g.result)
	}
	return b.String()
}

func countGames(t *testing.T, games []played) *Stats {
	t.Helper()
	var s Stats
	list, err := pgn.NewReader(strings.NewReader(pgnOf(games))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i := range list {
		if _, err := s.AddGame(&list[i]); err != nil {
			t.Fatal(err)
		}
	}
	return &s
}

func repeat(n int, g played) []played {
	out := make([]played, n)
	for i := range out {
		out[i] = g
	}
	return out
}

// TestHandChecked checks the columns of a fixture worked out by hand.
//
// SP 0 has 10 games, White winning 8: a mean score of 0.8. SP 1 has 10
// games, White winning 2: 0.2. Each is the other's rest. Over all 20
// games the mean is 0.5 and the sample variance 0.25·20/19 = 0.263158, so
// z = 0.6 / √(0.263158·(1/10 + 1/10)) = 0.6 / 0.229416 = 2.615339, and
// p = erfc(2.615339/√2) = 0.0089139 for both; with m = 2, both p ≤ 0.05,
// so both are significant at FDR 5%.
func TestHandChecked(t *testing.T) {
	var games []played
	games = append(games, repeat(8, played{sp: 0, result: "1-0"})...)
	games = append(games, repeat(2, played{sp: 0, result: "0-1"})...)
	games = append(games, repeat(2, played{sp: 1, result: "1-0"})...)
	games = append(games, repeat(8, played{sp: 1, result: "0-1"})...)
	rows := countGames(t, games).Rows(Options{})
	for _, r := range rows {
		if r.Test != ScoreTest || math.Abs(r.PValue-0.0089139) > 5e-7 || !r.Significant {
			t.Errorf("SP %d: test %v, p %.7f, significant %v; want score, 0.0089139, true", r.SP, r.Test, r.PValue, r.Significant)
		}
	}

	// Rated games. White, 200 points above Black, expects
	// 1/(1+10^(-1/2)) = 0.7597469; at SP 5 White wins 9 of 10 and draws
	// one: a mean of 0.95, so 0.95 − 0.7597469 = 0.1902531 above the
	// expectation. The differences are 0.2402531 (nine times) and
	// −0.2597469: a sample variance of 0.025 (from the scores: their mean
	// is 0.95, their mean square 0.925: (0.925 − 0.9025)·10/9), so the
	// interval is 0.1902531 ± 1.959964·√(0.025/10) = 0.1902531 ± 0.0979982
	// = 0.0922549 .. 0.2882513.
	rated := append(repeat(9, played{sp: 5, result: "1-0", white: 2100, black: 1900}), played{sp: 5, result: "1/2-1/2", white: 2100, black: 1900})
	r := countGames(t, rated).Rows(Options{})[0]
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"expected_score", r.ExpectedScore, 0.7597469},
		{"score_vs_expected", r.ScoreVsExpected, 0.1902531},
		{"vs_expected_low", r.VsExpectedLow, 0.0922549},
		{"vs_expected_high", r.VsExpectedHigh, 0.2882513},
	} {
		if math.Abs(c.got-c.want) > 5e-7 {
			t.Errorf("%s = %.7f, want %.7f", c.name, c.got, c.want)
		}
	}
	if r.RatedGames != 10 || r.Test != NoTest {
		t.Errorf("rated_games %d, test %v; want 10 and no test (no other games)", r.RatedGames, r.Test)
	}
}

// TestAgainstDirectComputation compares every row's expectation,
// interval, p-value and verdict with a second computation over the list
// of games itself: two-pass means and the pooled variance, the normal distribution
// through math.Erf, and the Benjamini-Hochberg rule as defined (a row is
// significant when some k at or above its rank has p(k) ≤ k·q/m).
func TestAgainstDirectComputation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rated float64 // share of games with ratings
		test  Test
		q     float64
	}{
		{"unrated", 0, ScoreTest, 0.05},
		{"rated", 1, VsExpectedTest, 0.05},
		{"mostly rated", 0.95, VsExpectedTest, 0.10},
		{"half rated", 0.5, ScoreTest, 0.05},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(tc.rated*100)))
			var games []played
			sps := []int{0, 7, 100, 518, 959, 42}
			for i := range 1500 {
				sp := sps[i%len(sps)]
				// Positions 0 and 7 favour White, so that some rows differ.
				edge := map[int]float64{0: 0.15, 7: 0.08}[sp]
				g := played{sp: sp}
				if rng.Float64() < tc.rated {
					g.white, g.black = 1500+rng.IntN(800), 1500+rng.IntN(800)
				}
				switch x := rng.Float64(); {
				case x < 0.42+edge:
					g.result = "1-0"
				case x < 0.60+edge:
					g.result = "1/2-1/2"
				default:
					g.result = "0-1"
				}
				if sp == 42 && i%7 != 0 {
					continue // too few games to be tested
				}
				games = append(games, g)
			}
			s := countGames(t, games)
			rows := s.Rows(Options{FDR: tc.q})
			want := direct(games, tc.test, tc.q)
			if len(rows) != len(want) {
				t.Fatalf("%d rows, want %d", len(rows), len(want))
			}
			significant := 0
			for _, r := range rows {
				w := want[r.SP]
				if w.significant {
					significant++
				}
				for _, c := range []struct {
					name      string
					got, want float64
				}{
					{"expected_score", r.ExpectedScore, w.expected},
					{"score_vs_expected", r.ScoreVsExpected, w.vs},
					{"vs_expected_low", r.VsExpectedLow, w.low},
					{"vs_expected_high", r.VsExpectedHigh, w.high},
					{"p_value", r.PValue, w.p},
				} {
					if !(math.IsNaN(c.got) && math.IsNaN(c.want)) && !(math.Abs(c.got-c.want) <= 1e-9*max(1, math.Abs(c.want))) {
						t.Errorf("SP %d: %s = %v, want %v", r.SP, c.name, c.got, c.want)
					}
				}
				if r.Test != w.test || r.Significant != w.significant {
					t.Errorf("SP %d: test %v significant %v, want %v %v", r.SP, r.Test, r.Significant, w.test, w.significant)
				}
			}
			if significant == 0 && tc.test == ScoreTest && tc.rated == 0 {
				t.Error("no row significant: the fixture does not exercise the correction")
			}
		})
	}
}

type directRow struct {
	expected, vs, low, high, p float64
	test                       Test
	significant                bool
}

// direct computes the rows' statistics from the games one by one.
func direct(games []played, test Test, q float64) map[int]directRow {
	score := map[string]float64{"1-0": 1, "1/2-1/2": 0.5, "0-1": 0}
	values := func(keep func(g played) bool) []float64 {
		var xs []float64
		for _, g := range games {
			if !keep(g) {
				continue
			}
			if test == VsExpectedTest {
				if g.white == 0 {
					continue
				}
				xs = append(xs, score[g.result]-1/(1+math.Pow(10, float64(g.black-g.white)/400)))
			} else {
				xs = append(xs, score[g.result])
			}
		}
		return xs
	}
	meanVar := func(xs []float64) (float64, float64) {
		var m float64
		for _, x := range xs {
			m += x
		}
		m /= float64(len(xs))
		var v float64
		for _, x := range xs {
			v += (x - m) * (x - m)
		}
		return m, v / float64(len(xs)-1)
	}
	out := make(map[int]directRow)
	var ps []float64
	for _, g := range games {
		if _, ok := out[g.sp]; ok {
			continue
		}
		sp := g.sp
		r := directRow{expected: math.NaN(), vs: math.NaN(), low: math.NaN(), high: math.NaN(), p: math.NaN()}
		var diffs, exps []float64
		for _, h := range games {
			if h.sp == sp && h.white > 0 {
				e := 1 / (1 + math.Pow(10, float64(h.black-h.white)/400))
				exps = append(exps, e)
				diffs = append(diffs, score[h.result]-e)
			}
		}
		if len(diffs) > 0 {
			r.expected, _ = meanVar(exps)
			m, v := meanVar(diffs)
			r.vs = m
			if len(diffs) > 1 {
				half := 1.959963984540054 * math.Sqrt(v/float64(len(diffs)))
				r.low, r.high = m-half, m+half
			}
		}
		mine := values(func(h played) bool { return h.sp == sp })
		rest := values(func(h played) bool { return h.sp != sp })
		if len(mine) >= MinTested && len(rest) >= MinTested {
			m1, _ := meanVar(mine)
			m2, _ := meanVar(rest)
			_, v := meanVar(append(mine, rest...))
			z := (m1 - m2) / math.Sqrt(v*(1/float64(len(mine))+1/float64(len(rest))))
			r.p = 2 * (1 - 0.5*(1+math.Erf(math.Abs(z)/math.Sqrt2)))
			r.test = test
			ps = append(ps, r.p)
		}
		out[sp] = r
	}
	slices.Sort(ps)
	m := float64(len(ps))
	for sp, r := range out {
		if r.test == NoTest {
			continue
		}
		for k := len(ps); k >= 1; k-- {
			if ps[k-1] <= float64(k)*q/m && r.p <= ps[k-1] {
				r.significant = true
				break
			}
		}
		out[sp] = r
	}
	return out
}

// TestCorrect checks the Benjamini-Hochberg procedure on p-values from
// its textbook example (Benjamini and Hochberg 1995, section 4.2: 15
// p-values, of which the four smallest are rejected at q = 0.05).
func TestCorrect(t *testing.T) {
	ps := []float64{0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000}
	rows := make([]Row, len(ps))
	// In a shuffled order, with an untested row among them.
	perm := rand.New(rand.NewPCG(1, 1)).Perm(len(ps))
	for i, j := range perm {
		rows[i] = Row{PValue: ps[j], Test: ScoreTest, SP: j}
	}
	rows = append(rows, Row{PValue: math.NaN(), SP: -1})
	correct(rows, 0.05)
	for _, r := range rows {
		if want := r.SP >= 0 && r.SP < 4; r.Significant != want {
			t.Errorf("p %v: significant %v, want %v", r.PValue, r.Significant, want)
		}
	}
	if sig, tested := Significance(rows); sig != 4 || tested != 15 {
		t.Errorf("Significance = %d of %d, want 4 of 15", sig, tested)
	}
}

// TestNullCalibration counts generated archives, in which the start
// position has no bearing on the result, and checks that the p-values
// behave as p-values then do: about 5% of them below 0.05, and no row
// flagged after the correction. A test whose own variance made small rows
// look certain would fail here.
func TestNullCalibration(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  archivegen.Options
		size  int
		test  Test
		group []string
	}{
		{"scores, header-only games", archivegen.Options{Seed: 21, Shape: archivegen.Headers}, 4 << 20, ScoreTest, nil},
		{"scores versus ratings", archivegen.Options{Seed: 22, Shape: archivegen.Lichess}, 16 << 20, VsExpectedTest, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := countWhere(t, archivegen.Bytes(tc.opts, tc.size), "", tc.group, 2)
			rows := s.Rows(Options{})
			var tested, below5 int
			for _, r := range rows {
				if r.Test == NoTest {
					continue
				}
				if r.Test != tc.test {
					t.Fatalf("SP %d tested by %v, want %v", r.SP, r.Test, tc.test)
				}
				tested++
				if r.PValue < 0.05 {
					below5++
				}
			}
			share := float64(below5) / float64(tested)
			if tested < 500 || share < 0.03 || share > 0.075 {
				t.Errorf("%d of %d rows (%.1f%%) have p < 0.05; want about 5%% of at least 500", below5, tested, 100*share)
			}
			if sig, _ := Significance(rows); sig != 0 {
				t.Errorf("%d rows flagged significant where no position matters", sig)
			}
		})
	}
}

// TestExpectedTerms holds the looked-up terms of a rated game to the Elo
// formula worked out here, on both sides of the table's ends.
func TestExpectedTerms(t *testing.T) {
	for diff := -maxTabledDiff - 50; diff <= maxTabledDiff+50; diff++ {
		e := 1 / (1 + math.Pow(10, float64(-diff)/400))
		for half := int64(0); half <= 2; half++ {
			d := float64(half)/2 - e
			wantE, wantD := int64(math.Round(e*1e9)), int64(math.Round(d*d*1e9))
			if gotE, gotD := expectedTerms(diff, half); gotE != wantE || gotD != wantD {
				t.Fatalf("diff %d, %d half points: terms %d, %d; want %d, %d", diff, half, gotE, gotD, wantE, wantD)
			}
		}
	}
}
