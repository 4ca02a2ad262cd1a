package tree

// Pruning: how a forest stays within its bound on positions.

import (
	"sync"

	"github.com/frctool/frctool/position"
)

// prune drops the least-played leaves of all trees until at most target
// positions are left, or no leaf but roots is: a position whose every
// move leads back to one above it (a knight out and back to the root) is
// never a leaf, and stays. Of equally played leaves the newest
// go first: the older ones have had more games' chances to be played
// again. Leaves reached by 255 games or more count as equally played.
// Each round drops leaves of the fewest games only, so that a position
// left a leaf by the round before is weighed against the others.
//
// The rounds are played on the counts of moves left to each node, and
// the nodes and moves dropped by all of them are removed at once: the
// leaves of random games are one a game, so a pruning takes a few
// rounds, and removing is most of its work. Each store removes its own,
// at the same time as the others.
func (f *Forest) prune(target int) {
	left := f.Len()
	if left <= target {
		return
	}
	f.eachStore((*store).startPruning)
	for _, t := range f.trees {
		if t.rootNode >= 0 {
			t.s.scratch.remap[t.rootNode] = root
		}
	}
	// byGames counts the leaves by their games, the last entry those
	// with more: a sort of millions of leaves would cost more than the
	// rest of pruning. The leaves are counted once; the rounds' passes
	// keep the counts up to date.
	f.eachStore((*store).countLeaves)
	var byGames [256]int
	pruned := 0
	for left > target {
		clear(byGames[:])
		for _, st := range f.stores {
			for g, n := range st.scratch.byGames {
				byGames[g] += n
			}
		}
		limit := 0
		for limit < len(byGames) && byGames[limit] == 0 {
			limit++
		}
		if limit == len(byGames) {
			break
		}
		need := min(left-target, byGames[limit])
		if need == byGames[limit] {
			// Every leaf of the bucket goes: which are newest does not
			// matter, and most rounds are such.
			f.eachStore(func(s *store) { s.dropLeaves(uint8(limit)) })
		} else {
			f.dropNewest(limit, need)
		}
		left -= need
		pruned += need
		if left > target {
			// The moves to the nodes dropped are dropped: their nodes
			// may be leaves in the next round. After the last, remove
			// needs only which nodes go.
			f.eachStore((*store).dropMoves)
		}
	}
	if pruned == 0 {
		return
	}
	byStore := make(map[*store][]*Tree, len(f.stores))
	for _, t := range f.trees {
		byStore[t.s] = append(byStore[t.s], t)
	}
	var wg sync.WaitGroup
	for _, st := range f.stores {
		if st.scratch.dropped == 0 {
			continue
		}
		wg.Go(func() {
			sc := &st.scratch
			st.remove(sc)
			for _, t := range byStore[st] {
				if t.rootNode >= 0 {
					t.rootNode = sc.remap[t.rootNode]
					t.index.renumber(sc.remap)
				}
			}
		})
	}
	wg.Wait()
	f.Summary.Pruned += int64(pruned)
}

// Marks of pruneScratch.remap before remove sets the new indices.
const (
	drop = -1 // a node dropped
	root = -2 // a tree's root, never dropped
)

// eachStore calls fn with each store, the stores at once when there are
// several: a pruning waits for every store, and each pass over a store's
// lists is a pass over memory.
func (f *Forest) eachStore(fn func(*store)) {
	if len(f.stores) == 1 {
		fn(f.stores[0])
		return
	}
	var wg sync.WaitGroup
	for _, st := range f.stores {
		wg.Go(func() { fn(st) })
	}
	wg.Wait()
}

