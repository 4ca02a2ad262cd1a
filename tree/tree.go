package tree

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/stats"
)

// DefaultDepth is the number of plies a tree holds below its root when
// Options.Depth is 0: twelve plies, six moves each, the length of most
// opening books' lines.
const DefaultDepth = 12

// MaxDepth bounds Options.Depth. A tree is about openings; past a few
// dozen plies nearly every position is met once, and the tree is the
// archive again, in a costlier form.
const MaxDepth = 200

// Errors of building and merging trees.
var (
	// ErrDepth is an Options.Depth out of range, or a merge of trees of
	// different depths, whose sum would equal no single run.
	ErrDepth = errors.New("depth")
	// ErrMoves is a line of moves (Options.Moves) that cannot be played
	// from the start position.
	ErrMoves = errors.New("moves")
	// ErrStart is a start position that cannot be played from.
	ErrStart = errors.New("start position")
	// ErrTooManyGames is a count of games through a position or move
	// past MaxGames, from counting, a merge or a document.
	ErrTooManyGames = errors.New("too many games")
)

// MaxGames bounds the games through any one position or move of a tree,
// the root included: about 2.1 billion. A tree keeps its counts in 32
// bits, to hold millions of positions in little memory; a count, a merge
// or a document that would pass it is refused with ErrTooManyGames
// rather than wrapped around.
const MaxGames = math.MaxInt32

// Outcome is a game's result, as package stats reads it.
type Outcome = stats.Outcome

// Results count games by their outcome. Unfinished games (no result, or
// "*") are counted in Games only.
type Results struct {
	Games, WhiteWins, Draws, BlackWins int64
}

// Finished returns the number of games with a result.
func (r *Results) Finished() int64 { return r.WhiteWins + r.Draws + r.BlackWins }

// Counts are what the games that played a move add up to. The sums stay
// raw, so that trees add up exactly; Row derives the averages.
type Counts struct {
	Results
	// EloGames counts the games where the player making the move has a
	// rating, EloSum adds those ratings.
	EloGames, EloSum int64
	// OppGames counts the finished games where the player's opponent has
	// a rating, OppEloSum adds those ratings, and OppNet is the player's
	// wins minus losses in them: what the performance rating needs.
	OppGames, OppEloSum, OppNet int64
	// YearGames counts the games with a known year, YearSum adds those
	// years.
	YearGames, YearSum int64
	// Last is the latest date played, as YYYYMMDD with 00 for an unknown
	// month or day, 0 when no game has a date.
	Last int32
}

// edge is what the games through a move add up to, once two games have
// played it: Counts as a tree stores them, in 64 bytes instead of 104,
// with counts of games in 32 bits (up to 4294967295 games through one
// move). The move's link has its index.
type edge struct {
	eloSum, oppEloSum, yearSum         int64
	games, whiteWins, draws, blackWins uint32
	eloGames, oppGames, yearGames      uint32
	oppNet                             int32
	last                               int32
}

// link is a move from a node, the node it leads to, and the counts of
// the games through it: packed in the link while one game has played
// it, in an edge after (see single). Looking through a node's moves
// reads 24 bytes a move, not 88: the moves of the positions most played
// are then few enough to stay in the processor's caches. from, the node
// the move is from, lets pruning find which nodes a round leaves without
// moves by reading the links in order, not each node's list.
type link struct {
	child  int32
	next   int32 // the node's next move, -1 for none
	from   int32
	lo, hi uint32
	move   position.Move
}

func (l *link) data() uint64 { return uint64(l.hi)<<32 | uint64(l.lo) }

func (l *link) setData(d uint64) { l.lo, l.hi = uint32(d), uint32(d>>32) }

func (c *edge) export() Counts {
	return Counts{
		Results:  Results{Games: int64(c.games), WhiteWins: int64(c.whiteWins), Draws: int64(c.draws), BlackWins: int64(c.blackWins)},
		EloGames: int64(c.eloGames), EloSum: c.eloSum,
		OppGames: int64(c.oppGames), OppEloSum: c.oppEloSum, OppNet: int64(c.oppNet),
		YearGames: int64(c.yearGames), YearSum: c.yearSum,
		Last: c.last,
	}
}

