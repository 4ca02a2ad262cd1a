package tree

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/internal/words"
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

type jsonTotals struct {
	startpos.Tally
	// SPs are the Chess960 arrays the games were read from.
	SPs []int `json:"sps"`
}

// jsonTree is what ReadJSON reads of a tree besides its positions.
type jsonTree struct {
	SP    *int   `json:"sp"`
	Start string `json:"start"`
	Moves string `json:"moves"`
	FEN   string `json:"fen"`
	Plies int    `json:"plies"`
}

// jsonNode is what ReadJSON reads of a position: the counts, not the
// figures derived from them, nor where the walk met it.
type jsonNode struct {
	FEN       string     `json:"fen"`
	Games     int64      `json:"games"`
	WhiteWins int64      `json:"white_wins"`
	Draws     int64      `json:"draws"`
	BlackWins int64      `json:"black_wins"`
	Moves     []jsonMove `json:"moves"`
}

type jsonMove struct {
	UCI        string `json:"uci"`
	Games      int64  `json:"games"`
	WhiteWins  int64  `json:"white_wins"`
	Draws      int64  `json:"draws"`
	BlackWins  int64  `json:"black_wins"`
	LastPlayed string `json:"last_played"`
	EloGames   int64  `json:"elo_games"`
	EloSum     int64  `json:"elo_sum"`
	OppGames   int64  `json:"opp_games"`
	OppEloSum  int64  `json:"opp_elo_sum"`
	OppNet     int64  `json:"opp_net"`
	YearGames  int64  `json:"year_games"`
	YearSum    int64  `json:"year_sum"`
}

// rounded returns x rounded to prec decimals, NaN staying NaN.
func rounded(x float64, prec int) float64 {
	if math.IsNaN(x) {
		return x
	}
	p := math.Pow10(prec)
	return math.Round(x*p) / p
}

// appendJSONNumber appends x as JSON writes a number, null for NaN.
func appendJSONNumber(dst []byte, x float64) []byte {
	if math.IsNaN(x) {
		return append(dst, "null"...)
	}
	return strconv.AppendFloat(dst, x, 'f', -1, 64)
}

// appendJSONFixed appends what appendJSONNumber(rounded(x, prec)) does,
// prec at most 4, without strconv's search for the shortest digits,
// which costs most of a move's object: below 1e9, the shortest digits of
// the rounded value are those of x rounded to prec decimals, trailing
// zeros dropped, since any other number with as few digits lies at least
// a unit of the last decimal away, far more than the float's precision.
func appendJSONFixed(dst []byte, x float64, prec int) []byte {
	if prec >= len(pow10) || !(math.Abs(x) < 1e9) {
		return appendJSONNumber(dst, rounded(x, prec))
	}
	n := math.Round(x * pow10[prec])
	neg := n < 0 || n == 0 && math.Signbit(n)
	// Scores and rates, ratings and mean years, most of the figures, have
	// as many digits every time: they are written whole, then the zeros
	// at their end dropped.
	switch u := int64(n); {
	case neg:
	case prec == 4 && u < 1e4:
		hi, lo := 2*(u/100), 2*(u%100)
		return trimDecimals(append(dst, '0', '.', digitPairs[hi], digitPairs[hi+1], digitPairs[lo], digitPairs[lo+1]))
	case prec == 1 && u >= 1e4 && u < 1e5:
		hi, lo := 2*(u/1000), 2*(u/10%100)
		return trimDecimals(append(dst, digitPairs[hi], digitPairs[hi+1], digitPairs[lo], digitPairs[lo+1], '.', byte('0'+u%10)))
	case prec == 2 && u >= 1e5 && u < 1e6:
		hi, mid, lo := 2*(u/10000), 2*(u/100%100), 2*(u%100)
		return trimDecimals(append(dst, digitPairs[hi], digitPairs[hi+1], digitPairs[mid], digitPairs[mid+1], '.', digitPairs[lo], digitPairs[lo+1]))
	}
	u := uint64(math.Abs(n))
	var buf [24]byte
	i := len(buf)
	// The decimals are written from the last, trailing zeros left out.
	frac := false
	for range prec {
		d := u % 10
		u /= 10
		if frac = frac || d != 0; frac {
			i--
			buf[i] = byte('0' + d)
		}
	}
	if frac {
		i--
		buf[i] = '.'
	}
	i = putInt(buf[:], i, u, neg)
	return append(dst, buf[i:]...)
}

