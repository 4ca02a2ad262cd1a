package replay

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/startpos"
)

// readGame reads the one game of text, named in.pgn.
func readGame(t *testing.T, text string) *pgn.Game {
	t.Helper()
	r := pgn.NewReader(strings.NewReader(text))
	r.Name = "in.pgn"
	games, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 {
		t.Fatalf("%d games in %q", len(games), text)
	}
	return &games[0]
}

func TestSetUp(t *testing.T) {
	tests := []struct {
		name string
		game string
		line int
		err  error  // what errors.Is finds; nil for success
		text string // the error's text, or the FEN of the board set up
	}{
		{
			name: "no FEN: standard chess",
			game: "[Event \"x\"]\n\n*\n",
			text: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		},
		{
			name: "Chess960 FEN with its own castling field and counters",
			game: "[Event \"x\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR b Hh - 3 7\"]\n\n*\n",
			text: "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR b Kk - 3 7",
		},
		{
			name: "position from a game in progress",
			game: "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 40\"]\n\n*\n",
			text: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40",
		},
		{
			name: "unknown FEN",
			game: "[Event \"x\"]\n[FEN \"?\"]\n\n*\n",
			line: 2,
			err:  startpos.ErrNoFEN,
			text: "start position unknown",
		},
		{
			name: "SetUp without FEN",
			game: "[Event \"x\"]\n[SetUp \"1\"]\n\n*\n",
			line: 1,
			err:  startpos.ErrNoFEN,
			text: "start position unknown",
		},
		{
			name: "no tags: the line the text begins on",
			game: "\n\n1. e4 e5 *\n",
			line: 3,
			err:  startpos.ErrNoFEN,
			text: "start position unknown: no tags",
		},
		{
			name: "more tags than a game holds",
			game: strings.Repeat("[Tag \"x\"]\n", pgn.MaxTags+1) + "\n*\n",
			line: 1,
			err:  pgn.ErrGameTooLarge,
			text: "start position unknown: game too large",
		},
		{
			name: "a position that cannot be played from",
			game: "[Event \"x\"]\n[FEN \"8/8/8/8/8/8/8/K7 w - - 0 1\"]\n\n*\n",
			line: 2,
			err:  startpos.ErrFEN,
			text: "FEN: invalid position: black has 0 kings",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := readGame(t, tt.game)
			c := startpos.Classify(g)
			r := New(Options{})
			line, err := r.SetUp(g, c.Start)
			if tt.err == nil {
				if err != nil {
					t.Fatalf("SetUp: %v", err)
				}
				if got := r.board.FEN(fen.XFEN); got != tt.text {
					t.Errorf("board %s, want %s", got, tt.text)
				}
				return
			}
			if !errors.Is(err, tt.err) || err.Error() != tt.text || line != tt.line {
				t.Errorf("SetUp: line %d %v, want line %d %q (%v)", line, err, tt.line, tt.text, tt.err)
			}
		})
	}
}

