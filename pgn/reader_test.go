package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// readers feed the same bytes in differently sized pieces: the splitter
// must find the same games however the input arrives.
var readers = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"whole", func(r io.Reader) io.Reader { return r }},
	{"one byte", iotest.OneByteReader},
	{"half", iotest.HalfReader},
	{"data with EOF", iotest.DataErrReader},
	{"pausing", pausing(37)},
}

// readAll reads every game, checking that together they are the input.
func readAll(t *testing.T, input string, wrap func(io.Reader) io.Reader, maxSize int) []*Game {
	t.Helper()
	r := NewReader(wrap(strings.NewReader(input)))
	r.Name = "t.pgn"
	r.MaxGameSize = maxSize
	return readGames(t, r, input)
}

// readGames reads every game from r, checking that together they are
// input.
func readGames(t *testing.T, r *Reader, input string) []*Game {
	t.Helper()
	var games []*Game
	var all bytes.Buffer
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		games = append(games, g)
		all.Write(g.Raw)
	}
	if all.String() != input {
		t.Fatalf("games do not add up to the input:\n got %q\nwant %q", all.String(), input)
	}
	return games
}

// summary describes games compactly: "L1 Event=a | L5 -" (line, first tag).
func summary(games []*Game) string {
	var parts []string
	for _, g := range games {
		s := fmt.Sprintf("L%d", g.Line)
		if len(g.Tags) > 0 {
			s += fmt.Sprintf(" %s=%s", g.Tags[0].Name, g.Tags[0].Value)
		} else {
			s += " -"
		}
		for _, p := range g.Problems {
			s += fmt.Sprintf(" !%d:%v", p.Line, kindOf(p))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " | ")
}

// kindOf names the sentinel error a problem wraps.
func kindOf(err error) error {
	for _, k := range []error{ErrUnterminatedComment, ErrUnterminatedTag, ErrBinary, ErrNoResult, ErrGameTooLarge} {
		if errors.Is(err, k) {
			return k
		}
	}
	return err
}

func TestReaderSplitsGames(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"empty input", "", ""},
		{"two games", "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 0-1\n", "L1 Event=a | L5 Event=b"},
		{"no blank line between games", "[Event \"a\"]\n1. e4 1-0\n[Event \"b\"]\n1. d4 0-1\n", "L1 Event=a | L3 Event=b"},
		{"header-only games", "[Event \"a\"]\n[Site \"x\"]\n\n[Event \"b\"]\n\n[Event \"c\"]\n", "L1 Event=a | L4 Event=b | L6 Event=c"},
		{"tag-like line inside a comment", "[Event \"a\"]\n\n1. e4 {see\n[Event \"not a game\"] here} e5 1-0\n", "L1 Event=a"},
		{"clock comment at line start", "[Event \"a\"]\n\n1. e4 {\n[%clk 0:01:00]} 1-0\n", "L1 Event=a"},
		{"bracket outside comment but not a tag", "[Event \"a\"]\n\n1. e4\n[%clk 0:01:00] 1-0\n", "L1 Event=a"},
		{"semicolon comment hides a brace", "[Event \"a\"]\n\n1. e4 ; a { here\n e5 1-0\n\n[Event \"b\"]\n*\n", "L1 Event=a | L6 Event=b"},
		{"escape line", "% exported by a tool\n[Event \"a\"]\n\n% note\n1. e4 1-0\n", "L1 Event=a"},
		{"comment before move 1", "[Event \"a\"]\n\n{Opening\nnotes} 1. e4 1-0\n", "L1 Event=a"},
		{"CRLF", "[Event \"a\"]\r\n\r\n1. e4 1-0\r\n\r\n[Event \"b\"]\r\n\r\n0-1\r\n", "L1 Event=a | L5 Event=b"},
		{"UTF-8 BOM", "\ufeff[Event \"a\"]\n\n1. e4 1-0\n", "L1 Event=a"},
		{"Latin-1 bytes", "[White \"M\xfcller\"]\n\n1. e4 {\xe9} 1-0\n", "L1 White=M\xfcller"},
		{"leading junk joins the first game", "\n\n{ created by X }\n\n[Event \"a\"]\n\n1. e4 1-0\n", "L1 Event=a"},
		{"moves without tags", "1. e4 e5 1-0\n\n[Event \"a\"]\n\n*\n", "L1 - | L3 Event=a"},
		{"two tags on one line", "[Event \"a\"] [Site \"b\"]\n\n*\n", "L1 Event=a"},
		{"movetext after tags on one line", "[Event \"a\"] 1. e4 1-0\n[Event \"b\"]\n*\n", "L1 Event=a | L2 Event=b"},
		{"escaped tag value", `[Event "say \"hi\" \\ bye"]` + "\n\n*\n", `L1 Event=say "hi" \ bye`},
		{"indented tags", "  [Event \"a\"]\n\n1-0\n  [Event \"b\"]\n\n0-1\n", "L1 Event=a | L4 Event=b"},
		{"line over 64 KiB", "[Event \"a\"]\n\n1. e4 {" + long + "} 1-0\n\n[Event \"b\"]\n\n*\n", "L1 Event=a | L5 Event=b"},
		{"tag over 64 KiB", "[Event \"" + long + "\"]\n\n*\n[Event \"b\"]\n*\n", "L1 Event=" + long + " | L4 Event=b"},
		{"no final newline", "[Event \"a\"]\n\n1. e4 1-0", "L1 Event=a"},
		{"only blank lines", "\n\n\n", "L1 -"},

		{"truncated last game", "[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 d5 2. c4\n", "L1 Event=a | L5 Event=b !7:game has no result (truncated?)"},
		{"comment never closed at end", "[Event \"a\"]\n\n1. e4 {oops\n\n", "L1 Event=a !3:unterminated comment"},
		{"comment never closed before next game", "[Event \"a\"]\n\n1. e4 {oops 1-0\n\n[Event \"b\"]\n\n*\n", "L1 Event=a !3:unterminated comment | L5 Event=b"},
		{"comment quoting a game", "[Event \"a\"]\n\n1. e4 {from the notes:\n\n[Event \"quoted\"]\nmore} e5 1-0\n\n[Event \"b\"]\n\n*\n", "L1 Event=a | L8 Event=b"},
		{"comment never closed, next game has comments", "[Event \"a\"]\n\n1. e4 {oops 1-0\n\n[Event \"b\"]\n\n1. d4 {fine} 0-1\n", "L1 Event=a !3:unterminated comment | L5 Event=b"},
		{"comment never closed, header-only games follow", "[Event \"a\"]\n\n1. e4 {oops\n\n[Event \"b\"]\n\n[Event \"c\"]\n\n[Event \"d\"]\n\n1. e4 {late} *\n", "L1 Event=a !3:unterminated comment | L5 Event=b | L7 Event=c | L9 Event=d"},
		{"escape line after the result", "[Event \"a\"]\n\n1. e4 1-0\n% exported by a tool\n\n[Event \"b\"]\n\n*\n%end\n", "L1 Event=a | L6 Event=b"},
		{"comment closed on the tag's line", "[Event \"a\"]\n\n1. e4 {a\n\n[Event \"b\"] still the comment} 1-0\n", "L1 Event=a"},
		{"unterminated tag", "[Event \"a\n[Site \"b\"]\n\n*\n", "L1 Site=b !1:malformed tag pair"},
		{"tag without quotes", "[Event a]\n[Site \"b\"]\n\n*\n", "L1 Site=b !1:malformed tag pair"},
		{"NUL byte", "[Event \"a\"]\n\n1. e4\x00 1-0\n", "L1 Event=a !3:binary data"},
		{"control byte", "[Event \"a\"]\n\n1. e4\x01 1-0\n", "L1 Event=a !3:binary data"},
		{"tag section that never ends", strings.Repeat("[Event \"a\"]\n", 3), "L1 Event=a"},
	}
	for _, tt := range tests {
		for _, rd := range readers {
			t.Run(tt.name+"/"+rd.name, func(t *testing.T) {
				got := summary(readAll(t, tt.input, rd.wrap, 0))
				if got != tt.want {
					t.Errorf("games:\n got %q\nwant %q", got, tt.want)
				}
			})
		}
	}
}