// trimDecimals drops the zeros at the end of a number with a point, and
// the point if no decimal is left.
func trimDecimals(b []byte) []byte {
	for b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	if b[len(b)-1] == '.' {
		b = b[:len(b)-1]
	}
	return b
}

// appendJSONString appends s as a JSON string, with <, > and & escaped
// as encoding/json escapes them, so that a page can hold the document in
// a script element.
func appendJSONString(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
			// U+2028 and U+2029 end lines in older JavaScript.
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[s[i+2]&15])
			i += 2
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// appendKey appends "key": after a comma unless first.
func appendKey(dst []byte, key string, first bool) []byte {
	if !first {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}

func appendIntField(dst []byte, key string, n int64) []byte {
	return strconv.AppendInt(appendKey(dst, key, false), n, 10)
}

// appendNode appends a position of a walk as a JSON object. Its FEN and
// its moves' SAN and UCI never need escapes; its line does when plain
// (plainLine) says so.
func appendNode(dst []byte, v *view, plain bool) []byte {
	dst = appendCount(append(dst, `{"ply":`...), int64(v.ply))
	dst = append(dst, `,"line":`...)
	if plain {
		dst = append(append(append(dst, '"'), v.line...), '"')
	} else {
		dst = appendJSONString(dst, v.line)
	}
	dst = append(append(append(dst, `,"fen":"`...), v.fen...), '"')
	dst = appendCount(append(dst, `,"games":`...), v.Games)
	dst = appendCount(append(dst, `,"white_wins":`...), v.WhiteWins)
	dst = appendCount(append(dst, `,"draws":`...), v.Draws)
	dst = appendCount(append(dst, `,"black_wins":`...), v.BlackWins)
	dst = append(dst, `,"moves":[`...)
	for k := range v.moves {
		m := &v.moves[k]
		if k > 0 {
			dst = append(dst, ',')
		}
		c := &m.c
		fig := figuresOf(c)
		dst = append(append(append(dst, `{"move":"`...), m.san...), '"')
		dst = append(append(append(dst, `,"uci":"`...), m.uci...), '"')
		dst = strconv.AppendInt(append(dst, `,"to":`...), int64(m.to), 10)
		dst = appendCount(append(dst, `,"games":`...), c.Games)
		dst = appendCount(append(dst, `,"white_wins":`...), c.WhiteWins)
		dst = appendCount(append(dst, `,"draws":`...), c.Draws)
		dst = appendCount(append(dst, `,"black_wins":`...), c.BlackWins)
		dst = appendJSONFixed(append(dst, `,"score":`...), fig.score, 4)
		dst = appendJSONFixed(append(dst, `,"score_low":`...), fig.low, 4)
		dst = appendJSONFixed(append(dst, `,"score_high":`...), fig.high, 4)
		dst = appendJSONFixed(append(dst, `,"draw_rate":`...), fig.drawRate, 4)
		dst = appendJSONFixed(append(dst, `,"avg_elo":`...), fig.elo, 1)
		dst = appendJSONFixed(append(dst, `,"performance":`...), fig.perf, 1)
		dst = appendJSONFixed(append(dst, `,"avg_year":`...), fig.year, 2)
		dst = append(appendDate(append(dst, `,"last_played":"`...), c.Last), '"')
		dst = appendCount(append(dst, `,"elo_games":`...), c.EloGames)
		dst = strconv.AppendInt(append(dst, `,"elo_sum":`...), c.EloSum, 10)
		dst = appendCount(append(dst, `,"opp_games":`...), c.OppGames)
		dst = strconv.AppendInt(append(dst, `,"opp_elo_sum":`...), c.OppEloSum, 10)
		dst = strconv.AppendInt(append(dst, `,"opp_net":`...), c.OppNet, 10)
		dst = appendCount(append(dst, `,"year_games":`...), c.YearGames)
		dst = strconv.AppendInt(append(dst, `,"year_sum":`...), c.YearSum, 10)
		dst = append(dst, '}')
	}
	return append(dst, ']', '}')
}

// appendTree appends a tree as a JSON object, its positions in the order
// of its walk.
func appendTree(dst []byte, t *Tree, m *walkMemory, opts WalkOptions, pc *pieces) ([]byte, error) {
	p := t.planIn(m, opts)
	dst = append(appendKey(append(dst, '{'), "sp", true), "null"...)
	if t.root.SP >= 0 {
		dst = strconv.AppendInt(dst[:len(dst)-len("null")], int64(t.root.SP), 10)
	}
	dst = appendJSONString(appendKey(dst, "start", false), []byte(t.root.Start))
	dst = appendJSONString(appendKey(dst, "moves", false), []byte(t.root.Moves))
	dst = appendJSONString(appendKey(dst, "fen", false), []byte(t.root.FEN))
	dst = appendIntField(dst, "plies", int64(t.root.Plies))
	dst = appendIntField(dst, "games", t.Games())
	dst = appendIntField(dst, "positions", int64(len(p.order)))
	dst = append(appendKey(dst, "nodes", false), '[')
	plain := plainLine(t.root.Moves)
	err := t.walkIn(m, p, opts, func(v *view) error {
		if v.index > 0 {
			dst = append(dst, ',')
		}
		dst = appendNode(dst, v, plain)
		var err error
		if pc.full(dst) {
			dst, err = pc.flush(dst)
		}
		return err
	})
	return append(dst, ']', '}'), err
}

// WriteJSON writes the forest as one JSON document: the depth, the
// summary and totals, and per tree its root and its positions in the
// order of Tree.Nodes, each with its moves, whose "to" is the index of
// the position they lead to. Moves carry their raw sums beside the
// figures derived from them, so that ReadJSON adds documents up exactly.
// With opts.MinGames above 1 the document leaves moves out, and ReadJSON
// refuses it. The document is written tree by tree, never held whole.
func (f *Forest) WriteJSON(w io.Writer, opts WalkOptions) error {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(f)
	head := struct {
		Format   string     `json:"format"`
		Depth    int        `json:"depth"`
		MinGames int64      `json:"min_games"`
		Summary  Summary    `json:"summary"`
		Totals   jsonTotals `json:"totals"`
	}{Format: jsonFormat, Depth: f.depth, MinGames: max(opts.MinGames, 1), Summary: f.Summary, Totals: jsonTotals{Tally: f.Totals, SPs: []int{}}}
	for sp := range numbering.Count {
		if f.sps[sp/64]&(1<<(sp%64)) != 0 {
			head.Totals.SPs = append(head.Totals.SPs, sp)
		}
	}
	b, err := json.Marshal(head)
	if err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.Write(b[:len(b)-1])
	bw.WriteString(`,"trees":[`)
	err = f.render(bw, w, func(i int, t *Tree, m *walkMemory, dst []byte, p *pieces) ([]byte, error) {
		if i > 0 {
			dst = append(dst, ',')
		}
		return appendTree(dst, t, m, opts, p)
	})
	if err == nil {
		bw.WriteString("]}\n")
		err = bw.Flush()
	}
	if err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

// ReadJSON reads a document that WriteJSON wrote and adds its trees,
// summary and totals to f: a tree with the root of one of f's is added to
// it, any other is added as a tree of its own. The depth must be f's,
// unless f has no tree yet and chose no start (Options.Start), when f
// takes the document's. The document is read position by position, never
// held whole. On error f is unchanged.
func (f *Forest) ReadJSON(r io.Reader) error {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(f)
	dec := json.NewDecoder(r)
	notTree := func(err error) error { return fmt.Errorf("%w: %w", ErrNotTree, err) }
	if err := expectDelim(dec, '{'); err != nil {
		return notTree(err)
	}
	var head struct {
		format   string
		depth    int
		minGames int64
		summary  Summary
		totals   jsonTotals
	}
	var part *Forest
	// begin checks what the document says of itself before its trees.
	begin := func() error {
		if head.format != jsonFormat {
			return fmt.Errorf("%w (format %s, want %q)", ErrNotTree, words.Quote(head.format), jsonFormat)
		}
		if head.minGames > 1 {
			return fmt.Errorf("%w (at least %d games a move)", ErrFiltered, head.minGames)
		}
		if head.depth < 1 || head.depth > MaxDepth {
			return fmt.Errorf("%w: the document's trees hold %d plies, not 1 to %d", ErrDepth, head.depth, MaxDepth)
		}
		depth := f.depth
		if len(f.trees) == 0 && f.sel == nil {
			depth = head.depth
		}
		if head.depth != depth {
			return fmt.Errorf("%w: the document's trees hold %d plies, not %d", ErrDepth, head.depth, depth)
		}
		part = newForest(depth, 0, 1)
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return notTree(err)
		}
		switch key {
		case "format":
			err = dec.Decode(&head.format)
		case "depth":
			err = dec.Decode(&head.depth)
		case "min_games":
			err = dec.Decode(&head.minGames)
		case "summary":
			err = dec.Decode(&head.summary)
		case "totals":
			err = dec.Decode(&head.totals)
		case "trees":
			if err := begin(); err != nil {
				return err
			}
			if err := expectDelim(dec, '['); err != nil {
				return notTree(err)
			}
			for dec.More() {
				if err := part.readTree(dec); err != nil {
					return err
				}
			}
			err = expectDelim(dec, ']')
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return notTree(err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return notTree(err)
	}
	if part == nil {
		if err := begin(); err != nil {
			return err
		}
	}
	if err := head.totals.Check(); err != nil {
		return fmt.Errorf("%w: totals: %w", ErrNotTree, err)
	}
	if s := &head.summary; s.Games < 0 || s.OtherStart < 0 || s.NotReached < 0 || s.Failed < 0 || s.Pruned < 0 {
		return fmt.Errorf("%w: summary: counts below 0", ErrNotTree)
	}
	part.Summary, part.Totals = head.summary, head.totals.Tally
	for _, sp := range head.totals.SPs {
		part.markSP(sp)
		part.Totals.Mark(sp)
	}
	f.depth = part.depth
	if len(f.trees) == 0 {
		// The first document's trees are taken as they are, not copied.
		f.trees, f.byRoot, f.stores = part.trees, part.byRoot, part.stores
		part.trees, part.byRoot, part.stores = nil, map[position.Key]int{}, []*store{newStore()}
	}
	return f.Merge(part)
}

// expectDelim reads the JSON delimiter d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return fmt.Errorf("%v where %v belongs", tok, d)
	}
	return nil
}

// readTree reads a tree of a document and adds it to f.
func (f *Forest) readTree(dec *json.Decoder) error {
	notTree := func(err error) error { return fmt.Errorf("%w: %w", ErrNotTree, err) }
	if err := expectDelim(dec, '{'); err != nil {
		return notTree(err)
	}
	var jt jsonTree
	var t *Tree
	var b *position.Board
	seen := map[position.Key]bool{}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return notTree(err)
		}
		switch key {
		case "sp":
			err = dec.Decode(&jt.SP)
		case "start":
			err = dec.Decode(&jt.Start)
		case "moves":
			err = dec.Decode(&jt.Moves)
		case "fen":
			err = dec.Decode(&jt.FEN)
		case "plies":
			err = dec.Decode(&jt.Plies)
		case "nodes":
			if t != nil {
				return fmt.Errorf("%w: a tree with two lists of positions", ErrNotTree)
			}
			if t, b, err = f.startTree(&jt); err != nil {
				return err
			}
			if err := expectDelim(dec, '['); err != nil {
				return notTree(err)
			}
			for dec.More() {
				var jn jsonNode
				if err := dec.Decode(&jn); err != nil {
					return notTree(err)
				}
				if err := t.readNode(&jn, b, seen, &jt); err != nil {
					return err
				}
			}
			err = expectDelim(dec, ']')
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return notTree(err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return notTree(err)
	}
	if t == nil {
		// A tree with no positions written: only its root.
		var err error
		if t, _, err = f.startTree(&jt); err != nil {
			return err
		}
	}
	f.addTree(t)
	return nil
}

// startTree returns an empty tree rooted where a document's tree says,
// and a board to read its positions on.
func (f *Forest) startTree(jt *jsonTree) (*Tree, *position.Board, error) {
	b, err := position.ParseFEN(jt.FEN)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: the root %s: %w", ErrBadNode, words.Quote(jt.FEN), err)
	}
	sp := -1
	if jt.SP != nil {
		sp = *jt.SP
	}
	b.SetChess960(chess960(sp, b))
	if _, ok := f.byRoot[b.Key()]; ok {
		return nil, nil, fmt.Errorf("%w: the tree of %s", ErrDuplicated, jt.FEN)
	}
	return newTree(f.storeFor(b.Key()), Root{SP: sp, Start: jt.Start, Moves: jt.Moves, FEN: jt.FEN, Plies: jt.Plies}, b, f.depth), b, nil
}

