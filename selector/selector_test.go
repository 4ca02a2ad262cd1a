package selector

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

func TestSelectorClasses(t *testing.T) {
	// probes are the classes each case is asked about.
	probes := []int{0, 1, 5, 261, 517, 518, 519, 959, DFRC, Other}
	for _, tc := range []struct {
		name string
		c    Criteria
		want []int // the probes selected
	}{
		{"nothing asked: everything", Criteria{}, probes},
		{"sp", Criteria{SPs: []int{0, 518}}, []int{0, 518}},
		{"exclude-standard alone", Criteria{ExcludeStandard: true}, []int{0, 1, 5, 261, 517, 519, 959, DFRC, Other}},
		{"sp with exclude-standard", Criteria{SPs: []int{517, 518, 519}, ExcludeStandard: true}, []int{517, 519}},
		{"dfrc alone", Criteria{DFRC: true}, []int{DFRC}},
		{"other alone", Criteria{Other: true}, []int{Other}},
		{"sp or dfrc", Criteria{SPs: []int{5}, DFRC: true}, []int{5, DFRC}},
		{"dfrc or other", Criteria{DFRC: true, Other: true}, []int{DFRC, Other}},
		{"dfrc with exclude-standard", Criteria{DFRC: true, ExcludeStandard: true}, []int{DFRC}},
		{"invert nothing: nothing", Criteria{Invert: true}, nil},
		{"invert sp", Criteria{SPs: []int{518}, Invert: true}, []int{0, 1, 5, 261, 517, 519, 959, DFRC, Other}},
		{"invert exclude-standard: only 518", Criteria{ExcludeStandard: true, Invert: true}, []int{518}},
		{"invert dfrc and other: every single SP", Criteria{DFRC: true, Other: true, Invert: true}, []int{0, 1, 5, 261, 517, 518, 519, 959}},
		{"invert sp and exclude-standard", Criteria{SPs: []int{0, 518}, ExcludeStandard: true, Invert: true}, []int{1, 5, 261, 517, 518, 519, 959, DFRC, Other}},
		{"out of range numbers ignored", Criteria{SPs: []int{-1, 960, 5}}, []int{5}},
	} {
		s := New(tc.c)
		var got []int
		for _, p := range probes {
			if s.Wants(p) {
				got = append(got, p)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: selects %v, want %v", tc.name, got, tc.want)
		}
		if s.Wants(-1) || s.Wants(Classes) {
			t.Errorf("%s: selects a class out of range", tc.name)
		}
	}
}

func TestClassOf(t *testing.T) {
	for _, tc := range []struct {
		st   startpos.Start
		want int
	}{
		{startpos.Start{Kind: startpos.Chess960, White: 7, Black: 7}, 7},
		{startpos.Start{Kind: startpos.Chess960, White: 518, Black: 518}, 518},
		{startpos.Start{Kind: startpos.DFRC, White: 518, Black: 0}, DFRC},
		{startpos.Start{Kind: startpos.Other, White: -1, Black: -1}, Other},
		{startpos.Start{Kind: startpos.Unknown, White: -1, Black: -1}, Other},
	} {
		if got := ClassOf(tc.st); got != tc.want {
			t.Errorf("ClassOf(%+v) = %d, want %d", tc.st, got, tc.want)
		}
	}
	// A DFRC game whose White side is SP 518 is not an SP 518 game.
	if New(Criteria{SPs: []int{518}}).Match(startpos.Start{Kind: startpos.DFRC, White: 518, Black: 0}) {
		t.Error("--sp 518 matches a DFRC game with White on 518")
	}
}

// TestClass: the class of each item of a stream, as the runner
// classifies it.
func TestClass(t *testing.T) {
	const dfrcFEN = `[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]`
	for _, tc := range []struct {
		name    string
		input   string
		maxGame int   // above 0: games larger are cut into parts
		want    []int // per item of the stream, a run of Follow as one
	}{
		{"standard chess, no FEN", "[Event \"a\"]\n\n1. e4 *\n", 0, []int{518}},
		{"SP 0 in Shredder-FEN", "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n*\n", 0, []int{0}},
		{"DFRC", dfrcFEN + "\n\n*\n", 0, []int{DFRC}},
		{"mid-game FEN", "[FEN \"8/8/8/4k3/8/8/8/4K3 w - - 0 1\"]\n\n*\n", 0, []int{Other}},
		{"set up without a FEN: unknown", "[SetUp \"1\"]\n\n*\n", 0, []int{Other}},
		{"moves with no tags: unknown", "1. e4 e5 *\n", 0, []int{Other}},
		{"blank text is not a game", "\n \n\t\n", 0, []int{Follow}},
		{"two games", "[Event \"a\"]\n\n*\n\n[Event \"b\"]\n" + dfrcFEN + "\n\n*\n", 0, []int{518, DFRC}},
		{"a large game's parts follow its first", dfrcFEN + "\n\n1. e4 {" + strings.Repeat("a long comment ", 1000) + "} *\n\n[Event \"b\"]\n\n*\n", 4096,
			[]int{DFRC, Follow, 518}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games, err := newReader([]byte(tc.input), tc.maxGame).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for i := range games {
				c := startpos.Classify(&games[i])
				// How many parts a game is cut into is the reader's
				// business.
				if c := Class(&c); c != Follow || len(got) == 0 || got[len(got)-1] != Follow {
					got = append(got, c)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("classes %v, want %v", got, tc.want)
			}
		})
	}
}

// mixedEvents are the games of testdata/filter/mixed.pgn by class; "" is
// the junk text before the first game.
var mixedEvents = []struct {
	event string
	class int
}{
	{"", Other},
	{"SP 0, Shredder castling", 0},
	{"standard chess, no FEN", 518},
	{"SP 959, X-FEN", 959},
	{"DFRC: white SP 518, black SP 0", DFRC},
	{"mid-game FEN", Other},
	{"unknown: FEN ?", Other},
	{"unknown: Chess960 without FEN", Other},
	{"broken FEN", Other},
	{"SP 518 given as a FEN, CRLF", 518},
	{"SP 0 again, no result, unterminated comment", 0},
	{"SP 631, tags and no moves", 631},
}

// events returns the Event tags of the games in data ("" for text with no
// tags), skipping what does not count as a game.
func events(t *testing.T, data []byte) []string {
	t.Helper()
	games, err := pgn.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var evs []string
	for i := range games {
		if startpos.Classify(&games[i]).Counted {
			v, _ := games[i].Tag("Event")
			evs = append(evs, string(v))
		}
	}
	return evs
}

func TestFilterFlags(t *testing.T) {
	input, err := os.ReadFile("../testdata/filter/mixed.pgn")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		c    Criteria
		want []int // indexes into mixedEvents
	}{
		{"everything", Criteria{}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
		{"sp 0", Criteria{SPs: []int{0}}, []int{1, 10}},
		{"sp 518: with and without FEN, not DFRC", Criteria{SPs: []int{518}}, []int{2, 9}},
		{"sp 0-600", Criteria{SPs: rangeOf(0, 600)}, []int{1, 2, 9, 10}},
		{"exclude-standard", Criteria{ExcludeStandard: true}, []int{0, 1, 3, 4, 5, 6, 7, 8, 10, 11}},
		{"dfrc", Criteria{DFRC: true}, []int{4}},
		{"other", Criteria{Other: true}, []int{0, 5, 6, 7, 8}},
		{"sp 959 or dfrc", Criteria{SPs: []int{959}, DFRC: true}, []int{3, 4}},
		{"invert other", Criteria{Other: true, Invert: true}, []int{1, 2, 3, 4, 9, 10, 11}},
		{"invert everything", Criteria{Invert: true}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sel, rej bytes.Buffer
			f := NewFilter(New(tc.c), &sel, &rej)
			r := pgn.NewReader(bytes.NewReader(input))
			if err := f.Run(context.Background(), r, pipeline.Options{Jobs: 2}); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			var want, wantRej []string
			for i, e := range mixedEvents {
				if slices.Contains(tc.want, i) {
					want = append(want, e.event)
				} else {
					wantRej = append(wantRej, e.event)
				}
			}
			if got := events(t, sel.Bytes()); !slices.Equal(got, want) {
				t.Errorf("selected %q\nwant %q", got, want)
			}
			if got := events(t, rej.Bytes()); !slices.Equal(got, wantRej) {
				t.Errorf("rejected %q\nwant %q", got, wantRej)
			}
			sum := f.Summary()
			if sum.Games != int64(len(mixedEvents)) || sum.Selected != int64(len(tc.want)) {
				t.Errorf("summary %d games, %d selected; want %d, %d", sum.Games, sum.Selected, len(mixedEvents), len(tc.want))
			}
			checkMerge(t, input, map[string][]byte{"selected": sel.Bytes(), "rejected": rej.Bytes()})
		})
	}
}

