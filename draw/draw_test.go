package draw

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/frctool/frctool/numbering"
)

// seeded returns the generator frctool random uses for --seed s.
func seeded(s uint64) *rand.Rand { return rand.New(rand.NewPCG(s, 960)) }

func mustPool(t *testing.T, exclude ...int) *Pool {
	t.Helper()
	p, err := NewPool(exclude...)
	if err != nil {
		t.Fatalf("NewPool(%v): %v", exclude, err)
	}
	return p
}

func span(lo, hi int) []int {
	var s []int
	for n := lo; n <= hi; n++ {
		s = append(s, n)
	}
	return s
}

func TestNewPool(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exclude []int
		len     int
		allows  []int
		bars    []int
		err     error
	}{
		{name: "all", len: 960, allows: []int{0, 518, 959}, bars: []int{-1, 960}},
		{name: "standard chess excluded", exclude: []int{518}, len: 959, allows: []int{0, 517, 519, 959}, bars: []int{518}},
		{name: "960 means 0", exclude: []int{960}, len: 959, allows: []int{1, 959}, bars: []int{0}},
		{name: "repeated exclusion", exclude: []int{5, 5, 7, 5}, len: 958, allows: []int{6}, bars: []int{5, 7}},
		{name: "all but one", exclude: span(1, 959), len: 1, allows: []int{0}, bars: []int{1, 959}},
		{name: "all excluded", exclude: span(1, 960), err: ErrNoPositions},
		{name: "out of range", exclude: []int{518, 961}, err: numbering.ErrRange},
		{name: "negative", exclude: []int{-1}, err: numbering.ErrRange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPool(tc.exclude...)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Len() != tc.len || len(p.Positions()) != tc.len {
				t.Errorf("Len %d, %d positions; want %d", p.Len(), len(p.Positions()), tc.len)
			}
			if !slices.IsSorted(p.Positions()) {
				t.Error("positions not in ascending order")
			}
			for _, sp := range tc.allows {
				if !p.Allows(sp) {
					t.Errorf("SP %d not allowed", sp)
				}
			}
			for _, sp := range tc.bars {
				if p.Allows(sp) {
					t.Errorf("SP %d allowed", sp)
				}
			}
		})
	}
}