// readNode adds a position of a document's tree, and its moves, to t.
func (t *Tree) readNode(jn *jsonNode, b *position.Board, seen map[position.Key]bool, jt *jsonTree) error {
	bad := func(what string, err error) error {
		return fmt.Errorf("%w: tree of %s: %s: %w", ErrBadNode, jt.Start, what, err)
	}
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
	r := Results{Games: jn.Games, WhiteWins: jn.WhiteWins, Draws: jn.Draws, BlackWins: jn.BlackWins}
	if err := r.check(); err != nil {
		return bad("position "+jn.FEN, err)
	}
	at, _ := t.node(&k, k.Hash())
	t.s.addResults(at, &r)
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
		ck := b.Key()
		child, e := t.nodeAfter(t.seek(&ck), ck.Hash(), at, m)
		b.Pop()
		c := Counts{
			Results:  Results{Games: jm.Games, WhiteWins: jm.WhiteWins, Draws: jm.Draws, BlackWins: jm.BlackWins},
			EloGames: jm.EloGames, EloSum: jm.EloSum, OppGames: jm.OppGames, OppEloSum: jm.OppEloSum, OppNet: jm.OppNet,
			YearGames: jm.YearGames, YearSum: jm.YearSum, Last: parseDate(jm.LastPlayed),
		}
		if err := c.check(); err != nil {
			return bad("move "+jm.UCI+" in "+jn.FEN, err)
		}
		if e < 0 {
			e = t.s.edge(at, m, child)
		}
		t.s.add(e, &c)
	}
	return nil
}