func rangeOf(lo, hi int) []int {
	var s []int
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}

// checkMerge checks that the outputs are the input dealt out game by game:
// each output is a subsequence of the input's games, every input byte is
// in exactly one output, and bytes that are no game of their own sit in
// the output of the game before them. It reads the input with its own
// Reader, so it checks the routing, not the reading.
func checkMerge(t *testing.T, input []byte, outputs map[string][]byte) {
	t.Helper()
	total := 0
	rest := make(map[string][]byte, len(outputs))
	for name, b := range outputs {
		total += len(b)
		rest[name] = b
	}
	if total != len(input) {
		t.Errorf("outputs hold %d bytes, the input %d", total, len(input))
	}
	r := pgn.NewReader(bytes.NewReader(input))
	last := ""
	for n := 1; ; n++ {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		// Blank text goes with the previous game; try that output first.
		found := ""
		if last != "" && bytes.HasPrefix(rest[last], g.Raw) {
			found = last
		} else {
			for name, b := range rest {
				if bytes.HasPrefix(b, g.Raw) {
					found = name
					break
				}
			}
		}
		if found == "" {
			t.Fatalf("input game %d (line %d, %q...) is in no output where it belongs", n, g.Line, head(g.Raw))
		}
		if !startpos.Classify(g).Counted && last != "" && found != last {
			t.Errorf("input item %d (line %d), not a game, went to %s, not with the game before it in %s", n, g.Line, found, last)
		}
		rest[found] = rest[found][len(g.Raw):]
		last = found
	}
	for name, b := range rest {
		if len(b) > 0 {
			t.Errorf("%s has %d bytes that are not in the input: %q...", name, len(b), head(b))
		}
	}
}