func TestReaderTagSpans(t *testing.T) {
	input := "[Event \"a\"]\r\n[FEN  \"8/8 w - - 0 1\" ]\r\n\r\n*\r\n"
	games := readAll(t, input, iotest.OneByteReader, 0)
	g := games[0]
	if len(g.Tags) != 2 {
		t.Fatalf("tags = %d, want 2", len(g.Tags))
	}
	fenTag := g.Tags[1]
	if got := string(g.Raw[fenTag.Start:fenTag.End]); got != `[FEN  "8/8 w - - 0 1" ]` {
		t.Errorf("FEN span = %q", got)
	}
	if fenTag.Line != 2 || string(fenTag.Value) != "8/8 w - - 0 1" {
		t.Errorf("FEN tag = line %d value %q", fenTag.Line, fenTag.Value)
	}
	if g.LineEnding() != "\r\n" {
		t.Errorf("line ending %q", g.LineEnding())
	}
	if got := string(g.Movetext()); got != "\r\n*\r\n" {
		t.Errorf("movetext = %q", got)
	}
}

func TestReaderLineNumbersAcrossGames(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "[Event \"%d\"]\n[Site \"s\"]\n\n1. e4 {a\ncomment} e5 1-0\n\n", i)
	}
	for _, rd := range readers {
		games := readAll(t, b.String(), rd.wrap, 0)
		for i, g := range games {
			if want := 1 + 6*i; g.Line != want || g.Tags[1].Line != want+1 || g.Index != i+1 {
				t.Fatalf("%s: game %d at line %d (Site at %d, index %d), want line %d", rd.name, i, g.Line, g.Tags[1].Line, g.Index, want)
			}
		}
	}
}

