package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
)

// Columns are the names of the table's columns, in order, as CSV and JSON
// write them.
// Grouped rows have the group-by fields' columns before these.
var Columns = []string{"sp", "fritz9", "rank", "games", "white_wins", "draws", "black_wins", "unfinished",
	"white_score", "draw_rate", "score_low", "score_high", "avg_plies", "avg_white_elo", "avg_black_elo",
	"rated_games", "expected_score", "score_vs_expected", "vs_expected_low", "vs_expected_high",
	"p_value", "significant"}

// Order is the order of the rows.
type Order uint8

// The orders. All but SortSP put the largest first; ties, and rows with no
// value, go by key.
const (
	SortSP         Order = iota // by key, ascending
	SortGames                   // most games first
	SortScore                   // best score for White first
	SortDraws                   // highest draw rate first
	SortVsExpected              // White's score most above the Elo expectation first
)

// ParseOrder reads an order's name: sp, games, score, draws, vs-expected.
func ParseOrder(s string) (Order, error) {
	switch s {
	case "vs-expected":
		return SortVsExpected, nil
	case "sp", "":
		return SortSP, nil
	case "games":
		return SortGames, nil
	case "score":
		return SortScore, nil
	case "draws":
		return SortDraws, nil
	}
	return 0, fmt.Errorf("unknown sort order %s (want sp, games, score, draws or vs-expected)", words.Quote(s))
}

// Options choose the rows.
type Options struct {
	By       numbering.Scheme
	Sort     Order // within each group
	MinGames int64 // leave out rows with fewer games
	All      bool  // all 960 positions, zero counts included (MinGames still applies)
	// FDR is the false discovery rate at which rows are flagged
	// Significant; 0 means DefaultFDR.
	FDR float64
}

// DefaultFDR is the false discovery rate of Options' zero value.
const DefaultFDR = 0.05

func (o *Options) fdr() float64 {
	if o.FDR > 0 {
		return o.FDR
	}
	return DefaultFDR
}

// Row is one line of the table: a start position, or a DFRC pair, with its
// counts and the values derived from them. Derived values are NaN when
// there is nothing to derive them from (no finished game, no rating).
type Row struct {
	// SP and Fritz9 are the numbers of the position; for a DFRC pair,
	// White's, with BlackSP and BlackFritz9 set too.
	SP, Fritz9           int
	BlackSP, BlackFritz9 int
	DFRC                 bool
	Rank                 numbering.Rank
	BlackRank            numbering.Rank
	Counts

	WhiteScore, DrawRate float64
	ScoreLow, ScoreHigh  float64
	AvgPlies             float64
	AvgWhiteElo          float64
	AvgBlackElo          float64

	// Over the rated games (Counts.RatedGames): White's mean Elo
	// expectation, and White's mean score minus it, with its 95%
	// interval (normal, from the games' spread).
	ExpectedScore                 float64
	ScoreVsExpected               float64
	VsExpectedLow, VsExpectedHigh float64

	// PValue is the two-sided p-value of the test of whether the row's
	// games score differently from the other games of its table and
	// group (see Test). Significant is its verdict after the
	// Benjamini-Hochberg correction over all rows tested together.
	PValue      float64
	Significant bool
	// Test is the test PValue comes from; NoTest when the row was not
	// tested (fewer than MinTested games on either side).
	Test Test

	// Group holds the row's group values, one per group-by field, when
	// the Stats are grouped.
	Group []GroupValue
}

// Key returns the row's key as written: "518", or "W:B" for a DFRC pair,
// in the numbering by.
func (r *Row) Key(by numbering.Scheme) string {
	w, b := r.SP, r.BlackSP
	if by == numbering.Fritz9 {
		w, b = r.Fritz9, r.BlackFritz9
	}
	if r.DFRC {
		return fmt.Sprintf("%d:%d", w, b)
	}
	return fmt.Sprint(w)
}

// Z95 is the standard normal quantile for a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval for a proportion p observed
// over n trials, at the normal quantile z. Unlike the textbook p ± z·se it
// stays inside [0, 1], is not empty at p = 0 or p = 1, and is wide (not
// zero) for a single trial. With draws counting one half, the score is
// not a binomial proportion, and the interval is then slightly
// conservative: draws lower the variance the formula assumes. No trials
// (n of 0 or less), or a p that is no proportion (NaN, or outside 0..1),
// give NaN, NaN: there is no interval.
func Wilson(p float64, n int64, z float64) (low, high float64) {
	if n <= 0 || !(p >= 0 && p <= 1) {
		return math.NaN(), math.NaN()
	}
	nf := float64(n)
	z2 := z * z
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	low, high = centre-half, centre+half
	// At the edges the formula gives exactly 0 and 1, but rounding can
	// leave -1e-17 or 0.9999999999999999: a score of 1 must lie inside.
	if p <= 0 {
		low = 0
	}
	if p >= 1 {
		high = 1
	}
	return max(0, low), min(1, high)
}