func (c *edge) addCounts(o *Counts) {
	c.games += uint32(o.Games)
	c.whiteWins += uint32(o.WhiteWins)
	c.draws += uint32(o.Draws)
	c.blackWins += uint32(o.BlackWins)
	c.eloGames += uint32(o.EloGames)
	c.eloSum += o.EloSum
	c.oppGames += uint32(o.OppGames)
	c.oppEloSum += o.OppEloSum
	c.oppNet += int32(o.OppNet)
	c.yearGames += uint32(o.YearGames)
	c.yearSum += o.YearSum
	c.last = max(c.last, o.Last)
}

// node is a position of the tree. Nodes and moves hold no pointers, so
// that the garbage collector need not look through millions of them.
type node struct {
	games, whiteWins, draws, blackWins uint32
	first                              int32 // its first move, -1 for none
	// born is the ordinal of the line that added the node (see
	// Forest.added): pruning drops the newest of equally played leaves
	// first, in the same order however many stores the trees are in.
	born uint32
	// moveBits has moveBit(m) set for every move m from the node, and
	// for moves pruned since: a move whose bit is not set is not there,
	// and is known new without looking through the moves, scattered in
	// memory, which is what most positions of random games meet.
	moveBits uint32
	// mark is room for a walk of one tree to note what it knows of the
	// node: trees share no node, so walks of two trees may run at once.
	// While a tree grows, a mark of -1 says that the node's moves are in
	// store.wide, and a move not found there is new.
	mark int32
	// in is the move that added the node, -1 for a node added without
	// one (a tree's root; see store.orphans). The store keeps no keys:
	// the moves from the root to a node make its position again, which
	// only a lookup that meets the node's slot hash needs (see
	// sought.isKey), a few thousand times on an archive that adds
	// millions of nodes. The 40 bytes of a key are a third of a node's
	// memory, and new memory is most of what adding a node costs.
	in int32
}

// store holds the positions and moves of the trees of a forest, each at
// an index its tree knows it by: a node at one index, a move's link and
// counts at another. A forest's trees grow one list each, not one per
// tree: what is added next is next to what was added last, wherever in
// which tree it belongs.
type store struct {
	nodes chunked[node]
	links chunked[link]
	// orphans are the keys of the nodes added without a move to them
	// (node.in -1): the trees' roots, and the positions of a JSON
	// document that no move before them reaches.
	orphans map[int32]position.Key
	// probe and path are where Tree.keyOf and Tree.lineKey play moves
	// again.
	probe  position.Board
	path   []position.Move
	counts chunked[edge]
	// freeCounts are the edges of moves pruned, for moves to come.
	freeCounts []int32
	// scratch is what pruning works in.
	scratch pruneScratch
	// wide finds the moves of the nodes with many, whose lists are long
	// to look through: the start positions and those a move from them,
	// where every game passes.
	wide wideIndex
	// tooMany is set once a position's or move's games pass MaxGames.
	// Each addition is of MaxGames at most, so that the 32-bit counts
	// hold the sum that tells, and the error is given where the adding
	// ends (Forest.checkGames).
	tooMany bool
}

// newStore returns an empty store whose full chunks are in an arena of
// its own, unmapped once the store is no longer reachable.
func newStore() *store {
	s := &store{orphans: map[int32]position.Key{}}
	a := newArena(s)
	s.nodes.mem, s.links.mem, s.counts.mem = a, a, a
	return s
}

func (n *node) results() Results {
	return Results{Games: int64(n.games), WhiteWins: int64(n.whiteWins), Draws: int64(n.draws), BlackWins: int64(n.blackWins)}
}

func (n *node) addResults(r *Results) {
	n.games += uint32(r.Games)
	n.whiteWins += uint32(r.WhiteWins)
	n.draws += uint32(r.Draws)
	n.blackWins += uint32(r.BlackWins)
}

// addResults adds r to the results of node n.
func (s *store) addResults(n int32, r *Results) {
	nd := s.nodes.at(n)
	nd.addResults(r)
	s.tooMany = s.tooMany || nd.games > MaxGames
}

