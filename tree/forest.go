package tree

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/internal/pipeline"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/replay"
	"github.com/frctool/frctool/startpos"
	"github.com/frctool/frctool/stats"
	"github.com/frctool/frctool/where"
)

// Options say which trees a Forest builds and how large they may grow.
type Options struct {
	// Depth is the number of plies each tree holds below its root; 0
	// means DefaultDepth.
	Depth int
	// MaxNodes bounds the positions held by all trees together, each
	// about NodeBytes; 0 means no bound. When the bound is passed, the
	// positions with no move from them (the leaves) that the fewest games
	// reached are dropped, the newest first of equally played ones, with
	// the moves leading to them, down to three quarters of the bound;
	// Summary.Pruned counts them. A position dropped and reached again
	// later counts only the games from then on. A position all of whose
	// moves lead back to positions above it, as a knight played out and
	// back to the start does, never becomes a leaf: under a very small
	// bound, more positions than the bound may stay.
	//
	// The bound is checked after every few lines added (a 64th of the
	// bound over the most positions a line adds, at least one) and when
	// Run returns, so a Forest may pass it by a 64th in between. Checked
	// at fixed counts of lines, pruning drops the same positions however
	// many goroutines add the lines.
	MaxNodes int
	// Start, if set, is the one start position whose games are taken,
	// whatever its kind (a Chess960 array, a DFRC pair, any position set
	// up by a FEN tag). If nil, the games of each Chess960 array go into
	// a tree of their own, and games from any other start are skipped;
	// an array set up otherwise (without castling rights, as TCEC's
	// no-castling events have it, or with Black to move) has a tree
	// apart, with the array's SP.
	Start *fen.Position
	// Moves, with Start, are moves in SAN from Start to the position the
	// tree starts from: "1. e4 e5 2. Nf3". Move numbers, comments and a
	// result are allowed and ignored. A game counts from the first time
	// it reaches that position, by these moves or others, if it does
	// within as many plies as Moves has plus Depth.
	Moves string
}

// NodeBytes is about what a position of a tree takes in memory: its
// counts, ordinal, filter of its moves and key (72 bytes), the move leading to it (24 bytes, a tree
// having about one move per position; 64 more for a move two games or
// more played, which random games' moves rarely are) and its slot in the
// index of its tree (8 bytes, in a table between three eighths and three
// quarters full). BenchmarkBuild measures it.
const NodeBytes = 122

// Summary counts what a Forest did with the games selected.
type Summary struct {
	// Games counts the games added to a tree.
	Games int64 `json:"games"`
	// OtherStart counts the games skipped because they start from
	// elsewhere: not a Chess960 array when every array has its tree
	// (DFRC pairs, other positions, unknown starts), or not the chosen
	// start.
	OtherStart int64 `json:"other_start"`
	// NotReached counts the games from the chosen start that never
	// reached the position after Options.Moves.
	NotReached int64 `json:"not_reached"`
	// Failed counts the games with a move that could not be read or
	// played among the plies looked at; they count up to the move
	// before.
	Failed int64 `json:"failed"`
	// Pruned counts the positions dropped to stay within MaxNodes.
	Pruned int64 `json:"pruned"`
}

