package tree

import (
	"cmp"
	"math"
	"runtime"
	"slices"

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
	f := figuresOf(&m.Counts)
	m.Score, m.ScoreLow, m.ScoreHigh, m.DrawRate = f.score, f.low, f.high, f.drawRate
	m.AvgElo, m.Performance, m.AvgYear = f.elo, f.perf, f.year
	m.LastPlayed = formatDate(m.Last)
}

// figures are the values derived from a move's counts, NaN when there is
// nothing to derive them from.
type figures struct {
	score, low, high, drawRate, elo, perf, year float64
}

func figuresOf(c *Counts) figures {
	f := figures{nan, nan, nan, nan, nan, nan, nan}
	if n := c.Finished(); n > 0 {
		f.score = (float64(c.WhiteWins) + float64(c.Draws)/2) / float64(n)
		f.drawRate = float64(c.Draws) / float64(n)
		f.low, f.high = stats.Wilson(f.score, n, stats.Z95)
	}
	f.elo, f.perf, f.year = ratingFigures(c)
	return f
}

// ratingFigures returns the figures of players and dates: avg_elo,
// performance and avg_year.
func ratingFigures(c *Counts) (elo, perf, year float64) {
	elo, perf, year = nan, nan, nan
	if c.EloGames > 0 {
		elo = float64(c.EloSum) / float64(c.EloGames)
	}
	if c.OppGames > 0 {
		perf = (float64(c.OppEloSum) + 400*float64(c.OppNet)) / float64(c.OppGames)
	}
	if c.YearGames > 0 {
		year = float64(c.YearSum) / float64(c.YearGames)
	}
	return elo, perf, year
}

var nan = math.NaN()

// formatDate writes a YYYYMMDD date as PGN does, "" for 0.
func formatDate(d int32) string { return string(appendDate(nil, d)) }