// newReader returns a Reader over input. A maxGame above 0 cuts games
// larger than that into parts (Partial, Continued); the input then comes in
// small reads, since the Reader cuts only games it cannot see the end of.
func newReader(input []byte, maxGame int) *pgn.Reader {
	if maxGame <= 0 {
		return pgn.NewReader(bytes.NewReader(input))
	}
	r := pgn.NewReader(&smallReader{bytes.NewReader(input)})
	r.MaxGameSize = maxGame
	return r
}

type smallReader struct{ r io.Reader }

func (s *smallReader) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), 100)]) }

func head(b []byte) []byte { return b[:min(len(b), 60)] }

// inputFiles returns every file of the project's testdata and, when
// present, of the shared real-world data.
func inputFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	walk := func(root string) {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && !strings.HasSuffix(path, ".md") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	walk("../testdata")
	if root := sharedtest.Root(); root != "" {
		if _, err := os.Stat(filepath.Join(root, "realdata")); err == nil {
			walk(filepath.Join(root, "realdata"))
		}
	}
	return files
}

// TestFilterPartition checks "selected + rejected = input" on every
// testdata and real-world file, for several criteria, serial and parallel,
// and with games cut into parts by a small MaxGameSize.
func TestFilterPartition(t *testing.T) {
	criteria := []Criteria{
		{},
		{SPs: rangeOf(0, 500)},
		{ExcludeStandard: true},
		{DFRC: true},
		{Other: true},
		{SPs: []int{518}, Invert: true},
		{DFRC: true, Other: true, Invert: true},
		{Invert: true},
	}
	for _, file := range inputFiles(t) {
		input, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for ci, c := range criteria {
			for _, maxGame := range []int{0, 4096} {
				for _, jobs := range []int{1, 4} {
					var sel, rej bytes.Buffer
					f := NewFilter(New(c), &sel, &rej)
					r := newReader(input, maxGame)
					if err := f.Run(context.Background(), r, pipeline.Options{Jobs: jobs}); err != nil {
						t.Fatal(err)
					}
					if err := f.Close(); err != nil {
						t.Fatal(err)
					}
					t.Run(filepath.Base(file), func(t *testing.T) {
						checkMerge(t, input, map[string][]byte{"selected": sel.Bytes(), "rejected": rej.Bytes()})
					})
					if t.Failed() {
						t.Fatalf("%s, criteria %d %+v, MaxGameSize %d, jobs %d", file, ci, c, maxGame, jobs)
					}
				}
			}
		}
	}
}