func TestPlay(t *testing.T) {
	const frc = "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n"
	tests := []struct {
		name       string
		game       string
		variations bool
		plies      int
		mainPlies  int
		final      string // the final FEN; "" when the main line failed
		problems   []string
		kind       error // what errors.Is finds in the first problem
	}{
		{
			name:      "main line",
			game:      "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 {good} Nc6 $1 *\n",
			plies:     4,
			mainPlies: 4,
			final:     "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		},
		{
			name:      "Chess960 castling",
			game:      frc + "\n1. f4 f5 2. Rf3 Rf6 3. O-O O-O *\n",
			plies:     6,
			mainPlies: 6,
			final:     "bbqnnrk1/ppppp1pp/5r2/5p2/5P2/5R2/PPPPP1PP/BBQNNRK1 w - - 4 4",
		},
		{
			name:      "variations skipped unless asked for",
			game:      "[Event \"x\"]\n\n1. e4 (1. d4 Zz 2. c4) e5 *\n",
			plies:     2,
			mainPlies: 2,
			final:     "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
		},
		{
			name:       "a bad move in a variation ends that variation only",
			game:       "[White \"A\"]\n[Black \"B\"]\n\n1. e4 (1. d4 d5 (1... Ke7 2. c4) 2. c4) e5\n2. Nf3 *\n",
			variations: true,
			plies:      6,
			mainPlies:  3,
			final:      "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
			problems:   []string{"in.pgn:4: game 1 (A - B), move 1...: illegal move 'Ke7': e7 is occupied by black's own pawn"},
			kind:       position.ErrIllegalMove,
		},
		{
			name:      "an illegal move ends the main line",
			game:      "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5\n2. Ke3 Nc6 *\n",
			plies:     2,
			mainPlies: 2,
			problems:  []string{"in.pgn:5: game 1 (A - B), move 2.: illegal move 'Ke3': no king can move to e3"},
			kind:      position.ErrIllegalMove,
		},
		{
			name:      "unreadable move",
			game:      "[Event \"x\"]\n\n1. e4 Xyzzy *\n",
			plies:     1,
			mainPlies: 1,
			problems:  []string{"in.pgn:3: game 1 (? - ?), move 1...: invalid move 'Xyzzy': not a move in SAN, long algebraic or UCI notation"},
			kind:      position.ErrInvalidMove,
		},
		{
			name:       "null move in a variation passes the turn",
			game:       "[Event \"x\"]\n\n1. e4 e5 (1... -- 2. d4) 2. Nf3 *\n",
			variations: true,
			plies:      5,
			mainPlies:  3,
			final:      "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
		},
		{
			name:       "a sibling after a failed variation starts where the failed one did",
			game:       "[Event \"x\"]\n\n1. e4 e5 (1... c5 2. Nf3 Zz (2... d6 3. d4)) (1... e6 2. d4) 2. Nf3 *\n",
			variations: true,
			plies:      7,
			mainPlies:  3,
			final:      "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
			problems:   []string{"in.pgn:3: game 1 (? - ?), move 2...: invalid move 'Zz': not a move in SAN, long algebraic or UCI notation"},
			kind:       position.ErrInvalidMove,
		},
		{
			name:       "a variation left open gives the main line back its position",
			game:       "[Event \"x\"]\n\n1. e4 e5 2. Nf3 (2. d4 exd4 (2... d6 3. dxe5\n",
			variations: true,
			plies:      7,
			mainPlies:  3,
			final:      "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
		},
		{
			name:      "null move in the main line fails",
			game:      "[Event \"x\"]\n\n1. e4 -- 2. d4 *\n",
			plies:     1,
			mainPlies: 1,
			problems:  []string{"in.pgn:3: game 1 (? - ?), move 1...: illegal move '--': a null move can stand in a variation, not in the game"},
			kind:      position.ErrIllegalMove,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := readGame(t, tt.game)
			r := New(Options{Variations: tt.variations})
			if _, err := r.SetUp(g, startpos.Classify(g).Start); err != nil {
				t.Fatal(err)
			}
			res := r.Play(g)
			if res.Plies != tt.plies || res.MainPlies != tt.mainPlies {
				t.Errorf("%d plies, %d in the main line; want %d, %d", res.Plies, res.MainPlies, tt.plies, tt.mainPlies)
			}
			final := ""
			if res.Final != nil {
				final = res.Final.FEN(fen.XFEN)
			}
			if final != tt.final {
				t.Errorf("final position %q, want %q", final, tt.final)
			}
			if res.Failed != (len(tt.problems) > 0) {
				t.Errorf("Failed is %v with problems %q", res.Failed, tt.problems)
			}
			var texts []string
			for _, p := range res.Problems {
				texts = append(texts, p.Error())
			}
			if fmt.Sprint(texts) != fmt.Sprint(tt.problems) {
				t.Errorf("problems\n%q\nwant\n%q", texts, tt.problems)
			}
			if tt.kind != nil {
				var ge *GameError
				if !errors.Is(res.Problems[0], tt.kind) || !errors.As(res.Problems[0], &ge) || ge.Game != 1 {
					t.Errorf("%v is not a *GameError of game 1 wrapping %v", res.Problems[0], tt.kind)
				}
			}
		})
	}
}