func (n *node) addGame(o Outcome) {
	n.games++
	switch o {
	case stats.WhiteWin:
		n.whiteWins++
	case stats.Draw:
		n.draws++
	case stats.BlackWin:
		n.blackWins++
	}
}

// addOutcome counts a game of outcome o in r.
func addOutcome(r *Results, o Outcome) {
	r.Games++
	switch o {
	case stats.WhiteWin:
		r.WhiteWins++
	case stats.Draw:
		r.Draws++
	case stats.BlackWin:
		r.BlackWins++
	}
}

// wide marks a node whose moves are in store.wide.
const wide = -1

// findEdge returns the index of the move m of node n, or -1. A move
// found is moved to the front of its node's list, so that the moves
// most played are found first: the order of the list is not the order
// moves are written in, which plan works out.
func (s *store) findEdge(n int32, m position.Move) int32 {
	nd := s.nodes.at(n)
	if nd.moveBits&moveBit(m) == 0 {
		return -1
	}
	if nd.mark == wide {
		return s.wide.find(n, m)
	}
	prev := int32(-1)
	steps := 0
	found := int32(-1)
	for e := nd.first; e >= 0; steps++ {
		l := s.links.at(e)
		if l.move == m {
			if prev >= 0 {
				s.links.at(prev).next = l.next
				l.next = nd.first
				nd.first = e
			}
			found = e
			break
		}
		prev, e = e, l.next
	}
	if steps >= wideMoves {
		nd.mark = wide
		for e := nd.first; e >= 0; e = s.links.at(e).next {
			s.wide.insert(n, s.links.at(e).move, e)
		}
	}
	return found
}

// moveBit returns the bit of node.moveBits that stands for m.
func moveBit(m position.Move) uint32 {
	return 1 << (uint32(m) * 0x9e3779b1 >> 27)
}

// edge returns the index of the move m of node n, adding the move,
// leading to child, when it is new.
func (s *store) edge(n int32, m position.Move, child int32) int32 {
	if e := s.findEdge(n, m); e >= 0 {
		return e
	}
	return s.addEdge(n, m, child)
}

// addEdge adds the move m of node n, leading to child, which must be
// new, and returns its index.
func (s *store) addEdge(n int32, m position.Move, child int32) int32 {
	nd := s.nodes.at(n)
	e := s.links.push(link{move: m, child: child, next: nd.first, from: n})
	nd.first = e
	nd.moveBits |= moveBit(m)
	if nd.mark == wide {
		s.wide.insert(n, m, e)
	}
	return e
}

// Root says where a tree starts.
type Root struct {
	// SP is the Scharnagl number of the start array, -1 when the start
	// is not a Chess960 array (a DFRC pair or another position).
	SP int
	// Start is the start position as a FEN, Shredder-FEN castling.
	Start string
	// Moves are the moves from Start to the root, in SAN with move
	// numbers ("1. e4 e5"), "" when the tree starts at Start.
	Moves string
	// FEN is the root position, Start when there are no Moves.
	FEN string
	// Plies is the number of plies from Start to the root.
	Plies int
}

// Tree is the opening tree of the games from one start position: the
// positions they reached within Depth plies of the root, and the moves
// they played from each. The zero Tree is not usable; trees come from a
// Forest. A Tree is not safe for concurrent use.
type Tree struct {
	root    Root
	board   position.Board // the root position, for walking the tree
	rootKey position.Key
	depth   int
	// s holds the positions and moves, shared with the forest's other
	// trees; index finds the tree's positions by key, and rootNode is
	// the root's.
	s        *store
	index    index
	rootNode int32 // -1 until the first line is added (see init)
	chess960 bool
	// stamp is the ordinal of the line being added, which new nodes are
	// born with.
	stamp uint32
	// walks counts the walks of the tree, each of which marks the nodes
	// it meets in its own way (see walkIn).
	walks uint32
	// sought is what the lookup under way looks for, kept here so that
	// the index is handed a pointer that needs no memory of its own.
	sought sought
	// rootOnly counts the games of lines of the root alone, which Run
	// adds to the root node once the goroutines adding lines are done.
	rootOnly Results
	// seen are the nodes and moves the game being added has passed
	// through already, so that a repetition counts once.
	seenNodes []int32
	seenMoves []seenMove
}