// TestFilterRealdataCounts checks selections on the real archives against
// what is known of them.
func TestFilterRealdataCounts(t *testing.T) {
	dfrc := sharedtest.Path(t, "realdata", "tcec", "TCEC_Season_22_-_Dfrc_Unbust_Bonus.pgn")
	input, err := os.ReadFile(dfrc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    Criteria
		want int
	}{
		{Criteria{DFRC: true}, 10},
		{Criteria{SPs: rangeOf(0, 959)}, 0}, // DFRC games have no SP
		{Criteria{ExcludeStandard: true}, 10},
		{Criteria{DFRC: true, Invert: true}, 0},
	} {
		f := NewFilter(New(tc.c), io.Discard, nil)
		if err := f.Run(context.Background(), pgn.NewReader(bytes.NewReader(input)), pipeline.Options{Jobs: 2}); err != nil {
			t.Fatal(err)
		}
		if s := f.Summary(); s.Games != 10 || s.Selected != int64(tc.want) {
			t.Errorf("%+v: %d games, %d selected; want 10, %d", tc.c, s.Games, s.Selected, tc.want)
		}
	}
}

// TestFilterBlankOnly: with no game at all, the blank text goes to the
// rejects and the selection stays empty.
func TestFilterBlankOnly(t *testing.T) {
	for _, c := range []Criteria{{}, {Invert: true}} {
		var sel, rej bytes.Buffer
		f := NewFilter(New(c), &sel, &rej)
		if err := f.Run(context.Background(), pgn.NewReader(strings.NewReader("\n\n  \n")), pipeline.Options{Jobs: 1}); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if sel.Len() != 0 || rej.String() != "\n\n  \n" || f.Summary().Games != 0 {
			t.Errorf("%+v: selected %q, rejected %q, %d games", c, sel.String(), rej.String(), f.Summary().Games)
		}
	}
}