func TestReaderPartsOfHugeGames(t *testing.T) {
	huge := "[Event \"big\"]\n\n1. e4 {" + strings.Repeat("comment ", 400000) + "} 1-0\n\n[Event \"next\"]\n\n*\n"
	games := readAll(t, huge, iotest.HalfReader, 64<<10)
	if len(games) < 3 {
		t.Fatalf("got %d games, want the big one in parts and the next", len(games))
	}
	first, last := games[0], games[len(games)-1]
	if !first.Partial || first.Continued || !errors.Is(first.Problems[0], ErrGameTooLarge) {
		t.Errorf("first part: partial %v continued %v problems %v", first.Partial, first.Continued, first.Problems)
	}
	for _, g := range games[1 : len(games)-1] {
		if !g.Continued {
			t.Errorf("game %d: a middle part not marked Continued", g.Index)
		}
	}
	tooLarge := 0
	for _, g := range games {
		for _, p := range g.Problems {
			if errors.Is(p, ErrGameTooLarge) {
				tooLarge++
			}
		}
	}
	if tooLarge != 1 {
		t.Errorf("a game in %d parts reported too large %d times, want once", len(games)-1, tooLarge)
	}
	if last.Continued || len(last.Tags) != 1 || string(last.Tags[0].Value) != "next" {
		t.Errorf("the game after the huge one: continued %v tags %v", last.Continued, last.Tags)
	}
}

func TestReadBatchMatchesNext(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "[Event \"%d\"]\n[Note \"q\\\"%d\"]\n\n1. e4 {c} 1-0\n\n", i, i)
	}
	input := b.String()
	want := readAll(t, input, iotest.OneByteReader, 0)
	r := NewReader(iotest.HalfReader(strings.NewReader(input)))
	var batch Batch
	var all bytes.Buffer
	n := 0
	for {
		err := r.ReadBatch(&batch, 1000)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := range batch.Games {
			g := &batch.Games[i]
			w := want[n]
			if g.Line != w.Line || g.Index != w.Index || len(g.Tags) != 2 || string(g.Tags[1].Value) != string(w.Tags[1].Value) {
				t.Fatalf("batch game %d: line %d index %d tags %v; Next gave line %d index %d %v", n, g.Line, g.Index, g.Tags, w.Line, w.Index, w.Tags)
			}
			all.Write(g.Raw)
			n++
		}
	}
	if n != len(want) || all.String() != input {
		t.Fatalf("batches gave %d games, want %d; bytes equal: %v", n, len(want), all.String() == input)
	}
}