// TestReuse plays games one after the other on one Replayer: nothing of
// a game carries over into the next, and the main line allocates nothing.
func TestReuse(t *testing.T) {
	var text bytes.Buffer
	for range 3 {
		text.WriteString("[Event \"x\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. f4 f5 2. Rf3 Rf6 3. O-O O-O *\n\n")
		text.WriteString("[Event \"y\"]\n\n1. e4 e5 2. Nf3 *\n\n")
	}
	games, err := pgn.NewReader(&text).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	starts := make([]startpos.Start, len(games))
	for i := range games {
		starts[i] = startpos.Classify(&games[i]).Start
	}
	r := New(Options{})
	want := []string{
		"bbqnnrk1/ppppp1pp/5r2/5p2/5P2/5R2/PPPPP1PP/BBQNNRK1 w - - 4 4",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
	}
	for i := range games {
		if _, err := r.SetUp(&games[i], starts[i]); err != nil {
			t.Fatal(err)
		}
		res := r.Play(&games[i])
		if res.Final == nil || res.Final.FEN(fen.XFEN) != want[i%2] {
			t.Errorf("game %d: final position %v, want %s", i+1, res.Final, want[i%2])
		}
	}
	allocs := testing.AllocsPerRun(10, func() {
		for i := range games {
			r.SetUp(&games[i], starts[i])
			r.Play(&games[i])
		}
	})
	if allocs > 0 {
		t.Errorf("%v allocations per run of %d games", allocs, len(games))
	}
}

// shuffle returns n plies of knights going out and back home, which keep
// every move legal however long the line.
func shuffle(n int) []string {
	cycle := [...]string{"Nf3", "Nf6", "Ng1", "Ng8"}
	moves := make([]string, n)
	for i := range moves {
		moves[i] = cycle[i%len(cycle)]
	}
	return moves
}

// TestVariationCost plays the worst cases of variations, nested deep with
// the line growing at every level, and many failing siblings after a long
// main line: what Play allocates must grow no faster than the input.
// Copying the line's moves per variation made the first quadratic in the
// depth and the second in the main line's length times the siblings.
func TestVariationCost(t *testing.T) {
	const head = "[Event \"x\"]\n\n"
	// deep opens a variation after every 4 plies, replacing the last with
	// itself and going on: the line at depth d is 4d+4 plies long.
	deep := func(levels int) string {
		var b strings.Builder
		b.WriteString(head + strings.Join(shuffle(4), " "))
		for range levels {
			b.WriteString(" (Ng8 " + strings.Join(shuffle(4), " "))
		}
		b.WriteString(strings.Repeat(")", levels) + " *\n")
		return b.String()
	}
	siblings := func(main, n int) string {
		return head + strings.Join(shuffle(main), " ") + strings.Repeat(" (Zz9)", n) + " *\n"
	}
	tests := []struct {
		name      string
		game      string
		plies     int
		mainPlies int
		problems  int
		// perByte bounds the bytes allocated per byte of input.
		perByte float64
	}{
		{name: "3000 nested variations", game: deep(3000), plies: 4 + 5*3000, mainPlies: 4, perByte: 64},
		{name: "100000 failing siblings after 400 plies", game: siblings(400, 100000), plies: 400, mainPlies: 400, problems: 100000, perByte: 128},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := readGame(t, tt.game)
			st := startpos.Classify(g).Start
			r := New(Options{Variations: true})
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if _, err := r.SetUp(g, st); err != nil {
				t.Fatal(err)
			}
			res := r.Play(g)
			runtime.ReadMemStats(&after)
			if res.Plies != tt.plies || res.MainPlies != tt.mainPlies || len(res.Problems) != tt.problems {
				t.Errorf("%d plies, %d in the main line, %d problems; want %d, %d, %d", res.Plies, res.MainPlies, len(res.Problems), tt.plies, tt.mainPlies, tt.problems)
			}
			if res.Final == nil || res.Final.MovesPlayed() != tt.mainPlies {
				t.Errorf("final position %v, want the main line's, %d plies", res.Final, tt.mainPlies)
			}
			size := len(g.Movetext())
			if alloc := after.TotalAlloc - before.TotalAlloc; float64(alloc) > tt.perByte*float64(size) {
				t.Errorf("%d bytes allocated for %d bytes of moves, more than %v a byte", alloc, size, tt.perByte)
			}
		})
	}
}