type seenMove struct {
	node int32
	move position.Move
}

// newTree returns an empty tree in s rooted at the position on b, which
// it copies.
func newTree(s *store, root Root, b *position.Board, depth int) *Tree {
	t := newShell(s, root, b, depth)
	t.init()
	return t
}

// newShell returns a tree as newTree does, but without its root node in
// s yet: the goroutine that adds to s adds it (see init), so that trees
// can be made on another.
func newShell(s *store, root Root, b *position.Board, depth int) *Tree {
	t := &Tree{s: s, root: root, depth: depth, chess960: b.Chess960(), rootNode: -1}
	t.board.SetPosition(b.Position())
	// The root keeps the start's en passant square even when the FEN
	// above drops it (no capture possible): it is what keys the root.
	t.rootKey = b.Key()
	t.board.SetChess960(t.chess960)
	return t
}

// init adds the root node, if not there yet.
func (t *Tree) init() {
	if t.rootNode < 0 {
		t.rootNode, _ = t.node(&t.rootKey, t.rootKey.Hash())
	}
}

// Root returns where the tree starts.
func (t *Tree) Root() Root { return t.root }

// Depth returns the number of plies the tree holds below its root.
func (t *Tree) Depth() int { return t.depth }

// Len returns the number of positions in the tree, the root included.
func (t *Tree) Len() int { return t.index.n }

// Games returns the number of games the tree holds: those that reached
// its root.
func (t *Tree) Games() int64 { return int64(t.s.nodes.at(t.rootNode).games) }

// node returns the index of the node of k, whose hash is h, adding it
// when it is new, and whether it added it.
func (t *Tree) node(k *position.Key, h uint64) (int32, bool) {
	i, slot := t.index.find(t.seek(k), h)
	if i >= 0 {
		return i, false
	}
	i = t.s.nodes.push(node{first: -1, born: t.stamp, in: -1})
	t.s.orphans[i] = *k
	t.index.insert(h, i, slot)
	return i, true
}

// nodeAfter returns the index of the node of position q, whose hash is
// h, which the move m from node from reaches. A node it adds is added
// with that move, whose index it returns as e; e is -1 when the node was
// there.
func (t *Tree) nodeAfter(q *sought, h uint64, from int32, m position.Move) (i, e int32) {
	i, slot := t.index.find(q, h)
	if i >= 0 {
		return i, -1
	}
	i = t.s.nodes.push(node{first: -1, born: t.stamp})
	e = t.s.addEdge(from, m, i)
	t.s.nodes.at(i).in = e
	t.index.insert(h, i, slot)
	return i, e
}

// sought is the position a lookup in a tree looks for: a key, or a step
// of the line being added, whose key is made only if a node of the same
// slot hash is met.
type sought struct {
	t     *Tree
	key   position.Key
	known bool
	line  *Line
	step  int
}

// seek returns the tree's sought set to the position of k.
func (t *Tree) seek(k *position.Key) *sought {
	t.sought = sought{t: t, key: *k, known: true}
	return &t.sought
}

// seekStep returns the tree's sought set to step i of line l.
func (t *Tree) seekStep(l *Line, i int) *sought {
	t.sought = sought{t: t, line: l, step: i}
	return &t.sought
}

// isKey reports whether node n of the tree is the position sought.
func (q *sought) isKey(n int32) bool {
	if !q.known {
		q.key, q.known = q.t.lineKey(q.line, q.step), true
	}
	return q.t.keyOf(n) == q.key
}

// lineKey returns the key of step i of line l: its first key, and the
// moves before the step played from there.
func (t *Tree) lineKey(l *Line, i int) position.Key {
	if i == 0 {
		return l.first
	}
	b := t.boardAt(l.first)
	for _, st := range l.Steps[:i] {
		b.Push(st.Move)
	}
	return b.Key()
}