func TestDraws(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exclude []int
		seed    uint64
		n       int
		unique  bool
		want    []int
		err     error
	}{
		// Seed 7 over the 960 is the draw frctool random has always made.
		{name: "seed 7", seed: 7, n: 3, want: []int{879, 582, 778}},
		{name: "none", seed: 7, n: 0, want: nil},
		{name: "seed 7 without 0-99", exclude: span(0, 99), seed: 7, n: 3, want: []int{888, 622, 797}},
		// The first draw without repeats is the first with them; the next
		// ones pick among fewer positions.
		{name: "unique seed 7", seed: 7, n: 3, unique: true, want: []int{879, 583, 779}},
		{name: "unique whole pool", exclude: span(0, 955), seed: 1, n: 4, unique: true, want: []int{957, 958, 959, 956}},
		{name: "unique too many", exclude: []int{518}, n: 960, unique: true, err: ErrTooMany},
		{name: "negative", n: -1, err: ErrCount},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seq, err := mustPool(t, tc.exclude...).Draws(seeded(tc.seed), tc.n, tc.unique)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Collect(seq); !slices.Equal(got, tc.want) {
				t.Errorf("drew %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDrawsAsBefore checks that a draw from all 960 positions is the plain
// IntN(960) sequence, which seeded draws of frctool random have given from
// the start and must keep giving.
func TestDrawsAsBefore(t *testing.T) {
	for _, seed := range []uint64{0, 7, 2026, math.MaxUint64} {
		seq, err := mustPool(t).Draws(seeded(seed), 5000, false)
		if err != nil {
			t.Fatal(err)
		}
		ref := seeded(seed)
		i := 0
		for sp := range seq {
			if want := ref.IntN(numbering.Count); sp != want {
				t.Fatalf("seed %d draw %d: %d, want %d", seed, i, sp, want)
			}
			i++
		}
	}
}

func TestZeroPool(t *testing.T) {
	var p Pool
	if _, err := p.Draws(seeded(1), 1, false); !errors.Is(err, ErrNoPositions) {
		t.Errorf("zero pool: error %v, want ErrNoPositions", err)
	}
}

// TestExcludedNeverDrawn draws a great many positions from pools with
// exclusions and checks that none of them is an excluded one.
func TestExcludedNeverDrawn(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exclude []int
		n       int
		unique  bool
	}{
		{name: "518", exclude: []int{518}, n: 100_000},
		{name: "518 unique", exclude: []int{518}, n: 959, unique: true},
		{name: "most", exclude: span(10, 959), n: 10_000},
		{name: "most unique", exclude: span(10, 959), n: 10, unique: true},
		{name: "scattered", exclude: []int{0, 1, 2, 100, 518, 534, 959}, n: 100_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPool(t, tc.exclude...)
			rng := seeded(42)
			// Draw several times from the same generator, so that the
			// pool's working copy is tested across uses too.
			for range 5 {
				seq, err := p.Draws(rng, tc.n, tc.unique)
				if err != nil {
					t.Fatal(err)
				}
				for sp := range seq {
					if slices.Contains(tc.exclude, sp) || !p.Allows(sp) {
						t.Fatalf("drew excluded SP %d", sp)
					}
				}
			}
		})
	}
}

// TestUniqueNeverRepeats checks draws without repeats of every length up to
// the whole pool, which must then be a permutation of it.
func TestUniqueNeverRepeats(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exclude []int
	}{
		{name: "all"},
		{name: "518 excluded", exclude: []int{518}},
		{name: "32 left", exclude: span(32, 959)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPool(t, tc.exclude...)
			rng := seeded(3)
			for _, n := range []int{1, 2, p.Len() / 2, p.Len() - 1, p.Len()} {
				seq, err := p.Draws(rng, n, true)
				if err != nil {
					t.Fatal(err)
				}
				got := slices.Collect(seq)
				seen := map[int]bool{}
				for _, sp := range got {
					if seen[sp] {
						t.Fatalf("n=%d: SP %d drawn twice", n, sp)
					}
					seen[sp] = true
				}
				if len(got) != n {
					t.Fatalf("n=%d: drew %d", n, len(got))
				}
				if n == p.Len() {
					slices.Sort(got)
					if !slices.Equal(got, p.Positions()) {
						t.Error("a draw of the whole pool is not a permutation of it")
					}
				}
			}
		})
	}
}

// chiSquaredBounds returns the values between which the chi-squared
// statistic of k degrees of freedom lies with probability 0.998: the 0.001
// and 0.999 quantiles, by the Wilson–Hilferty approximation, which treats
// (X/k)^(1/3) as normal with mean 1-2/(9k) and variance 2/(9k). For k in the
// hundreds it is within 0.05 of the exact quantiles; for k = 959 it gives
// 829.3 and 1100.1.
func chiSquaredBounds(k int) (lo, hi float64) {
	const z = 3.090232306167813 // the standard normal's 0.999 quantile
	v := 2 / (9 * float64(k))
	q := func(z float64) float64 { return float64(k) * math.Pow(1-v+z*math.Sqrt(v), 3) }
	return q(-z), q(z)
}

