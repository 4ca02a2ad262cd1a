package tree

import (
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/stats"
)

// A move played by one game is most of a tree's moves: past the first
// plies nearly every position is reached by one game, and the move to it
// by that game alone. Such a move keeps what the game adds up to in its
// link, in 8 bytes, instead of a 64-byte edge; a second game moves its
// counts to an edge. Its 8 bytes are one of:
//
//   - 0: no game yet (a move just added);
//   - single | the game's counts, packed as packSingle says;
//   - inEdge | the index of its edge in store.counts.
const (
	single = 1 << 62
	inEdge = 1 << 63
)

// Bits of a packed game, from the lowest: outcome (2, as stats.Outcome),
// net (2, OppNet + 1), the mover's rating (12, 0 for none), the
// opponent's (12, 0 for none), the year (14, 0 for none), whether the
// game has a date (1), its month (4) and day (5).
const (
	ratingBits = 12
	yearBits   = 14
)

// packSingle packs c, the counts of one game, into a link's data; ok is
// false when they do not fit (a rating or year out of range, a date of
// another year: counts a Line filled in by hand may have), and an edge
// holds them.
func packSingle(c *Counts) (data uint64, ok bool) {
	if c.Games != 1 || c.Finished() > 1 {
		return 0, false
	}
	outcome := stats.Unfinished
	switch {
	case c.WhiteWins == 1:
		outcome = stats.WhiteWin
	case c.Draws == 1:
		outcome = stats.Draw
	case c.BlackWins == 1:
		outcome = stats.BlackWin
	}
	one := func(games, sum int64, bits uint) (uint64, bool) {
		switch {
		case games == 0 && sum == 0:
			return 0, true
		case games == 1 && sum > 0 && sum < 1<<bits:
			return uint64(sum), true
		}
		return 0, false
	}
	me, ok1 := one(c.EloGames, c.EloSum, ratingBits)
	opp, ok2 := one(c.OppGames, c.OppEloSum, ratingBits)
	year, ok3 := one(c.YearGames, c.YearSum, yearBits)
	if !ok1 || !ok2 || !ok3 || c.OppNet < -1 || c.OppNet > 1 || (c.OppGames == 0 && c.OppNet != 0) {
		return 0, false
	}
	var dated, month, day uint64
	if c.Last != 0 {
		y, m, d := int64(c.Last/10000), uint64(c.Last/100%100), uint64(c.Last%100)
		if c.Last < 0 || y != c.YearSum || c.YearGames != 1 || m > 15 || d > 31 {
			return 0, false
		}
		dated, month, day = 1, m, d
	}
	data = uint64(outcome) | uint64(c.OppNet+1)<<2 | me<<4 | opp<<(4+ratingBits) |
		year<<(4+2*ratingBits) | dated<<(4+2*ratingBits+yearBits) |
		month<<(5+2*ratingBits+yearBits) | day<<(9+2*ratingBits+yearBits)
	return single | data, true
}

// unpackSingle returns the counts packSingle packed.
func unpackSingle(data uint64) Counts {
	field := func(shift, bits uint) int64 { return int64(data >> shift & (1<<bits - 1)) }
	c := Counts{Results: Results{Games: 1}}
	switch stats.Outcome(field(0, 2)) {
	case stats.WhiteWin:
		c.WhiteWins = 1
	case stats.Draw:
		c.Draws = 1
	case stats.BlackWin:
		c.BlackWins = 1
	}
	c.OppNet = field(2, 2) - 1
	if c.EloSum = field(4, ratingBits); c.EloSum > 0 {
		c.EloGames = 1
	}
	if c.OppEloSum = field(4+ratingBits, ratingBits); c.OppEloSum > 0 {
		c.OppGames = 1
	}
	if c.YearSum = field(4+2*ratingBits, yearBits); c.YearSum > 0 {
		c.YearGames = 1
	}
	if field(4+2*ratingBits+yearBits, 1) == 1 {
		c.Last = int32(c.YearSum*10000 + field(5+2*ratingBits+yearBits, 4)*100 + field(9+2*ratingBits+yearBits, 5))
	}
	return c
}

// gameCounts returns what the game of line l adds to a move made by
// mover: the counts of one game.
func gameCounts(l *Line, mover position.Color) Counts {
	c := Counts{Results: Results{Games: 1}}
	me, opp := l.WhiteElo, l.BlackElo
	if mover == position.Black {
		me, opp = opp, me
	}
	net := int64(0)
	switch l.Outcome {
	case stats.WhiteWin:
		c.WhiteWins = 1
		net = 1
	case stats.Draw:
		c.Draws = 1
	case stats.BlackWin:
		c.BlackWins = 1
		net = -1
	}
	if mover == position.Black {
		net = -net
	}
	if me > 0 {
		c.EloGames, c.EloSum = 1, int64(me)
	}
	if opp > 0 && l.Outcome != stats.Unfinished {
		c.OppGames, c.OppEloSum, c.OppNet = 1, int64(opp), net
	}
	if l.Year > 0 {
		c.YearGames, c.YearSum = 1, int64(l.Year)
	}
	c.Last = max(l.Date, 0)
	return c
}

// countsOf returns what the games through move e add up to.
func (s *store) countsOf(e int32) Counts {
	switch d := s.links.at(e).data(); {
	case d&inEdge != 0:
		return s.counts.at(int32(uint32(d))).export()
	case d&single != 0:
		return unpackSingle(d)
	}
	return Counts{}
}

// gamesOf returns the number of games through move e.
func (s *store) gamesOf(e int32) uint32 {
	switch d := s.links.at(e).data(); {
	case d&inEdge != 0:
		return s.counts.at(int32(uint32(d))).games
	case d&single != 0:
		return 1
	}
	return 0
}

// add adds c to the counts of move e, packed in its link while one game
// has played it, in an edge from the second on.
func (s *store) add(e int32, c *Counts) {
	var packed uint64
	packs := false
	if s.links.at(e).data() == 0 {
		packed, packs = packSingle(c)
	}
	s.addPacked(e, c, packed, packs)
}

// addPacked is add with packSingle(c) worked out already (or not
// needed, packs false): a line adds the same counts to every move its
// side to move makes.
func (s *store) addPacked(e int32, c *Counts, packed uint64, packs bool) {
	l := s.links.at(e)
	d := l.data()
	if d == 0 && packs {
		l.setData(packed)
		return
	}
	if d&inEdge == 0 {
		var i int32
		if n := len(s.freeCounts); n > 0 {
			i = s.freeCounts[n-1]
			s.freeCounts = s.freeCounts[:n-1]
			*s.counts.at(i) = edge{}
		} else {
			i = s.counts.push(edge{})
		}
		if d&single != 0 {
			first := unpackSingle(d)
			s.counts.at(i).addCounts(&first)
		}
		l.setData(inEdge | uint64(uint32(i)))
		d = l.data()
	}
	ec := s.counts.at(int32(uint32(d)))
	ec.addCounts(c)
	s.tooMany = s.tooMany || ec.games > MaxGames
}