// derive fills in the derived values of r from its counts.
func (r *Row) derive() {
	nan := math.NaN()
	r.WhiteScore, r.DrawRate, r.ScoreLow, r.ScoreHigh = nan, nan, nan, nan
	r.AvgPlies, r.AvgWhiteElo, r.AvgBlackElo = nan, nan, nan
	if n := r.WhiteWins + r.Draws + r.BlackWins; n > 0 {
		r.WhiteScore = (float64(r.WhiteWins) + float64(r.Draws)/2) / float64(n)
		r.DrawRate = float64(r.Draws) / float64(n)
		r.ScoreLow, r.ScoreHigh = Wilson(r.WhiteScore, n, Z95)
	}
	if r.PlyGames > 0 {
		r.AvgPlies = float64(r.Plies) / float64(r.PlyGames)
	}
	if r.WhiteEloGames > 0 {
		r.AvgWhiteElo = float64(r.WhiteEloSum) / float64(r.WhiteEloGames)
	}
	if r.BlackEloGames > 0 {
		r.AvgBlackElo = float64(r.BlackEloSum) / float64(r.BlackEloGames)
	}
	r.ExpectedScore, r.ScoreVsExpected, r.VsExpectedLow, r.VsExpectedHigh = nan, nan, nan, nan
	r.PValue = nan
	if n := float64(r.RatedGames); n > 0 {
		r.ExpectedScore = float64(r.ExpectedSum) / Scale / n
		mean, v := r.Counts.vsExpected()
		r.ScoreVsExpected = mean
		if n > 1 {
			half := Z95 * math.Sqrt(v/n)
			r.VsExpectedLow, r.VsExpectedHigh = mean-half, mean+half
		}
	}
}

func spRow(sp int, c *Counts) Row {
	r := Row{SP: sp, BlackSP: sp, Counts: *c}
	r.Rank, _ = numbering.FromSP(sp)
	r.BlackRank = r.Rank
	r.Fritz9, _ = numbering.SPToFritz9(sp)
	r.BlackFritz9 = r.Fritz9
	r.derive()
	return r
}

// Rows returns the table of start positions: the positions with games, or
// all 960 with opts.All, in the order opts asks for; grouped Stats give
// each group's rows in turn, in the order of Groups. Each row is tested
// against the other games of its group (testRows), and the verdicts are
// corrected over all the rows returned together.
//
// The rows of all groups are made in one slice of the size they need: grown
// group by group, and copied each time, they took a fifth of a grouped
// run's time.
func (s *Stats) Rows(opts Options) []Row {
	var rows []Row
	if !s.grouped() {
		rows = spRows(make([]Row, 0, numbering.Count), func(sp int) *Counts { return &s.SP[sp] }, nil, opts)
	} else {
		groups := s.Groups()
		n := 0
		for _, g := range groups {
			n += len(g.cnt)
			if opts.All {
				n += numbering.Count - len(g.cnt)
			}
		}
		rows = make([]Row, 0, n)
		for _, g := range groups {
			rows = spRows(rows, g.counts, g.Values, opts)
		}
	}
	correct(rows, opts.fdr())
	return rows
}

// CheckRows returns ErrTooManyRows when the table opts asks for would
// have more than MaxRows rows. Counting keeps the rows of positions with
// games within that bound; with opts.All a grouped table has every
// position of every group, played or not.
func (s *Stats) CheckRows(opts Options) error {
	if !opts.All || !s.grouped() {
		return nil
	}
	n := len(s.groups) * numbering.Count
	for _, g := range s.groups {
		n += len(g.dfrc)
	}
	if n > MaxRows {
		return fmt.Errorf("%w: every position of %s is %d rows, more than %d", ErrTooManyRows, words.Count(len(s.groups), "group", "groups"), n, MaxRows)
	}
	return nil
}

// counts returns the group's counts of a position, or nil.
func (g *Group) counts(sp int) *Counts {
	if i, ok := g.at[int32(sp)]; ok {
		return &g.cnt[i]
	}
	return nil
}