// TestSetUpStartsBounded sets up more distinct FEN tags than a Replayer
// remembers: each game still starts from its own tag's position, the
// positions remembered stay within maxStarts, and once they are that many
// a new one allocates nothing.
func TestSetUpStartsBounded(t *testing.T) {
	r := New(Options{})
	start := func(n int) (*pgn.Game, startpos.Start, string) {
		fen := fmt.Sprintf("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 %d", n)
		g := readGame(t, fmt.Sprintf("[FEN %q]\n\n*\n", fen))
		return g, startpos.Classify(g).Start, fen
	}
	for i := range maxStarts + 100 {
		// The move number makes every tag's text new; every 7th game
		// repeats an earlier tag too.
		for _, n := range []int{i + 1, i/2 + 1} {
			if n != i+1 && i%7 != 6 {
				continue
			}
			g, st, want := start(n)
			if _, err := r.SetUp(g, st); err != nil {
				t.Fatal(err)
			}
			if got := r.board.FEN(fen.Shredder); got != want {
				t.Fatalf("game %d: set up %s, want %s", i+1, got, want)
			}
		}
		if len(r.starts) > maxStarts {
			t.Fatalf("game %d: %d positions remembered, want at most %d", i+1, len(r.starts), maxStarts)
		}
	}
	if len(r.starts) != maxStarts {
		t.Fatalf("%d positions remembered, want %d", len(r.starts), maxStarts)
	}
	var games []*pgn.Game
	var starts []startpos.Start
	for n := range 20 {
		g, st, _ := start(100000 + n)
		games, starts = append(games, g), append(starts, st)
	}
	k := 0
	allocs := testing.AllocsPerRun(10, func() {
		r.SetUp(games[k], starts[k])
		k++
	})
	if allocs > 0 {
		t.Errorf("a new start with %d remembered: %v allocations, want none", len(r.starts), allocs)
	}
}

// TestSetUpSameArrayOtherTexts sets up, in turn and again, starts of one
// array written in different FEN tags, and the standard array with and
// without a tag: each game starts from its own tag's position, though
// the Replayer remembers the starts it set up before.
func TestSetUpSameArrayOtherTexts(t *testing.T) {
	cases := []struct{ name, tag, want string }{
		{"X-FEN", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"},
		{"Shredder-FEN", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"},
		{"black to move", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR b KQkq - 0 1", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR b HFhf - 0 1"},
		{"no castling", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1"},
		{"standard, no tag", "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"},
		{"standard, tagged", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qk - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Ah - 0 1"},
	}
	r := New(Options{})
	for round := range 3 {
		for _, c := range cases {
			text := "[Event \"x\"]\n\n*\n"
			if c.tag != "" {
				text = fmt.Sprintf("[FEN %q]\n\n*\n", c.tag)
			}
			g := readGame(t, text)
			if _, err := r.SetUp(g, startpos.Classify(g).Start); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if got := r.board.FEN(fen.Shredder); got != c.want {
				t.Errorf("round %d, %s: set up %s, want %s", round+1, c.name, got, c.want)
			}
		}
	}
	if len(r.starts) != len(cases) {
		t.Errorf("%d starts remembered, want %d", len(r.starts), len(cases))
	}
}

// TestSetUpOtherStartsAllocateNothing replays games from set-up positions,
// each met once in an archive of puzzles: they are not remembered, and
// setting them up allocates nothing.
func TestSetUpOtherStartsAllocateNothing(t *testing.T) {
	var games []*pgn.Game
	var starts []startpos.Start
	for i := range 6 {
		g := readGame(t, fmt.Sprintf("[FEN \"4k3/8/8/8/8/8/%dP%d/4K3 w - - 0 1\"]\n\n1. Kd2 *\n", i+1, 6-i))
		games, starts = append(games, g), append(starts, startpos.Classify(g).Start)
	}
	if starts[0].Kind != startpos.Other {
		t.Fatalf("a puzzle's start is %v, want Other", starts[0].Kind)
	}
	r := New(Options{})
	allocs := testing.AllocsPerRun(10, func() {
		for i, g := range games {
			if _, err := r.SetUp(g, starts[i]); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs > 0 || len(r.starts) > 0 {
		t.Errorf("%v allocations a run, %d positions remembered; want none", allocs, len(r.starts))
	}
}