// TestFilterLeadingBlank: the inputs of a run are one stream. Blank text
// with no game (here a whole input) goes with the game before it, or,
// before the first game, with the first game, whichever output that goes
// to.
func TestFilterLeadingBlank(t *testing.T) {
	g518 := "[Event \"a\"]\n\n1. e4 *\n"
	gDFRC := "[Event \"b\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n*\n"
	for _, tc := range []struct {
		inputs   []string
		sel, rej string
	}{
		{[]string{"\n\n", gDFRC, g518}, "\n\n" + gDFRC, g518},
		{[]string{"\n\n", g518, gDFRC}, gDFRC, "\n\n" + g518},
		{[]string{g518, "\n \n", gDFRC, "\t\n"}, gDFRC + "\t\n", g518 + "\n \n"},
	} {
		var sel, rej bytes.Buffer
		f := NewFilter(New(Criteria{DFRC: true}), &sel, &rej)
		for _, in := range tc.inputs {
			if err := f.Run(context.Background(), pgn.NewReader(strings.NewReader(in)), pipeline.Options{Jobs: 1}); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if sel.String() != tc.sel || rej.String() != tc.rej {
			t.Errorf("inputs %q:\nselected %q, want %q\nrejected %q, want %q", tc.inputs, sel.String(), tc.sel, rej.String(), tc.rej)
		}
	}
}

func TestFilterWarnings(t *testing.T) {
	input, err := os.ReadFile("../testdata/filter/mixed.pgn")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	f := NewFilter(New(Criteria{}), io.Discard, nil)
	r := pgn.NewReader(bytes.NewReader(input))
	r.Name = "mixed.pgn"
	if err := f.Run(context.Background(), r, pipeline.Options{Jobs: 3, Warn: func(p *pgn.ParseError) { got = append(got, p.Error()) }}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"mixed.pgn:4: game has no result (truncated?)",
		`mixed.pgn:39: start position unknown: [FEN "?"]`,
		`mixed.pgn:46: start position unknown: [SetUp "1"] without a FEN tag`,
		"mixed.pgn:52: FEN: fen: placement: digit '9' in rank 6, want 1 to 8",
		"mixed.pgn:66: unterminated comment: '{' not closed before the next game's tags",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f.Summary().Warnings != int64(len(want)) {
		t.Errorf("summary counts %d warnings, want %d", f.Summary().Warnings, len(want))
	}
}

// TestFilterSummary: the summary counts the games by the kind of their
// start, whatever the selection, and the selected games and the classes
// on top.
func TestFilterSummary(t *testing.T) {
	input, err := os.ReadFile("../testdata/filter/mixed.pgn")
	if err != nil {
		t.Fatal(err)
	}
	const tally = "12 games, 6 identified (4 distinct SPs), 1 DFRC, 1 other start position, 4 unknown, 5 warnings"
	for _, tc := range []struct {
		name     string
		c        Criteria
		selected int64
	}{
		{"everything", Criteria{}, 12},
		{"dfrc", Criteria{DFRC: true}, 1},
		{"other", Criteria{Other: true}, 5},
		{"invert everything", Criteria{Invert: true}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFilter(New(tc.c), io.Discard, nil)
			if err := f.Run(context.Background(), pgn.NewReader(bytes.NewReader(input)), pipeline.Options{Jobs: 2}); err != nil {
				t.Fatal(err)
			}
			s := f.Summary()
			if got := s.Tally.String(); got != tally {
				t.Errorf("tally %q, want %q", got, tally)
			}
			if s.Selected != tc.selected || s.ByClass[0] != 2 || s.ByClass[518] != 2 || s.ByClass[DFRC] != 1 || s.ByClass[Other] != 5 {
				t.Errorf("%d selected, want %d; by class SP 0 %d, SP 518 %d, DFRC %d, other %d, want 2, 2, 1, 5",
					s.Selected, tc.selected, s.ByClass[0], s.ByClass[518], s.ByClass[DFRC], s.ByClass[Other])
			}
		})
	}
}

// TestContinuedFollows: the parts of a game too large to hold at once go
// to the output of its first part, and count as one game.
func TestContinuedFollows(t *testing.T) {
	huge := "[Event \"huge DFRC\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 {" +
		strings.Repeat("a long engine comment ", 2000) + "} *\n\n"
	small := "[Event \"small\"]\n\n1. e4 *\n\n"
	input := []byte(small + huge + small)
	var sel, rej bytes.Buffer
	f := NewFilter(New(Criteria{DFRC: true}), &sel, &rej)
	r := newReader(input, 4096)
	if err := f.Run(context.Background(), r, pipeline.Options{Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	if sel.String() != huge || rej.String() != small+small {
		t.Errorf("selected %d bytes, rejected %d; want %d, %d", sel.Len(), rej.Len(), len(huge), 2*len(small))
	}
	if s := f.Summary(); s.Games != 3 || s.Selected != 1 {
		t.Errorf("%d games, %d selected; want 3, 1", s.Games, s.Selected)
	}
}
