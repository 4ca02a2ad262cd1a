package tree

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/startpos"
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
	// the moves leading to them, down to half the bound; Summary.Pruned
	// counts them. A position dropped and reached again later counts
	// only the games from then on. A position all of whose moves lead
	// back to positions above it, as a knight played out and back to the
	// start does, never becomes a leaf: under a very small bound, more
	// positions than the bound may stay.
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
// counts, ordinal, filter of its moves and the move that added it (36
// bytes; its key is not kept, since the moves from the root make the
// position again), the move leading to it (24 bytes, a tree having about
// one move per position; 64 more for a move two games or more played,
// which random games' moves rarely are) and its slot in the index of its
// tree (8 bytes, in a table between three eighths and three quarters
// full). BenchmarkBuild measures it.
const NodeBytes = 86

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
	str := fmt.Sprintf("%s in %s (%s)", words.Count(s.Games, "game", "games"), words.Count(trees, "tree", "trees"), words.Count(positions, "position", "positions"))
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
		partial := "their counts are partial"
		if s.Pruned == 1 {
			partial = "its counts are partial"
		}
		str += fmt.Sprintf(", %s pruned to stay within the node bound (%s)", words.Count(s.Pruned, "position", "positions"), partial)
	}
	return str
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
		f.prune(f.pruneTarget())
	}
	return nil
}

// route returns the tree line l goes to, adding it when there is none,
// and the line's ordinal, and counts the line as added.
func (f *Forest) route(l *Line, sp int) (*Tree, uint32, error) {
	if len(l.Steps) == 0 {
		return nil, 0, fmt.Errorf("adding a line with no position")
	}
	t, err := f.treeFor(l.first, sp, l.start)
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

// pruneTarget is the positions a pruning leaves: half the bound. A
// pruning passes over every position held, so with a target of t of the
// bound, each position added past the bound costs passes over 1/(1-t)
// positions: half of what three quarters cost. The positions dropped are
// the least played, which on a large archive are leaves one game
// reached.
func (f *Forest) pruneTarget() int { return f.maxNodes / 2 }

// settle prunes the forest when it holds more positions than its bound.
func (f *Forest) settle() {
	if f.maxNodes > 0 && f.Len() > f.maxNodes {
		f.prune(f.pruneTarget())
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
	return f.checkGames()
}

// checkGames returns ErrTooManyGames once a count of f's has passed
// MaxGames. The forest's counts are then wrong, and it is not to be used.
func (f *Forest) checkGames() error {
	for _, s := range f.stores {
		if s.tooMany {
			return fmt.Errorf("%w: more than %d through one position or move", ErrTooManyGames, MaxGames)
		}
	}
	return nil
}

// markSP records a Chess960 game's SP for the documents' totals.
func (f *Forest) markSP(sp int) {
	if sp >= 0 && sp < numbering.Count {
		f.sps[sp/64] |= 1 << (sp % 64)
	}
}
