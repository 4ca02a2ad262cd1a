package pgn

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// plainTagLineCases are lines that plainTagLines must read, or leave to
// the general path, named by what they exercise.
var plainTagLineCases = []struct {
	name, line string
	plain      bool
}{
	{"plain", "[Event \"Rated Chess960 game\"]\n", true},
	{"crlf", "[Site \"https://lichess.org/Es3kY6Gn\"]\r\n", true},
	{"empty value", "[Round \"\"]\n", true},
	{"name of every allowed byte", "[A_z-0+9#=: \"x\"]\n", true},
	{"carriage return inside the value", "[Event \"a\rb\"]\n", true},
	{"escaped quote", "[Event \"a \\\"b\\\"\"]\n", false},
	{"backslash", "[Annotator \"C:\\dir\"]\n", false},
	{"two blanks", "[Event  \"a\"]\n", false},
	{"tab", "[Event\t\"a\"]\n", false},
	{"no blank", "[Event\"a\"]\n", false},
	{"blank after the bracket", "[ Event \"a\"]\n", false},
	{"blank before the closing bracket", "[Event \"a\" ]\n", false},
	{"two tags on a line", "[Event \"a\"][Site \"b\"]\n", false},
	{"movetext after the tag", "[Event \"a\"] 1. e4\n", false},
	{"unclosed value", "[Event \"a]\n", false},
	{"no closing bracket", "[Event \"a\"\n", false},
	{"no name", "[ \"a\"]\n", false},
	{"clock, not a tag", "[%clk 0:10:00]\n", false},
	{"cut before the line end", "[Event \"a\"]", false},
	{"cut after a carriage return", "[Event \"a\"]\r", false},
	{"lone carriage return", "[Event \"a\"]\r[Site \"b\"]\n", false},
}

// TestPlainTagLines checks which lines take the fast path, and that those
// come out as the general path reads them.
func TestPlainTagLines(t *testing.T) {
	for _, c := range plainTagLineCases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.line + "\n1. e4 *\n")
			if c.name == "cut before the line end" || c.name == "cut after a carriage return" {
				data = []byte(c.line)
			}
			var s scanner
			s.reset()
			got := s.plainTagLines(data, 0)
			if (got > 0) != c.plain {
				t.Fatalf("plainTagLines(%q) = %d, want the fast path %v", c.line, got, c.plain)
			}
			checkAsGeneralPath(t, data, &s, got)
		})
	}
}

// tagSectionCases are runs of lines that plainTagLines reads in one call,
// up to where it must stop: want is the offset it returns, movetext where
// it finds the movetext to begin, or -1.
var tagSectionCases = []struct {
	name, data     string
	want, movetext int
}{
	{"three tags and a blank line", "[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n\n1. e4 *\n", 24, 24},
	{"crlf blank line", "[A \"1\"]\r\n[B \"2\"]\r\n\r\n1. e4 *\r\n", 18, 18},
	{"stops at an escaped value", "[A \"1\"]\n[B \"\\\"\"]\n[C \"3\"]\n\n", 8, -1},
	{"stops at a comment line", "[A \"1\"]\n; x\n[C \"3\"]\n\n", 8, -1},
	{"stops at movetext", "[A \"1\"]\n1. e4 *\n", 8, -1},
	{"line of blanks is the general path's", "[A \"1\"]\n \n1. e4 *\n", 8, -1},
	{"lone carriage return is the general path's", "[A \"1\"]\n\r1. e4 *\n", 8, -1},
	{"blank line not yet complete", "[A \"1\"]\n\r", 8, -1},
	{"blank line at the end of data", "[A \"1\"]\n\n", 8, 8},
	{"tag line cut", "[A \"1\"]\n[B \"2", 8, -1},
	// Sections longer than the vector loop's 64-byte windows: lines that
	// start in a window's second half, and names and values that run
	// past a window or are longer than one.
	{"lichess tag section", lichessTags + "\n1. e4 *\n", len(lichessTags), len(lichessTags)},
	{"lichess tag section in crlf", crlf(lichessTags) + "\r\n1. e4 *\r\n", len(crlf(lichessTags)), len(crlf(lichessTags))},
	{"value longer than a window", "[A \"1\"]\n[Annotator \"" + long + "\"]\n[C \"3\"]\n\n", 8 + 15 + len(long) + 8, 8 + 15 + len(long) + 8},
	{"name longer than a window", "[A \"1\"]\n[" + longName + " \"2\"]\n" + lichessTags + "\n", 8 + len(longName) + 7 + len(lichessTags), 8 + len(longName) + 7 + len(lichessTags)},
	{"stops at an escaped value after windows", lichessTags + "[B \"\\\"\"]\n" + lichessTags + "\n", len(lichessTags), -1},
	{"stops at an unclosed value after windows", lichessTags + "[B \"x]\n[C \"" + long + "\"]\n\n", len(lichessTags), -1},
	{"stops at a value with a line break", lichessTags + "[B \"x\n\"]\n" + lichessTags, len(lichessTags), -1},
	{"stops at a blank before the bracket", lichessTags + "[B \"x\" ]\n" + lichessTags, len(lichessTags), -1},
	{"stops at a broken name after windows", lichessTags + "[B%c \"x\"]\n" + lichessTags, len(lichessTags), -1},
	{"tag line cut after windows", lichessTags + "[B \"2", len(lichessTags), -1},
}