// startPruning sets the scratch up for a pruning: no node dropped yet,
// each node's games and count of moves, and each move's node and the
// node it leads to. The rounds of a pruning read these arrays of a few
// bytes an entry, not the nodes and moves of 28 and 24 bytes.
func (s *store) startPruning() {
	sc := &s.scratch
	n := s.nodes.len()
	sc.dropped = 0
	sc.remap = roomy(sc.remap, n)
	clear(sc.remap)
	sc.moves = roomy(sc.moves, n)
	clear(sc.moves)
	sc.games = roomy(sc.games, n)
	i := 0
	for _, ch := range s.nodes.chunks {
		for j := range ch {
			sc.games[i] = uint8(min(ch[j].games, 255))
			i++
		}
	}
	m := s.links.len()
	sc.from = roomy(sc.from, m)
	sc.child = roomy(sc.child, m)
	e := 0
	for _, ch := range s.links.chunks {
		for j := range ch {
			sc.from[e], sc.child[e] = ch[j].from, ch[j].child
			sc.moves[ch[j].from]++
			e++
		}
	}
}

// roomy returns s with length n, grown with a quarter to spare when it
// must grow: a forest at its bound prunes stores of about the same size
// again and again, and growing to the exact size each time a store
// passes its size of the pruning before took new memory for every array
// twice, which on the lichess-like file made the first two prunings take
// 113 and 82 ms to set up against 7 ms for the later ones.
func roomy[T any](s []T, n int) []T {
	if cap(s) < n {
		s = make([]T, n, n+n/4)
	}
	return s[:n]
}

// countLeaves counts the store's leaves left by their games, in
// scratch.byGames.
func (s *store) countLeaves() {
	sc := &s.scratch
	clear(sc.byGames[:])
	for i, r := range sc.remap {
		if r == 0 && sc.moves[i] == 0 {
			sc.byGames[sc.games[i]]++
		}
	}
}

// dropMoves drops the moves to the nodes dropped, and counts them off
// their nodes' moves; a node left with none is a leaf, counted in
// scratch.byGames. (The nodes a move is dropped from are never dropped
// themselves: they had moves.)
func (s *store) dropMoves() {
	sc := &s.scratch
	from := sc.from
	for e, c := range sc.child {
		if p := from[e]; p >= 0 && sc.remap[c] == drop {
			sc.moves[p]--
			from[e] = -1
			if sc.moves[p] == 0 && sc.remap[p] == 0 {
				sc.byGames[sc.games[p]]++
			}
		}
	}
}

// dropLeaves drops all of the store's leaves of games bucket limit.
func (s *store) dropLeaves(limit uint8) {
	sc := &s.scratch
	remap, moves, games := sc.remap, sc.moves[:len(sc.remap)], sc.games[:len(sc.remap)]
	for i := range remap {
		if games[i] == limit && remap[i] == 0 && moves[i] == 0 {
			remap[i] = drop
			sc.dropped++
		}
	}
	sc.byGames[limit] = 0
}

// dropNewest drops the need newest leaves of games bucket limit, of all
// stores: a store's nodes are in the order they were added, so each
// store's newest leaves are found looking through it from its end, and
// the stores' are merged by their ordinals. Two stores' leaves are never
// of the same line, which adds to one tree; forests merged or past
// 2³²-1 lines may have equal ordinals in two stores, and the first
// store's goes first.
func (f *Forest) dropNewest(limit, need int) {
	f.eachStore(func(s *store) { s.newestLeaves(uint8(limit), need) })
	if len(f.stores) == 1 {
		s := f.stores[0]
		for _, i := range s.scratch.cands {
			s.scratch.remap[i] = drop
		}
		s.scratch.dropped += len(s.scratch.cands)
		s.scratch.byGames[limit] -= len(s.scratch.cands)
		return
	}
	next := make([]int, len(f.stores)) // each store's next candidate
	for ; need > 0; need-- {
		best, born := -1, uint32(0)
		for k, s := range f.stores {
			if j := next[k]; j < len(s.scratch.cands) {
				if b := s.scratch.borns[j]; best < 0 || b > born {
					best, born = k, b
				}
			}
		}
		if best < 0 {
			return
		}
		sc := &f.stores[best].scratch
		sc.remap[sc.cands[next[best]]] = drop
		sc.dropped++
		sc.byGames[limit]--
		next[best]++
	}
}