// string returns the summary as the end of a summary line: "1200 games
// in 3 trees (48210 positions)", then the games skipped or cut short and
// the positions pruned, when there are such.
func (s *Summary) string(trees, positions int) string {
	str := fmt.Sprintf("%d games in %d %s (%d positions)", s.Games, trees, plural(trees, "tree", "trees"), positions)
	if s.OtherStart > 0 {
		str += fmt.Sprintf(", %d from other starts skipped", s.OtherStart)
	}
	if s.NotReached > 0 {
		str += fmt.Sprintf(", %d not reaching the position", s.NotReached)
	}
	if s.Failed > 0 {
		str += fmt.Sprintf(", %d cut short by a move that cannot be played", s.Failed)
	}
	if s.Pruned > 0 {
		str += fmt.Sprintf(", %d positions pruned to stay within the node bound (their counts are partial)", s.Pruned)
	}
	return str
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (s *Summary) merge(o *Summary) {
	s.Games += o.Games
	s.OtherStart += o.OtherStart
	s.NotReached += o.NotReached
	s.Failed += o.Failed
	s.Pruned += o.Pruned
}

// Forest is a set of opening trees, one per start position. It is not
// safe for concurrent use: Run shares the work out over goroutines of its
// own, and returns when they are done.
type Forest struct {
	depth    int
	maxNodes int
	sel      *selection // nil: a tree per Chess960 array
	trees    []*Tree
	byRoot   map[position.Key]int
	// stores hold the positions of the trees, each tree in one: the
	// trees of different stores can be added to at once.
	stores []*store
	// added counts the lines added, and every is how many lines pass
	// between checks of MaxNodes.
	added, every uint64
	// Summary counts what was done with the games selected.
	Summary Summary
	// Totals count every game read and the problems reported.
	Totals startpos.Tally
	// sps marks the SPs of the Chess960 games read, which Totals counts
	// but does not give back: JSON documents carry them, so that the
	// distinct SPs of merged documents are those of one run.
	sps [(numbering.Count + 63) / 64]uint64
}

// selection is the one start and root position of Options.Start.
type selection struct {
	startKey, rootKey position.Key
	rootPlies         int
}

// NewForest returns an empty forest for the options. It fails when the
// depth is out of range, or when Start cannot be played from or Moves
// cannot be played from it.
func NewForest(opts Options) (*Forest, error) {
	depth := opts.Depth
	if depth == 0 {
		depth = DefaultDepth
	}
	if depth < 0 || depth > MaxDepth {
		return nil, fmt.Errorf("%w %d: want 1 to %d plies", ErrDepth, opts.Depth, MaxDepth)
	}
	f := newForest(depth, opts.MaxNodes, min(runtime.GOMAXPROCS(0), maxStores))
	if opts.Start == nil {
		if strings.TrimSpace(opts.Moves) != "" {
			return nil, fmt.Errorf("%w: moves need a start position to be played from", ErrMoves)
		}
		return f, nil
	}
	b, err := position.FromFEN(*opts.Start)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	// The array names the tree, whatever the castling rights or the
	// side to move the FEN gives (TCEC's no-castling events start from
	// arrays without rights).
	sp, ok := opts.Start.Start().SP()
	if !ok {
		sp = -1
	} else {
		b.SetChess960(sp != numbering.StandardSP)
	}
	sel := &selection{startKey: b.Key()}
	root := Root{SP: sp, Start: startFEN(b)}
	moves, err := playMoves(b, opts.Moves)
	if err != nil {
		return nil, err
	}
	sel.rootKey, sel.rootPlies = b.Key(), b.MovesPlayed()
	root.Moves, root.FEN, root.Plies = moves, startFEN(b), sel.rootPlies
	f.sel = sel
	f.addTree(newTree(f.storeFor(b.Key()), root, b, f.depth))
	return f, nil
}

// maxStores bounds the stores of a forest, and so the goroutines adding
// to it at once.
const maxStores = 8

// newForest returns an empty forest of trees of depth plies, bounded to
// maxNodes positions (0: no bound), in n stores.
func newForest(depth, maxNodes, n int) *Forest {
	f := &Forest{depth: depth, maxNodes: max(maxNodes, 0), byRoot: map[position.Key]int{}}
	f.every = uint64(max(f.maxNodes/(64*(depth+2)), 1))
	for range max(n, 1) {
		f.stores = append(f.stores, newStore())
	}
	return f
}

// storeFor returns the store of the tree rooted at k: the same for the
// same root whatever the trees already there, so that a forest built
// twice from the same games has its trees in the same stores.
func (f *Forest) storeFor(k position.Key) *store {
	return f.stores[k.Hash()%uint64(len(f.stores))]
}

// playMoves plays the SAN moves of text on b and returns them written
// again with move numbers.
func playMoves(b *position.Board, text string) (string, error) {
	var sc pgn.MovetextScanner
	sc.Reset([]byte(text), 1)
	var line []byte
	for sc.Next() {
		if sc.Kind() != pgn.TokenMove || sc.Depth() > 0 {
			continue
		}
		tok := string(sc.Token().Text)
		m, err := b.ParseMove(tok)
		if err == nil && m == position.NullMove {
			err = fmt.Errorf("a null move passes the turn only in analysis")
		}
		if err != nil {
			return "", fmt.Errorf("%w: move %d%s %w", ErrMoves, b.FullMoveNumber(), dots(b.Turn()), err)
		}
		line = appendMove(line, b, m, len(line) == 0)
		b.Push(m)
	}
	return string(line), nil
}

func dots(c position.Color) string {
	if c == position.Black {
		return "..."
	}
	return "."
}

// appendMove appends m, a move of b, to a line of moves: with its number
// before White's moves, and before Black's when it opens the line.
func appendMove(line []byte, b *position.Board, m position.Move, first bool) []byte {
	var buf [16]byte
	return appendNumbered(line, b, b.AppendSAN(buf[:0], m), first)
}

// appendNumbered appends san, the SAN of a move of b, as appendMove
// does.
func appendNumbered(line []byte, b *position.Board, san []byte, first bool) []byte {
	if !first {
		line = append(line, ' ')
	}
	if b.Turn() == position.White || first {
		line = strconv.AppendInt(line, int64(b.FullMoveNumber()), 10)
		line = append(line, dots(b.Turn())...)
		line = append(line, ' ')
	}
	return append(line, san...)
}

// spKeys are the keys of the 960 start positions, as position.Start sets
// them up: White to move, every rook free to castle.
var spKeys = sync.OnceValue(func() map[position.Key]int {
	keys := make(map[position.Key]int, numbering.Count)
	for sp := range numbering.Count {
		b, err := position.Start(sp)
		if err != nil {
			panic(fmt.Sprintf("tree: start position %d: %v", sp, err))
		}
		keys[b.Key()] = sp
	}
	return keys
})

// spOf returns the SP whose start position has key k, -1 for none.
func spOf(k position.Key) int {
	if sp, ok := spKeys()[k]; ok {
		return sp
	}
	return -1
}

// Depth returns the number of plies the trees hold below their roots.
func (f *Forest) Depth() int { return f.depth }

// Len returns the number of positions in all trees.
func (f *Forest) Len() int {
	n := 0
	for _, s := range f.stores {
		n += s.nodes.len()
	}
	return n
}

// Trees returns the trees, by SP (trees of other starts last), then by
// start and root position.
func (f *Forest) Trees() []*Tree {
	ts := slices.Clone(f.trees)
	slices.SortStableFunc(ts, func(a, b *Tree) int {
		ka, kb := a.root.SP, b.root.SP
		if ka < 0 {
			ka = numbering.Count
		}
		if kb < 0 {
			kb = numbering.Count
		}
		return cmp.Or(cmp.Compare(ka, kb), strings.Compare(a.root.Start, b.root.Start), strings.Compare(a.root.FEN, b.root.FEN))
	})
	return ts
}

// String returns the summary line's part about the trees: the Summary
// with the number of trees and positions.
func (f *Forest) String() string { return f.Summary.string(len(f.trees), f.Len()) }

func (f *Forest) addTree(t *Tree) int {
	f.trees = append(f.trees, t)
	f.byRoot[t.rootKey] = len(f.trees) - 1
	return len(f.trees) - 1
}

// treeFor returns the tree rooted at k, adding the tree of SP sp when
// there is none: from the start array, or from start when the game set
// the array up otherwise.
func (f *Forest) treeFor(k position.Key, sp int, start *fen.Position) (*Tree, error) {
	if i, ok := f.byRoot[k]; ok {
		return f.trees[i], nil
	}
	if f.sel != nil || sp < 0 {
		return nil, fmt.Errorf("no tree for the line's first position")
	}
	b, err := position.Start(sp)
	if start != nil && err == nil {
		b, err = position.FromFEN(*start)
		b.SetChess960(sp != numbering.StandardSP)
	}
	if err != nil {
		return nil, err
	}
	s := startFEN(b)
	// The tree's root node is added with its first line, by the
	// goroutine adding to its store (see Tree.init).
	t := newShell(f.storeFor(k), Root{SP: sp, Start: s, FEN: s}, b, f.depth)
	if t.rootKey != k {
		// Such a line is a bug of the Walker.
		return nil, fmt.Errorf("the line's first position is not the start position of SP %d", sp)
	}
	return f.trees[f.addTree(t)], nil
}

// Add adds the game of line l to the tree its first position is the root
// of; SP is the line's Chess960 array, which names the tree to add when
// there is none yet (-1 for none). It fails when no tree has that root
// and none can be added for it.
func (f *Forest) Add(l *Line, sp int) error {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(f)
	t, stamp, err := f.route(l, sp)
	if err != nil {
		return err
	}
	t.stamp = stamp
	t.Add(l)
	if f.due() && f.Len() > f.maxNodes {
		f.prune(f.maxNodes * 3 / 4)
	}
	return nil
}

// route returns the tree line l goes to, adding it when there is none,
// and the line's ordinal, and counts the line as added.
func (f *Forest) route(l *Line, sp int) (*Tree, uint32, error) {
	if len(l.Steps) == 0 {
		return nil, 0, fmt.Errorf("adding a line with no position")
	}
	t, err := f.treeFor(l.Steps[0].Key, sp, l.start)
	if err != nil {
		return nil, 0, err
	}
	f.Summary.Games++
	return t, f.stamp(), nil
}

// stamp counts a line or tree added and returns its ordinal, which the
// nodes it adds are born with. Past 2³²-1 lines, the newest lines share
// the last ordinal, and pruning tells their positions apart by store.
func (f *Forest) stamp() uint32 {
	f.added++
	return uint32(min(f.added, math.MaxUint32))
}

// due reports whether the bound on positions is checked after the line
// just added.
func (f *Forest) due() bool { return f.maxNodes > 0 && f.added%f.every == 0 }

// settle prunes the forest when it holds more positions than its bound.
func (f *Forest) settle() {
	if f.maxNodes > 0 && f.Len() > f.maxNodes {
		f.prune(f.maxNodes * 3 / 4)
	}
}

// Merge adds the trees, summary and totals of o to f. Trees with the same
// root are added up; the others are added as they are. The depths must
// be equal. Past f's MaxNodes, f is pruned as Add prunes it.
func (f *Forest) Merge(o *Forest) error {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(f)
	defer runtime.KeepAlive(o)
	if o.depth != f.depth {
		return fmt.Errorf("%w: merging trees of %d plies into trees of %d", ErrDepth, o.depth, f.depth)
	}
	for _, ot := range o.trees {
		i, ok := f.byRoot[ot.rootKey]
		if !ok {
			i = f.addTree(newShell(f.storeFor(ot.rootKey), ot.root, &ot.board, f.depth))
		}
		// Each tree's new positions are born with an ordinal of their
		// own, as a line's are.
		t := f.trees[i]
		t.stamp = f.stamp()
		if err := t.Merge(ot); err != nil {
			return err
		}
	}
	f.Summary.merge(&o.Summary)
	f.Totals.Merge(&o.Totals)
	f.settle()
	for i := range f.sps {
		f.sps[i] |= o.sps[i]
	}
	return nil
}

// markSP records a Chess960 game's SP for the documents' totals.
func (f *Forest) markSP(sp int) {
	if sp >= 0 && sp < numbering.Count {
		f.sps[sp/64] |= 1 << (sp % 64)
	}
}

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
// leaves of random games are one a game, so a pruning takes two or three
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
	// rest of pruning.
	var byGames [256]int
	pruned := 0
	for left > target {
		clear(byGames[:])
		f.eachStore((*store).countLeaves)
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
		f.dropNewest(limit, need)
		// The moves to the nodes dropped are dropped: their nodes may
		// be leaves in the next round.
		f.eachStore((*store).dropMoves)
		left -= need
		pruned += need
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
	from := roomy(sc.edgeMap, m)
	sc.child = roomy(sc.child, m)
	sc.next = roomy(sc.next, m)
	e := 0
	for _, ch := range s.links.chunks {
		for j := range ch {
			from[e], sc.child[e], sc.next[e] = ch[j].from, ch[j].child, ch[j].next
			sc.moves[ch[j].from]++
			e++
		}
	}
	sc.edgeMap = from
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
// their nodes' moves.
func (s *store) dropMoves() {
	sc := &s.scratch
	from := sc.edgeMap
	for e, c := range sc.child {
		if p := from[e]; p >= 0 && sc.remap[c] == drop {
			sc.moves[p]--
			from[e] = -1
		}
	}
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
	remap, edgeMap, child []int32
	moves                 []uint8  // each node's moves left: at most 218, the most any position has
	next                  []int32  // each move's next
	cands                 []int32  // see newestLeaves
	borns                 []uint32 // see newestLeaves
	games                 []uint8  // each node's games, 255 for more
	byGames               [256]int
	dropped               int // nodes dropped
}

// remove drops the nodes whose sc.remap is -1, which must have no moves
// from them (leaves), and the moves leading to them, and leaves in
// sc.remap the nodes' new indices (-1 for a node dropped). Nodes and
// moves keep their order and are moved down in place, each list in one
// pass, so that pruning needs no second copy of the trees.
func (s *store) remove(sc *pruneScratch) {
	remap := sc.remap
	kept := int32(0)
	for i := range remap {
		if remap[i] == drop {
			continue
		}
		remap[i] = kept
		if kept != int32(i) {
			*s.nodes.at(kept) = *s.nodes.at(int32(i))
			*s.keys.at(kept) = *s.keys.at(int32(i))
		}
		kept++
	}
	// A move is dropped with the position it leads to. The moves' ends
	// and next moves are read from the arrays startPruning filled, as
	// they were before anything moved.
	edgeMap := sc.edgeMap[:len(sc.child)]
	ekept := int32(0)
	for e, c := range sc.child {
		if remap[c] < 0 {
			edgeMap[e] = -1
			continue
		}
		edgeMap[e] = ekept
		ekept++
	}
	// A link to a move dropped is to the next move kept, found through
	// the dropped ones.
	next := sc.next[:len(edgeMap)]
	kept1 := func(e int32) int32 {
		for e >= 0 && edgeMap[e] < 0 {
			e = next[e]
		}
		if e < 0 {
			return -1
		}
		return edgeMap[e]
	}
	// Moving a move down writes over moves before it only, which have
	// been read.
	for e, to := range edgeMap {
		l := s.links.at(int32(e))
		if to < 0 {
			// The edge of a move dropped goes to a move to come.
			if d := l.data(); d&inEdge != 0 {
				s.freeCounts = append(s.freeCounts, int32(uint32(d)))
			}
			continue
		}
		moved := *l
		moved.next = kept1(next[e])
		moved.child = remap[moved.child]
		moved.from = remap[moved.from]
		*s.links.at(to) = moved
	}
	s.nodes.truncate(kept)
	s.keys.truncate(kept)
	s.links.truncate(ekept)
	// The nodes and moves have new indices: the wide nodes are found
	// again as they are looked through.
	s.wide.reset()
	for _, ch := range s.nodes.chunks {
		for j := range ch {
			n := &ch[j]
			n.first = kept1(n.first)
			n.mark = 0
		}
	}
}

// Fate is what a Walker did with a game.
type Fate uint8

// The fates of a game.
const (
	// Added: the game's line is ready to add.
	Added Fate = iota
	// OtherStart: the game starts from a position with no tree.
	OtherStart
	// NotReached: the game never reached the root position.
	NotReached
)

// Walker replays the openings of games for a Forest: one per goroutine,
// since it keeps a board. It only reads the Forest's options, which do
// not change, so walkers may run beside the goroutine adding to it.
type Walker struct {
	depth int
	sel   *selection
	board position.Board
	scan  pgn.MovetextScanner
	// steps, if set, gives the slices for lines' Steps, which Run takes
	// back once a line is added: a game's line then costs no allocation.
	steps *sync.Pool
	// starts are the start positions met, by their FEN tag, and
	// standard the one of games without: each read once, since most
	// archives have a few hundred, and reading one costs more than the
	// rest of a short game's walk.
	starts   map[string]*start
	standard *start
}

// start is a start position as a Walker read it.
type start struct {
	pos  fen.Position
	key  position.Key
	hash uint64
	sp   int // spOf(key)
}

// maxStarts bounds Walker.starts: an archive of set-up positions (puzzles,
// endgames) has a start per game.
const maxStarts = 4096

// newSteps returns an empty slice for a line's Steps.
func (w *Walker) newSteps() []Step {
	if w.steps != nil {
		if s, ok := w.steps.Get().(*[]Step); ok {
			return (*s)[:0]
		}
	}
	return make([]Step, 0, w.depth+1)
}

// NewWalker returns a Walker for the forest's trees.
func (f *Forest) NewWalker() *Walker {
	return &Walker{depth: f.depth, sel: f.sel}
}

// standard is the standard start, for games without a FEN tag.
var standard = func() fen.Position {
	r, _ := numbering.FromSP(numbering.StandardSP)
	return fen.StartPosition(r, r)
}()

// nullMove is why a null move fails: a game cannot pass the turn.
const nullMove = "a null move can stand in a variation, not in the game"

// Walk replays the opening of game g, whose class c is what
// startpos.Classify says of it, and fills in l with the positions from
// the root on (a new Steps slice, which the line keeps), the result, the
// ratings and the date. It returns what it made of the game, whether a
// move of the plies it looked at could not be read or played (the line
// then ends before it), and that problem, as package replay words it.
// sp is the game's Chess960 array, -1 for none.
func (w *Walker) Walk(g *pgn.Game, c *startpos.Class, l *Line) (fate Fate, sp int, failed bool, problems []*pgn.ParseError) {
	*l = Line{}
	sp = -1
	if s, ok := c.Start.SP(); ok {
		sp = s
	}
	if !c.Counted || c.Start.Kind == startpos.Unknown || (w.sel == nil && sp < 0) {
		return OtherStart, sp, false, nil
	}
	var tag []byte
	st := w.standard
	if c.Start.FEN >= 0 {
		tag = g.Tags[c.Start.FEN].Value
		st = w.starts[string(tag)]
	}
	if st == nil {
		p := standard
		if tag != nil {
			var err error
			if p, err = fen.ParseBytes(tag); err != nil {
				return OtherStart, sp, false, nil
			}
		}
		st = &start{pos: p}
		if err := w.board.SetPosition(p); err != nil {
			line := g.Line
			if tag != nil {
				line = g.Tags[c.Start.FEN].Line
			}
			return OtherStart, sp, false, []*pgn.ParseError{replay.Problem(g, line, replay.GameError{Err: fmt.Errorf("%w: %w", startpos.ErrFEN, err)})}
		}
		st.key = w.board.Key()
		st.hash, st.sp = st.key.Hash(), spOf(st.key)
		switch {
		case tag == nil:
			w.standard = st
		case w.starts == nil || len(w.starts) >= maxStarts:
			w.starts = map[string]*start{string(tag): st}
		default:
			w.starts[string(tag)] = st
		}
	}
	b := &w.board
	// The board is set up at the game's first move: a game without
	// moves needs none.
	ready := false
	k := st.key
	var root position.Key
	limit := w.depth
	if w.sel == nil {
		root = k
		if st.sp != sp {
			// The array set up otherwise (no castling rights, Black to
			// move) is a start of its own, and a tree of its own.
			l.start = &st.pos
		}
	} else {
		if k != w.sel.startKey {
			return OtherStart, sp, false, nil
		}
		root = w.sel.rootKey
		limit += w.sel.rootPlies
	}
	recording := k == root
	if recording {
		l.Steps = append(w.newSteps(), Step{Key: k, hash: st.hash})
	}
	w.scan.Reset(g.Movetext(), g.MovetextLine())
	for ply := 0; w.scan.Next(); {
		if w.scan.Kind() != pgn.TokenMove || w.scan.Depth() > 0 {
			continue
		}
		if (recording && len(l.Steps) > w.depth) || (!recording && ply >= limit) {
			break
		}
		if !ready {
			b.SetPosition(st.pos) // set up once without error already
			b.SetChess960(!(c.Start.Kind == startpos.Chess960 && sp == numbering.StandardSP))
			ready = true
		}
		text := w.scan.Text()
		m, err := b.ParseMove(string(text))
		if err == nil && m == position.NullMove {
			err = &position.MoveError{Kind: position.ErrIllegalMove, Text: string(text), Reason: nullMove}
		}
		if err != nil {
			problems = append(problems, replay.Problem(g, w.scan.Token().Line, replay.GameError{Move: b.FullMoveNumber(), BlackMove: b.Turn() == position.Black, Err: err}))
			failed = true
			break
		}
		b.Push(m)
		ply++
		k := b.Key()
		switch {
		case recording:
			l.Steps[len(l.Steps)-1].Move = m
			l.Steps = append(l.Steps, Step{Key: k, hash: k.Hash()})
		case k == root:
			recording = true
			l.Steps = append(w.newSteps(), Step{Key: k, hash: k.Hash()})
		}
	}
	if !recording {
		return NotReached, sp, failed, problems
	}
	describe(g, l)
	return Added, sp, failed, problems
}

// describe fills in the line's result, ratings and date from the game's
// tags: the result as fields.Result gives it, ratings as fields.Rating
// reads them, the Date tag, or UTCDate.
func describe(g *pgn.Game, l *Line) {
	result, _ := fields.Result(g)
	l.Outcome, _ = stats.ParseResult(result)
	rating := func(name string) int {
		v, _ := g.Tag(name)
		if r, ok := fields.Rating(v); ok {
			return r
		}
		return 0
	}
	l.WhiteElo, l.BlackElo = rating("WhiteElo"), rating("BlackElo")
	if d, ok := fields.GameDate(g); ok {
		l.Year = d.Year
		l.Date = int32(d.Year*10000 + d.Month*100 + d.Day)
	}
}

// RunOptions say how Run runs and where its reports go.
type RunOptions struct {
	// Jobs is the number of goroutines replaying games, and at most the
	// number adding them to the trees (one per store, each a share of
	// the trees); 0 means one per core.
	Jobs int
	// Warn, if set, receives every problem of the input, in input order.
	Warn func(*pgn.ParseError)
	// Progress, if set, receives the number of games in each finished
	// batch.
	Progress func(games int)
	// Where, if set, selects the games to add; the others are read and
	// tallied but not replayed. nil takes every game.
	Where *where.Expr
}

// walked is a worker's result for one game.
type walked struct {
	line   Line
	fate   Fate
	sp     int
	failed bool
}

// Run adds every game of r that opts.Where selects to the forest's
// trees, replaying games on up to opts.Jobs goroutines and adding them in
// input order. It can be called again with the same forest for further
// inputs.
func Run(ctx context.Context, r *pgn.Reader, f *Forest, opts RunOptions) error {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(f)
	// A line's steps go back to the walkers once added: a game's line
	// then costs no allocation.
	var steps sync.Pool
	// Lines are added on goroutines of their own, one per store or group
	// of stores, to which the goroutine keeping the input's order hands
	// each, a light task beside reading; with one job, on that goroutine.
	var sh *shards
	if opts.Jobs != 1 {
		sh = f.startShards(&steps, storeJobs(len(f.stores), opts.Jobs))
	}
	job := pipeline.Job[walked]{
		NewWorker: func() func(it *pipeline.Item[walked], out []byte) []byte {
			w := f.NewWalker()
			w.steps = &steps
			return func(it *pipeline.Item[walked], out []byte) []byte {
				if it.Selected {
					v := &it.Value
					var problems []*pgn.ParseError
					v.fate, v.sp, v.failed, problems = w.Walk(it.Game, &it.Class, &v.line)
					it.Problems = append(it.Problems, problems...)
				}
				return out
			}
		},
		Emit: func(it *pipeline.Item[walked]) error {
			if sp, ok := it.Class.Start.SP(); ok && it.Class.Counted {
				f.markSP(sp)
			}
			if !it.Selected {
				return nil
			}
			var handed bool
			var err error
			if sh != nil {
				handed, err = sh.count(&it.Value)
			} else {
				err = f.count(&it.Value)
			}
			if s := it.Value.line.Steps; cap(s) > 0 && !handed {
				steps.Put(&s)
			}
			return err
		},
	}
	err := pipeline.Run(ctx, r, pipeline.Options(opts), job, &f.Totals)
	if sh != nil {
		sh.stop()
	}
	// A tree made for a line that was never added, the run stopped,
	// still gets its root, and the games that reached only the root
	// are counted there.
	for _, t := range f.trees {
		t.init()
		t.s.nodes.at(t.rootNode).addResults(&t.rootOnly)
		t.rootOnly = Results{}
	}
	f.settle()
	return err
}

// storeJobs returns the number of goroutines adding to n stores for the
// given jobs (0: one per core): a goroutine per store, or per group of
// stores when fewer jobs are asked for.
func storeJobs(n, jobs int) int {
	if jobs > 0 {
		return max(min(n, jobs), 1)
	}
	return max(n, 1)
}

// count adds a worker's result to the forest.
func (f *Forest) count(v *walked) error {
	if !f.tally(v) {
		return nil
	}
	return f.Add(&v.line, v.sp)
}

// tally counts a worker's result in the summary, and reports whether its
// line is to be added.
func (f *Forest) tally(v *walked) bool {
	if v.failed {
		f.Summary.Failed++
	}
	switch v.fate {
	case OtherStart:
		f.Summary.OtherStart++
	case NotReached:
		f.Summary.NotReached++
	default:
		return true
	}
	return false
}

// shards add lines to the trees of a forest's stores on a goroutine per
// store, or per group of stores (store k in group k modulo the number of
// groups): the trees of one group are added to in input order, those of
// two groups at once. The goroutine handing them the lines (count, the
// one keeping the input's order) makes the trees, counts the lines, and
// checks the bound on positions at the counts of lines Forest.due names,
// as Forest.Add does: it waits there for every store to be up to date
// and prunes the forest while they wait, so that what is dropped is what
// one goroutine adding every line would drop. Since a line adds at most
// depth+2 positions, the wait is left out when the bound cannot have
// been passed: when the positions each group's goroutine says its stores
// hold, and those its lines still to add can add, are within it.
type shards struct {
	f       *Forest
	in      []chan []shardLine
	pending [][]shardLine
	free    chan []shardLine
	idle    chan struct{}
	wg      sync.WaitGroup
	// handed counts the lines handed to each group's goroutine, pending
	// ones included; added counts those it has added, after which held
	// is the positions its stores held.
	handed      []int64
	added, held []atomic.Int64
}

// shardLine is a line for a store's goroutine, with its tree and
// ordinal.
type shardLine struct {
	t     *Tree
	stamp uint32
	line  Line
}

// shardBatch is the number of lines handed to a store's goroutine at
// once.
const shardBatch = 128

func (f *Forest) startShards(steps *sync.Pool, n int) *shards {
	sh := &shards{f: f, idle: make(chan struct{}), free: make(chan []shardLine, 4*n)}
	sh.in = make([]chan []shardLine, n)
	sh.pending = make([][]shardLine, n)
	sh.handed = make([]int64, n)
	sh.added, sh.held = make([]atomic.Int64, n), make([]atomic.Int64, n)
	for k := range n {
		sh.in[k] = make(chan []shardLine, 4)
		sh.pending[k] = make([]shardLine, 0, shardBatch)
		sh.held[k].Store(sh.holds(k))
		sh.wg.Go(func() {
			for lines := range sh.in[k] {
				if lines == nil {
					// A wait: the store is up to date.
					sh.idle <- struct{}{}
					continue
				}
				for i := range lines {
					l := &lines[i]
					l.t.stamp = l.stamp
					l.t.Add(&l.line)
					if s := l.line.Steps; cap(s) > 0 {
						steps.Put(&s)
					}
				}
				// held before added: what count reads of added
				// is then in held.
				sh.held[k].Store(sh.holds(k))
				sh.added[k].Add(int64(len(lines)))
				clear(lines)
				select {
				case sh.free <- lines[:0]:
				default:
				}
			}
		})
	}
	return sh
}

// count counts v and hands its line to its store's goroutine, and
// reports whether it did, the line's Steps then being theirs.
func (sh *shards) count(v *walked) (bool, error) {
	f := sh.f
	if !f.tally(v) {
		return false, nil
	}
	t, stamp, err := f.route(&v.line, v.sp)
	if err != nil {
		return false, err
	}
	if len(v.line.Steps) == 1 {
		// A game with no move in the tree (header-only archives have
		// nothing else) counts at the root, which Run adds up at its
		// end: handing it to a store's goroutine would cost more.
		addOutcome(&t.rootOnly, v.line.Outcome)
		return false, nil
	}
	k := slices.Index(f.stores, t.s) % len(sh.in)
	sh.pending[k] = append(sh.pending[k], shardLine{t: t, stamp: stamp, line: v.line})
	if len(sh.pending[k]) == shardBatch {
		sh.send(k)
	}
	sh.handed[k]++
	if f.due() && sh.most() > int64(f.maxNodes) {
		sh.wait()
		if f.Len() > f.maxNodes {
			f.prune(f.maxNodes * 3 / 4)
			for k := range sh.in {
				sh.held[k].Store(sh.holds(k))
			}
		}
	}
	return true, nil
}

// holds returns the positions of group k's stores, which only group k's
// goroutine may call while it runs.
func (sh *shards) holds(k int) int64 {
	n := 0
	for i := k; i < len(sh.f.stores); i += len(sh.in) {
		n += sh.f.stores[i].nodes.len()
	}
	return int64(n)
}

// most returns the most positions the stores can hold once the lines
// handed over are added.
func (sh *shards) most() int64 {
	n := int64(0)
	for k := range sh.in {
		added := sh.added[k].Load()
		n += sh.held[k].Load() + (sh.handed[k]-added)*int64(sh.f.depth+2)
	}
	return n
}

// send hands store k's pending lines to its goroutine.
func (sh *shards) send(k int) {
	sh.in[k] <- sh.pending[k]
	select {
	case sh.pending[k] = <-sh.free:
	default:
		sh.pending[k] = make([]shardLine, 0, shardBatch)
	}
}

// wait returns once every line handed over is added.
func (sh *shards) wait() {
	for k := range sh.in {
		if len(sh.pending[k]) > 0 {
			sh.send(k)
		}
		sh.in[k] <- nil
	}
	for range sh.in {
		<-sh.idle
	}
}

// stop adds the lines pending and ends the goroutines.
func (sh *shards) stop() {
	for k := range sh.in {
		if len(sh.pending[k]) > 0 {
			sh.send(k)
		}
		close(sh.in[k])
	}
	sh.wg.Wait()
}