// lichessTags is the tag section of a game as lichess exports it.
const lichessTags = `[Event "Rated Chess960 game"]
[Site "https://lichess.org/Es3kY6Gn"]
[Date "2015.06.22"]
[Round "-"]
[White "molobittal269"]
[Black "Drobitrook1063"]
[Result "0-1"]
[UTCDate "2015.06.22"]
[UTCTime "08:45:53"]
[WhiteElo "1357"]
[BlackElo "1353"]
[WhiteRatingDiff "-3"]
[BlackRatingDiff "+3"]
[Variant "Chess960"]
[TimeControl "600+5"]
[ECO "?"]
[Termination "Normal"]
[FEN "qnrknrbb/pppppppp/8/8/8/8/PPPPPPPP/QNRKNRBB w KQkq - 0 1"]
[SetUp "1"]
`

const (
	long     = "a value that runs on past the sixty-four bytes that a window of the vector loop covers"
	longName = "A_name_that_runs_on_past_the_sixty-four_bytes_of_a_window_of_the_vector_loop"
)

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// TestPlainTagSection checks where plainTagLines stops in a run of lines,
// and that it reads them as the general path does.
func TestPlainTagSection(t *testing.T) {
	for _, c := range tagSectionCases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.data)
			var s scanner
			s.reset()
			got := s.plainTagLines(data, 0)
			if got != c.want || s.movetext != c.movetext {
				t.Fatalf("plainTagLines stops at %d with the movetext at %d, want %d and %d", got, s.movetext, c.want, c.movetext)
			}
			checkAsGeneralPath(t, data, &s, got)
		})
	}
}

// checkAsGeneralPath compares what plainTagLines made of the lines at the
// start of data, next being its result, with the general path's reading
// of the same lines, one call a line.
func checkAsGeneralPath(t *testing.T, data []byte, fast *scanner, next int) {
	t.Helper()
	var s scanner
	s.reset()
	pos, ok := 0, true
	for ok && pos < next {
		pos, ok = s.anyHeaderLine(data, pos, false)
	}
	if ok && fast.mode == modeMovetext && s.mode != modeMovetext {
		pos, ok = s.anyHeaderLine(data, pos, false) // the blank line
	}
	if !ok || pos != next || s.mode != fast.mode || s.movetext != fast.movetext || s.lines != fast.lines || !slices.Equal(s.tags, fast.tags) || len(s.problems) > 0 {
		t.Fatalf("%q: fast path gives next %d, mode %d, movetext %d, lines %d, tags %+v; general path %d (%v), mode %d, movetext %d, lines %d, tags %+v, problems %v",
			data, next, fast.mode, fast.movetext, fast.lines, fast.tags, pos, ok, s.mode, s.movetext, s.lines, s.tags, s.problems)
	}
}