func TestReaderReusesGame(t *testing.T) {
	r := NewReader(strings.NewReader("[Event \"a\"]\n*\n[Event \"b\"]\n*\n"))
	r.ReuseGame = true
	g1, _ := r.Next()
	g2, _ := r.Next()
	if g1 != g2 || string(g2.Tags[0].Value) != "b" {
		t.Errorf("ReuseGame: got distinct games or wrong tags")
	}
}

type failingReader struct{ data io.Reader }

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.data.Read(p)
	if err == io.EOF {
		return n, errors.New("disk on fire")
	}
	return n, err
}

func TestReaderPassesReadErrors(t *testing.T) {
	r := NewReader(&failingReader{strings.NewReader("[Event \"a\"]\n*\n")})
	g, err := r.Next()
	if err != nil || g == nil {
		t.Fatalf("first game: %v", err)
	}
	if _, err := r.Next(); err == nil || err == io.EOF || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("error = %v, want the reader's", err)
	}
}

// TestReadBatchAtLeastOneGame: a batch holds at least one game whatever
// the size asked for, 0 and below included, and io.EOF follows the last,
// so that a loop over the batches ends. A size of 0 gave batches of no
// game and no error, for ever.
func TestReadBatchAtLeastOneGame(t *testing.T) {
	const input = "[Event \"1\"]\n\n1. e4 *\n\n[Event \"2\"]\n\n*\n\n[Event \"3\"]\n\n1-0\n"
	tests := []struct {
		size int
		want []int // the games of each batch
	}{
		{-1, []int{1, 1, 1}},
		{0, []int{1, 1, 1}},
		{1, []int{1, 1, 1}},
		{30, []int{2, 1}},
		{1 << 20, []int{3}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.size), func(t *testing.T) {
			r := NewReader(strings.NewReader(input))
			var b Batch
			var got []int
			var all strings.Builder
			for range 10 {
				err := r.ReadBatch(&b, tc.size)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, len(b.Games))
				for _, g := range b.Games {
					all.Write(g.Raw)
				}
			}
			if !slices.Equal(got, tc.want) || all.String() != input {
				t.Errorf("batches of %v games, want %v; together the input: %v", got, tc.want, all.String() == input)
			}
			if err := r.ReadBatch(&b, tc.size); err != io.EOF {
				t.Errorf("after the end: %v, want io.EOF again", err)
			}
		})
	}
}

// countReader returns n from every Read, whatever it was given.
type countReader struct{ n int }

func (c countReader) Read(p []byte) (int, error) { return c.n, nil }

// TestReadCount: a Read that returns a count io.Reader forbids (below 0,
// or above the buffer it was given) ends the reading with ErrReadCount,
// by each way of reading, rather than a slice out of range.
func TestReadCount(t *testing.T) {
	reads := []struct {
		name string
		read func(r *Reader) error
	}{
		{"Next", func(r *Reader) error { _, err := r.Next(); return err }},
		{"ReadBatch", func(r *Reader) error { var b Batch; return r.ReadBatch(&b, 1000) }},
		{"ReadPart", func(r *Reader) error {
			var b Batch
			if err := r.ReadPart(&b, 1000); err != nil {
				return err
			}
			return r.ReadPart(&b, 1000) // the error of the first is kept for the next
		}},
	}
	for _, n := range []int{-1, 1 << 30} {
		for _, rd := range reads {
			t.Run(fmt.Sprintf("%s %d", rd.name, n), func(t *testing.T) {
				err := rd.read(NewReader(countReader{n}))
				if !errors.Is(err, ErrReadCount) {
					t.Errorf("error %v, want ErrReadCount", err)
				}
			})
		}
	}
}

