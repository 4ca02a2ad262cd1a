package tree

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/startpos"
)

// jsonFormat names the document, so that ReadJSON can refuse anything
// else, such as a document of frctool stats.
const jsonFormat = "frctool-tree/1"

// Why a JSON document cannot be read or merged.
var (
	ErrNotTree = errors.New("not a JSON document of frctool tree")
	// ErrFiltered is a document written with a minimum number of games:
	// the moves it left out cannot be added back.
	ErrFiltered = errors.New("written with a minimum number of games, so moves are missing: a merge would not equal one run")
	// ErrDuplicated is a document with one position twice in a tree,
	// which WriteJSON never writes: adding both would count games twice.
	ErrDuplicated = errors.New("a position is written twice")
	// ErrBadNode is a position or move of a document that cannot be
	// read or played.
	ErrBadNode = errors.New("bad position or move")
)

type jsonDoc struct {
	Format   string     `json:"format"`
	Depth    int        `json:"depth"`
	MinGames int64      `json:"min_games"`
	Summary  Summary    `json:"summary"`
	Totals   jsonTotals `json:"totals"`
	Trees    []jsonTree `json:"trees"`
}

type jsonTotals struct {
	startpos.Tally
	// SPs are the Chess960 arrays the games were read from.
	SPs []int `json:"sps"`
}

type jsonTree struct {
	SP        *int       `json:"sp"`
	Start     string     `json:"start"`
	Moves     string     `json:"moves"`
	FEN       string     `json:"fen"`
	Plies     int        `json:"plies"`
	Games     int64      `json:"games"`
	Positions int        `json:"positions"`
	Nodes     []jsonNode `json:"nodes"`
}

type jsonNode struct {
	Ply       int        `json:"ply"`
	Line      string     `json:"line"`
	FEN       string     `json:"fen"`
	Games     int64      `json:"games"`
	WhiteWins int64      `json:"white_wins"`
	Draws     int64      `json:"draws"`
	BlackWins int64      `json:"black_wins"`
	Moves     []jsonMove `json:"moves"`
}

type jsonMove struct {
	Move        string   `json:"move"`
	UCI         string   `json:"uci"`
	To          int      `json:"to"`
	Games       int64    `json:"games"`
	WhiteWins   int64    `json:"white_wins"`
	Draws       int64    `json:"draws"`
	BlackWins   int64    `json:"black_wins"`
	Score       *float64 `json:"score"`
	ScoreLow    *float64 `json:"score_low"`
	ScoreHigh   *float64 `json:"score_high"`
	DrawRate    *float64 `json:"draw_rate"`
	AvgElo      *float64 `json:"avg_elo"`
	Performance *float64 `json:"performance"`
	AvgYear     *float64 `json:"avg_year"`
	LastPlayed  string   `json:"last_played"`
	EloGames    int64    `json:"elo_games"`
	EloSum      int64    `json:"elo_sum"`
	OppGames    int64    `json:"opp_games"`
	OppEloSum   int64    `json:"opp_elo_sum"`
	OppNet      int64    `json:"opp_net"`
	YearGames   int64    `json:"year_games"`
	YearSum     int64    `json:"year_sum"`
}

// rounded returns x rounded to prec decimals, or nil for NaN: what JSON
// writes as a number or null.
func rounded(x float64, prec int) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	p := math.Pow10(prec)
	v := math.Round(x*p) / p
	return &v
}

func toJSONMove(m *Move) jsonMove {
	return jsonMove{
		Move: m.SAN, UCI: m.UCI, To: m.To,
		Games: m.Games, WhiteWins: m.WhiteWins, Draws: m.Draws, BlackWins: m.BlackWins,
		Score: rounded(m.Score, 4), ScoreLow: rounded(m.ScoreLow, 4), ScoreHigh: rounded(m.ScoreHigh, 4),
		DrawRate: rounded(m.DrawRate, 4), AvgElo: rounded(m.AvgElo, 1), Performance: rounded(m.Performance, 1),
		AvgYear: rounded(m.AvgYear, 2), LastPlayed: m.LastPlayed,
		EloGames: m.EloGames, EloSum: m.EloSum, OppGames: m.OppGames, OppEloSum: m.OppEloSum, OppNet: m.OppNet,
		YearGames: m.YearGames, YearSum: m.YearSum,
	}
}

// document returns the forest as a JSON document.
func (f *Forest) document(opts WalkOptions) jsonDoc {
	doc := jsonDoc{Format: jsonFormat, Depth: f.depth, MinGames: max(opts.MinGames, 1), Summary: f.Summary, Totals: jsonTotals{Tally: f.Totals, SPs: []int{}}, Trees: []jsonTree{}}
	for sp := range numbering.Count {
		if f.sps[sp/64]&(1<<(sp%64)) != 0 {
			doc.Totals.SPs = append(doc.Totals.SPs, sp)
		}
	}
	for _, t := range f.Trees() {
		nodes := t.Nodes(opts)
		jt := jsonTree{Start: t.root.Start, Moves: t.root.Moves, FEN: t.root.FEN, Plies: t.root.Plies, Games: t.Games(), Positions: len(nodes), Nodes: make([]jsonNode, len(nodes))}
		if t.root.SP >= 0 {
			sp := t.root.SP
			jt.SP = &sp
		}
		for i := range nodes {
			n := &nodes[i]
			jn := jsonNode{Ply: n.Ply, Line: n.Line, FEN: n.FEN, Games: n.Games, WhiteWins: n.WhiteWins, Draws: n.Draws, BlackWins: n.BlackWins, Moves: make([]jsonMove, len(n.Moves))}
			for k := range n.Moves {
				jn.Moves[k] = toJSONMove(&n.Moves[k])
			}
			jt.Nodes[i] = jn
		}
		doc.Trees = append(doc.Trees, jt)
	}
	return doc
}