// FuzzPlainTagLines holds plainTagLines to the general path on any lines
// it takes. The corpus it has found is in testdata/fuzz/FuzzPlainTagLines.
func FuzzPlainTagLines(f *testing.F) {
	for _, c := range plainTagLineCases {
		f.Add([]byte(c.line))
	}
	for _, c := range tagSectionCases {
		f.Add([]byte(c.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || data[0] != '[' {
			return
		}
		var s scanner
		s.reset()
		checkAsGeneralPath(t, data, &s, s.plainTagLines(data, 0))
	})
}

// skimCases are games whose movetext skimMovetext must settle, or leave to
// the walk, named by what they exercise. Each is followed by a next game.
var skimCases = []struct {
	name, movetext string
	skimmed        bool
}{
	{"clock comments", "1. e4 { [%clk 0:10:00] } 1... d6 { [%clk 0:10:00] }\n2. Qh5 { [%clk 0:09:18] } 0-1\n\n", true},
	{"no comments", "1. e4 e5 2. Nf3 *\n\n", true},
	{"no blank line before the next game", "1. e4 *\n", true},
	{"crlf", "1. e4 {a} *\r\n\r\n", true},
	{"stray closing brace", "1. e4 } e5 *\n\n", true},
	{"brace in a line comment, closed later", "1. e4 ; {\ne5 } *\n\n", true},
	{"comment quoting a bracket line", "1. e4 {\n[%clk 0:10:00]\n} *\n\n", true},
	{"comment quoting a tag", "1. e4 {\n[Event \"x\"]\n} *\n\n", false},
	{"comment left open", "1. e4 {never closed\n\n", false},
	{"brace in a line comment, not closed", "1. e4 ; {\n\n", false},
	{"escape line", "1. e4\n% {\n*\n\n", false},
	{"line beginning with a blank", "1. e4\n e5 *\n\n", false},
	{"tag after a blank", "1. e4 *\n [Event \"y\"]\n\n", false},
	{"bracket then a blank", "1. e4\n[ Event \"y\"]\n*\n\n", true},
	{"bracket then a digit", "1. e4 {\n\n[1 \"y\"]\n} *\n\n", false},
	{"control byte", "1. e4 \x01 e5 *\n\n", false},
	{"control byte in a comment", "1. e4 {\x01} *\n\n", false},
	{"DEL", "1. e4 \x7f *\n\n", false},
	{"form feed and 0x1a are blanks", "1. e4\f\x1a e5 *\n\n", true},
}

// TestSkimMovetext checks which movetexts are skimmed, and that the scanner
// reads every case as the walk alone does.
func TestSkimMovetext(t *testing.T) {
	const next = "[Event \"next\"]\n\n*\n"
	for _, c := range skimCases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte("[Event \"a\"]\n\n" + c.movetext + next)
			i := bytes.IndexByte(data, '\n') + 1 // the blank line, where the movetext begins
			end, lines, ok := skimMovetext(data, i)
			if ok != c.skimmed {
				t.Fatalf("skimmed %v, want %v", ok, c.skimmed)
			}
			if ok && end != len(data)-len(next) {
				t.Fatalf("skim ends the game at %d, want %d", end, len(data)-len(next))
			}
			if ok && lines != bytes.Count(data[i:end], []byte{'\n'}) {
				t.Fatalf("skim counts %d line feeds, want %d", lines, bytes.Count(data[i:end], []byte{'\n'}))
			}
			checkSkimAgrees(t, data)
		})
	}
}