func TestParseErrorFormat(t *testing.T) {
	e := &ParseError{File: "x.pgn", Line: 12, Err: ErrNoResult}
	if got := e.Error(); got != "x.pgn:12: game has no result (truncated?)" {
		t.Errorf("got %q", got)
	}
	if !errors.Is(e, ErrNoResult) {
		t.Error("errors.Is does not see the cause")
	}
}

func TestReadAll(t *testing.T) {
	in := "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n"
	for _, reuse := range []bool{false, true} {
		r := NewReader(strings.NewReader(in))
		r.ReuseGame = reuse
		games, err := r.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var events []string
		for i := range games {
			v, _ := games[i].Tag("Event")
			events = append(events, string(v))
		}
		if got := strings.Join(events, ","); got != "a,b" {
			t.Errorf("ReuseGame=%v: events %q, want a,b (each game its own memory)", reuse, got)
		}
		if r.ReuseGame != reuse {
			t.Errorf("ReadAll changed ReuseGame to %v", r.ReuseGame)
		}
	}
}

// TestReaderManyMalformedTags: a game of a million broken tag lines costs
// a bounded number of problems, and allocations that do not grow with the
// number of lines (the lines were once counted again for each problem,
// taking minutes).
func TestReaderManyMalformedTags(t *testing.T) {
	for _, lines := range []int{1000, 100000} {
		input := "[Event \"x\"]\n" + strings.Repeat("[\n", lines) + "\n1. e4 *\n"
		var games []*Game
		allocs := testing.AllocsPerRun(1, func() { games = readAll(t, input, func(r io.Reader) io.Reader { return r }, 0) })
		if len(games) != 1 {
			t.Fatalf("%d lines: %d games, want 1", lines, len(games))
		}
		probs := games[0].Problems
		if len(probs) != maxTagProblems+1 {
			t.Fatalf("%d lines: %d problems, want %d", lines, len(probs), maxTagProblems+1)
		}
		if last := probs[len(probs)-1].Error(); !strings.Contains(last, fmt.Sprintf("%d more in this game", lines-maxTagProblems)) {
			t.Errorf("%d lines: last problem %q does not count the rest", lines, last)
		}
		if allocs > 200 {
			t.Errorf("%d lines: %.0f allocations, want a bound independent of the lines", lines, allocs)
		}
	}
}

