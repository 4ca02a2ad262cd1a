package stats

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/startpos"
)

// pairGame is a game of DFRC pair i (of the 921,600, in order), in group
// key when the Stats are grouped.
func pairGame(i int, key []byte) Game {
	return Game{Counted: true, Outcome: Draw, Plies: 40, Group: key,
		Start: startpos.Start{Kind: startpos.DFRC, White: i / numbering.Count, Black: i % numbering.Count}}
}

// spGame is a game from position sp in group key.
func spGame(sp int, key []byte) Game {
	return Game{Counted: true, Outcome: WhiteWin, Plies: 40, Group: key,
		Start: startpos.Start{Kind: startpos.Chess960, White: sp, Black: sp}}
}

// eventKey is the group key of the Event tag's value v.
func eventKey(v string) []byte {
	return appendKeyValue(nil, keyText, 0, []byte(v))
}

// TestTooManyRows checks the bound on the rows a count keeps: DFRC pairs,
// and the positions of every group, each refused past MaxRows, while
// games of rows already kept still count.
func TestTooManyRows(t *testing.T) {
	tests := []struct {
		name    string
		grouped bool
		skip    bool
		game    func(i int) Game // the game of row i
		refused bool
	}{
		{"DFRC pairs", false, false, func(i int) Game { return pairGame(i, nil) }, true},
		{"DFRC pairs not kept", false, true, func(i int) Game { return pairGame(i, nil) }, false},
		{"positions of groups", true, false, func(i int) Game { return spGame(i%numbering.Count, eventKey(fmt.Sprint(i/numbering.Count))) }, true},
		{"pairs of groups", true, false, func(i int) Game { return pairGame(i, eventKey(fmt.Sprint(i%7))) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Stats
			s.SkipPairs = tt.skip
			if tt.grouped {
				if err := s.SetGroupBy([]string{"Event"}); err != nil {
					t.Fatal(err)
				}
			}
			for i := range MaxRows {
				if err := s.Add(tt.game(i)); err != nil {
					t.Fatalf("row %d: %v", i+1, err)
				}
			}
			err := s.Add(tt.game(MaxRows))
			if tt.refused != (err != nil) || err != nil && !errors.Is(err, ErrTooManyRows) {
				t.Fatalf("row %d: %v, want refused %v", MaxRows+1, err, tt.refused)
			}
			if err := s.Add(tt.game(0)); err != nil {
				t.Errorf("a game of the first row again: %v", err)
			}
			if tt.skip && len(s.DFRC) != 0 {
				t.Errorf("%d pairs kept", len(s.DFRC))
			}
		})
	}
}

// TestMergeTooManyRows checks that Merge refuses counts whose rows
// together pass MaxRows, and leaves s unchanged, while rows they share
// add up.
func TestMergeTooManyRows(t *testing.T) {
	fill := func(from, to int) *Stats {
		var s Stats
		for i := from; i < to; i++ {
			if err := s.Add(pairGame(i, nil)); err != nil {
				t.Fatal(err)
			}
		}
		return &s
	}
	s := fill(0, MaxRows/2)
	if err := s.Merge(fill(MaxRows/4, MaxRows)); err != nil {
		t.Fatalf("merging counts of %d rows together: %v", MaxRows, err)
	}
	before := len(s.DFRC)
	if err := s.Merge(fill(MaxRows-1, MaxRows+1)); !errors.Is(err, ErrTooManyRows) {
		t.Errorf("merging one row more: %v, want %v", err, ErrTooManyRows)
	}
	if len(s.DFRC) != before || s.Totals.DFRC != int64(MaxRows/2+MaxRows*3/4) {
		t.Errorf("a refused merge changed the counts: %d pairs, %d DFRC games", len(s.DFRC), s.Totals.DFRC)
	}
	// A refused merge leaves room for what fits.
	s = fill(0, MaxRows-1)
	if err := s.Merge(fill(MaxRows, MaxRows+2)); !errors.Is(err, ErrTooManyRows) {
		t.Errorf("merging two rows into room for one: %v, want %v", err, ErrTooManyRows)
	}
	if err := s.Add(pairGame(MaxRows, nil)); err != nil {
		t.Errorf("adding one row after a refused merge: %v", err)
	}
}