func TestChiSquaredBounds(t *testing.T) {
	// The exact quantiles, from the regularized incomplete gamma function
	// P(k/2, x/2) = 0.001 and 0.999 solved for x (R's qchisq gives them).
	for _, tc := range []struct {
		k      int
		lo, hi float64
	}{
		{k: 100, lo: 61.918, hi: 149.449},
		{k: 858, lo: 735.665, hi: 991.731},
		{k: 959, lo: 829.341, hi: 1100.055},
	} {
		lo, hi := chiSquaredBounds(tc.k)
		if math.Abs(lo-tc.lo) > 0.1 || math.Abs(hi-tc.hi) > 0.1 {
			t.Errorf("k=%d: bounds %.2f, %.2f; want about %.2f, %.2f", tc.k, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestUniform counts many seeded draws by position and applies Pearson's
// chi-squared test of uniformity over the allowed positions, with Len-1
// degrees of freedom. The statistic must fall between the 0.001 and 0.999
// quantiles: above, some positions come up too often or too rarely (a modulo
// bias; a position never drawn adds about 200 alone); below, the draws are
// too even to be random (a draw that cycles through the pool). With fixed
// seeds the test is deterministic.
//
// Counting every position of draws of 12 without repeats is not quite the
// multinomial the test assumes: within a draw the counts are negatively
// correlated, which shrinks the statistic by the factor (Len-12)/(Len-1),
// about 1%, far less than the margin to the lower bound.
func TestUniform(t *testing.T) {
	const perPosition = 200 // about how often each position is drawn
	for _, tc := range []struct {
		name    string
		exclude []int
		n       int // positions per draw; 0 means one draw of Len×perPosition
		unique  bool
		last    bool // count only each draw's last position
	}{
		{name: "all 960"},
		{name: "518 excluded", exclude: []int{518}},
		{name: "0-99 and 518 excluded", exclude: append(span(0, 99), 518)},
		{name: "unique draws of 12", n: 12, unique: true},
		{name: "unique draws of 12 without 518", exclude: []int{518}, n: 12, unique: true},
		// Each position of a draw without repeats must be uniform, not just
		// the draw as a whole. The first is the first draw with repeats;
		// the last depends on every step of the shuffle.
		{name: "last of unique draws of 12 from 100", exclude: span(100, 959), n: 12, unique: true, last: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPool(t, tc.exclude...)
			rng := seeded(960)
			counts := make(map[int]int, p.Len())
			target := p.Len() * perPosition
			draw := func(n int) {
				seq, err := p.Draws(rng, n, tc.unique)
				if err != nil {
					t.Fatal(err)
				}
				i := 0
				for sp := range seq {
					if i++; !tc.last || i == n {
						counts[sp]++
					}
				}
			}
			switch {
			case tc.n == 0:
				draw(target)
			case tc.last:
				for range target {
					draw(tc.n)
				}
			default:
				for range target / tc.n {
					draw(tc.n)
				}
			}
			total := 0
			for _, n := range counts {
				total += n
			}
			if len(counts) != p.Len() {
				t.Fatalf("%d draws over %d positions, want all %d", total, len(counts), p.Len())
			}
			expected := float64(total) / float64(p.Len())
			chi2 := 0.0
			for _, sp := range p.Positions() {
				d := float64(counts[sp]) - expected
				chi2 += d * d / expected
			}
			lo, hi := chiSquaredBounds(p.Len() - 1)
			if chi2 < lo || chi2 > hi {
				t.Errorf("chi-squared %.1f with %d degrees of freedom, want %.1f..%.1f", chi2, p.Len()-1, lo, hi)
			} else {
				t.Logf("chi-squared %.1f with %d degrees of freedom, within %.1f..%.1f", chi2, p.Len()-1, lo, hi)
			}
		})
	}
}

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exclude []int
		event   Event
		unique  bool
		want    []Game
		err     error
	}{
		{
			// A round's boards share its position, and the rounds take the
			// positions --count would give.
			name:  "per round",
			event: Event{Rounds: 3, Boards: 2},
			want: []Game{
				{1, 1, 879}, {1, 2, 879},
				{2, 1, 582}, {2, 2, 582},
				{3, 1, 778}, {3, 2, 778},
			},
		},
		{
			name:  "per board",
			event: Event{Rounds: 2, Boards: 2, PerBoard: true},
			want:  []Game{{1, 1, 879}, {1, 2, 582}, {2, 1, 778}, {2, 2, 491}},
		},
		{
			name:  "one board",
			event: Event{Rounds: 2, Boards: 1, PerBoard: true},
			want:  []Game{{1, 1, 879}, {2, 1, 582}},
		},
		{
			name:    "unique per board, whole pool",
			exclude: span(4, 959),
			event:   Event{Rounds: 2, Boards: 2, PerBoard: true},
			unique:  true,
			want:    []Game{{1, 1, 1}, {1, 2, 2}, {2, 1, 3}, {2, 2, 0}},
		},
		{
			// Four rounds of 100 boards need only four positions.
			name:    "unique per round, many boards",
			exclude: span(4, 959),
			event:   Event{Rounds: 4, Boards: 100},
			unique:  true,
		},
		{name: "unique too many", exclude: span(4, 959), event: Event{Rounds: 3, Boards: 2, PerBoard: true}, unique: true, err: ErrTooMany},
		{name: "unique too many rounds", exclude: span(4, 959), event: Event{Rounds: 5, Boards: 1}, unique: true, err: ErrTooMany},
		{name: "no rounds", event: Event{Rounds: 0, Boards: 1}, err: ErrEvent},
		{name: "no boards", event: Event{Rounds: 1, Boards: 0}, err: ErrEvent},
		{name: "too many games", event: Event{Rounds: 1 << 20, Boards: 1 << 20}, err: ErrEvent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seq, err := mustPool(t, tc.exclude...).Table(seeded(7), tc.event, tc.unique)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Collect(seq)
			if tc.want != nil && !slices.Equal(got, tc.want) {
				t.Errorf("table %v, want %v", got, tc.want)
			}
			games, _ := tc.event.Games()
			if len(got) != games {
				t.Fatalf("%d games, want %d", len(got), games)
			}
			// Games come round by round, board by board; a round's boards
			// share a position unless drawn per board; with unique no
			// position returns in another game that does not share it.
			first := map[int]Game{}
			for i, g := range got {
				if g.Round != 1+i/tc.event.Boards || g.Board != 1+i%tc.event.Boards {
					t.Fatalf("game %d is round %d board %d", i, g.Round, g.Board)
				}
				if !tc.event.PerBoard && g.SP != got[i-i%tc.event.Boards].SP {
					t.Errorf("round %d board %d has SP %d, not the round's", g.Round, g.Board, g.SP)
				}
				if f, ok := first[g.SP]; ok && tc.unique && (tc.event.PerBoard || f.Round != g.Round) {
					t.Errorf("SP %d in round %d board %d and round %d board %d", g.SP, f.Round, f.Board, g.Round, g.Board)
				} else if !ok {
					first[g.SP] = g
				}
			}
		})
	}
}