func TestParseErrorEscapesControls(t *testing.T) {
	tests := []struct{ name, file, msg, want string }{
		{"plain", "a.pgn", "game 1 (Alpha - Beta): illegal move", "a.pgn:3: game 1 (Alpha - Beta): illegal move"},
		{"escape sequence in a name", "a.pgn", "game 1 (\x1b[2J\x1b[31mEvil - Beta)", `a.pgn:3: game 1 (\x1b[2J\x1b[31mEvil - Beta)`},
		{"newline and DEL", "b\nc.pgn", "x\ry\x7f", `b\x0ac.pgn:3: x\x0dy\x7f`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := (&ParseError{File: tt.file, Line: 3, Err: errors.New(tt.msg)}).Error()
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReaderIncompleteTags: a game whose tags cannot all be held is one
// game, marked TagsIncomplete, and is never torn in two, even when the
// size limit falls inside a tag line.
func TestReaderIncompleteTags(t *testing.T) {
	longTag := "[Annotator \"" + strings.Repeat("x", 1000) + "\"]\n"
	tests := []struct {
		name  string
		input string
		max   int
		parts int // items the game comes in
		tags  int // tags of its first part
	}{
		{"more than MaxTags tags", strings.Repeat("[Annotator \"x\"]\n", MaxTags+5) + "\n*\n", 0, 1, MaxTags},
		{"tag section over the size limit", "[Event \"big\"]\n" + strings.Repeat(longTag, 100) + "\n1. e4 *\n", 64 << 10, 2, 65},
		{"tag section of three parts", "[Event \"big\"]\n" + strings.Repeat(longTag, 200) + "\n1. e4 *\n", 64 << 10, 4, 65},
		{"more than MaxTags tags in more than one part", strings.Repeat("[A \"x\"]\n", 4*MaxTags) + "\n*\n", 64 << 10, 3, MaxTags},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games := readAll(t, tt.input+"\n[Event \"next\"]\n\n*\n", iotest.HalfReader, tt.max)
			if len(games) != tt.parts+1 {
				t.Fatalf("%d items, want %d parts and the next game", len(games), tt.parts)
			}
			first := games[0]
			if !first.TagsIncomplete || len(first.Tags) != tt.tags || first.Continued {
				t.Errorf("first part: incomplete %v, %d tags, continued %v; want incomplete, %d tags", first.TagsIncomplete, len(first.Tags), first.Continued, tt.tags)
			}
			if !errors.Is(first.Problems[len(first.Problems)-1], ErrGameTooLarge) {
				t.Errorf("first part's problems %v do not say it is too large", first.Problems)
			}
			for _, g := range games[1:tt.parts] {
				if !g.Continued {
					t.Errorf("item at line %d: a later part not marked Continued", g.Line)
				}
				// The first part said the game is too large; a later
				// part says it again for no one.
				for _, p := range g.Problems {
					if errors.Is(p, ErrGameTooLarge) {
						t.Errorf("item at line %d, a later part, reports %v", g.Line, p)
					}
				}
			}
			if next := games[tt.parts]; next.Continued || string(next.Tags[0].Value) != "next" {
				t.Errorf("the next game: continued %v, tags %v", next.Continued, next.Tags)
			}
		})
	}
}

// TestReaderLoneCR: lines that end with a lone CR, as old Mac exports
// write them, are line ends; the games keep their bytes, and a tag edit
// uses the same line ending.
func TestReaderLoneCR(t *testing.T) {
	lf := "[Event \"a\"]\n[Site \"x\"]\n\n1. e4 e5 ; a comment\n2. Nf3 1-0\n\n[Event \"b\"]\n[FEN \"?\"]\n\n1. d4 *\n"
	input := strings.ReplaceAll(lf, "\n", "\r")
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			games := readAll(t, input, rd.wrap, 0)
			if got, want := summary(games), "L1 Event=a | L7 Event=b"; got != want {
				t.Fatalf("games %q, want %q", got, want)
			}
			g := games[0]
			if marker, line := g.Termination(); string(marker) != "1-0" || line != 5 {
				t.Errorf("termination %q at line %d, want 1-0 at 5", marker, line)
			}
			if g.MovetextLine() != 3 {
				t.Errorf("movetext at line %d, want 3 (the blank line)", g.MovetextLine())
			}
			edited := string(g.AppendEdited(nil, Edit{Name: "Round", Value: "1", After: "Event"}, Edit{Name: "Site", Remove: true}))
			want := "[Event \"a\"]\r[Round \"1\"]\r\r1. e4 e5 ; a comment\r2. Nf3 1-0\r\r"
			if edited != want {
				t.Errorf("edited %q, want %q", edited, want)
			}
		})
	}
}

// TestReaderLoneCRDecidedLate: when the first CR of the input is the
// last byte read, and the next read shows it ends the line, the game's
// problems must not depend on where the reads fell. Here the first line
// is longer than MaxGameSize, so the game is cut inside it, and the line
// after the CR is a malformed tag pair.
func TestReaderLoneCRDecidedLate(t *testing.T) {
	input := strings.Repeat("0", 127) + "\r["
	var want string
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			var got []string
			for _, g := range readAll(t, input, rd.wrap, 100) {
				got = append(got, describeGame(g))
			}
			if !strings.Contains(got[len(got)-1], "malformed tag pair") {
				t.Errorf("the last part is %s, want the malformed tag pair reported", got[len(got)-1])
			}
			if all := strings.Join(got, "\n"); want == "" {
				want = all
			} else if all != want {
				t.Errorf("games\n%s\nwant, as read another way,\n%s", all, want)
			}
		})
	}
}

