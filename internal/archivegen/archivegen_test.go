package archivegen

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/startpos"
)

var testOptions = []struct {
	name string
	opt  Options
}{
	{"lichess", Options{Seed: 1, Shape: Lichess}},
	{"lichess dialects", Options{Seed: 2, Shape: Lichess, Dialects: true}},
	{"lichess long games", Options{Seed: 3, Shape: Lichess, MeanPlies: 70}},
	{"headers", Options{Seed: 4, Shape: Headers}},
	{"headers dialects", Options{Seed: 5, Shape: Headers, Dialects: true}},
}

// generate returns n games of o and their records, with copies of the
// moves, which the generator reuses.
func generate(o Options, n int) ([]byte, []Record) {
	g := New(o)
	var data []byte
	records := make([]Record, n)
	for i := range records {
		data, records[i] = g.AppendGame(data)
		records[i].Moves = append([]position.Move(nil), records[i].Moves...)
	}
	return data, records
}

// TestGamesReadBack checks every game against its record as the project
// reads it: the reader finds no problem, Classify finds the start the game
// was played from, and the main line replays to the same moves.
func TestGamesReadBack(t *testing.T) {
	const n = 400
	for _, tc := range testOptions {
		t.Run(tc.name, func(t *testing.T) {
			data, records := generate(tc.opt, n)
			games, err := pgn.NewReader(bytes.NewReader(data)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(games) != n {
				t.Fatalf("read %d games, wrote %d", len(games), n)
			}
			var crlf, fenTags, standard int
			for i := range games {
				g, rec := &games[i], records[i]
				if len(g.Problems) > 0 {
					t.Errorf("game %d: %v", i+1, g.Problems)
				}
				class := startpos.Classify(g)
				if len(class.Problems) > 0 {
					t.Errorf("game %d: start tags: %v", i+1, class.Problems)
				}
				if sp, ok := class.Start.SP(); !ok || sp != rec.SP {
					t.Errorf("game %d: classified as %v SP %d, played from SP %d", i+1, class.Start.Kind, sp, rec.SP)
				}
				if _, ok := g.Tag("FEN"); ok != rec.FEN {
					t.Errorf("game %d: FEN tag present %v, record says %v", i+1, ok, rec.FEN)
				}
				if res, _ := g.Tag("Result"); string(res) != rec.Result {
					t.Errorf("game %d: [Result %q], record says %q", i+1, res, rec.Result)
				}
				marker, _ := g.Termination()
				if want := rec.Result; !rec.Marker && marker != nil || rec.Marker && string(marker) != want {
					t.Errorf("game %d: termination marker %q, record says %q (marker %v)", i+1, marker, want, rec.Marker)
				}
				if got := g.LineEnding() == "\r\n"; got != rec.CRLF {
					t.Errorf("game %d: CRLF %v, record says %v", i+1, got, rec.CRLF)
				}
				replay(t, i+1, g, rec)
				if rec.CRLF {
					crlf++
				}
				if rec.FEN {
					fenTags++
				}
				if rec.SP == numbering.StandardSP {
					standard++
				}
			}
			if tc.opt.Dialects != (crlf > 0) {
				t.Errorf("%d of %d games with CRLF line endings, dialects %v", crlf, n, tc.opt.Dialects)
			}
			if fenTags == 0 || standard == 0 {
				t.Errorf("%d games with a FEN tag and %d from SP 518: the archive lacks a kind of start", fenTags, standard)
			}
		})
	}
}

// replay plays game i's main line on a board set up from its start and
// compares it with the record.
func replay(t *testing.T, i int, g *pgn.Game, rec Record) {
	t.Helper()
	r, err := numbering.FromSP(rec.SP)
	if err != nil {
		t.Fatal(err)
	}
	b, err := position.FromFEN(fen.StartPosition(r, r))
	if err != nil {
		t.Fatal(err)
	}
	b.SetChess960(rec.SP != numbering.StandardSP)
	var s pgn.MovetextScanner
	s.Reset(g.Movetext(), g.MovetextLine())
	n := 0
	for s.Next() {
		switch s.Kind() {
		case pgn.TokenMove:
			tok := s.Token()
			m, err := b.Play(string(tok.Text))
			if err != nil {
				t.Errorf("game %d, line %d: %v", i, tok.Line, err)
				return
			}
			if n >= len(rec.Moves) || m != rec.Moves[n] {
				t.Errorf("game %d, line %d: move %d is %s, not the move played", i, tok.Line, n+1, tok.Text)
				return
			}
			n++
		case pgn.TokenMoveNumber, pgn.TokenComment, pgn.TokenResult:
		default:
			t.Errorf("game %d: unexpected %v token %q", i, s.Kind(), s.Token().Text)
		}
	}
	if n != len(rec.Moves) {
		t.Errorf("game %d: %d moves in the movetext, %d played", i, n, len(rec.Moves))
	}
	// A game that ends in mate or stalemate has the result it forces.
	want := ""
	switch {
	case b.IsCheckmate() && b.Turn() == position.White:
		want = "0-1"
	case b.IsCheckmate():
		want = "1-0"
	case b.IsStalemate():
		want = "1/2-1/2"
	}
	if want != "" && rec.Result != want {
		t.Errorf("game %d: the moves end in a position that makes it %s, not %s", i, want, rec.Result)
	}
}

// TestLichessTags checks the tags lichess writes, in its order, and the
// clock comments after every move.
func TestLichessTags(t *testing.T) {
	order := []string{"Event", "Site", "Date", "Round", "White", "Black", "Result", "UTCDate", "UTCTime",
		"WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff", "WhiteTitle", "BlackTitle",
		"Variant", "TimeControl", "ECO", "Termination", "FEN", "SetUp"}
	rank := map[string]int{}
	for i, name := range order {
		rank[name] = i
	}
	data, records := generate(Options{Seed: 7, Shape: Lichess}, 300)
	games, err := pgn.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := range games {
		g := &games[i]
		last := -1
		for _, tag := range g.Tags {
			name := string(tag.Name)
			r, ok := rank[name]
			if !ok || r <= last {
				t.Fatalf("game %d: tag %s out of lichess's order", i+1, name)
			}
			last = r
			seen[name+"="+string(tag.Value)] = true
			seen[name] = true
		}
		if v, _ := g.Tag("Variant"); string(v) != "Chess960" {
			t.Errorf("game %d: [Variant %q]", i+1, v)
		}
		_, hasFEN := g.Tag("FEN")
		_, hasSetUp := g.Tag("SetUp")
		if hasFEN != (records[i].SP != numbering.StandardSP) || hasSetUp != hasFEN {
			t.Errorf("game %d from SP %d: FEN tag %v, SetUp tag %v; lichess writes both but for SP 518", i+1, records[i].SP, hasFEN, hasSetUp)
		}
		tc, _ := g.Tag("TimeControl")
		clocks := bytes.Count(g.Movetext(), []byte("[%clk "))
		if want := len(records[i].Moves); string(tc) != "-" && clocks != want {
			t.Errorf("game %d: %d clock comments for %d moves", i+1, clocks, want)
		}
		for line := range bytes.Lines(g.Movetext()) {
			if len(bytes.TrimRight(line, "\n")) > lineWidth {
				t.Errorf("game %d: movetext line longer than %d: %q", i+1, lineWidth, line)
			}
		}
	}
	for _, want := range []string{"Event=Rated Chess960 game", "Event=Casual Chess960 game", "Round=-", "ECO=?",
		"Termination=Normal", "Termination=Time forfeit", "TimeControl=180+2", "TimeControl=-", "WhiteTitle=BOT", "WhiteRatingDiff", "SetUp=1"} {
		if !seen[want] {
			t.Errorf("no game has %s", want)
		}
	}
}

// TestMeanGameSize keeps the shapes at the sizes that benchmarks quote.
func TestMeanGameSize(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opt      Options
		min, max int
	}{
		{"lichess", Options{Seed: 1, Shape: Lichess}, 900, 1150},
		{"lichess dialects", Options{Seed: 1, Shape: Lichess, Dialects: true}, 900, 1200},
		{"lichess 70 plies", Options{Seed: 1, Shape: Lichess, MeanPlies: 70}, 2000, 2600},
		{"headers", Options{Seed: 1, Shape: Headers}, 130, 170},
		{"headers dialects", Options{Seed: 1, Shape: Headers, Dialects: true}, 130, 175},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 4000
			mean := len(New(tc.opt).Append(nil, n)) / n
			if mean < tc.min || mean > tc.max {
				t.Errorf("mean game size %d bytes, want %d..%d", mean, tc.min, tc.max)
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	for _, tc := range testOptions {
		t.Run(tc.name, func(t *testing.T) {
			a := New(tc.opt).Append(nil, 200)
			b := New(tc.opt).Append(nil, 200)
			if !bytes.Equal(a, b) {
				t.Error("two generators with the same options wrote different archives")
			}
			other := tc.opt
			other.Seed++
			if c := New(other).Append(nil, 200); bytes.Equal(a, c) {
				t.Error("another seed wrote the same archive")
			}
		})
	}
}

func TestWriteAndBytesAgree(t *testing.T) {
	o := Options{Seed: 9, Shape: Lichess, Dialects: true}
	tests := []struct {
		name  string
		write func(g *Generator, w io.Writer) (int64, error)
		want  []byte
	}{
		{"WriteGames", func(g *Generator, w io.Writer) (int64, error) { return g.WriteGames(w, 3000) }, New(o).Append(nil, 3000)},
		{"WriteSize", func(g *Generator, w io.Writer) (int64, error) { return g.WriteSize(w, 2<<20) }, New(o).AppendSize(nil, 2<<20)},
		{"Bytes", func(g *Generator, w io.Writer) (int64, error) {
			n, err := w.Write(Bytes(o, 2<<20))
			return int64(n), err
		}, New(o).AppendSize(nil, 2<<20)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			n, err := tc.write(New(o), &buf)
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(buf.Len()) || !bytes.Equal(buf.Bytes(), tc.want) {
				t.Errorf("wrote %d bytes (%d counted), want the %d bytes of Append", buf.Len(), n, len(tc.want))
			}
		})
	}
	if a, b := Bytes(o, 2<<20), Bytes(o, 2<<20); &a[0] != &b[0] {
		t.Error("Bytes made the same archive twice")
	}
}

func TestWriteError(t *testing.T) {
	want := errors.New("disk full")
	n, err := New(Options{Seed: 1}).WriteGames(failWriter{want}, 10)
	if !errors.Is(err, want) || n != 0 {
		t.Errorf("WriteGames to a failing writer: %d, %v; want 0, %v", n, err, want)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestParseShape(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Shape
		err  bool
	}{
		{"lichess", Lichess, false},
		{"headers", Headers, false},
		{"Lichess", 0, true},
		{"", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseShape(tc.name)
			if tc.err {
				if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "lichess or headers") {
					t.Errorf("ParseShape(%q) error %v, want ErrShape naming the shapes", tc.name, err)
				}
				return
			}
			if err != nil || got != tc.want || got.String() != tc.name {
				t.Errorf("ParseShape(%q) = %v, %v", tc.name, got, err)
			}
		})
	}
}

func TestAppendClock(t *testing.T) {
	for _, tc := range []struct {
		secs int
		want string
	}{{0, "0:00:00"}, {59, "0:00:59"}, {180, "0:03:00"}, {3725, "1:02:05"}} {
		if got := string(appendClock(nil, tc.secs)); got != tc.want {
			t.Errorf("appendClock(%d) = %q, want %q", tc.secs, got, tc.want)
		}
	}
}

func BenchmarkAppendSize(b *testing.B) {
	for _, tc := range testOptions {
		b.Run(strings.ReplaceAll(tc.name, " ", "-"), func(b *testing.B) {
			const size = 4 << 20
			b.SetBytes(size)
			buf := make([]byte, 0, size+64<<10)
			for b.Loop() {
				buf = New(tc.opt).AppendSize(buf[:0], size)
			}
		})
	}
}