// WriteJSON writes the forest as one JSON document: the depth, the
// summary and totals, and per tree its root and its positions in the
// order of Tree.Nodes, each with its moves, whose "to" is the index of
// the position they lead to. Moves carry their raw sums beside the
// figures derived from them, so that ReadJSON adds documents up exactly.
// With opts.MinGames above 1 the document leaves moves out, and ReadJSON
// refuses it.
func (f *Forest) WriteJSON(w io.Writer, opts WalkOptions) error {
	enc := json.NewEncoder(w)
	if err := enc.Encode(f.document(opts)); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

// ReadJSON reads a document that WriteJSON wrote and adds its trees,
// summary and totals to f: a tree with the root of one of f's is added to
// it, any other is added as a tree of its own. The depth must be f's,
// unless f has no tree yet and chose no start (Options.Start), when f
// takes the document's. On error f is unchanged.
func (f *Forest) ReadJSON(r io.Reader) error {
	var doc jsonDoc
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return fmt.Errorf("%w: %w", ErrNotTree, err)
	}
	if doc.Format != jsonFormat {
		return fmt.Errorf("%w (format %q, want %q)", ErrNotTree, doc.Format, jsonFormat)
	}
	if doc.MinGames > 1 {
		return fmt.Errorf("%w (at least %d games a move)", ErrFiltered, doc.MinGames)
	}
	depth := f.depth
	if len(f.trees) == 0 && f.sel == nil {
		depth = doc.Depth
	}
	if doc.Depth != depth {
		return fmt.Errorf("%w: the document's trees hold %d plies, not %d", ErrDepth, doc.Depth, depth)
	}
	part := &Forest{depth: depth, byRoot: map[position.Key]int{}, Summary: doc.Summary, Totals: doc.Totals.Tally}
	for _, sp := range doc.Totals.SPs {
		part.markSP(sp)
		part.Totals.Mark(sp)
	}
	for i := range doc.Trees {
		if err := part.readTree(&doc.Trees[i]); err != nil {
			return err
		}
	}
	f.depth = depth
	return f.Merge(part)
}

// readTree adds a tree of a document to f.
func (f *Forest) readTree(jt *jsonTree) error {
	bad := func(what string, err error) error {
		return fmt.Errorf("%w: tree of %s: %s: %w", ErrBadNode, jt.Start, what, err)
	}
	b, err := position.ParseFEN(jt.FEN)
	if err != nil {
		return bad("root "+jt.FEN, err)
	}
	sp := -1
	if jt.SP != nil {
		sp = *jt.SP
	}
	b.SetChess960(chess960(sp, b))
	if _, ok := f.byRoot[b.Key()]; ok {
		return fmt.Errorf("%w: the tree of %s", ErrDuplicated, jt.FEN)
	}
	t := newTree(Root{SP: sp, Start: jt.Start, Moves: jt.Moves, FEN: jt.FEN, Plies: jt.Plies}, b, f.depth)
	seen := make(map[position.Key]bool, len(jt.Nodes))
	for i := range jt.Nodes {
		jn := &jt.Nodes[i]
		p, err := fen.Parse(jn.FEN)
		if err == nil {
			err = b.SetPosition(p)
		}
		if err != nil {
			return bad("position "+jn.FEN, err)
		}
		b.SetChess960(t.chess960)
		k := b.Key()
		if seen[k] {
			return fmt.Errorf("%w: %s in the tree of %s", ErrDuplicated, jn.FEN, jt.FEN)
		}
		seen[k] = true
		at := t.node(k)
		t.nodes[at].addResults(&Results{Games: jn.Games, WhiteWins: jn.WhiteWins, Draws: jn.Draws, BlackWins: jn.BlackWins})
		for j := range jn.Moves {
			jm := &jn.Moves[j]
			m, err := b.ParseMove(jm.UCI)
			if err == nil && m == position.NullMove {
				err = errors.New("null move")
			}
			if err != nil {
				return bad("move "+jm.UCI+" in "+jn.FEN, err)
			}
			b.Push(m)
			child := t.node(b.Key())
			b.Pop()
			c := Counts{
				Results:  Results{Games: jm.Games, WhiteWins: jm.WhiteWins, Draws: jm.Draws, BlackWins: jm.BlackWins},
				EloGames: jm.EloGames, EloSum: jm.EloSum, OppGames: jm.OppGames, OppEloSum: jm.OppEloSum, OppNet: jm.OppNet,
				YearGames: jm.YearGames, YearSum: jm.YearSum, Last: parseDate(jm.LastPlayed),
			}
			// t.node may have moved the nodes: index them again.
			t.nodes[at].edge(m, child).addCounts(&c)
		}
	}
	f.addTree(t)
	return nil
}

// chess960 tells how a tree of SP sp writes castling in UCI: the king's
// two-square move for the standard array only.
func chess960(sp int, b *position.Board) bool {
	if sp >= 0 {
		return sp != numbering.StandardSP
	}
	return b.Chess960()
}