// keyOf returns the key of node n of the tree, made again by playing
// the moves that added it and those above it from the node added
// without a move they start at: the root, or a document's position that
// no move reaches. Those keep their keys (store.orphans).
func (t *Tree) keyOf(n int32) position.Key {
	s := t.s
	path := s.path[:0]
	for nd := s.nodes.at(n); nd.in >= 0; nd = s.nodes.at(n) {
		l := s.links.at(nd.in)
		path = append(path, l.move)
		n = l.from
	}
	s.path = path
	k, ok := s.orphans[n]
	if !ok {
		panic("tree: a node reached by no move has no key")
	}
	if len(path) == 0 {
		return k
	}
	b := t.boardAt(k)
	for i := len(path) - 1; i >= 0; i-- {
		b.Push(path[i])
	}
	return b.Key()
}

// boardAt returns the store's probe board set up at the position of k:
// from the tree's board for its root, else from the key, which holds all
// of the position a move needs.
func (t *Tree) boardAt(k position.Key) *position.Board {
	b := &t.s.probe
	if k == t.rootKey {
		b.SetBoard(&t.board)
	} else {
		b.SetBoard(boardOf(k))
		b.SetChess960(t.chess960)
	}
	return b
}

// Step is one position of a line: the move played from it, and the
// hash of its key, which the Walker works out beside the replay. The key
// itself is not kept, so that a step takes 16 bytes: every game hands a
// dozen steps from the goroutine replaying it to the one adding it. A
// lookup needs a step's key only when it meets a position of the same
// hash, and the key then follows from the line's first position and the
// moves before the step.
type Step struct {
	Move position.Move // position.NullMove for the line's last position
	hash uint64
}

// Line is what a tree needs of one game: the positions it went through
// from the tree's root, the moves between them, and the game's result,
// ratings and date. Lines are made by Walker.Walk, which also records
// the line's first position, from which its steps' positions follow.
type Line struct {
	// Steps are the positions from the root on, each with the move
	// played from it; the last one's Move is position.NullMove.
	Steps []Step
	// Outcome is the game's result.
	Outcome Outcome
	// WhiteElo and BlackElo are the players' ratings, 0 when unknown.
	WhiteElo, BlackElo int
	// Year is the year the game was played, 0 when unknown; Date is its
	// date as YYYYMMDD, with 00 for an unknown month or day.
	Year int
	Date int32
	// start is the game's start when it is a Chess960 array set up
	// otherwise than position.Start sets it up.
	start *fen.Position
	// first is the key of the line's first position, the root of the
	// tree it goes to.
	first position.Key
	// root holds Steps while they are the root alone (see
	// Walker.startSteps).
	root [1]Step
}

// Add adds the game of line l, a Walker's, whose Steps begin with the
// tree's root. A position the line passes through twice, and a move it
// plays twice from one position, count once. Steps past the tree's depth
// are left out.
func (t *Tree) Add(l *Line) {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(t)
	steps := l.Steps
	if len(steps) > t.depth+1 {
		steps = steps[:t.depth+1]
	}
	t.init()
	t.seenNodes, t.seenMoves = t.seenNodes[:0], t.seenMoves[:0]
	t.index.touch(steps)
	s := t.s
	// What the game adds to a move depends only on who makes it.
	var counts [2]Counts
	var packed [2]uint64
	var counted, packs [2]bool
	prev := int32(-1)
	// Each step is a move: the sides take turns from the root's.
	rootTurn := l.first.Turn()
	// A position the line adds to the tree cannot have been passed
	// through before, nor a move from it played: most positions of a
	// long line are such, and need no looking through what was seen.
	prevNew := false
	for i := range steps {
		st := &steps[i]
		// A move already in the tree names its position: the index is
		// asked only for moves new to their position, where a
		// transposition may meet a position the tree has. The move is
		// looked up once, for its position and for its counts.
		at, e := int32(-1), int32(-1)
		isNew := false
		switch {
		case prev >= 0:
			if e = s.findEdge(prev, steps[i-1].Move); e >= 0 {
				at = s.links.at(e).child
			} else {
				at, e = t.nodeAfter(t.seekStep(l, i), st.hash, prev, steps[i-1].Move)
				isNew = e >= 0
			}
		case l.first == t.rootKey:
			at = t.rootNode
		default:
			at, isNew = t.node(&l.first, st.hash)
		}
		if isNew || !slices.Contains(t.seenNodes, at) {
			t.seenNodes = append(t.seenNodes, at)
			n := s.nodes.at(at)
			n.addGame(l.Outcome)
			s.tooMany = s.tooMany || n.games > MaxGames
		}
		if prev >= 0 {
			m := steps[i-1].Move
			if sm := (seenMove{prev, m}); prevNew || !slices.Contains(t.seenMoves, sm) {
				t.seenMoves = append(t.seenMoves, sm)
				if e < 0 {
					e = s.addEdge(prev, m, at)
				}
				mover := position.Color((uint32(rootTurn) + uint32(i-1)) & 1)
				if !counted[mover] {
					counts[mover], counted[mover] = gameCounts(l, mover), true
					packed[mover], packs[mover] = packSingle(&counts[mover])
				}
				s.addPacked(e, &counts[mover], packed[mover], packs[mover])
			}
		}
		prev, prevNew = at, isNew
	}
	t.sought.line = nil
}