// errCounts is the error of counts a tree cannot hold: below 0, results
// that add up to more than the games, or more games than MaxGames.
var errCounts = errors.New("impossible counts")

// check returns errCounts for results no games give, or too many for a
// tree to hold.
func (r *Results) check() error {
	if r.Games < 0 || r.Games > MaxGames || r.WhiteWins < 0 || r.Draws < 0 || r.BlackWins < 0 ||
		r.WhiteWins > r.Games || r.Draws > r.Games || r.BlackWins > r.Games || r.Finished() > r.Games {
		return fmt.Errorf("%w: %d games, %d-%d-%d", errCounts, r.Games, r.WhiteWins, r.Draws, r.BlackWins)
	}
	return nil
}

// check returns errCounts for counts no games give: also ratings and
// years out of range, and more games with them than through the move.
func (c *Counts) check() error {
	if err := c.Results.check(); err != nil {
		return err
	}
	if c.EloGames < 0 || c.EloGames > c.Games || c.EloSum < 0 || c.EloSum > c.EloGames*fields.MaxRating ||
		c.OppGames < 0 || c.OppGames > c.Finished() || c.OppEloSum < 0 || c.OppEloSum > c.OppGames*fields.MaxRating ||
		c.OppNet < -c.OppGames || c.OppNet > c.OppGames ||
		c.YearGames < 0 || c.YearGames > c.Games || c.YearSum < 0 || c.YearSum > c.YearGames*fields.MaxYear {
		return fmt.Errorf("%w: ratings, results against rated players or years beyond what %d games give", errCounts, c.Games)
	}
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