// TestTableBreak checks that a table stops drawing when its range stops.
func TestTableBreak(t *testing.T) {
	for _, tc := range []struct {
		name  string
		event Event
		stop  int // games to take
	}{
		{name: "per round, mid round", event: Event{Rounds: 5, Boards: 3}, stop: 4},
		{name: "per board", event: Event{Rounds: 5, Boards: 3, PerBoard: true}, stop: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seq, err := mustPool(t).Table(seeded(7), tc.event, false)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for range seq {
				if n++; n == tc.stop {
					break
				}
			}
			if n != tc.stop {
				t.Errorf("took %d games, want %d", n, tc.stop)
			}
		})
	}
}

// TestSecureDraws: a nil rng draws from crypto/rand. The draws are not
// repeatable, so the test holds them to what any fair draw gives: only
// allowed positions, no repeats when asked for none, two draws that
// differ, and a chi-squared statistic of uniformity within 6.1 standard
// deviations of its mean (the normal approximation; a fair source fails
// it about once in a billion runs, a source stuck on one value or with a
// modulo bias every time).
func TestSecureDraws(t *testing.T) {
	p := mustPool(t, 518)
	drawn := func(n int, unique bool) []int {
		seq, err := p.Draws(nil, n, unique)
		if err != nil {
			t.Fatal(err)
		}
		return slices.Collect(seq)
	}
	first, second := drawn(20, true), drawn(20, true)
	if slices.Equal(first, second) {
		t.Errorf("two draws from crypto/rand gave the same positions: %v", first)
	}
	seen := map[int]bool{}
	for _, sp := range first {
		if !p.Allows(sp) || seen[sp] {
			t.Errorf("draw without repeats %v: %d not allowed or drawn twice", first, sp)
		}
		seen[sp] = true
	}
	const perPosition = 50
	counts := map[int]int{}
	for _, sp := range drawn(p.Len()*perPosition, false) {
		if !p.Allows(sp) {
			t.Fatalf("%d drawn, which the pool excludes", sp)
		}
		counts[sp]++
	}
	chi2 := 0.0
	for _, sp := range p.Positions() {
		d := float64(counts[sp] - perPosition)
		chi2 += d * d / perPosition
	}
	k := float64(p.Len() - 1)
	if spread := 6.1 * math.Sqrt(2*k); math.Abs(chi2-k) > spread {
		t.Errorf("chi-squared %.1f with %.0f degrees of freedom, want within %.0f of it", chi2, k, spread)
	}
	table, err := p.Table(nil, Event{Rounds: 9, Boards: 2, PerBoard: true}, true)
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	for g := range table {
		games++
		if !p.Allows(g.SP) {
			t.Errorf("table game %+v: position not allowed", g)
		}
	}
	if games != 18 {
		t.Errorf("the table holds %d games, want 18", games)
	}
}