// TestCheckRowsAll checks the bound on the rows of every position of
// every group.
func TestCheckRowsAll(t *testing.T) {
	fits := MaxRows / numbering.Count
	for _, tt := range []struct {
		groups int
		all    bool
		want   error
	}{
		{fits, true, nil},
		{fits + 1, true, ErrTooManyRows},
		{fits + 1, false, nil},
	} {
		t.Run(fmt.Sprintf("%d groups, all %v", tt.groups, tt.all), func(t *testing.T) {
			var s Stats
			if err := s.SetGroupBy([]string{"Event"}); err != nil {
				t.Fatal(err)
			}
			for g := range tt.groups {
				if err := s.Add(spGame(0, eventKey(fmt.Sprint(g)))); err != nil {
					t.Fatal(err)
				}
			}
			rep := &Report{Stats: &s, Options: Options{All: tt.all}}
			if err := rep.Check(); !errors.Is(err, tt.want) {
				t.Errorf("Check = %v, want %v", err, tt.want)
			}
			if err := rep.WriteCSV(new(discard)); !errors.Is(err, tt.want) {
				t.Errorf("WriteCSV = %v, want %v", err, tt.want)
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestBytesPerRow checks what MaxRows's comment says a row costs once the
// table is written: its counts and its row, about 500 bytes, measured as
// the live heap a table of DFRC pairs and one of grouped positions hold.
func TestBytesPerRow(t *testing.T) {
	const n = 20_000
	for _, tt := range []struct {
		name    string
		grouped bool
		game    func(i int) Game
	}{
		{"DFRC pairs", false, func(i int) Game { return pairGame(i, nil) }},
		{"positions of groups", true, func(i int) Game { return spGame(i%numbering.Count, eventKey(fmt.Sprint(i/numbering.Count))) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := liveHeap()
			s := new(Stats)
			if tt.grouped {
				if err := s.SetGroupBy([]string{"Event"}); err != nil {
					t.Fatal(err)
				}
			}
			for i := range n {
				if err := s.Add(tt.game(i)); err != nil {
					t.Fatal(err)
				}
			}
			rep := &Report{Stats: s, WithDFRC: true}
			rows := len(rep.Rows()) + len(rep.DFRCRows())
			per := (liveHeap() - before) / n
			runtime.KeepAlive(rep)
			t.Logf("%d rows, %d bytes a row", rows, per)
			if rows < n || per < 300 || per > 700 {
				t.Errorf("%d rows, %d bytes a row; want %d rows of about 500 bytes", rows, per, n)
			}
		})
	}
}

// liveHeap returns the bytes of the heap in use after a collection.
func liveHeap() int {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int(m.HeapAlloc)
}

// TestMergeSkipPairs checks that Merge leaves out the pairs of the counts
// it adds when s keeps none, and counts no rows for them.
func TestMergeSkipPairs(t *testing.T) {
	var o Stats
	for i := range 10 {
		if err := o.Add(pairGame(i, nil)); err != nil {
			t.Fatal(err)
		}
	}
	s := Stats{SkipPairs: true}
	if err := s.Merge(&o); err != nil {
		t.Fatal(err)
	}
	if len(s.DFRC) != 0 || s.made != 0 || s.Totals.DFRC != 10 {
		t.Errorf("%d pairs kept, %d rows counted, %d DFRC games; want 0, 0 and 10", len(s.DFRC), s.made, s.Totals.DFRC)
	}
}

// TestMergeTakesGroups: counts read from a document (ReadJSON) are not
// used again, and a group the merged counts lack is taken from them whole,
// not copied a position at a time (which doubled the heap of a large
// merge); a group both have is added up. Merge, whose argument the caller
// keeps, copies. Without DFRC rows wanted, a taken group keeps no pairs.
func TestMergeTakesGroups(t *testing.T) {
	grouped := func(skip bool, games ...Game) *Stats {
		s := &Stats{SkipPairs: skip}
		if err := s.SetGroupBy([]string{"Event"}); err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if err := s.Add(g); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	for _, tc := range []struct {
		name string
		take bool
		skip bool
	}{{"taken", true, false}, {"taken, pairs skipped", true, true}, {"copied", false, false}} {
		t.Run(tc.name, func(t *testing.T) {
			s := grouped(tc.skip, spGame(1, eventKey("a")))
			o := grouped(false, spGame(1, eventKey("a")), spGame(2, eventKey("b")), pairGame(3, eventKey("b")))
			ob := o.groups[string(eventKey("b"))]
			if err := s.merge(o, tc.take); err != nil {
				t.Fatal(err)
			}
			a, b := s.groups[string(eventKey("a"))], s.groups[string(eventKey("b"))]
			if b == nil || (b == ob) != tc.take {
				t.Fatalf("group b is o's: %v, want %v", b == ob, tc.take)
			}
			if c, _ := a.sp(1); c.Games != 2 {
				t.Errorf("group a: %d games from SP 1, want 2", c.Games)
			}
			if c, _ := b.sp(2); c.Games != 1 {
				t.Errorf("group b: %d games from SP 2, want 1", c.Games)
			}
			if got, want := len(b.dfrc), map[bool]int{false: 1, true: 0}[tc.skip]; got != want {
				t.Errorf("group b: %d pairs, want %d", got, want)
			}
		})
	}
}

// TestTooManyGames: counts that would pass MaxGames, where the sums of the
// rated games could wrap around, are refused, from a document, a merge or
// counting, and so are counts whose parts wrap around to their whole.
// Before, four documents of 2^62 white wins at SP 0 merged into a row of
// 4 games and 0 white wins.
func TestTooManyGames(t *testing.T) {
	doc := func(rows ...string) string {
		return `{"format":"frctool-stats/1","rows":[` + strings.Join(rows, ",") + `]}`
	}
	row := func(sp int, games int64) string {
		return fmt.Sprintf(`{"sp":%d,"games":%d,"draws":%d,"sum_plies":0}`, sp, games, games)
	}
	const half = MaxGames/2 + 1
	tests := []struct {
		name string
		docs []string
		want error // from the last document; the ones before are taken
		msg  string
	}{
		{"a row of MaxGames", []string{doc(row(5, MaxGames))}, nil, ""},
		{"a row of more", []string{doc(row(5, MaxGames+1))}, ErrTooManyGames, "8589934593 games, more than one count holds (8589934592)"},
		{"rows of more together", []string{doc(row(5, half), row(6, half))}, ErrTooManyGames, "row 2: too many games: the rows so far hold more than 8589934592"},
		{"documents of more together", []string{doc(row(5, half)), doc(row(6, half))}, ErrTooManyGames, "more than 8589934592 in one count"},
		{"parts that wrap around to the games", []string{doc(`{"sp":0,"games":1,"white_wins":4611686018427387904,"draws":4611686018427387904,"black_wins":4611686018427387904,"unfinished":4611686018427387905,"sum_plies":0}`)}, ErrNotStats, "is not games"},
		{"ratings beyond MaxElo", []string{doc(`{"sp":0,"games":1,"draws":1,"sum_plies":0,"white_elo_sum":9000000000000000,"white_elo_games":1}`)}, ErrNotStats, "impossible sums of plies or ratings"},
		{"plies beyond any game's", []string{doc(`{"sp":0,"games":1,"draws":1,"sum_plies":1000000000000000000,"ply_games":1}`)}, ErrNotStats, "impossible sums of plies or ratings"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s Stats
			for i, d := range tc.docs {
				_, err := s.ReadJSON(strings.NewReader(d))
				if i < len(tc.docs)-1 {
					if err != nil {
						t.Fatalf("document %d: %v", i+1, err)
					}
					continue
				}
				if tc.want == nil {
					if err != nil {
						t.Fatalf("ReadJSON = %v", err)
					}
					return
				}
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("ReadJSON = %v, want %v saying %q", err, tc.want, tc.msg)
				}
			}
		})
	}
	t.Run("counting", func(t *testing.T) {
		var s Stats
		if err := s.Add(spGame(5, nil)); err != nil {
			t.Fatal(err)
		}
		s.games = MaxGames // as if it had counted that many
		if err := s.Add(spGame(5, nil)); !errors.Is(err, ErrTooManyGames) {
			t.Errorf("Add past MaxGames = %v, want ErrTooManyGames", err)
		}
	})
}
