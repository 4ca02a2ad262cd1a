package tree

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/stats"
)

// Node is a position of a tree as it is written: where the walk of the
// tree (Tree.Nodes) met it first, and the moves played from it.
type Node struct {
	// Index is the node's place in the walk, 0 for the root.
	Index int
	// Ply is the number of plies from the start position along Line.
	Ply int
	// Line is the moves from the start position to the node, in SAN with
	// move numbers, along the path the walk met it by: the most played
	// one at every step, but where a more played path meets it later.
	Line string
	// FEN is the position, Shredder-FEN castling, with an en passant
	// square only when a capture is possible.
	FEN string
	// Results count the games that reached the position.
	Results
	// Moves are the moves played from the position.
	Moves []Move
}

// Move is a move from a position, with what the games that played it add
// up to and the figures derived from that. A figure with nothing to be
// derived from (no finished game, no rating, no date) is NaN.
type Move struct {
	SAN string
	// UCI is the move in UCI notation: for a Chess960 start, castling is
	// the king taking its own rook (e1h1), as Chess960 engines write it.
	UCI string
	// To is the Index of the position the move leads to, or -1 when the
	// walk does not reach it (the tree's depth ends there).
	To int
	Counts
	// Score is White's score, (white wins + draws/2) / finished games,
	// with ScoreLow..ScoreHigh its 95% Wilson interval (stats.Wilson);
	// DrawRate is draws / finished games.
	Score, ScoreLow, ScoreHigh, DrawRate float64
	// AvgElo is the mean rating of the player making the move.
	AvgElo float64
	// Performance is the performance rating of the player making the
	// move over the finished games where the opponent is rated: the
	// opponents' mean rating + 400 × (wins − losses) / games, the linear
	// rule of 400. It stays within the opponents' mean ± 400, and is
	// rough over few games, as every performance rating is.
	Performance float64
	// AvgYear is the mean year the move was played in.
	AvgYear float64
	// LastPlayed is the latest date the move was played on, as PGN writes
	// dates ("2024.05.??"), "" when no game has a date.
	LastPlayed string
}

// derive fills in the figures derived from the counts.
func (m *Move) derive() {
	nan := math.NaN()
	m.Score, m.ScoreLow, m.ScoreHigh, m.DrawRate = nan, nan, nan, nan
	m.AvgElo, m.Performance, m.AvgYear = nan, nan, nan
	if n := m.Finished(); n > 0 {
		m.Score = (float64(m.WhiteWins) + float64(m.Draws)/2) / float64(n)
		m.DrawRate = float64(m.Draws) / float64(n)
		m.ScoreLow, m.ScoreHigh = stats.Wilson(m.Score, n, stats.Z95)
	}
	if m.EloGames > 0 {
		m.AvgElo = float64(m.EloSum) / float64(m.EloGames)
	}
	if m.OppGames > 0 {
		m.Performance = (float64(m.OppEloSum) + 400*float64(m.OppNet)) / float64(m.OppGames)
	}
	if m.YearGames > 0 {
		m.AvgYear = float64(m.YearSum) / float64(m.YearGames)
	}
	m.LastPlayed = formatDate(m.Last)
}

// formatDate writes a YYYYMMDD date as PGN does, "" for 0.
func formatDate(d int32) string {
	if d <= 0 {
		return ""
	}
	b := []byte("????.??.??")
	y, mo, day := int(d/10000), int(d/100%100), int(d%100)
	for i := 3; i >= 0; i-- {
		b[i] = byte('0' + y%10)
		y /= 10
	}
	if mo > 0 {
		b[5], b[6] = byte('0'+mo/10), byte('0'+mo%10)
	}
	if day > 0 {
		b[8], b[9] = byte('0'+day/10), byte('0'+day%10)
	}
	return string(b)
}

// parseDate reads what formatDate writes, 0 for "" or anything else.
func parseDate(s string) int32 {
	if len(s) != 10 || s[4] != '.' || s[7] != '.' {
		return 0
	}
	part := func(p string) int32 {
		n := int32(0)
		for _, c := range []byte(p) {
			if c < '0' || c > '9' {
				return 0
			}
			n = n*10 + int32(c-'0')
		}
		return n
	}
	return part(s[:4])*10000 + part(s[5:7])*100 + part(s[8:10])
}

// WalkOptions say which moves a walk of a tree takes.
type WalkOptions struct {
	// MinGames leaves out the moves fewer games played, and the
	// positions reached only through them.
	MinGames int64
}

// Nodes walks the tree from the root, depth first, and returns every
// position it meets, each once, in the order met. The moves of a position
// are ordered by games, most first; moves played equally often by their
// SAN, in byte order (so "Nf3" before "e4"), and the walk follows them
// in that order. A position met again by another move (a transposition)
// is not walked twice: the move's To names the first meeting.
func (t *Tree) Nodes(opts WalkOptions) []Node {
	var out []Node
	var kidsOf [][]int32              // per node of out, where its moves lead
	at := make([]int32, len(t.nodes)) // index in out + 1, 0 when not met
	b := &t.board
	line := []byte(t.root.Moves)
	type choice struct {
		m     Move
		move  position.Move
		child int32
	}
	var walk func(n int32)
	walk = func(n int32) {
		i := len(out)
		at[n] = int32(i) + 1
		nd := &t.nodes[n]
		out = append(out, Node{Index: i, Ply: t.root.Plies + b.MovesPlayed(), Line: string(line), FEN: startFEN(b), Results: nd.results()})
		cs := make([]choice, 0, len(nd.moves))
		for k := range nd.moves {
			e := &nd.moves[k]
			if int64(e.games) < max(opts.MinGames, 1) {
				continue
			}
			c := choice{m: Move{SAN: b.SAN(e.move), UCI: b.UCI(e.move), To: -1, Counts: e.counts.export()}, move: e.move, child: e.child}
			c.m.derive()
			cs = append(cs, c)
		}
		slices.SortStableFunc(cs, func(x, y choice) int {
			return cmp.Or(cmp.Compare(y.m.Games, x.m.Games), strings.Compare(x.m.SAN, y.m.SAN))
		})
		moves := make([]Move, len(cs))
		kids := make([]int32, len(cs))
		for k := range cs {
			moves[k], kids[k] = cs[k].m, cs[k].child
		}
		out[i].Moves = moves
		kidsOf = append(kidsOf, kids)
		for k := range cs {
			if at[cs[k].child] != 0 {
				continue
			}
			mark := len(line)
			line = appendMove(line, b, cs[k].move, len(line) == 0)
			b.Push(cs[k].move)
			walk(cs[k].child)
			b.Pop()
			line = line[:mark]
		}
	}
	walk(0)
	// Where each move leads is known once every position is met.
	for i := range out {
		for k, c := range kidsOf[i] {
			out[i].Moves[k].To = int(at[c]) - 1
		}
	}
	return out
}