// TestReadBatchDeferred reads inputs in deferred batches, built only
// after the next batch is read into another Batch (as the runner's
// workers do), and compares every game with Next's: bytes, lines, tags
// and problems, lone-CR line ends put back included.
func TestReadBatchDeferred(t *testing.T) {
	var lf strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&lf, "[Event \"%d\"]\n[Note \"q\\\"%d\"]\n\n1. e4 {c} ; rest\n1-0\n\n", i, i)
	}
	lf.WriteString("[Event \"broken\"\n\n1. e4\n")
	for _, tc := range []struct{ name, input string }{
		{"LF", lf.String()},
		{"lone CR", strings.ReplaceAll(lf.String(), "\n", "\r")},
		{"CRLF", strings.ReplaceAll(lf.String(), "\n", "\r\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := readAll(t, tc.input, iotest.OneByteReader, 0)
			r := NewReader(strings.NewReader(tc.input))
			r.Name = "t.pgn"
			batches := [2]Batch{{Deferred: true}, {Deferred: true}}
			var got []string
			var all bytes.Buffer
			describe := func(g *Game) string {
				s := fmt.Sprintf("line %d index %d tags %d", g.Line, g.Index, len(g.Tags))
				for _, tag := range g.Tags {
					s += fmt.Sprintf(" %s=%s@%d", tag.Name, tag.Value, tag.Line)
				}
				for _, p := range g.Problems {
					s += " [" + p.Error() + "]"
				}
				return s
			}
			// Read batch k+1 before building batch k.
			pending := -1
			for k := 0; ; k++ {
				b := &batches[k%2]
				err := r.ReadBatch(b, 700)
				if pending >= 0 {
					p := &batches[pending]
					p.Build()
					for i := range p.Games {
						got = append(got, describe(&p.Games[i]))
						all.Write(p.Games[i].Raw)
					}
				}
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				pending = k % 2
			}
			if all.String() != tc.input {
				t.Fatalf("the batches' bytes differ from the input")
			}
			if len(got) != len(want) {
				t.Fatalf("%d games, Next gave %d", len(got), len(want))
			}
			for i := range want {
				if w := describe(want[i]); got[i] != w {
					t.Fatalf("game %d:\n got %s\nwant %s", i, got[i], w)
				}
			}
		})
	}
}

// TestGameOfTheLimitAtTheEnd: a last game of exactly MaxGameSize bytes
// fits, and one byte more does not, however the reads come: whether the
// input ended was decided before by the read that brought the last byte.
func TestGameOfTheLimitAtTheEnd(t *testing.T) {
	const limit = 64
	for _, tt := range []struct {
		name    string
		size    int
		partial bool
	}{
		{"the limit", limit, false},
		{"a byte over", limit + 1, true},
		{"a byte under", limit - 1, false},
	} {
		input := "[Event \"x\"]\n\n" + strings.Repeat("e", tt.size-len("[Event \"x\"]\n\n"))
		for _, rd := range readers {
			t.Run(tt.name+"/"+rd.name, func(t *testing.T) {
				games := readAll(t, input, rd.wrap, limit)
				if games[0].Partial != tt.partial {
					t.Errorf("%d games, the first partial %v; want partial %v", len(games), games[0].Partial, tt.partial)
				}
			})
		}
	}
}

// TestContinuedTagLines reads a tag section longer than MaxGameSize, so
// that its later part starts inside a tag line: the tags of that part must
// name their own lines, and the next game its own.
func TestContinuedTagLines(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "[Tag%d \"value number %d\"]\n", i, i)
	}
	b.WriteString("\n1. e4 *\n\n[Event \"next\"]\n\n1. d4 *\n")
	in := []byte(b.String())
	r := NewReader(bytes.NewReader(in))
	r.MaxGameSize = 300
	continued := 0
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if g.Continued {
			continued++
		}
		if want := 1 + bytes.Count(in[:g.Offset], []byte{'\n'}); g.Line != want {
			t.Errorf("game %d starts on line %d, want %d", g.Index, g.Line, want)
		}
		for _, tag := range g.Tags {
			if want := 1 + bytes.Count(in[:int(g.Offset)+tag.Start], []byte{'\n'}); tag.Line != want {
				t.Errorf("game %d (continued %v): tag %s on line %d, want %d", g.Index, g.Continued, tag.Name, tag.Line, want)
			}
		}
	}
	if continued == 0 {
		t.Fatal("no game was continued: the test reads nothing it means to")
	}
}