// newestLeaves puts in scratch.cands the store's newest need leaves of
// games bucket limit, newest first, and their ordinals in scratch.borns.
func (s *store) newestLeaves(limit uint8, need int) {
	sc := &s.scratch
	sc.cands, sc.borns = sc.cands[:0], sc.borns[:0]
	remap, moves, games := sc.remap, sc.moves[:len(sc.remap)], sc.games[:len(sc.remap)]
	for i := len(remap) - 1; i >= 0 && len(sc.cands) < need; i-- {
		if games[i] == limit && remap[i] == 0 && moves[i] == 0 {
			sc.cands = append(sc.cands, int32(i))
		}
	}
	for _, i := range sc.cands {
		sc.borns = append(sc.borns, s.nodes.at(i).born)
	}
}

// pruneScratch is the memory pruning works in, kept from one pruning to
// the next: a forest at its bound prunes again and again, and new memory
// costs more to touch than the work done in it.
type pruneScratch struct {
	// remap is each node's new index, or drop; from and child are each
	// move's ends as startPruning found them, from -1 once dropped.
	remap, from, child []int32
	moves              []uint8  // each node's moves left: at most 218, the most any position has
	cands              []int32  // see newestLeaves
	borns              []uint32 // see newestLeaves
	games              []uint8  // each node's games, 255 for more
	byGames            [256]int
	dropped            int // nodes dropped
}

// remove drops the nodes whose sc.remap is -1, which must have no moves
// from them (leaves), and the moves leading to them, and leaves in
// sc.remap the nodes' new indices (-1 for a node dropped). Nodes and
// moves keep their order and are moved down in place, each list in one
// pass, so that pruning needs no second copy of the trees; each node's
// list of moves is then linked again, newest first.
func (s *store) remove(sc *pruneScratch) {
	remap := sc.remap
	kept := int32(0)
	for i := range remap {
		if remap[i] == drop {
			continue
		}
		remap[i] = kept
		n := s.nodes.at(kept)
		if kept != int32(i) {
			*n = *s.nodes.at(int32(i))
		}
		// Its moves are linked again below, and the wide nodes are
		// found again as they are looked through.
		n.first, n.mark = -1, 0
		kept++
	}
	// A move is dropped with the position it leads to; the moves kept
	// are moved down, which writes over moves before them only, read
	// already. The moves' ends are read from the array startPruning
	// filled, as they were before anything moved.
	ekept := int32(0)
	for e, c := range sc.child {
		l := s.links.at(int32(e))
		if remap[c] < 0 {
			// The edge of a move dropped goes to a move to come.
			if d := l.data(); d&inEdge != 0 {
				s.freeCounts = append(s.freeCounts, int32(uint32(d)))
			}
			continue
		}
		moved := *l
		moved.child = remap[moved.child]
		moved.from = remap[moved.from]
		*s.links.at(ekept) = moved
		// The move that added a node kept is kept with it. Nodes still
		// name moves by their old indices, and a move's new index is
		// never above its old one, nor above a later move's old one: a
		// node renamed already is not mistaken for one to rename.
		if n := s.nodes.at(moved.child); n.in == int32(e) {
			n.in = ekept
		}
		ekept++
	}
	s.nodes.truncate(kept)
	s.links.truncate(ekept)
	orphans := make(map[int32]position.Key, len(s.orphans))
	for n, k := range s.orphans {
		if to := remap[n]; to >= 0 {
			orphans[to] = k
		}
	}
	s.orphans = orphans
	// The nodes and moves have new indices: each node's list of moves
	// is made again, newest first (their order is only where a lookup
	// starts).
	s.wide.reset()
	for e := range ekept {
		l := s.links.at(e)
		n := s.nodes.at(l.from)
		l.next, n.first = n.first, e
	}
}
