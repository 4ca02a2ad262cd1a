package tree

import (
	"testing"
	"unsafe"

	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/stats"
)

func TestPackSingle(t *testing.T) {
	line := func(o Outcome, white, black, year int, date int32) *Line {
		return &Line{Outcome: o, WhiteElo: white, BlackElo: black, Year: year, Date: date}
	}
	tests := []struct {
		name   string
		counts Counts
		packs  bool
	}{
		{"a rated win, White moving", gameCounts(line(stats.WhiteWin, 2100, 2200, 2024, 20240612), position.White), true},
		{"a rated win, Black moving", gameCounts(line(stats.WhiteWin, 2100, 2200, 2024, 20240612), position.Black), true},
		{"a loss for Black, Black moving", gameCounts(line(stats.BlackWin, 1500, 4000, 1999, 19990101), position.Black), true},
		{"a draw without ratings", gameCounts(line(stats.Draw, 0, 0, 2020, 20200000), position.White), true},
		{"unfinished, the opponent rated", gameCounts(line(stats.Unfinished, 1800, 1900, 0, 0), position.White), true},
		{"a year without a date", gameCounts(line(stats.Draw, 0, 0, 1851, 0), position.Black), true},
		{"the largest year", gameCounts(line(stats.Draw, 0, 0, 1<<yearBits-1, (1<<yearBits-1)*10000+1231), position.White), true},
		{"a rating past 12 bits", gameCounts(line(stats.Draw, 1<<ratingBits, 0, 0, 0), position.White), false},
		{"a year past 14 bits", gameCounts(line(stats.Draw, 0, 0, 1<<yearBits, 0), position.White), false},
		{"a date of another year", gameCounts(line(stats.Draw, 0, 0, 2024, 20230101), position.White), false},
		{"a date without a year", gameCounts(line(stats.Draw, 0, 0, 0, 20230101), position.White), false},
		{"two games", Counts{Results: Results{Games: 2, Draws: 2}}, false},
		{"no game", Counts{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, ok := packSingle(&tt.counts)
			if ok != tt.packs {
				t.Fatalf("packSingle ok = %v, want %v", ok, tt.packs)
			}
			if !ok {
				return
			}
			if data&single == 0 || data&inEdge != 0 {
				t.Errorf("data %#x is not marked as one game's", data)
			}
			if got := unpackSingle(data); got != tt.counts {
				t.Errorf("unpacked %+v, want %+v", got, tt.counts)
			}
		})
	}
}

// TestStoreAdd adds games to one move and reads its counts back: packed
// for the first, in an edge from the second on, and an edge pruned
// taken again by a move to come.
func TestStoreAdd(t *testing.T) {
	var s store
	n := s.nodes.push(node{first: -1})
	child := s.nodes.push(node{first: -1})
	e := s.addEdge(n, position.NullMove, child)
	first := gameCounts(&Line{Outcome: stats.WhiteWin, WhiteElo: 2000, BlackElo: 2100, Year: 2024, Date: 20240102}, position.White)
	second := gameCounts(&Line{Outcome: stats.Draw, WhiteElo: 5000, Year: 2025, Date: 20250000}, position.White)
	s.add(e, &first)
	if got := s.countsOf(e); got != first || s.gamesOf(e) != 1 || s.counts.len() != 0 {
		t.Errorf("after one game: %+v, %d games, %d edges", got, s.gamesOf(e), s.counts.len())
	}
	s.add(e, &second)
	want := first
	want.Games, want.Draws = 2, 1
	want.EloGames, want.EloSum = 2, 7000
	want.YearGames, want.YearSum, want.Last = 2, 4049, 20250000
	if got := s.countsOf(e); got != want || s.gamesOf(e) != 2 || s.counts.len() != 1 {
		t.Errorf("after two games: %+v, want %+v; %d games, %d edges", got, want, s.gamesOf(e), s.counts.len())
	}
	s.freeCounts = append(s.freeCounts, 0)
	e2 := s.addEdge(child, position.NullMove, n)
	s.add(e2, &second)
	s.add(e2, &second)
	if s.counts.len() != 1 || len(s.freeCounts) != 0 || s.gamesOf(e2) != 2 {
		t.Errorf("a freed edge not taken again: %d edges, %d free, %d games", s.counts.len(), len(s.freeCounts), s.gamesOf(e2))
	}
}

// TestSizes holds the sizes NodeBytes adds up.
func TestSizes(t *testing.T) {
	for _, tt := range []struct {
		name      string
		got, want uintptr
	}{
		{"node", unsafe.Sizeof(node{}), 36},
		{"link", unsafe.Sizeof(link{}), 24},
		{"edge", unsafe.Sizeof(edge{}), 64},
	} {
		if tt.got != tt.want {
			t.Errorf("a %s takes %d bytes, want %d", tt.name, tt.got, tt.want)
		}
	}
}
