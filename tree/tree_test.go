package tree

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/startpos"
)

// The fixture's games start from SP 443, RNNQBKRB, where both sides may
// castle king-side at once (the king on f1 and the rook on g1 swap).
const (
	sp443      = "rnnqbkrb/pppppppp/8/8/8/8/PPPPPPPP/RNNQBKRB w GAga - 0 1"
	fixture    = "testdata/small.pgn"
	spOf443    = 443
	standardSP = 518
)

// build reads the PGN in data into a new forest with opts, on jobs
// goroutines, and returns it with the problems reported.
func build(t testing.TB, data []byte, opts Options, jobs int) (*Forest, []string) {
	t.Helper()
	f, err := NewForest(opts)
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	r := pgn.NewReader(bytes.NewReader(data))
	r.Name = "small.pgn"
	err = Run(context.Background(), r, f, pipeline.Options{Jobs: jobs, Warn: func(p *pgn.ParseError) { warnings = append(warnings, p.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	return f, warnings
}

func readFixture(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// treeOf returns the forest's tree of SP sp.
func treeOf(t *testing.T, f *Forest, sp int) *Tree {
	t.Helper()
	for _, tr := range f.Trees() {
		if tr.Root().SP == sp {
			return tr
		}
	}
	t.Fatalf("no tree for SP %d", sp)
	return nil
}

// fen4 is a FEN's first four fields: the position without its counters.
func fen4(s string) string { return strings.Join(strings.Fields(s)[:4], " ") }

// nodeAt plays the SAN moves from start and returns the walk's node of
// the position reached.
func nodeAt(t *testing.T, nodes []Node, start, moves string) *Node {
	t.Helper()
	b, err := position.ParseFEN(start)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range strings.Fields(moves) {
		if _, err := b.Play(m); err != nil {
			t.Fatalf("%s: %v", moves, err)
		}
	}
	want := fen4(b.FEN(fen.Shredder))
	for i := range nodes {
		if fen4(nodes[i].FEN) == want {
			return &nodes[i]
		}
	}
	return nil
}

type wantMove struct {
	san                       string
	games, white, draw, black int64
}

type wantNode struct {
	moves                     string // from the start, SAN without numbers
	games, white, draw, black int64
	next                      []wantMove
}

// fixtureTree is the tree of SP 443 in the fixture, worked out by hand:
// A 1.e4 O-O 2.O-O e5 (1-0); B 1.O-O O-O 2.e4 e5 3.f4 (0-1), which meets
// A after 2.e4; C 1.e4 O-O 2.e5 d5 3.exd6 cxd6 (draw), with en passant;
// D 1.e4 O-O 2.Nf3?? (1-0), cut short by the illegal move; E 1.Nb3 Nb6
// 2.Nc1 Nc8 (the start again) 3.e4 O-O 4.O-O (unfinished), which meets
// A after its 3.e4, and counts once at the start it passes twice.
var fixtureTree = []wantNode{
	{"", 5, 2, 1, 1, []wantMove{{"e4", 4, 2, 1, 0}, {"Nb3", 1, 0, 0, 0}, {"O-O", 1, 0, 0, 1}}},
	{"e4", 4, 2, 1, 0, []wantMove{{"O-O", 4, 2, 1, 0}}},
	{"e4 O-O", 4, 2, 1, 0, []wantMove{{"O-O", 2, 1, 0, 0}, {"e5", 1, 0, 1, 0}}},
	{"e4 O-O O-O", 3, 1, 0, 1, []wantMove{{"e5", 2, 1, 0, 1}}},
	{"O-O O-O e4", 3, 1, 0, 1, []wantMove{{"e5", 2, 1, 0, 1}}},
	{"e4 O-O O-O e5", 2, 1, 0, 1, []wantMove{{"f4", 1, 0, 0, 1}}},
	{"e4 O-O O-O e5 f4", 1, 0, 0, 1, nil},
	{"O-O", 1, 0, 0, 1, []wantMove{{"O-O", 1, 0, 0, 1}}},
	{"O-O O-O", 1, 0, 0, 1, []wantMove{{"e4", 1, 0, 0, 1}}},
	{"e4 O-O e5", 1, 0, 1, 0, []wantMove{{"d5", 1, 0, 1, 0}}},
	{"e4 O-O e5 d5", 1, 0, 1, 0, []wantMove{{"exd6", 1, 0, 1, 0}}},
	{"e4 O-O e5 d5 exd6", 1, 0, 1, 0, []wantMove{{"cxd6", 1, 0, 1, 0}}},
	{"e4 O-O e5 d5 exd6 cxd6", 1, 0, 1, 0, nil},
	{"Nb3", 1, 0, 0, 0, []wantMove{{"Nb6", 1, 0, 0, 0}}},
	{"Nb3 Nb6", 1, 0, 0, 0, []wantMove{{"Nc1", 1, 0, 0, 0}}},
	{"Nb3 Nb6 Nc1", 1, 0, 0, 0, []wantMove{{"Nc8", 1, 0, 0, 0}}},
}

// checkNodes compares the walk's nodes with the hand-made ones, and
// checks that the walk holds no other position.
func checkNodes(t *testing.T, nodes []Node, start string, want []wantNode, distinct int) {
	t.Helper()
	if len(nodes) != distinct {
		t.Errorf("%d positions, want %d", len(nodes), distinct)
	}
	for _, w := range want {
		n := nodeAt(t, nodes, start, w.moves)
		if n == nil {
			t.Errorf("after %q: no position", w.moves)
			continue
		}
		got := Results{n.Games, n.WhiteWins, n.Draws, n.BlackWins}
		if got != (Results{w.games, w.white, w.draw, w.black}) {
			t.Errorf("after %q: games +=- %v, want %v", w.moves, got, Results{w.games, w.white, w.draw, w.black})
		}
		var moves []wantMove
		for _, m := range n.Moves {
			moves = append(moves, wantMove{m.SAN, m.Games, m.WhiteWins, m.Draws, m.BlackWins})
		}
		if !equalMoves(moves, w.next) {
			t.Errorf("after %q: moves %v, want %v", w.moves, moves, w.next)
		}
	}
}

func equalMoves(a, b []wantMove) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFixtureTree(t *testing.T) {
	data := readFixture(t)
	for _, jobs := range []int{1, 2} {
		f, warnings := build(t, data, Options{}, jobs)
		tr := treeOf(t, f, spOf443)
		// 16 positions by hand above, less the one written twice (A's
		// and B's orders of the same moves).
		checkNodes(t, tr.Nodes(WalkOptions{}), sp443, fixtureTree, 15)
		if got := tr.Games(); got != 5 {
			t.Errorf("jobs %d: %d games in the tree, want 5", jobs, got)
		}
		want := Summary{Games: 6, OtherStart: 1, Failed: 1}
		if f.Summary != want {
			t.Errorf("jobs %d: summary %+v, want %+v", jobs, f.Summary, want)
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "small.pgn:53: game 4 (White D - Black D), move 2.: illegal move 'Nf3'") {
			t.Errorf("jobs %d: warnings %q", jobs, warnings)
		}
		if got := f.String(); got != "6 games in 2 trees (18 positions), 1 from other starts skipped, 1 cut short by a move that cannot be played" {
			t.Errorf("jobs %d: String() = %q", jobs, got)
		}
	}
}

func TestFixtureFigures(t *testing.T) {
	f, _ := build(t, readFixture(t), Options{}, 1)
	nodes := treeOf(t, f, spOf443).Nodes(WalkOptions{})
	find := func(moves, san string) *Move {
		n := nodeAt(t, nodes, sp443, moves)
		for i := range n.Moves {
			if n.Moves[i].SAN == san {
				return &n.Moves[i]
			}
		}
		t.Fatalf("after %q: no move %s", moves, san)
		return nil
	}
	tests := []struct {
		name, moves, san string
		uci              string
		score, low, high float64
		drawRate         float64
		elo, perf, year  float64
		last             string
	}{
		// A (2000 v 1800, won), C (unrated, draw), D (2200 v 2000, won)
		// and E (unrated, unfinished): White scores 2.5 of 3, is rated
		// 2100 on average, and performs at 1900 + 400 × 2/2.
		{name: "White's e4", moves: "", san: "e4", uci: "e2e4", score: 2.5 / 3, low: 0.3100, high: 0.9823, drawRate: 1.0 / 3, elo: 2100, perf: 2300, year: (2024 + 2022 + 2021) / 3.0, last: "2024.01.10"},
		// The same games from Black's side: rated 1900, lost both rated
		// games against 2100 on average.
		{name: "Black's castling", moves: "e4", san: "O-O", uci: "f8g8", score: 2.5 / 3, low: 0.3100, high: 0.9823, drawRate: 1.0 / 3, elo: 1900, perf: 1700, year: (2024 + 2022 + 2021) / 3.0, last: "2024.01.10"},
		// E alone: unfinished, unrated and undated.
		{name: "nothing to derive", moves: "", san: "Nb3", uci: "c1b3", score: math.NaN(), low: math.NaN(), high: math.NaN(), drawRate: math.NaN(), elo: math.NaN(), perf: math.NaN(), year: math.NaN()},
		// B alone, whose date has no day.
		{name: "a month's date", moves: "O-O O-O", san: "e4", uci: "e2e4", score: 0, low: 0, high: 0.7935, drawRate: 0, elo: 1900, perf: 1700, year: 2023, last: "2023.05.??"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := find(tt.moves, tt.san)
			if m.UCI != tt.uci {
				t.Errorf("UCI %s, want %s", m.UCI, tt.uci)
			}
			for _, c := range []struct {
				name      string
				got, want float64
			}{
				{"score", m.Score, tt.score}, {"score_low", m.ScoreLow, tt.low}, {"score_high", m.ScoreHigh, tt.high},
				{"draw_rate", m.DrawRate, tt.drawRate}, {"avg_elo", m.AvgElo, tt.elo}, {"performance", m.Performance, tt.perf}, {"avg_year", m.AvgYear, tt.year},
			} {
				if math.IsNaN(c.want) != math.IsNaN(c.got) || math.Abs(c.got-c.want) > 5e-5 {
					t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
				}
			}
			if m.LastPlayed != tt.last {
				t.Errorf("last_played %q, want %q", m.LastPlayed, tt.last)
			}
		})
	}
}

func TestChosenStart(t *testing.T) {
	start, err := fen.Parse(sp443)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		opts     Options
		root     Root
		want     []wantNode
		distinct int
		summary  Summary
	}{
		{
			name:     "after moves",
			opts:     Options{Start: &start, Moves: "1. e4 O-O"},
			root:     Root{SP: spOf443, Start: sp443, Moves: "1. e4 O-O", FEN: "rnnqbrkb/pppppppp/8/8/4P3/8/PPPP1PPP/RNNQBKRB w GA - 1 2", Plies: 2},
			distinct: 7,
			// B reaches 1.e4 O-O 2.O-O, never the root; E reaches the root
			// at its sixth ply.
			summary: Summary{Games: 4, OtherStart: 2, NotReached: 1, Failed: 1},
			want: []wantNode{
				{"e4 O-O", 4, 2, 1, 0, []wantMove{{"O-O", 2, 1, 0, 0}, {"e5", 1, 0, 1, 0}}},
				{"e4 O-O O-O", 2, 1, 0, 0, []wantMove{{"e5", 1, 1, 0, 0}}},
			},
		},
		{
			name:     "two plies deep",
			opts:     Options{Start: &start, Depth: 2},
			root:     Root{SP: spOf443, Start: sp443, FEN: sp443},
			distinct: 7,
			// D's illegal third ply is not looked at.
			summary: Summary{Games: 5, OtherStart: 2},
			want: []wantNode{
				{"", 5, 2, 1, 1, []wantMove{{"e4", 3, 2, 1, 0}, {"Nb3", 1, 0, 0, 0}, {"O-O", 1, 0, 0, 1}}},
				{"e4", 3, 2, 1, 0, []wantMove{{"O-O", 3, 2, 1, 0}}},
				{"e4 O-O", 3, 2, 1, 0, nil},
				{"Nb3 Nb6", 1, 0, 0, 0, nil},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := build(t, readFixture(t), tt.opts, 2)
			trees := f.Trees()
			if len(trees) != 1 {
				t.Fatalf("%d trees, want 1", len(trees))
			}
			if got := trees[0].Root(); got != tt.root {
				t.Errorf("root %+v, want %+v", got, tt.root)
			}
			checkNodes(t, trees[0].Nodes(WalkOptions{}), sp443, tt.want, tt.distinct)
			if f.Summary != tt.summary {
				t.Errorf("summary %+v, want %+v", f.Summary, tt.summary)
			}
		})
	}
}

func TestNewForestErrors(t *testing.T) {
	start, _ := fen.Parse(sp443)
	bad, _ := fen.Parse("4k3/8/8/8/8/8/8/4QK2 w - - 0 1") // Black in check, White to move
	tests := []struct {
		name string
		opts Options
		want error
	}{
		{"negative depth", Options{Depth: -1}, ErrDepth},
		{"depth too large", Options{Depth: MaxDepth + 1}, ErrDepth},
		{"moves without a start", Options{Moves: "1. e4"}, ErrMoves},
		{"illegal move", Options{Start: &start, Moves: "1. e4 O-O 2. Nf3"}, ErrMoves},
		{"null move", Options{Start: &start, Moves: "1. --"}, ErrMoves},
		{"start not playable", Options{Start: &bad}, ErrStart},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewForest(tt.opts); !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
}

// independent counts, for the games of data, the games through each
// position and each move of their first depth plies, keyed by SP and FEN
// (and UCI): a plain replay with package position and maps of strings,
// sharing nothing with the trees but the board.
func independent(t *testing.T, data []byte, depth int) (nodes, moves map[string]int64) {
	t.Helper()
	nodes, moves = map[string]int64{}, map[string]int64{}
	games, err := pgn.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i := range games {
		g := &games[i]
		c := startpos.Classify(g)
		sp, ok := c.Start.SP()
		if !ok {
			continue
		}
		var b *position.Board
		if c.Start.FEN >= 0 {
			var err error
			if b, err = position.ParseFEN(string(g.Tags[c.Start.FEN].Value)); err != nil {
				continue
			}
		} else {
			b = position.New()
		}
		want, _ := position.Start(sp)
		if fen4(b.FEN(fen.Shredder)) != fen4(want.FEN(fen.Shredder)) {
			continue
		}
		b.SetChess960(sp != standardSP)
		seenN, seenM := map[string]bool{}, map[string]bool{}
		prefix := fmt.Sprintf("%03d ", sp)
		here := func() string { return prefix + fen4(b.FEN(fen.Shredder)) }
		seenN[here()] = true
		var sc pgn.MovetextScanner
		sc.Reset(g.Movetext(), g.MovetextLine())
		for ply := 0; ply < depth && sc.Next(); {
			if sc.Kind() != pgn.TokenMove || sc.Depth() > 0 {
				continue
			}
			from := here()
			m, err := b.ParseMove(string(sc.Token().Text))
			if err != nil || m == position.NullMove {
				break
			}
			seenM[from+" "+b.UCI(m)] = true
			b.Push(m)
			ply++
			seenN[here()] = true
		}
		for k := range seenN {
			nodes[k]++
		}
		for k := range seenM {
			moves[k]++
		}
	}
	return nodes, moves
}

// counted returns the forest's counts keyed as independent keys them.
func counted(f *Forest) (nodes, moves map[string]int64) {
	nodes, moves = map[string]int64{}, map[string]int64{}
	for _, tr := range f.Trees() {
		sp := tr.Root().SP
		prefix := fmt.Sprintf("%03d ", sp)
		for _, n := range tr.Nodes(WalkOptions{}) {
			nodes[prefix+fen4(n.FEN)] += n.Games
			for _, m := range n.Moves {
				moves[prefix+fen4(n.FEN)+" "+m.UCI] += m.Games
			}
		}
	}
	return nodes, moves
}

// oneStartGames returns n random games of the given plies from the
// standard start, with random results: positions with many moves, and
// moves many games played.
func oneStartGames(t *testing.T, n, plies int) []byte {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	results := []string{"1-0", "0-1", "1/2-1/2", "*"}
	var sb strings.Builder
	for range n {
		b, err := position.Start(numbering.StandardSP)
		if err != nil {
			t.Fatal(err)
		}
		result := results[rng.IntN(len(results))]
		fmt.Fprintf(&sb, "[Event \"?\"]\n[WhiteElo \"%d\"]\n[BlackElo \"%d\"]\n[Date \"2024.01.%02d\"]\n[Result \"%s\"]\n\n", 1500+rng.IntN(1000), 1500+rng.IntN(1000), 1+rng.IntN(28), result)
		for ply := 0; ply < plies; ply++ {
			moves := b.LegalMoves()
			if len(moves) == 0 {
				break
			}
			// Few moves from each position, so that games meet.
			m := moves[rng.IntN(min(len(moves), 12))]
			if ply%2 == 0 {
				fmt.Fprintf(&sb, "%d. ", ply/2+1)
			}
			sb.WriteString(b.SAN(m) + " ")
			b.Push(m)
		}
		sb.WriteString(result + "\n\n")
	}
	return []byte(sb.String())
}

func TestCountsMatchIndependentReplay(t *testing.T) {
	gen := archivegen.Bytes(archivegen.Options{Seed: 7, Dialects: true, MeanPlies: 16}, 256<<10)
	// Few start positions, so that games share openings: the archive's
	// games replayed again and again from the same few arrays.
	tests := []struct {
		name  string
		data  []byte
		depth int
	}{
		{"fixture", readFixture(t), 12},
		{"fixture, 3 plies", readFixture(t), 3},
		{"generated", gen, 8},
		{"generated, deep", gen, 40},
		{"one start, many moves from each position", oneStartGames(t, 600, 10), 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := build(t, tt.data, Options{Depth: tt.depth}, 2)
			wantN, wantM := independent(t, tt.data, tt.depth)
			gotN, gotM := counted(f)
			compareCounts(t, "position", gotN, wantN)
			compareCounts(t, "move", gotM, wantM)
		})
	}
}

func compareCounts(t *testing.T, what string, got, want map[string]int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d %ss, want %d", len(got), what, len(want))
	}
	bad := 0
	for k, w := range want {
		if got[k] != w && bad < 5 {
			t.Errorf("%s %s: %d games, want %d", what, k, got[k], w)
			bad++
		}
	}
}

// merged writes each part's forest as JSON and reads them all into one.
func merged(t *testing.T, parts []*Forest) *Forest {
	t.Helper()
	m, err := NewForest(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		var buf bytes.Buffer
		if err := p.WriteJSON(&buf, WalkOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := m.ReadJSON(&buf); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func jsonOf(t *testing.T, f *Forest) string {
	t.Helper()
	var buf bytes.Buffer
	if err := f.WriteJSON(&buf, WalkOptions{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestMergeEqualsOneRun(t *testing.T) {
	gen := archivegen.Bytes(archivegen.Options{Seed: 3, Dialects: true}, 128<<10)
	split := func(data []byte, n int) [][]byte {
		// Cut at game starts, "\n[Event ".
		var parts [][]byte
		for i := 1; i < n; i++ {
			at := len(data) / (n - i + 1)
			j := bytes.Index(data[at:], []byte("\n[Event "))
			if j < 0 {
				break
			}
			parts = append(parts, data[:at+j+1])
			data = data[at+j+1:]
		}
		return append(parts, data)
	}
	fix := readFixture(t)
	tests := []struct {
		name  string
		parts [][]byte
		opts  Options
	}{
		{"fixture game by game", split(fix, 7), Options{}},
		{"generated in three", split(gen, 3), Options{Depth: 10}},
		{"generated and fixture", [][]byte{gen, fix}, Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			whole, _ := build(t, bytes.Join(tt.parts, nil), tt.opts, 2)
			var forests []*Forest
			for _, p := range tt.parts {
				f, _ := build(t, p, tt.opts, 1)
				forests = append(forests, f)
			}
			m := merged(t, forests)
			if got, want := jsonOf(t, m), jsonOf(t, whole); got != want {
				t.Errorf("merged document differs from one run's:\n%.600s\nwant\n%.600s", got, want)
			}
			if m.Totals.String() != whole.Totals.String() || m.String() != whole.String() {
				t.Errorf("summary %s; %s, want %s; %s", &m.Totals, m, &whole.Totals, whole)
			}
		})
	}
}

func TestReadJSONRefuses(t *testing.T) {
	f, _ := build(t, readFixture(t), Options{}, 1)
	var filtered bytes.Buffer
	if err := f.WriteJSON(&filtered, WalkOptions{MinGames: 2}); err != nil {
		t.Fatal(err)
	}
	doc := jsonOf(t, f)
	twice := strings.Replace(doc, `"trees":[`, `"trees":[`+treeJSON(t, doc)+`,`, 1)
	tests := []struct {
		name  string
		doc   string
		depth int
		want  error
	}{
		{"not JSON", "[Event", 0, ErrNotTree},
		{"another document", `{"format":"frctool-stats/1","rows":[]}`, 0, ErrNotTree},
		{"filtered", filtered.String(), 0, ErrFiltered},
		{"other depth", doc, 8, ErrDepth},
		{"depth below one", strings.Replace(doc, `"depth":12`, `"depth":-2`, 1), 0, ErrDepth},
		{"depth of none", strings.Replace(doc, `"depth":12`, `"depth":0`, 1), 0, ErrDepth},
		{"depth past the most", strings.Replace(doc, `"depth":12`, `"depth":201`, 1), 0, ErrDepth},
		{"a tree twice", twice, 0, ErrDuplicated},
		{"bad move", strings.Replace(doc, `"uci":"e2e4"`, `"uci":"e2e5"`, 1), 0, ErrBadNode},
		{"two lists of positions", strings.Replace(doc, `"nodes":[`, `"nodes":[],"nodes":[`, 1), 0, ErrNotTree},
		{"totals below 0", strings.Replace(doc, `"totals":{"games":`, `"totals":{"games":-5,"x":`, 1), 0, startpos.ErrTally},
		{"summary below 0", strings.Replace(doc, `"summary":{"games":`, `"summary":{"games":-5,"x":`, 1), 0, ErrNotTree},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := NewForest(Options{Depth: tt.depth})
			if err != nil {
				t.Fatal(err)
			}
			if tt.depth != 0 {
				// A forest that has trees keeps its depth.
				if err := m.ReadJSON(strings.NewReader(jsonOf(t, mustBuild(t, tt.depth)))); err != nil {
					t.Fatal(err)
				}
			}
			before := m.Len()
			err = m.ReadJSON(strings.NewReader(tt.doc))
			if !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			} else if n := strings.Count(err.Error(), ErrNotTree.Error()); n > 1 {
				t.Errorf("error %v says what it is %d times", err, n)
			}
			if m.Len() != before {
				t.Errorf("%d positions after a refused document, want %d", m.Len(), before)
			}
		})
	}
}

func mustBuild(t *testing.T, depth int) *Forest {
	f, _ := build(t, readFixture(t), Options{Depth: depth}, 1)
	return f
}

// treeJSON returns the first tree of a document, as text.
func treeJSON(t *testing.T, doc string) string {
	t.Helper()
	i := strings.Index(doc, `"trees":[`) + len(`"trees":[`)
	depth := 0
	for j := i; j < len(doc); j++ {
		switch doc[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return doc[i : j+1]
			}
		}
	}
	t.Fatal("no tree in the document")
	return ""
}

func TestMaxNodes(t *testing.T) {
	gen := archivegen.Bytes(archivegen.Options{Seed: 5}, 128<<10)
	full, _ := build(t, gen, Options{}, 2)
	tests := []struct {
		name string
		max  int
	}{
		{"a tenth", full.Len() / 10},
		{"half", full.Len() / 2},
		{"no pruning needed", full.Len()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := build(t, gen, Options{MaxNodes: tt.max}, 2)
			if f.Len() > tt.max {
				t.Errorf("%d positions, bound %d", f.Len(), tt.max)
			}
			if (f.Summary.Pruned > 0) != (tt.max < full.Len()) {
				t.Errorf("%d pruned with a bound of %d for %d positions", f.Summary.Pruned, tt.max, full.Len())
			}
			// What is left is still a tree walked from the roots: every
			// position is reached by a move, and no move leads nowhere.
			walked := 0
			for _, tr := range f.Trees() {
				for _, n := range tr.Nodes(WalkOptions{}) {
					walked++
					for _, m := range n.Moves {
						if m.To < 0 {
							t.Fatalf("%s %s leads nowhere", n.FEN, m.SAN)
						}
					}
				}
			}
			if walked != f.Len() {
				t.Errorf("the walk meets %d positions of %d", walked, f.Len())
			}
			// Every position kept is found by its key, at its index.
			indexed := 0
			for _, tr := range f.trees {
				for _, slot := range tr.index.slots {
					if slot == 0 {
						continue
					}
					n := int32(uint32(slot)) - 1
					k := tr.keyOf(n)
					if got, _ := tr.index.find(&sought{t: tr, key: k, known: true}, k.Hash()); got != n {
						t.Fatalf("node %d found at %d by its key", n, got)
					}
					indexed++
				}
			}
			if indexed != f.Len() {
				t.Errorf("%d positions indexed of %d", indexed, f.Len())
			}
			if strings.Contains(f.String(), "pruned") != (f.Summary.Pruned > 0) {
				t.Errorf("String() = %q", f.String())
			}
		})
	}
}

func TestWriteRows(t *testing.T) {
	start, _ := fen.Parse(sp443)
	f, _ := build(t, readFixture(t), Options{Start: &start, Depth: 2}, 1)
	var csvOut, table bytes.Buffer
	if err := f.WriteCSV(&csvOut, WalkOptions{MinGames: 2}); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteTable(&table, WalkOptions{MinGames: 2}); err != nil {
		t.Fatal(err)
	}
	wantCSV := `sp,ply,line,move,games,white_wins,draws,black_wins,score,score_low,score_high,draw_rate,avg_elo,performance,avg_year,last_played,uci,fen
443,0,,e4,3,2,1,0,0.8333,0.3100,0.9823,0.3333,2100,2300,2022.3,2024.01.10,e2e4,rnnqbkrb/pppppppp/8/8/8/8/PPPPPPPP/RNNQBKRB w GAga - 0 1
443,1,1. e4,O-O,3,2,1,0,0.8333,0.3100,0.9823,0.3333,1900,1700,2022.3,2024.01.10,f8g8,rnnqbkrb/pppppppp/8/8/4P3/8/PPPP1PPP/RNNQBKRB b GAga - 0 1
`
	if csvOut.String() != wantCSV {
		t.Errorf("CSV:\n%s\nwant\n%s", csvOut.String(), wantCSV)
	}
	wantTable := ` sp  ply  line   move  games  white_wins  draws  black_wins   score  score_low  score_high  draw_rate  avg_elo  performance  avg_year  last_played
443    0         e4        3           2      1           0  0.8333     0.3100      0.9823     0.3333     2100         2300    2022.3  2024.01.10
443    1  1. e4  O-O       3           2      1           0  0.8333     0.3100      0.9823     0.3333     1900         1700    2022.3  2024.01.10
`
	if table.String() != wantTable {
		t.Errorf("table:\n%s\nwant\n%s", table.String(), wantTable)
	}
}

func TestAppendFixed(t *testing.T) {
	tests := []struct {
		x    float64
		prec int
		want string
	}{
		{0.83333333, 4, "0.8333"}, {0, 4, "0.0000"}, {1, 4, "1.0000"}, {2022.3333, 1, "2022.3"},
		{2099.6, 0, "2100"}, {-12.25, 1, "-12.3"}, {0.00004, 4, "0.0000"}, {0.99996, 4, "1.0000"},
		{1e13, 2, "10000000000000.00"}, {math.NaN(), 2, ""},
	}
	for _, tt := range tests {
		if got := string(appendFixed(nil, tt.x, tt.prec)); got != tt.want {
			t.Errorf("appendFixed(%v, %d) = %q, want %q", tt.x, tt.prec, got, tt.want)
		}
	}
}

// TestPruneOrder holds pruning to its order: the leaves fewest games
// reached go first, and of those equally played the newest, until half
// the bound is left.
func TestPruneOrder(t *testing.T) {
	game := func(moves string) string {
		return "[Event \"?\"]\n[Result \"1-0\"]\n\n" + moves + " 1-0\n\n"
	}
	tests := []struct {
		name     string
		games    []string
		maxNodes int
		want     []string // the lines of the positions left, by the walk
		pruned   int64
	}{
		{
			name:     "the least played leaves, then the newest",
			games:    []string{"1. e4 e5", "1. e4 e5", "1. e4 e5", "1. d4 d5", "1. c4 c5", "1. b4 b5"},
			maxNodes: 8,
			want:     []string{"", "1. e4", "1. e4 e5", "1. d4"},
			pruned:   5,
		},
		{
			name:     "the newest of equally played leaves",
			games:    []string{"1. e4", "1. d4", "1. c4", "1. Nf3", "1. g3", "1. b3"},
			maxNodes: 6,
			want:     []string{"", "1. e4", "1. d4"},
			pruned:   4,
		},
		{
			name:     "a position left a leaf by a round, in the next",
			games:    []string{"1. d4 d5", "1. d4 d5", "1. e4 e5"},
			maxNodes: 4,
			want:     []string{"", "1. d4"},
			pruned:   3,
		},
		{
			name:     "older leaves first, then one a round left",
			games:    []string{"1. c4", "1. d4 d5", "1. d4 d5", "1. e4 e5"},
			maxNodes: 5,
			want:     []string{"", "1. d4"},
			pruned:   4,
		},
		{
			name:     "within the bound",
			games:    []string{"1. e4 e5", "1. d4"},
			maxNodes: 4,
			want:     []string{"", "1. e4", "1. e4 e5", "1. d4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pgnText strings.Builder
			for _, g := range tt.games {
				pgnText.WriteString(game(g))
			}
			f, _ := build(t, []byte(pgnText.String()), Options{MaxNodes: tt.maxNodes, Depth: 2}, 1)
			var got []string
			for _, tr := range f.Trees() {
				for _, n := range tr.Nodes(WalkOptions{}) {
					got = append(got, n.Line)
				}
			}
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("positions %q, want %q", got, want)
			}
			if f.Summary.Pruned != tt.pruned {
				t.Errorf("%d pruned, want %d", f.Summary.Pruned, tt.pruned)
			}
			if f.Len() != len(tt.want) {
				t.Errorf("Len() = %d, want %d", f.Len(), len(tt.want))
			}
		})
	}
}

// TestKeysMadeAgain holds the store's one way of knowing a node's
// position, Tree.keyOf (the moves that added it, played from the root),
// against a walk of each tree's moves from its root on a board of the
// test's own, after pruning, merging, and reading a document whose
// positions come before the moves that reach them or are reached by none.
func TestKeysMadeAgain(t *testing.T) {
	gen := archivegen.Bytes(archivegen.Options{Seed: 7, Dialects: true}, 96<<10)
	full, _ := build(t, gen, Options{}, 2)
	half, _ := build(t, gen[:len(gen)/2], Options{}, 1)
	rest, _ := build(t, gen[len(gen)/2:], Options{}, 1)
	// A document turned around: each tree's positions after their
	// children, and one more position no move reaches, with a move of its
	// own.
	doc := jsonOf(t, full)
	var d map[string]any
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	for _, tr := range d["trees"].([]any) {
		nodes := tr.(map[string]any)["nodes"].([]any)
		slices.Reverse(nodes)
	}
	first := d["trees"].([]any)[0].(map[string]any)
	lone := map[string]any{"ply": 1, "line": "", "fen": "4k3/p7/8/8/8/8/7P/4K3 b - - 0 1", "games": 1, "white_wins": 1, "draws": 0, "black_wins": 0,
		"moves": []any{map[string]any{"san": "a6", "uci": "a7a6", "games": 1, "white_wins": 1, "draws": 0, "black_wins": 0}}}
	first["nodes"] = append([]any{lone}, first["nodes"].([]any)...)
	turned, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	read := func(docs ...string) *Forest {
		f, err := NewForest(Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range docs {
			if err := f.ReadJSON(strings.NewReader(doc)); err != nil {
				t.Fatal(err)
			}
		}
		return f
	}
	// A root with an en passant capture to play, and games that play it
	// and meet again two plies later.
	epFEN := "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
	epStart, err := fen.Parse(epFEN)
	if err != nil {
		t.Fatal(err)
	}
	var ep bytes.Buffer
	for i, moves := range []string{"2. exd6 e6 3. Nf3 Nf6 4. Bb5+ c6", "2. exd6 Nf6 3. Nf3 e6 4. dxc7 Qxc7", "2. exd6 Nf6 3. Nf3 e6 4. Bb5+ c6"} {
		fmt.Fprintf(&ep, "[Event \"ep %d\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n[Result \"*\"]\n\n%s *\n\n", i, epFEN, moves)
	}
	epForest, _ := build(t, ep.Bytes(), Options{Start: &epStart}, 1)
	// The root, six positions of the first game, and four of the second
	// (the third plays the second's moves and then the first's).
	if epForest.Len() != 11 {
		t.Fatalf("the en passant games make %d positions, want 11", epForest.Len())
	}
	tests := []struct {
		name    string
		forest  *Forest
		orphans int // positions no move reaches, besides the roots
	}{
		{"grown", full, 0},
		{"fixture", func() *Forest { f, _ := build(t, readFixture(t), Options{}, 1); return f }(), 0},
		{"en passant at the root", epForest, 0},
		{"pruned to a tenth", func() *Forest { f, _ := build(t, gen, Options{MaxNodes: full.Len() / 10}, 2); return f }(), 0},
		{"merged from two documents", merged(t, []*Forest{half, rest}), 0},
		{"merged into a pruned forest", func() *Forest {
			f, _ := build(t, gen[:len(gen)/2], Options{MaxNodes: full.Len() / 8}, 1)
			if err := f.Merge(rest); err != nil {
				t.Fatal(err)
			}
			return f
		}(), 0},
		{"document turned around", read(string(turned)), 1},
		{"document turned around, read twice", read(string(turned), string(turned)), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checked, orphans := 0, 0
			for _, tr := range tt.forest.trees {
				walked := map[int32]position.Key{}
				b := new(position.Board)
				b.SetBoard(&tr.board)
				var walk func(n int32)
				walk = func(n int32) {
					walked[n] = b.Key()
					for e := tr.s.nodes.at(n).first; e >= 0; e = tr.s.links.at(e).next {
						l := tr.s.links.at(e)
						if _, ok := walked[l.child]; ok {
							continue
						}
						b.Push(l.move)
						walk(l.child)
						b.Pop()
					}
				}
				walk(tr.rootNode)
				walked[tr.rootNode] = tr.rootKey
				// Then from the positions no move reaches, set up from
				// the keys they were read with.
				for _, slot := range tr.index.slots {
					n := int32(uint32(slot)) - 1
					if _, ok := walked[n]; slot == 0 || ok {
						continue
					}
					k, ok := tr.s.orphans[n]
					if !ok {
						continue
					}
					orphans++
					b.SetBoard(boardOf(k))
					walk(n)
				}
				for _, slot := range tr.index.slots {
					if slot == 0 {
						continue
					}
					n := int32(uint32(slot)) - 1
					want, ok := walked[n]
					if !ok {
						t.Fatalf("node %d is reached by no move, and has no key", n)
					}
					if got := tr.keyOf(n); got != want {
						t.Fatalf("node %d: key made again %s, walked %s", n, got.AppendFEN(nil, 0, 1), want.AppendFEN(nil, 0, 1))
					}
					if found, _ := tr.index.find(&sought{t: tr, key: want, known: true}, want.Hash()); found != n {
						t.Fatalf("node %d found at %d by its key", n, found)
					}
					checked++
				}
			}
			if checked != tt.forest.Len() || orphans != tt.orphans {
				t.Errorf("%d positions checked of %d, %d reached by no move, want %d", checked, tt.forest.Len(), orphans, tt.orphans)
			}
		})
	}
}

// TestWalkWithoutPlan holds the walk that rows take, which works out
// each position's moves as it meets them, to the walk of a plan: the
// same positions in the same order, with the same lines, positions and
// moves, walk after walk of the same trees in either way.
func TestWalkWithoutPlan(t *testing.T) {
	gen := archivegen.Bytes(archivegen.Options{Seed: 9, Dialects: true}, 96<<10)
	type seen struct {
		index, ply int
		line, fen  string
		Results
		moves string
	}
	record := func(tr *Tree, p *plan, opts WalkOptions) []seen {
		var out []seen
		var m walkMemory
		if p != nil {
			p = tr.planIn(&m, opts)
		}
		err := tr.walkIn(&m, p, opts, func(v *view) error {
			s := seen{index: v.index, ply: v.ply, line: string(v.line), fen: string(v.fen), Results: v.Results}
			for _, mv := range v.moves {
				s.moves += fmt.Sprintf("%s %s %+v;", mv.san, mv.uci, mv.c)
			}
			out = append(out, s)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	tests := []struct {
		name string
		data []byte
		opts Options
		walk WalkOptions
	}{
		{"fixture", readFixture(t), Options{}, WalkOptions{}},
		{"generated", gen, Options{}, WalkOptions{}},
		{"generated, two games a move", gen, Options{}, WalkOptions{MinGames: 2}},
		{"generated, pruned, 16 plies", gen, Options{Depth: 16, MaxNodes: 3000}, WalkOptions{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := build(t, tt.data, tt.opts, 2)
			for round := range 3 {
				for _, tr := range f.trees {
					planned := record(tr, &plan{}, tt.walk)
					direct := record(tr, nil, tt.walk)
					if !slices.Equal(planned, direct) {
						for i := range min(len(planned), len(direct)) {
							if planned[i] != direct[i] {
								t.Fatalf("round %d, tree of %s, position %d: without a plan %+v, with one %+v", round, tr.root.FEN, i, direct[i], planned[i])
							}
						}
						t.Fatalf("round %d, tree of %s: %d positions without a plan, %d with one", round, tr.root.FEN, len(direct), len(planned))
					}
				}
			}
		})
	}
}

// The summary's words agree with its counts.
func TestSummaryString(t *testing.T) {
	for _, tc := range []struct {
		name             string
		s                Summary
		trees, positions int
		want             string
	}{
		{"one of each", Summary{Games: 1}, 1, 1, "1 game in 1 tree (1 position)"},
		{"none", Summary{}, 0, 0, "0 games in 0 trees (0 positions)"},
		{"one pruned", Summary{Games: 5, Pruned: 1}, 2, 9, "5 games in 2 trees (9 positions), 1 position pruned to stay within the node bound (its counts are partial)"},
		{"two pruned", Summary{Games: 5, Pruned: 2}, 2, 9, "5 games in 2 trees (9 positions), 2 positions pruned to stay within the node bound (their counts are partial)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.string(tc.trees, tc.positions); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestTooManyGames: counts a tree cannot hold are refused, not wrapped
// around in its 32-bit counts: impossible counts in a document (below 0,
// results past the games, ratings past what the games give), counts past
// MaxGames in one document or in two merged, and counting past it. Before,
// four documents of 2^62 games merged into a move of 4 games, and a count
// of -1 read as 4,294,967,295.
func TestTooManyGames(t *testing.T) {
	const game = "[Event \"x\"]\n[WhiteElo \"2000\"]\n[BlackElo \"1900\"]\n[Date \"2024.01.02\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n"
	f, _ := build(t, []byte(game), Options{Depth: 2}, 1)
	base := jsonOf(t, f)
	// edit returns the document with the first tree's root position's
	// counts and its first move's changed.
	edit := func(node, move map[string]any) string {
		var d map[string]any
		if err := json.Unmarshal([]byte(base), &d); err != nil {
			t.Fatal(err)
		}
		for _, n := range d["trees"].([]any)[0].(map[string]any)["nodes"].([]any) {
			n := n.(map[string]any)
			if n["ply"].(float64) != 0 {
				continue
			}
			maps.Copy(n, node)
			maps.Copy(n["moves"].([]any)[0].(map[string]any), move)
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	games := func(n int64) map[string]any {
		return map[string]any{"games": n, "white_wins": n, "draws": 0, "black_wins": 0}
	}
	const half = MaxGames/2 + 1
	tests := []struct {
		name string
		docs []string
		want error // from the last document; those before are taken
		msg  string
	}{
		{"MaxGames", []string{edit(games(MaxGames), games(MaxGames))}, nil, ""},
		{"past MaxGames", []string{edit(games(MaxGames+1), nil)}, ErrBadNode, "impossible counts: 2147483648 games"},
		{"games below 0", []string{edit(games(-1), nil)}, ErrBadNode, "impossible counts: -1 games"},
		{"wins past the games", []string{edit(map[string]any{"games": 1, "white_wins": 2}, nil)}, ErrBadNode, "impossible counts: 1 games, 2-0-0"},
		{"a move's results past its games", []string{edit(nil, map[string]any{"games": 1, "white_wins": 1, "draws": 1})}, ErrBadNode, "impossible counts: 1 games, 1-1-0"},
		{"ratings past what the games give", []string{edit(nil, map[string]any{"elo_games": 1, "elo_sum": 1 << 40})}, ErrBadNode, "beyond what 1 games give"},
		{"a net score past the games", []string{edit(nil, map[string]any{"opp_games": 1, "opp_elo_sum": 1900, "opp_net": 5})}, ErrBadNode, "beyond what 1 games give"},
		{"two documents past MaxGames", []string{edit(games(half), games(half)), edit(games(half), games(half))}, ErrTooManyGames, "more than 2147483647 through one position or move"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := NewForest(Options{})
			if err != nil {
				t.Fatal(err)
			}
			for i, doc := range tc.docs {
				err := f.ReadJSON(strings.NewReader(doc))
				if i < len(tc.docs)-1 || tc.want == nil {
					if err != nil {
						t.Fatalf("document %d: %v", i+1, err)
					}
					continue
				}
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("ReadJSON = %v, want %v saying %q", err, tc.want, tc.msg)
				}
			}
		})
	}
	t.Run("counting", func(t *testing.T) {
		f, _ := build(t, []byte(game), Options{Depth: 2}, 1)
		tr := f.trees[0]
		tr.s.nodes.at(tr.rootNode).games = MaxGames // as if it had counted that many
		r := pgn.NewReader(strings.NewReader(game))
		if err := Run(context.Background(), r, f, pipeline.Options{Jobs: 1}); !errors.Is(err, ErrTooManyGames) {
			t.Errorf("Run past MaxGames = %v, want ErrTooManyGames", err)
		}
	})
}