// spRows appends to rows those of one table of positions, tested and
// sorted.
func spRows(rows []Row, counts func(sp int) *Counts, group []GroupValue, opts Options) []Row {
	var total, zero Counts
	first := len(rows)
	for sp := range numbering.Count {
		c := counts(sp)
		if c == nil {
			c = &zero
		}
		total.add(c)
		if c.Games == 0 && !opts.All || c.Games < opts.MinGames {
			continue
		}
		r := spRow(sp, c)
		r.Group = group
		rows = append(rows, r)
	}
	testRows(rows[first:], &total)
	sortRows(rows[first:], opts)
	return rows
}

// DFRCRows returns the table of DFRC pairs with games, group by group as
// Rows does, each row tested against the other DFRC games of its group.
func (s *Stats) DFRCRows(opts Options) []Row {
	var rows []Row
	if !s.grouped() {
		rows = pairRows(make([]Row, 0, len(s.DFRC)), s.DFRC, nil, opts)
	} else {
		groups := s.Groups()
		n := 0
		for _, g := range groups {
			n += len(g.dfrc)
		}
		rows = make([]Row, 0, n)
		for _, g := range groups {
			rows = pairRows(rows, g.dfrc, g.Values, opts)
		}
	}
	correct(rows, opts.fdr())
	return rows
}

// pairRows appends to rows those of one table of DFRC pairs, tested and
// sorted.
func pairRows(rows []Row, pairs map[Pair]*Counts, group []GroupValue, opts Options) []Row {
	var total Counts
	first := len(rows)
	for p, c := range pairs {
		total.add(c)
		if c.Games < opts.MinGames || c.Games == 0 {
			continue
		}
		r := Row{SP: p.White, BlackSP: p.Black, DFRC: true, Counts: *c, Group: group}
		r.Rank, _ = numbering.FromSP(p.White)
		r.BlackRank, _ = numbering.FromSP(p.Black)
		r.Fritz9, _ = numbering.SPToFritz9(p.White)
		r.BlackFritz9, _ = numbering.SPToFritz9(p.Black)
		r.derive()
		rows = append(rows, r)
	}
	testRows(rows[first:], &total)
	sortRows(rows[first:], opts)
	return rows
}

// Overall returns White's score over all finished games from Chess960
// start positions (not DFRC), with its interval: the pooled mean the chart
// draws as a line. Grouped Stats give the pool of all groups.
func (s *Stats) Overall() Row {
	var c Counts
	for i := range s.SP {
		c.add(&s.SP[i])
	}
	for _, g := range s.groups {
		for i := range g.cnt {
			c.add(&g.cnt[i])
		}
	}
	return overallRow(&c)
}

// Overall returns the group's pooled row, as Stats.Overall does.
func (g *Group) Overall() Row {
	var c Counts
	for i := range g.cnt {
		c.add(&g.cnt[i])
	}
	r := overallRow(&c)
	r.Group = g.Values
	return r
}

func overallRow(c *Counts) Row {
	r := Row{SP: -1, Fritz9: -1, BlackSP: -1, BlackFritz9: -1, Counts: *c}
	r.derive()
	return r
}

func sortRows(rows []Row, opts Options) {
	key := func(r *Row) (int, int) {
		if opts.By == numbering.Fritz9 {
			return r.Fritz9, r.BlackFritz9
		}
		return r.SP, r.BlackSP
	}
	byKey := func(a, b *Row) int {
		aw, ab := key(a)
		bw, bb := key(b)
		return cmp.Or(cmp.Compare(aw, bw), cmp.Compare(ab, bb))
	}
	// descending orders NaN (no value) last.
	desc := func(x, y float64) int {
		switch {
		case math.IsNaN(x) && math.IsNaN(y):
			return 0
		case math.IsNaN(x):
			return 1
		case math.IsNaN(y):
			return -1
		}
		return cmp.Compare(y, x)
	}
	slices.SortFunc(rows, func(a, b Row) int {
		switch opts.Sort {
		case SortGames:
			return cmp.Or(cmp.Compare(b.Games, a.Games), byKey(&a, &b))
		case SortScore:
			return cmp.Or(desc(a.WhiteScore, b.WhiteScore), byKey(&a, &b))
		case SortDraws:
			return cmp.Or(desc(a.DrawRate, b.DrawRate), byKey(&a, &b))
		case SortVsExpected:
			return cmp.Or(desc(a.ScoreVsExpected, b.ScoreVsExpected), byKey(&a, &b))
		}
		return byKey(&a, &b)
	})
}
