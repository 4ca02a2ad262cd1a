package dedup

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/where"
)

// game builds a game from tag pairs ("Name", "Value", ...) and movetext.
func game(movetext string, tags ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(tags); i += 2 {
		b.WriteString("[" + tags[i] + ` "` + tags[i+1] + "\"]\n")
	}
	b.WriteString("\n" + movetext + "\n\n")
	return b.String()
}

// std is a game between A and B with the given movetext and result tag.
func std(movetext, result string, extra ...string) string {
	return game(movetext, append([]string{"Event", "e", "White", "Alpha, A.", "Black", "Beta, B.", "Result", result}, extra...)...)
}

const fen0 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"

// runAll runs a Deduper over the inputs in order, with Index first when
// opts.Prefix, and returns the two outputs.
func runAll(t *testing.T, opts Options, ro pipeline.Options, inputs ...string) (out, dups string, sum Summary) {
	t.Helper()
	var o, dp bytes.Buffer
	d := New(&o, &dp, opts)
	ctx := context.Background()
	if opts.Prefix {
		for _, in := range inputs {
			if err := d.Index(ctx, pgn.NewReader(strings.NewReader(in)), ro); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, in := range inputs {
		if err := d.Run(ctx, pgn.NewReader(strings.NewReader(in)), ro); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	return o.String(), dp.String(), d.Summary()
}

func TestDeduper(t *testing.T) {
	a := std("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "1-0")
	aShort := std("1. e4 e5 2. Nf3 *", "*")
	aShorter := std("1. e4 *", "*")
	crlf := strings.ReplaceAll(a, "\n", "\r\n")
	headers := func(round string) string {
		return game("", "Event", "e", "Round", round, "White", "A", "Black", "B", "Result", "*")
	}
	tests := []struct {
		name     string
		opts     Options
		where    string
		inputs   []string
		out      []string
		dups     []string
		dupCount int64
		prefix   int64
	}{
		{
			name:     "the same game in two files",
			opts:     Options{Key: MovesPlayers},
			inputs:   []string{a, a},
			out:      []string{a},
			dups:     []string{a},
			dupCount: 1,
		},
		{
			name:   "the same moves from two start positions stay apart",
			opts:   Options{Key: MovesPlayers},
			inputs: []string{a + std("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "1-0", "FEN", fen0, "SetUp", "1")},
			out:    []string{a, std("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "1-0", "FEN", fen0, "SetUp", "1")},
		},
		{
			name: "the standard array by FEN is the standard start",
			opts: Options{Key: MovesPlayers},
			inputs: []string{a + std("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "1-0",
				"FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "SetUp", "1")},
			out: []string{a},
			dups: []string{std("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "1-0",
				"FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "SetUp", "1")},
			dupCount: 1,
		},
		{
			name: "a mid-game FEN is compared without its move counters",
			opts: Options{Key: MovesPlayers},
			inputs: []string{std("20. Kf1 Kf8 1-0", "1-0", "FEN", "4k3/8/8/8/8/8/8/4K3 w - - 3 20", "SetUp", "1") +
				std("20. Kf1 Kf8 1-0", "1-0", "FEN", "4k3/8/8/8/8/8/8/4K3  w - -  0 1;", "SetUp", "1") +
				std("20. Kf1 Kf8 1-0", "1-0", "FEN", "4k3/8/8/8/8/8/8/4K3 b - - 3 20", "SetUp", "1")},
			out: []string{std("20. Kf1 Kf8 1-0", "1-0", "FEN", "4k3/8/8/8/8/8/8/4K3 w - - 3 20", "SetUp", "1"),
				std("20. Kf1 Kf8 1-0", "1-0", "FEN", "4k3/8/8/8/8/8/8/4K3 b - - 3 20", "SetUp", "1")},
			dups:     []string{std("20. Kf1 Kf8 1-0", "1-0", "FEN", "4k3/8/8/8/8/8/8/4K3  w - -  0 1;", "SetUp", "1")},
			dupCount: 1,
		},
		{
			name: "comments, NAGs, glyphs, checks, variations and move numbers do not count",
			opts: Options{Key: MovesPlayers},
			inputs: []string{a +
				std("1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.O-O 1-0", "1-0") +
				std("1. e4 {the best} 1... e5 $1 2. Nf3!? Nc6 (2... d6 3. d4) 3. Bc4 Bc5+ 4. O-O! 1-0", "1-0") +
				std("1 e4 e5 2 Nf3 Nc6 3 Bc4 Bc5 4 0-0 1-0", "1-0") +
				std("e4 e5 Nf3 Nc6 Bc4 Bc5 o-o 1-0", "1-0") +
				std("1. e4 e5 2. ♘f3 ♞c6 3. ♗c4 ♝c5 4. O-O 1-0", "1-0")},
			out: []string{a},
			dups: []string{
				std("1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.O-O 1-0", "1-0"),
				std("1. e4 {the best} 1... e5 $1 2. Nf3!? Nc6 (2... d6 3. d4) 3. Bc4 Bc5+ 4. O-O! 1-0", "1-0"),
				std("1 e4 e5 2 Nf3 Nc6 3 Bc4 Bc5 4 0-0 1-0", "1-0"),
				std("e4 e5 Nf3 Nc6 Bc4 Bc5 o-o 1-0", "1-0"),
				std("1. e4 e5 2. ♘f3 ♞c6 3. ♗c4 ♝c5 4. O-O 1-0", "1-0"),
			},
			dupCount: 5,
		},
		{
			name:     "a CRLF copy",
			opts:     Options{Key: MovesPlayers},
			inputs:   []string{a, crlf},
			out:      []string{a},
			dups:     []string{crlf},
			dupCount: 1,
		},
		{
			name:   "another result is another game",
			opts:   Options{Key: MovesPlayers},
			inputs: []string{a + std("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1/2-1/2", "1/2-1/2")},
			out:    []string{a, std("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1/2-1/2", "1/2-1/2")},
		},
		{
			name:     "player names compared without case and blanks",
			opts:     Options{Key: MovesPlayers},
			inputs:   []string{a + game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "White", "alpha,a.", "Black", "BETA,  B.", "Result", "1-0")},
			out:      []string{a},
			dups:     []string{game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "White", "alpha,a.", "Black", "BETA,  B.", "Result", "1-0")},
			dupCount: 1,
		},
		{
			name:   "other players, with players in the key",
			opts:   Options{Key: MovesPlayers},
			inputs: []string{a + game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "White", "Gamma", "Black", "Beta, B.", "Result", "1-0")},
			out:    []string{a, game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "White", "Gamma", "Black", "Beta, B.", "Result", "1-0")},
		},
		{
			name:     "other players, with the moves alone",
			opts:     Options{Key: Moves},
			inputs:   []string{a + game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "White", "Gamma", "Black", "Beta, B.", "Result", "1-0")},
			out:      []string{a},
			dups:     []string{game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0", "White", "Gamma", "Black", "Beta, B.", "Result", "1-0")},
			dupCount: 1,
		},
		{
			name:   "another date, with the date in the key",
			opts:   Options{Key: MovesPlayersDate},
			inputs: []string{std("1. e4 1-0", "1-0", "Date", "2024.01.01") + std("1. e4 1-0", "1-0", "Date", "2024.01.02")},
			out:    []string{std("1. e4 1-0", "1-0", "Date", "2024.01.01"), std("1. e4 1-0", "1-0", "Date", "2024.01.02")},
		},
		{
			name:     "another date, without the date in the key",
			opts:     Options{Key: MovesPlayers},
			inputs:   []string{std("1. e4 1-0", "1-0", "Date", "2024.01.01") + std("1. e4 1-0", "1-0", "Date", "2024.01.02")},
			out:      []string{std("1. e4 1-0", "1-0", "Date", "2024.01.01")},
			dups:     []string{std("1. e4 1-0", "1-0", "Date", "2024.01.02")},
			dupCount: 1,
		},
		{
			name:     "header-only games with equal tags",
			opts:     Options{Key: MovesPlayers},
			inputs:   []string{headers("1") + headers("1")},
			out:      []string{headers("1")},
			dups:     []string{headers("1")},
			dupCount: 1,
		},
		{
			name:   "header-only games of two rounds",
			opts:   Options{Key: MovesPlayers},
			inputs: []string{headers("1") + headers("2")},
			out:    []string{headers("1"), headers("2")},
		},
		{
			name:   "prefixes are kept without Prefix",
			opts:   Options{Key: MovesPlayers},
			inputs: []string{aShorter + aShort + a},
			out:    []string{aShorter, aShort, a},
		},
		{
			name:   "prefixes before the longest game, with Prefix",
			opts:   Options{Key: MovesPlayers, Prefix: true},
			inputs: []string{aShorter, aShort + a},
			out:    []string{a},
			dups:   []string{aShorter, aShort},
			prefix: 2,
		},
		{
			name:     "prefixes after the longest game, with Prefix",
			opts:     Options{Key: MovesPlayers, Prefix: true},
			inputs:   []string{a + aShort + a + aShorter},
			out:      []string{a},
			dups:     []string{aShort, a, aShorter},
			dupCount: 1,
			prefix:   2,
		},
		{
			name:   "a prefix by other players is no duplicate",
			opts:   Options{Key: MovesPlayers, Prefix: true},
			inputs: []string{game("1. e4 e5 2. Nf3 *", "White", "Gamma", "Black", "Beta, B.", "Result", "*") + a},
			out:    []string{game("1. e4 e5 2. Nf3 *", "White", "Gamma", "Black", "Beta, B.", "Result", "*"), a},
		},
		{
			name:   "two continuations of one game are both kept",
			opts:   Options{Key: MovesPlayers, Prefix: true},
			inputs: []string{aShort + a + std("1. e4 e5 2. Nf3 d6 0-1", "0-1")},
			out:    []string{a, std("1. e4 e5 2. Nf3 d6 0-1", "0-1")},
			dups:   []string{aShort},
			prefix: 1,
		},
		{
			name:   "a game without moves is no one's prefix",
			opts:   Options{Key: MovesPlayers, Prefix: true},
			inputs: []string{std("*", "*") + a},
			out:    []string{std("*", "*"), a},
		},
		{
			name:   "games not selected are not compared",
			opts:   Options{Key: MovesPlayers},
			where:  "Round = 2",
			inputs: []string{std("1. e4 1-0", "1-0", "Round", "1") + std("1. e4 1-0", "1-0", "Round", "1") + std("1. e4 1-0", "1-0", "Round", "2") + std("1. e4 1-0", "1-0", "Round", "2")},
			out: []string{std("1. e4 1-0", "1-0", "Round", "1"), std("1. e4 1-0", "1-0", "Round", "1"),
				std("1. e4 1-0", "1-0", "Round", "2")},
			dups:     []string{std("1. e4 1-0", "1-0", "Round", "2")},
			dupCount: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ro pipeline.Options
			if tt.where != "" {
				e, err := where.Parse(tt.where)
				if err != nil {
					t.Fatal(err)
				}
				ro.Where = e
			}
			for _, jobs := range []int{1, 4} {
				ro.Jobs = jobs
				out, dups, sum := runAll(t, tt.opts, ro, tt.inputs...)
				if want := strings.Join(tt.out, ""); out != want {
					t.Errorf("jobs %d: output\n%s\nwant\n%s", jobs, out, want)
				}
				if want := strings.Join(tt.dups, ""); dups != want {
					t.Errorf("jobs %d: duplicates\n%s\nwant\n%s", jobs, dups, want)
				}
				if sum.Duplicates != tt.dupCount || sum.PrefixDuplicates != tt.prefix {
					t.Errorf("jobs %d: %d duplicates, %d prefix duplicates; want %d, %d", jobs, sum.Duplicates, sum.PrefixDuplicates, tt.dupCount, tt.prefix)
				}
				if sum.Unique+sum.Duplicates+sum.PrefixDuplicates+sum.Passed != sum.Games {
					t.Errorf("jobs %d: %+v does not add up", jobs, sum)
				}
			}
		})
	}
}

func TestBytesBetweenGames(t *testing.T) {
	a := std("1. e4 1-0", "1-0")
	tests := []struct {
		name      string
		input     string
		out, dups string
	}{
		{"blank text before the first game goes with it", "\n\n" + a + a, "\n\n" + a, a},
		{"blank text alone goes to the output", "\n \n", "\n \n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, dups, _ := runAll(t, Options{}, pipeline.Options{Jobs: 1}, tt.input)
			if out != tt.out || dups != tt.dups {
				t.Errorf("got %q and %q, want %q and %q", out, dups, tt.out, tt.dups)
			}
		})
	}
}

func TestIndexOrder(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		run  bool
	}{
		{"without Prefix", Options{}, false},
		{"after Run", Options{Prefix: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(&bytes.Buffer{}, nil, tt.opts)
			if tt.run {
				if err := d.Run(context.Background(), pgn.NewReader(strings.NewReader("")), pipeline.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			err := d.Index(context.Background(), pgn.NewReader(strings.NewReader("")), pipeline.Options{})
			if err != ErrOrder {
				t.Errorf("Index: %v, want ErrOrder", err)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"e4", "e4"},
		{"Nf3+", "Nf3"},
		{"Qh7#", "Qh7"},
		{"O-O", "O-O"},
		{"0-0", "O-O"},
		{"o-o+", "O-O"},
		{"O-O-O", "O-O-O"},
		{"0-0-0#", "O-O-O"},
		{"e8=Q+", "e8Q"},
		{"e8Q", "e8Q"},
		{"e8=q", "e8Q"},
		{"bxa1=b", "bxa1B"},
		{"exd6e.p.", "exd6"},
		{"e.p.", ""},
		{"Z0", "--"},
		{"--", "--"},
		{"♘f3", "Nf3"},
		{"♙e4", "e4"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var buf [64]byte
			if got := string(normalize(buf[:0], []byte(tt.in))); got != tt.want {
				t.Errorf("normalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseKey(t *testing.T) {
	for _, k := range []Key{Moves, MovesPlayers, MovesPlayersDate} {
		t.Run(k.String(), func(t *testing.T) {
			got, err := ParseKey(k.String())
			if err != nil || got != k {
				t.Errorf("ParseKey(%q) = %v, %v", k, got, err)
			}
		})
	}
	if _, err := ParseKey("players"); err == nil {
		t.Error("ParseKey(players): no error")
	}
}

// splitGames returns the games of an archive as strings.
func splitGames(t *testing.T, b string) []string {
	t.Helper()
	r := pgn.NewReader(strings.NewReader(b))
	var games []string
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		games = append(games, string(g.Raw))
	}
	return games
}

// cut returns the game g cut short after a comment of its movetext, or
// "" when it has none.
func cut(g string, rng *rand.Rand) string {
	body := strings.Index(g, "\n\n")
	var ends []int
	for i := body; i >= 0 && i < len(g); {
		k := strings.Index(g[i:], "} ")
		if k < 0 {
			break
		}
		i += k + 2
		ends = append(ends, i)
	}
	if body < 0 || len(ends) < 2 {
		return ""
	}
	return g[:ends[rng.IntN(len(ends)-1)]] + "*\n\n"
}

// The two outputs together are the input, game for game, and the output
// holds each distinct game once.
func TestPartition(t *testing.T) {
	base := splitGames(t, string(archivegen.Bytes(archivegen.Options{Seed: 7, Shape: archivegen.Lichess, Dialects: true}, 300<<10)))
	for _, prefix := range []bool{false, true} {
		for seed := range uint64(4) {
			rng := rand.New(rand.NewPCG(seed, 1))
			// Repeat a random third of the games, and a sixth cut short
			// after a few moves.
			games := slices.Clone(base)
			for _, g := range base {
				switch rng.IntN(6) {
				case 0, 1:
					games = append(games, g)
				case 2:
					if c := cut(g, rng); c != "" {
						games = append(games, c)
					}
				}
			}
			rng.Shuffle(len(games), func(i, j int) { games[i], games[j] = games[j], games[i] })
			// Split into three inputs at random places.
			i, j := rng.IntN(len(games)), rng.IntN(len(games))
			i, j = min(i, j), max(i, j)
			inputs := []string{strings.Join(games[:i], ""), strings.Join(games[i:j], ""), strings.Join(games[j:], "")}
			out, dups, sum := runAll(t, Options{Key: MovesPlayers, Prefix: prefix}, pipeline.Options{Jobs: 2}, inputs...)

			t.Logf("prefix %v seed %d: %d games, %d distinct: %d unique, %d duplicates, %d prefix duplicates", prefix, seed, len(games), len(base), sum.Unique, sum.Duplicates, sum.PrefixDuplicates)
			got := append(splitGames(t, out), splitGames(t, dups)...)
			want := slices.Clone(games)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("prefix %v seed %d: output and duplicates hold %d games, the input %d, or other games", prefix, seed, len(got), len(want))
			}
			// Running again over the output finds nothing more.
			_, again, _ := runAll(t, Options{Key: MovesPlayers, Prefix: prefix}, pipeline.Options{Jobs: 2}, out)
			if again != "" {
				t.Errorf("prefix %v seed %d: a second run finds duplicates in the output", prefix, seed)
			}
			if sum.Unique+sum.Duplicates+sum.PrefixDuplicates != int64(len(games)) || prefix && sum.Unique != int64(len(base)) {
				t.Errorf("prefix %v seed %d: %+v for %d games, %d distinct", prefix, seed, sum, len(games), len(base))
			}
		}
	}
}

// TestLatin1Names: a name whose bytes are not UTF-8 is read as Latin-1, so
// that an old archive's copy of a game is a duplicate of a new archive's,
// and two names that differ only in letters outside ASCII stay two.
func TestLatin1Names(t *testing.T) {
	moves := "1. e4 e5 2. Nf3 Nc6 1/2-1/2"
	between := func(white string) string {
		return game(moves, "Event", "e", "White", white, "Black", "Beta, B.", "Result", "1/2-1/2")
	}
	utf8Game, latin1Game, otherGame := between("Müller, Jörg"), between("M\xfcller, J\xf6rg"), between("M\xf6ller, J\xf6rg")
	for _, tt := range []struct {
		name   string
		inputs []string
		out    []string
	}{
		{"a Latin-1 copy of a UTF-8 game", []string{utf8Game, latin1Game}, []string{utf8Game}},
		{"a UTF-8 copy of a Latin-1 game", []string{latin1Game, utf8Game}, []string{latin1Game}},
		{"Müller and Möller in Latin-1", []string{latin1Game, otherGame}, []string{latin1Game, otherGame}},
		{"upper and lower case in Latin-1", []string{latin1Game, between("M\xdcLLER, J\xd6RG")}, []string{latin1Game}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, _, _ := runAll(t, Options{Key: MovesPlayers}, pipeline.Options{Jobs: 1}, tt.inputs...)
			if want := strings.Join(tt.out, ""); out != want {
				t.Errorf("out %q, want %q", out, want)
			}
		})
	}
}
