package stats

import (
	"cmp"
	"math"
	"slices"
)

// Test is the statistical test that gave a row its p-value.
type Test uint8

// The tests. Each compares the mean m₁ of a per-game quantity over the
// row's n₁ games with its mean m₂ over the n₂ other games of the same
// table (the SP table or the DFRC table) and group, by the two-sample z
// statistic
//
//	z = (m₁ − m₂) / √(s²·(1/n₁ + 1/n₂))
//
// where s² is the sample variance of the quantity over all n₁ + n₂ games,
// and gives the two-sided p-value p = erfc(|z|/√2) of the normal
// distribution. The variance is pooled because the hypothesis tested is
// that the row's games are like the others: a row of ten wins has no
// spread of its own, and its own variance would make it look certain.
// Using the games' spread rather than a binomial one keeps draws (worth
// one half) right.
const (
	NoTest Test = iota
	// ScoreTest compares White's score: 1, ½ or 0 a finished game.
	ScoreTest
	// VsExpectedTest compares White's score minus White's Elo
	// expectation, over the rated games: the score corrected for the
	// players' strength. It is used for a table when at least RatedShare
	// of its finished games are rated.
	VsExpectedTest
)

var testNames = [...]string{NoTest: "", ScoreTest: "score", VsExpectedTest: "score_vs_expected"}

// String returns the test's name: "score", "score_vs_expected", or "" for
// NoTest.
func (t Test) String() string {
	if int(t) < len(testNames) {
		return testNames[t]
	}
	return ""
}

// MinTested is the fewest games (finished, or rated for VsExpectedTest) a
// row and the rest of its table must each have for the row to be tested:
// below it the normal approximation of the test is too rough to trust.
const MinTested = 10

// RatedShare is the share of a table's finished games that must be rated
// (both ratings known) for its rows to be tested on the score versus the
// Elo expectation rather than on the raw score.
const RatedShare = 0.9

// scoreMoments returns the number of finished games, White's mean score
// and its sample variance over them.
func (c *Counts) scoreMoments() (n, mean, variance float64) {
	n = float64(c.WhiteWins + c.Draws + c.BlackWins)
	if n == 0 {
		return 0, math.NaN(), math.NaN()
	}
	mean = (float64(c.WhiteWins) + float64(c.Draws)/2) / n
	squares := (float64(c.WhiteWins) + float64(c.Draws)/4) / n
	return n, mean, sampleVariance(n, mean, squares)
}

// vsExpected returns the mean of score minus expectation over the rated
// games and its sample variance.
func (c *Counts) vsExpected() (mean, variance float64) {
	n := float64(c.RatedGames)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	mean = (float64(c.RatedHalfPoints)/2 - float64(c.ExpectedSum)/Scale) / n
	return mean, sampleVariance(n, mean, float64(c.DiffSqSum)/Scale/n)
}

// sampleVariance is the unbiased variance of n values of the given mean
// and mean square; NaN for fewer than two values.
func sampleVariance(n, mean, squares float64) float64 {
	if n < 2 {
		return math.NaN()
	}
	return max(0, squares-mean*mean) * n / (n - 1)
}

func (c *Counts) sub(o *Counts) {
	c.Games -= o.Games
	c.WhiteWins -= o.WhiteWins
	c.Draws -= o.Draws
	c.BlackWins -= o.BlackWins
	c.Unfinished -= o.Unfinished
	c.Plies -= o.Plies
	c.PlyGames -= o.PlyGames
	c.WhiteEloSum -= o.WhiteEloSum
	c.WhiteEloGames -= o.WhiteEloGames
	c.BlackEloSum -= o.BlackEloSum
	c.BlackEloGames -= o.BlackEloGames
	c.RatedGames -= o.RatedGames
	c.RatedHalfPoints -= o.RatedHalfPoints
	c.ExpectedSum -= o.ExpectedSum
	c.DiffSqSum -= o.DiffSqSum
}

// testRows gives each row its p-value against the other games of total,
// the counts of the whole table the rows come from.
func testRows(rows []Row, total *Counts) {
	test := ScoreTest
	if finished := total.WhiteWins + total.Draws + total.BlackWins; total.RatedGames > 0 && float64(total.RatedGames) >= RatedShare*float64(finished) {
		test = VsExpectedTest
	}
	var v float64 // the pooled variance
	if test == ScoreTest {
		_, _, v = total.scoreMoments()
	} else {
		_, v = total.vsExpected()
	}
	for i := range rows {
		r := &rows[i]
		rest := *total
		rest.sub(&r.Counts)
		var n1, m1, n2, m2 float64
		if test == ScoreTest {
			n1, m1, _ = r.Counts.scoreMoments()
			n2, m2, _ = rest.scoreMoments()
		} else {
			n1, n2 = float64(r.RatedGames), float64(rest.RatedGames)
			m1, _ = r.Counts.vsExpected()
			m2, _ = rest.vsExpected()
		}
		if n1 < MinTested || n2 < MinTested {
			r.Test, r.PValue = NoTest, math.NaN()
			continue
		}
		r.Test, r.PValue = test, zTest(n1, m1, n2, m2, v)
	}
}

// zTest returns the two-sided p-value of the difference of two means of
// samples of sizes n1 and n2 whose pooled variance is v.
func zTest(n1, m1, n2, m2, v float64) float64 {
	se := math.Sqrt(v * (1/n1 + 1/n2))
	if se == 0 || math.IsNaN(se) {
		// No spread at all: every game alike, so the means are equal.
		return 1
	}
	z := (m1 - m2) / se
	return math.Erfc(math.Abs(z) / math.Sqrt2)
}

// correct flags the rows whose p-values stay significant at false
// discovery rate q by the Benjamini-Hochberg procedure over all tested
// rows: with the m p-values in ascending order p(1) ≤ … ≤ p(m), the rows
// of p(1) … p(k) are significant, k the largest rank with
// p(k) ≤ k·q/m.
func correct(rows []Row, q float64) {
	var tested []int
	for i := range rows {
		rows[i].Significant = false
		if rows[i].Test != NoTest {
			tested = append(tested, i)
		}
	}
	slices.SortStableFunc(tested, func(a, b int) int { return cmp.Compare(rows[a].PValue, rows[b].PValue) })
	m := float64(len(tested))
	k := 0
	for i := len(tested) - 1; i >= 0; i-- {
		if rows[tested[i]].PValue <= float64(i+1)/m*q {
			k = i + 1
			break
		}
	}
	for _, i := range tested[:k] {
		rows[i].Significant = true
	}
}

// Significance counts the rows flagged significant and the rows tested.
func Significance(rows []Row) (significant, tested int) {
	for i := range rows {
		if rows[i].Test != NoTest {
			tested++
			if rows[i].Significant {
				significant++
			}
		}
	}
	return significant, tested
}