// Merge adds the counts of o, a tree with the same root and depth, to t.
func (t *Tree) Merge(o *Tree) error {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(t)
	defer runtime.KeepAlive(o)
	if o.rootKey != t.rootKey {
		return fmt.Errorf("merging trees of two roots: %s and %s", t.root.FEN, o.root.FEN)
	}
	if o.depth != t.depth {
		return fmt.Errorf("%w: merging a tree of %d plies into one of %d", ErrDepth, o.depth, t.depth)
	}
	t.init()
	o.init()
	// Each node of o notes its node in t, plus one, in its mark. o's
	// nodes are met from its root by their moves, each once, with the
	// position on a board: a node new to t is added with the move that
	// reaches it, as a line adds it. The positions of a document that no
	// move reaches come after, from their keys.
	for _, slot := range o.index.slots {
		if slot != 0 {
			o.s.nodes.at(int32(uint32(slot)) - 1).mark = 0
		}
	}
	var b position.Board
	b.SetBoard(&o.board)
	o.s.nodes.at(o.rootNode).mark = t.rootNode + 1
	t.mergeFrom(o, o.rootNode, &b)
	for _, slot := range o.index.slots {
		n := int32(uint32(slot)) - 1
		if slot == 0 || o.s.nodes.at(n).mark != 0 {
			continue
		}
		k := o.keyOf(n)
		at, _ := t.node(&k, k.Hash())
		o.s.nodes.at(n).mark = at + 1
		b.SetBoard(o.boardAt(k))
		t.mergeFrom(o, n, &b)
	}
	return nil
}

// mergeFrom adds to t the counts of o's node n, whose position is on b
// and whose node in t is its mark - 1, and of its moves, then does the
// same for the nodes these moves reach that were not met yet.
func (t *Tree) mergeFrom(o *Tree, n int32, b *position.Board) {
	on := o.s.nodes.at(n)
	at := on.mark - 1
	r := on.results()
	t.s.addResults(at, &r)
	for e := on.first; e >= 0; e = o.s.links.at(e).next {
		ol := o.s.links.at(e)
		c := o.s.countsOf(e)
		child := o.s.nodes.at(ol.child)
		if child.mark != 0 {
			t.s.add(t.s.edge(at, ol.move, child.mark-1), &c)
			continue
		}
		b.Push(ol.move)
		k := b.Key()
		to, te := t.nodeAfter(t.seek(&k), k.Hash(), at, ol.move)
		if te < 0 {
			te = t.s.edge(at, ol.move, to)
		}
		t.s.add(te, &c)
		child.mark = to + 1
		t.mergeFrom(o, ol.child, b)
		b.Pop()
	}
}

// boardOf returns a board set up at the position of k.
func boardOf(k position.Key) *position.Board {
	b, err := position.ParseFEN(string(k.AppendFEN(nil, 0, 1)))
	if err != nil {
		panic("tree: a key that is no position: " + err.Error())
	}
	return b
}

// startFEN returns the FEN of b for Root, Shredder castling: the one
// notation that names every Chess960 castling rook unambiguously.
func startFEN(b *position.Board) string { return b.FEN(fen.Shredder) }