// appendDate appends what formatDate returns.
func appendDate(dst []byte, d int32) []byte {
	if d <= 0 {
		return dst
	}
	// The year's last four digits, and the month and day or "??", from
	// the table of digit pairs: a date is in most rows.
	year, mo, day := int(d/10000%10000), 2*int(d/100%100), 2*int(d%100)
	hi, lo := 2*(year/100), 2*(year%100)
	dst = append(dst, digitPairs[hi], digitPairs[hi+1], digitPairs[lo], digitPairs[lo+1], '.')
	if mo > 0 {
		dst = append(dst, digitPairs[mo], digitPairs[mo+1], '.')
	} else {
		dst = append(dst, '?', '?', '.')
	}
	if day > 0 {
		return append(dst, digitPairs[day], digitPairs[day+1])
	}
	return append(dst, '?', '?')
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

// plan is the order a walk of a tree meets its positions in, worked out
// without a board, so that a move's destination is known before the walk
// reaches it and rows can be written as they are met.
type plan struct {
	s     *store
	order []int32 // the nodes in the order met
	// moves holds per node met, from first[i] on, its moves taken (as
	// indices in store.links), in the order written.
	moves []int32
	first []int32
	// parent is, per position met, the index of the position the walk
	// met it from, -1 for the root.
	parent []int32
}

// at returns the index in order of node n + 1, 0 when the walk does not
// meet it: the node's mark, which plan sets.
func (p *plan) at(n int32) int32 { return p.s.nodes.at(n).mark }

// uciKey orders moves as their UCI text does ("b1c3" < "e2e4" <
// "g1f3"): by the origin's file and rank, then the destination's, then
// the promotion's letter.
func uciKey(m position.Move, chess960 bool) uint32 {
	from, to := m.From(), m.To()
	if m.IsCastling() && !chess960 {
		to, _ = m.CastlingSquares()
	}
	promo := uint32(0)
	switch m.Promotion() {
	case position.Bishop:
		promo = 1
	case position.Knight:
		promo = 2
	case position.Queen:
		promo = 3
	case position.Rook:
		promo = 4
	}
	return uint32(from.File())<<16 | uint32(from.Rank())<<12 | uint32(to.File())<<8 | uint32(to.Rank())<<4 | promo
}

// plan walks the tree, depth first from the root, taking the moves of
// each position by games (most first), equal counts in the order of
// their UCI text.
func (t *Tree) plan(opts WalkOptions) *plan { return t.planIn(new(walkMemory), opts) }

// walkMemory is what planning and walking a tree work in. A goroutine
// writing tree after tree keeps one, so that the trees of a forest are
// written in memory written before, not in new memory for each (on the
// lichess-like file, 23 MB over a run, and the collections they cause).
type walkMemory struct {
	plan       plan
	fen, names []byte
	ends       []int
	moves      []moveView
	line       []byte
	taken      []int32
}

// planIn is plan, in m's memory: the plan is valid until m is used
// again.
func (t *Tree) planIn(m *walkMemory, opts WalkOptions) *plan {
	n, s := t.Len(), t.s
	p := &m.plan
	p.s = s
	p.order, p.parent = slices.Grow(p.order[:0], n), slices.Grow(p.parent[:0], n)
	p.first, p.moves = slices.Grow(p.first[:0], n+1), slices.Grow(p.moves[:0], n)
	for _, slot := range t.index.slots {
		if slot != 0 {
			s.nodes.at(int32(uint32(slot)) - 1).mark = 0
		}
	}
	minGames := max(opts.MinGames, 1)
	var visit func(n, from int32)
	visit = func(n, from int32) {
		me := int32(len(p.order))
		s.nodes.at(n).mark = me + 1
		p.order = append(p.order, n)
		p.parent = append(p.parent, from)
		start := len(p.moves)
		p.first = append(p.first, int32(start))
		p.moves = t.appendTaken(p.moves, n, minGames)
		// By index: the visits below append to p.moves, which may move
		// it, but never change the moves already there.
		for k, end := start, len(p.moves); k < end; k++ {
			if c := s.links.at(p.moves[k]).child; p.at(c) == 0 {
				visit(c, me)
			}
		}
	}
	visit(t.rootNode, -1)
	p.first = append(p.first, int32(len(p.moves)))
	return p
}

// appendTaken appends to dst the moves a walk takes from node n: those
// of minGames games or more, by games (most first), equal counts in the
// order of their UCI text.
func (t *Tree) appendTaken(dst []int32, n int32, minGames int64) []int32 {
	s := t.s
	start := len(dst)
	for e := s.nodes.at(n).first; e >= 0; e = s.links.at(e).next {
		if int64(s.gamesOf(e)) >= minGames {
			dst = append(dst, e)
		}
	}
	slices.SortFunc(dst[start:], func(x, y int32) int {
		gx, gy := s.gamesOf(x), s.gamesOf(y)
		return cmp.Or(cmp.Compare(gy, gx), cmp.Compare(uciKey(s.links.at(x).move, t.chess960), uciKey(s.links.at(y).move, t.chess960)))
	})
	return dst
}

// view is a position as a walk hands it to its visitor. Its byte slices
// are the walk's buffers, valid until the visitor returns.
type view struct {
	index, ply int
	line, fen  []byte
	Results
	moves []moveView
}

type moveView struct {
	san, uci []byte
	to       int // -1 in a walk without a plan
	c        Counts
}

// walk meets the positions of the tree in the order of its plan and hands
// each to visit, with the board set up at it.
func (t *Tree) walk(p *plan, visit func(v *view) error) error {
	return t.walkIn(new(walkMemory), p, WalkOptions{}, visit)
}

// walkIn is walk, in m's memory. Without a plan (p nil) it meets the
// positions in the same order, taking the moves of opts, working out
// each position's moves as it meets it: a move's to, the position it
// leads to, is then not known (-1), but the tree is looked through once,
// not twice. Rows need no to; a document's links between positions do.
func (t *Tree) walkIn(m *walkMemory, p *plan, opts WalkOptions, visit func(v *view) error) error {
	b, s := &t.board, t.s
	line := append(m.line[:0], t.root.Moves...)
	fenBuf, names, ends, moves, taken := m.fen[:0], m.names[:0], m.ends[:0], m.moves[:0], m.taken[:0]
	defer func() {
		m.line, m.fen, m.names, m.ends, m.moves, m.taken = line[:0], fenBuf[:0], names[:0], ends[:0], moves[:0], taken[:0]
	}()
	minGames := max(opts.MinGames, 1)
	// met marks the nodes a walk without a plan has met: a mark no walk
	// of the tree used before, and neither a plan's (0 and up) nor a
	// growing tree's (wide).
	t.walks++
	met := wide - int32(t.walks)
	if p == nil {
		s.nodes.at(t.rootNode).mark = met
	}
	count := 0 // positions met
	var v view // one for the whole walk: the visitor keeps nothing of it
	var step func(n int32, i int) error
	step = func(n int32, i int) error {
		nd := s.nodes.at(n)
		fenBuf = b.Key().AppendFEN(fenBuf[:0], b.HalfMoveClock(), b.FullMoveNumber())
		// The node's moves are taken[lo:hi] or p.moves[lo:hi], sliced
		// anew where the walks below may have moved taken.
		var lo, hi int
		var list []int32
		if p != nil {
			lo, hi, list = int(p.first[i]), int(p.first[i+1]), p.moves
		} else {
			lo = len(taken)
			taken = t.appendTaken(taken, n, minGames)
			hi, list = len(taken), taken
		}
		// The names of the moves stay in names, after those of the
		// positions above, until the positions below are walked: a move's
		// SAN is also the end of the line to the position it leads to.
		nameBase, endBase := len(names), len(ends)
		for _, k := range list[lo:hi] {
			e := s.links.at(k)
			names = b.AppendSAN(names, e.move)
			ends = append(ends, len(names))
			names = appendUCI(names, e.move, t.chess960)
			ends = append(ends, len(names))
		}
		// names is sliced only once it has stopped growing.
		moves = moves[:0]
		off := nameBase
		for j, k := range list[lo:hi] {
			u, end := ends[endBase+2*j], ends[endBase+2*j+1]
			to := -1
			if p != nil {
				to = int(p.at(s.links.at(k).child)) - 1
			}
			moves = append(moves, moveView{san: names[off:u:u], uci: names[u:end:end], to: to, c: s.countsOf(k)})
			off = end
		}
		v = view{index: i, ply: t.root.Plies + b.MovesPlayed(), line: line, fen: fenBuf, Results: nd.results(), moves: moves}
		if err := visit(&v); err != nil {
			return err
		}
		off = nameBase
		for j := range hi - lo {
			if p == nil {
				list = taken
			}
			k := list[lo+j]
			san := names[off:ends[endBase+2*j]]
			off = ends[endBase+2*j+1]
			e := s.links.at(k)
			next := 0
			if p != nil {
				if next = int(p.at(e.child)) - 1; int(p.parent[next]) != i {
					continue
				}
			} else {
				c := s.nodes.at(e.child)
				if c.mark == met {
					continue
				}
				c.mark = met
				count++
				next = count
			}
			mark := len(line)
			line = appendNumbered(line, b, san, len(line) == 0)
			b.Push(e.move)
			err := step(e.child, next)
			b.Pop()
			line = line[:mark]
			if err != nil {
				return err
			}
		}
		names, ends = names[:nameBase], ends[:endBase]
		if p == nil {
			taken = taken[:lo]
		}
		return nil
	}
	return step(t.rootNode, 0)
}

// appendUCI appends m in UCI notation, as Board.UCI writes it.
func appendUCI(dst []byte, m position.Move, chess960 bool) []byte {
	from, to := m.From(), m.To()
	if m.IsCastling() && !chess960 && (from == position.E1 || from == position.E8) && (to.File() == 0 || to.File() == 7) {
		to, _ = m.CastlingSquares()
	}
	dst = append(dst, byte('a'+from.File()), byte('1'+from.Rank()), byte('a'+to.File()), byte('1'+to.Rank()))
	if pr := m.Promotion(); pr != position.NoPieceType {
		dst = append(dst, pr.Letter()|0x20)
	}
	return dst
}

// Nodes walks the tree from the root, depth first, and returns every
// position it meets, each once, in the order met. The moves of a position
// are ordered by games, most first, moves played equally often in the
// order of their UCI text ("g1f3" after "e2e4"), and the walk follows
// them in that order. A position met again by another move (a
// transposition) is not walked twice: the move's To names the first
// meeting.
func (t *Tree) Nodes(opts WalkOptions) []Node {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(t)
	var out []Node
	t.walk(t.plan(opts), func(v *view) error {
		n := Node{Index: v.index, Ply: v.ply, Line: string(v.line), FEN: string(v.fen), Results: v.Results, Moves: make([]Move, len(v.moves))}
		for k := range v.moves {
			mv := &v.moves[k]
			m := Move{SAN: string(mv.san), UCI: string(mv.uci), To: mv.to, Counts: mv.c}
			m.derive()
			n.Moves[k] = m
		}
		out = append(out, n)
		return nil
	})
	return out
}