// checkSkimAgrees scans the first game of data with the skim (and quick's
// path) and with the walk alone, with data whole and as the last read, and
// wants the same game: its length, tags, problems, movetext and lines.
func checkSkimAgrees(t *testing.T, data []byte) {
	t.Helper()
	for _, atEOF := range []bool{false, true} {
		var skim, walk scanner
		skim.reset()
		walk.reset()
		walk.walkOnly = true
		n1, done1 := skim.run(data, atEOF)
		n2, done2 := walk.run(data, atEOF)
		if n1 != n2 || done1 != done2 || skim.pos != walk.pos || skim.mode != walk.mode || skim.movetext != walk.movetext || skim.lines != walk.lines ||
			!slices.Equal(skim.tags, walk.tags) || problemsText(skim.problems) != problemsText(walk.problems) {
			t.Fatalf("%q (at EOF %v): with the skim %d %v, pos %d, mode %d, movetext %d, lines %d, problems %s; walk alone %d %v, pos %d, mode %d, movetext %d, lines %d, problems %s",
				data, atEOF, n1, done1, skim.pos, skim.mode, skim.movetext, skim.lines, problemsText(skim.problems),
				n2, done2, walk.pos, walk.mode, walk.movetext, walk.lines, problemsText(walk.problems))
		}
		if done1 && skim.gameLines >= 0 && skim.gameLines != bytes.Count(data[:n1], []byte{'\n'}) {
			t.Fatalf("%q (at EOF %v): the skim counts %d lines in the game, want %d", data, atEOF, skim.gameLines, bytes.Count(data[:n1], []byte{'\n'}))
		}
	}
}

func problemsText(ps []problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%d: %v; ", p.off, p.err)
	}
	return b.String()
}

// FuzzSkimMovetext holds the scanner with the skim to the walk alone on
// any input. Its corpus is in testdata/fuzz/FuzzSkimMovetext.
func FuzzSkimMovetext(f *testing.F) {
	for _, c := range skimCases {
		f.Add([]byte("[Event \"a\"]\n\n" + c.movetext + "[Event \"next\"]\n\n*\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkSkimAgrees(t, data) })
}

// TestNoSkimAfterLongGame: after a game with more movetext than skimLimit,
// as in an archive of engine games, the next is left to the walk, which
// the skim would only cost the limit's bytes; after a short one the skim
// is tried again.
func TestNoSkimAfterLongGame(t *testing.T) {
	long := "[Event \"a\"]\n\n1. e4 {" + strings.Repeat("analysis ", skimLimit/8) + "} *\n\n"
	short := "[Event \"b\"]\n\n1. d4 *\n\n"
	var s scanner
	s.reset()
	for i, c := range []struct {
		game     string
		longNext bool
	}{{long, true}, {short, false}, {long, true}} {
		n, done := s.run([]byte(c.game+short), false)
		if !done || n != len(c.game) {
			t.Fatalf("game %d: scanned %d %v, want %d", i+1, n, done, len(c.game))
		}
		s.reset()
		if s.longGame != c.longNext {
			t.Fatalf("after game %d: longGame %v, want %v", i+1, s.longGame, c.longNext)
		}
	}
}

// TestIsTagName holds IsTagName to the Reader: a name is a tag name
// exactly when a game written with it reads back with a tag of that name,
// for names with each byte in the middle, and at the start.
func TestIsTagName(t *testing.T) {
	named := []struct {
		name string
		want bool
	}{
		{"Event", true},
		{"WhiteElo", true},
		{"White_Elo", true},
		{"My-Tag", true},
		{"A+B#C=D:E", true},
		{"X", true},
		{"", false},
		{"two words", false},
		{"quote\"", false},
		{"bracket]", false},
		{"Müller", false},
		{"tab\t", false},
	}
	for _, c := range named {
		if got := IsTagName(c.name); got != c.want {
			t.Errorf("IsTagName(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	var names []string
	for c := range 256 {
		b := string([]byte{byte(c)})
		names = append(names, "A"+b+"B", b+"AB")
	}
	for _, c := range named {
		names = append(names, c.name)
	}
	for _, name := range names {
		games := readAll(t, "[Site \"s\"]\n["+name+" \"v\"]\n\n*\n", func(r io.Reader) io.Reader { return r }, 0)
		read := false
		for _, tag := range games[0].Tags {
			read = read || string(tag.Name) == name && string(tag.Value) == "v"
		}
		if got := IsTagName(name); got != read {
			t.Errorf("IsTagName(%q) = %v, but the Reader reads it as a tag name: %v", name, got, read)
		}
	}
}