// TestProblemsInLineOrder: a game's problems come in the order of their
// lines, the NUL (looked for after the scan) among them, and after them
// those of the game as a whole, at its first line.
func TestProblemsInLineOrder(t *testing.T) {
	tests := []struct {
		name, input string
		want        []string // each problem as "line: error"
	}{
		{"NUL before a comment left open",
			"[Event \"a\"]\n[Result \"*\"]\n\n1. e4 e5\n2. \x00 Nf3\n3. Nc3 {open\n4. d3\n\n[Event \"b\"]\n\n1. d4 *\n",
			[]string{"5: binary data: NUL byte", "6: unterminated comment: '{' not closed before the next game's tags"}},
		{"NUL after a broken tag",
			"[Event \"a\"]\n[Site\n[Result \"*\"]\n\n1. e4 \x00 *\n",
			[]string{`2: malformed tag pair: "[Site"`, "5: binary data: NUL byte"}},
		{"NUL before a broken tag",
			"[Event \"\x00\"]\n[Site\n[Result \"*\"]\n\n1. e4 *\n",
			[]string{"1: binary data: NUL byte", `2: malformed tag pair: "[Site"`}},
		{"more broken tags than reported, and a NUL",
			"[Event \"a\"]\n" + strings.Repeat("[\n", maxTagProblems+2) + "\n1. \x00 e4 *\n",
			append(func() (w []string) {
				for i := range maxTagProblems {
					w = append(w, fmt.Sprintf(`%d: malformed tag pair: "["`, i+2))
				}
				return w
			}(), fmt.Sprintf("%d: binary data: NUL byte", maxTagProblems+5), "1: malformed tag pair: 2 more in this game")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games := readAll(t, tt.input, func(r io.Reader) io.Reader { return r }, 0)
			var got []string
			for _, p := range games[0].Problems {
				got = append(got, fmt.Sprintf("%d: %v", p.Line, p.Err))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// readSizes records the room each Read was given.
type readSizes struct {
	r     io.Reader
	sizes []int
}

func (s *readSizes) Read(p []byte) (int, error) {
	s.sizes = append(s.sizes, len(p))
	return s.r.Read(p)
}

// TestReaderBufferGrowsWithTheInput: Next's buffer starts small, so that
// an input of one short game costs a few KB, doubles while the input
// fills it, so that a long input is read in pieces of minRead or more
// after a few small reads, and holds a game larger than itself.
func TestReaderBufferGrowsWithTheInput(t *testing.T) {
	short := "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
	long := "[Event \"long\"]\n[Result \"*\"]\n\n1. e4 {" + strings.Repeat("a comment ", 30_000) + "} *\n\n"
	cases := []struct {
		name      string
		input     string
		buffer    int // len of the buffer at the end
		smallMost int // reads given less than minRead
	}{
		{"one short game", short, firstRead, 2},
		{"short games, 2 MB", strings.Repeat(short, 2<<20/len(short)), initialBuffer, 5},
		{"a game of 300 KB among short ones", short + long + strings.Repeat(short, 1000), 0, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := &readSizes{r: strings.NewReader(c.input)}
			r := NewReader(src)
			readGames(t, r, c.input)
			if c.buffer > 0 && len(r.buf) != c.buffer {
				t.Errorf("buffer of %d bytes at the end, want %d", len(r.buf), c.buffer)
			}
			if c.buffer == 0 && len(r.buf) < len(long) {
				t.Errorf("buffer of %d bytes at the end, smaller than the %d-byte game it held", len(r.buf), len(long))
			}
			small := 0
			for _, n := range src.sizes {
				if n < minRead {
					small++
				}
			}
			if small > c.smallMost {
				t.Errorf("%d of %d reads were given less than %d bytes, want at most %d: %v", small, len(src.sizes), minRead, c.smallMost, src.sizes)
			}
		})
	}
}
