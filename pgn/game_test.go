package pgn

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestAppendEdited(t *testing.T) {
	tests := []struct {
		name  string
		input string
		edits []Edit
		want  string
	}{
		{
			"insert after FEN",
			"[Event \"x\"]\n[FEN \"f\"]\n[Site \"y\"]\n\n*\n",
			[]Edit{{Name: "Chess960", Value: "518", After: "FEN"}, {Name: "Chess960Fritz9", Value: "359", After: "FEN"}},
			"[Event \"x\"]\n[FEN \"f\"]\n[Chess960 \"518\"]\n[Chess960Fritz9 \"359\"]\n[Site \"y\"]\n\n*\n",
		},
		{
			"insert at the end without FEN",
			"[Event \"x\"]\n[Site \"y\"]\n\n*\n",
			[]Edit{{Name: "Chess960", Value: "518", After: "FEN"}},
			"[Event \"x\"]\n[Site \"y\"]\n[Chess960 \"518\"]\n\n*\n",
		},
		{
			"replace where it stands",
			"[Chess960 \"1\"]\n[FEN \"f\"]\n\n*\n",
			[]Edit{{Name: "Chess960", Value: "518", After: "FEN"}},
			"[Chess960 \"518\"]\n[FEN \"f\"]\n\n*\n",
		},
		{
			"CRLF game gets CRLF lines",
			"[Event \"x\"]\r\n[FEN \"f\"]\r\n\r\n*\r\n",
			[]Edit{{Name: "Chess960", Value: "0", After: "FEN"}},
			"[Event \"x\"]\r\n[FEN \"f\"]\r\n[Chess960 \"0\"]\r\n\r\n*\r\n",
		},
		{
			"remove a stale tag line",
			"[Event \"x\"]\n[Chess960 \"5\"]\n[Chess960Fritz9 \"7\"]\n\n*\n",
			[]Edit{{Name: "Chess960", Remove: true}, {Name: "Chess960Fritz9", Remove: true}},
			"[Event \"x\"]\n\n*\n",
		},
		{
			// Left at its line's start, the '%' would begin an escape line,
			// which a tag section skips: the moves after it would be read
			// as tags.
			"remove a tag followed by a percent sign",
			"[Event \"x\"]\n[Chess960 \"5\"]\n[Chess960Fritz9 \"7\"]%\n[Site \"y\"]\n",
			[]Edit{{Name: "Chess960", Remove: true}, {Name: "Chess960Fritz9", Remove: true}},
			"[Event \"x\"]%\n",
		},
		{
			"remove a tag followed by a percent sign, CRLF",
			"[Event \"x\"] \r\n[B \"5\"] % y\r\n\r\n*\r\n",
			[]Edit{{Name: "B", Remove: true}},
			"[Event \"x\"]  % y\r\n\r\n*\r\n",
		},
		{
			// Removed, it would leave an escape line, and the next game
			// would begin with it, in this game's tag section.
			"keep the first tag, followed by a percent sign",
			"[B \"5\"]%\n[Site \"y\"]\n",
			[]Edit{{Name: "B", Remove: true}},
			"[B \"5\"]%\n",
		},
		{
			"keep a tag followed by a percent sign after an escape line",
			"[A \"1\"]\n% note\n[B \"5\"] %\n[Site \"y\"]\n",
			[]Edit{{Name: "B", Remove: true}},
			"[A \"1\"]\n% note\n[B \"5\"] %\n",
		},
		{
			"keep a tag followed by a percent sign after a malformed tag line",
			"[FEN \"\"][0\n[B \"5\"]%\n[A",
			[]Edit{{Name: "B", Remove: true}},
			"[FEN \"\"][0\n[B \"5\"]%\n",
		},
		{
			// The reader skips the rest of a line after a malformed pair,
			// and after a lone CR: a '%' joined there would go with it.
			"keep a tag followed by a percent sign after a line ending in a malformed pair",
			"[FEN \"\"][]\n[B \"5\"]%\n[A",
			[]Edit{{Name: "B", Remove: true}},
			"[FEN \"\"][]\n[B \"5\"]%\n",
		},
		{
			"keep a tag followed by a percent sign after a tag line with a lone CR",
			"[Z \"0\"]\n[A \"1\"]\r x]\n[B \"5\"]%\n[C \"3\"]\n",
			[]Edit{{Name: "B", Remove: true}},
			"[Z \"0\"]\n[A \"1\"]\r x]\n[B \"5\"]%\n",
		},
		{
			// A reader skips the blanks before a '%' at a line's start.
			"remove an indented tag followed by a percent sign",
			"[A \"1\"]\n [B \"5\"]%\n[C \"3\"]\n",
			[]Edit{{Name: "B", Remove: true}},
			"[A \"1\"] %\n",
		},
		{
			"keep an indented tag followed by a percent sign after an escape line",
			"[A \"1\"]\n% x\n\t[B \"5\"] %\n[C \"3\"]\n",
			[]Edit{{Name: "B", Remove: true}},
			"[A \"1\"]\n% x\n\t[B \"5\"] %\n",
		},
		{
			"remove a tag followed by a percent sign on a line of tags",
			"[A \"1\"]\n% note\n[C \"3\"] [B \"5\"] %\n[Site \"y\"]\n",
			[]Edit{{Name: "B", Remove: true}},
			"[A \"1\"]\n% note\n[C \"3\"]  %\n",
		},
		{
			// A reader skips what follows a lone CR on a tag line; left
			// at the line's start, the CR would end the tag section.
			"remove a tag followed by a lone CR",
			"[A \"1\"]\n[B \"2\"]\r x\n[C \"3\"]\n\n*\n",
			[]Edit{{Name: "B", Remove: true}},
			"[A \"1\"]\n[C \"3\"]\n\n*\n",
		},
		{
			// Left blank, the line would end the tag section, and the
			// tags after it begin a game of their own.
			"remove every tag of a line of tags",
			"[Z \"0\"]\n[A \"1\"] [A \"2\"]\t\n[B \"3\"]\n\n*\n",
			[]Edit{{Name: "A", Remove: true}},
			"[Z \"0\"]\n[B \"3\"]\n\n*\n",
		},
		{
			"remove two tags of a line of three",
			"[Z \"0\"]\n[A \"1\"] [B \"3\"] [C \"2\"]\n\n*\n",
			[]Edit{{Name: "A", Remove: true}, {Name: "C", Remove: true}},
			"[Z \"0\"]\n [B \"3\"] \n\n*\n",
		},
		{
			"remove a tag followed by a line feed, in a file of lone CRs",
			"[A \"1\"]\r[B \"2\"]\n x\r[C \"3\"]\r\r*\r",
			[]Edit{{Name: "B", Remove: true}},
			"[A \"1\"]\r[C \"3\"]\r\r*\r",
		},
		{
			"remove a tag that begins a line of moves",
			"[A \"1\"]\n [B \"2\"]  1. e4 *\n",
			[]Edit{{Name: "B", Remove: true}},
			"[A \"1\"]\n   1. e4 *\n",
		},
		{
			"remove a tag that begins a line of tags",
			"[A \"1\"]\n[B \"2\"] [C \"3\"]\n\n*\n",
			[]Edit{{Name: "B", Remove: true}},
			"[A \"1\"]\n [C \"3\"]\n\n*\n",
		},
		{
			// Removed with the first line, it would leave the lone CR
			// the first line break: a reader would take the file for
			// one of lone CRs, and "00" for moves.
			"keep the first tag when a lone CR would be the first line break",
			"[A \"1\"]\n[B \"2\"]\r00\n",
			[]Edit{{Name: "A", Remove: true}},
			"[A \"1\"]\n[B \"2\"]\r00\n",
		},
		{
			"keep the first tag when a line feed would be the first line break, in a file of lone CRs",
			"[A \"1\"]\r[B \"2\"]\n00\r",
			[]Edit{{Name: "A", Remove: true}},
			"[A \"1\"]\r[B \"2\"]\n00\r",
		},
		{
			// Removed, A's line would leave "\r\n" after the first line,
			// and a reader would take the file for one of line feeds.
			"keep a tag when its removal would put a line feed after the first line break",
			"[Z \"0\"]\r[A \"1\"]\r\n",
			[]Edit{{Name: "A", Remove: true}},
			"[Z \"0\"]\r[A \"1\"]\r\n",
		},
		{
			"remove the first tag when a line feed follows, in a file of lone CRs",
			"[A \"1\"]\r[B \"2\"]\r\r*\r",
			[]Edit{{Name: "A", Remove: true}},
			"[B \"2\"]\r\r*\r",
		},
		{
			// After a junk line, a game's tags begin only at '[' and a
			// letter: "[0" alone would leave the game no tags.
			"keep the first tags when the first left does not begin with a letter",
			";\n[A \"1\"][B \"2\"] [0 \"3\"]\n[C \"4\"]\n\n*\n",
			[]Edit{{Name: "A", Remove: true}, {Name: "B", Remove: true}, {Name: "C", Remove: true}},
			";\n[A \"1\"][B \"2\"] [0 \"3\"]\n\n*\n",
		},
		{
			"keep the first tag when a malformed pair would begin the line",
			";\n[A \"1\"][\n[B \"2\"]\n\n*\n",
			[]Edit{{Name: "A", Remove: true}},
			";\n[A \"1\"][\n[B \"2\"]\n\n*\n",
		},
		{
			"remove the first tags when the first left begins with a letter",
			";\n[A \"1\"]\n[B \"2\"]\n\n*\n",
			[]Edit{{Name: "A", Remove: true}},
			";\n[B \"2\"]\n\n*\n",
		},
		{
			"insert after the last tag, removed, at the end of the input",
			"[A \"1\"]\n[B \"2\"]",
			[]Edit{{Name: "B", Remove: true}, {Name: "C", Value: "3"}},
			"[A \"1\"]\n[C \"3\"]",
		},
		{
			"insert into a line of tags and moves",
			"[Event \"x\"][Site \"y\"] 1. e4 *\n",
			[]Edit{{Name: "Chess960", Value: "518", After: "FEN"}, {Name: "PlyCount", Value: "1"}},
			"[Event \"x\"][Site \"y\"] [Chess960 \"518\"] [PlyCount \"1\"] 1. e4 *\n",
		},
		{
			"insert after a FEN followed by tags on its line",
			"[FEN \"f\"] [Result \"*\"]\n\n*\n",
			[]Edit{{Name: "Chess960", Value: "0", After: "FEN"}},
			"[FEN \"f\"] [Chess960 \"0\"] [Result \"*\"]\n\n*\n",
		},
		{
			"remove a tag sharing its line",
			"[Event \"x\"] [Chess960 \"5\"]\n\n*\n",
			[]Edit{{Name: "Chess960", Remove: true}},
			"[Event \"x\"] \n\n*\n",
		},
		{
			"header-only game at the end of the input",
			"[Event \"x\"]",
			[]Edit{{Name: "Chess960", Value: "518"}},
			"[Event \"x\"]\n[Chess960 \"518\"]",
		},
		{
			"value escaped",
			"[Event \"x\"]\n\n*\n",
			[]Edit{{Name: "Annotator", Value: `a "b" \c`}},
			"[Event \"x\"]\n[Annotator \"a \\\"b\\\" \\\\c\"]\n\n*\n",
		},
		{
			"ten edits, more than one pass finds",
			"[Event \"x\"]\n[Site \"y\"]\n[Date \"d\"]\n[Round \"r\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n\n*\n",
			[]Edit{
				{Name: "Event", Value: "E"},
				{Name: "A1", Value: "1", After: "Site"},
				{Name: "A2", Value: "2", After: "Site"},
				{Name: "Date", Remove: true},
				{Name: "A3", Value: "3", After: "Missing"},
				{Name: "Round", Value: "R"},
				{Name: "A4", Value: "4", After: "Black"},
				{Name: "A5", Value: "5"},
				{Name: "White", Remove: true},
				{Name: "A6", Value: "6", After: "Event"},
			},
			"[Event \"E\"]\n[A6 \"6\"]\n[Site \"y\"]\n[A1 \"1\"]\n[A2 \"2\"]\n[Round \"R\"]\n[Black \"b\"]\n[A4 \"4\"]\n[Result \"*\"]\n[A3 \"3\"]\n[A5 \"5\"]\n\n*\n",
		},
		{
			"remove every copy, set the first",
			"[X \"1\"]\n[Y \"a\"]\n[X \"2\"]\n[Y \"b\"]\n\n*\n",
			[]Edit{{Name: "X", Remove: true}, {Name: "Y", Value: "c"}},
			"[Y \"c\"]\n[Y \"b\"]\n\n*\n",
		},
		{
			"names longer than 62 bytes",
			"[" + strings.Repeat("L", 65) + " \"a\"]\n[" + strings.Repeat("L", 70) + " \"b\"]\n\n*\n",
			[]Edit{{Name: strings.Repeat("L", 70), Value: "c"}, {Name: "X", Value: "x", After: strings.Repeat("L", 70)}},
			"[" + strings.Repeat("L", 65) + " \"a\"]\n[" + strings.Repeat("L", 70) + " \"c\"]\n[X \"x\"]\n\n*\n",
		},
		{
			"insert where a tag set before it begins",
			"[A \"1\"]\n[B \"2\"]\n\n*\n",
			[]Edit{{Name: "B", Value: "3"}, {Name: "C", Value: "c", After: "A"}},
			"[A \"1\"]\n[C \"c\"]\n[B \"3\"]\n\n*\n",
		},
		{
			"insert where a line removed before it begins",
			"[A \"1\"]\n[B \"2\"]\n\n*\n",
			[]Edit{{Name: "B", Remove: true}, {Name: "C", Value: "c", After: "A"}},
			"[A \"1\"]\n[C \"c\"]\n\n*\n",
		},
		{
			"value with a quote after plain bytes",
			"[Event \"x\"]\n\n*\n",
			[]Edit{{Name: "Event", Value: `plain "quoted"`}},
			"[Event \"plain \\\"quoted\\\"\"]\n\n*\n",
		},
		{
			// The '%' has no tag line to join, for a malformed pair
			// reads to its line's end: that tag stays, and the other
			// removal is made all the same.
			"one removal kept by a percent sign, another made",
			"[B \"0\"]\n[X \"\"][]\n[A \"1\"]%\n",
			[]Edit{{Name: "A", Remove: true}, {Name: "B", Remove: true}},
			"[X \"\"][]\n[A \"1\"]%\n",
		},
		{
			// No rule foresees that removing A takes the game's only
			// tags: read back, the moves would join the game before.
			"keep the tags when removing them all would leave no tag section",
			"[A \"1\"]\n[A \"2\"]\n\n1. e4 *\n",
			[]Edit{{Name: "A", Remove: true}},
			"[A \"1\"]\n[A \"2\"]\n\n1. e4 *\n",
		},
		{
			"no tag section: unchanged",
			"1. e4 *\n",
			[]Edit{{Name: "Chess960", Value: "518"}},
			"1. e4 *\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := firstGame(t, tt.input)
			got := string(g.AppendEdited([]byte("prefix|"), tt.edits...))
			if got != "prefix|"+tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, "prefix|"+tt.want)
			}
			// Applying the same edits again changes nothing.
			again := firstGame(t, tt.want)
			if got2 := string(again.AppendEdited(nil, tt.edits...)); got2 != tt.want && strings.Contains(tt.input, "[") {
				t.Errorf("not idempotent:\n%q\n%q", got2, tt.want)
			}
		})
	}
}

// TestReadsAsRemoved holds the read-back that guards AppendEdited's
// removals to what a reader makes of each output, written out here.
func TestReadsAsRemoved(t *testing.T) {
	removeA := []Edit{{Name: "A", Remove: true}}
	tests := []struct {
		name, input, out string
		edits            []Edit
		want             bool
	}{
		{"a tag line removed", "[A \"1\"]\n[B \"2\"]\n\n1. e4 *\n", "[B \"2\"]\n\n1. e4 *\n", removeA, true},
		{"a tag removed from a line of tags", "[B \"2\"] [A \"1\"] [C \"3\"]\n\n*\n", "[B \"2\"]  [C \"3\"]\n\n*\n", removeA, true},
		{"the blanks after a tag at the moves' line", "[B \"2\"]\n[A \"1\"] 1. e4 *\n", "[B \"2\"]\n 1. e4 *\n", removeA, true},
		{"nothing removed", "[A \"1\"]\n\n*\n", "[A \"1\"]\n\n*\n", removeA, true},
		{"a percent sign left to begin a line", "[B \"2\"]\n[A \"1\"]%\n[C \"3\"]\n\n*\n", "[B \"2\"]\n%\n[C \"3\"]\n\n*\n", removeA, false},
		{"the moves left without tags", "[A \"1\"]\n\n1. e4 *\n", "\n1. e4 *\n", removeA, false},
		{"a blank line left in the tags", "[B \"2\"]\n[A \"1\"][A \"1\"]\n[C \"3\"]\n\n*\n", "[B \"2\"]\n\n[C \"3\"]\n\n*\n", removeA, false},
		{"another tag lost", "[B \"2\"]\n[A \"1\"]\n[C \"3\"]\n\n*\n", "[B \"2\"]\n\n*\n", removeA, false},
		{"a move lost", "[B \"2\"]\n[A \"1\"]\n\n1. e4 e5 *\n", "[B \"2\"]\n\n1. e4 *\n", removeA, false},
		{"a tag named in no removal missing", "[B \"2\"]\n[A \"1\"]\n\n*\n", "[A \"1\"]\n\n*\n", removeA, false},
		{"a problem gone with its tag", "[B \"2\"]\n[A \"\x00\"]\n\n*\n", "[B \"2\"]\n\n*\n", removeA, true},
		{"a problem added", "[B \"2\"]\n[A \"1\"]\n\n1. e4 *\n", "[B \"2\"]\n\n1. e4\n", removeA, false},
		{"junk before the tags, first tag removed", ";\n[A \"1\"]\n[B \"2\"]\n\n*\n", ";\n[B \"2\"]\n\n*\n", removeA, true},
		{"junk before the tags, a malformed pair left first", ";\n[A \"1\"][\n[B \"2\"]\n\n*\n", ";\n[\n[B \"2\"]\n\n*\n", removeA, false},
		{"a game that begins with a tag of no letter, read first in its file", "[0 \"\"]\n[A \"1\"]\n\n", "[0 \"\"]\n\n", removeA, true},
		{"the first tag removed, a line of no tag left first", "[A \"1\"]\n[0 \"\"]\n[B \"2\"]\n\n*\n", "[0 \"\"]\n[B \"2\"]\n\n*\n", removeA, false},
		{"lone CRs", "[A \"1\"]\r[B \"2\"]\r\r*\r", "[B \"2\"]\r\r*\r", removeA, true},
		{"lone CRs, a percent sign left to begin a line", "[B \"2\"]\r[A \"1\"]%\r[C \"3\"]\r\r*\r", "[B \"2\"]\r%\r[C \"3\"]\r\r*\r", removeA, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := firstGame(t, tt.input)
			if got := g.readsAsRemoved([]byte(tt.out), tt.edits); got != tt.want {
				t.Errorf("readsAsRemoved(%q) of %q = %v, want %v", tt.out, tt.input, got, tt.want)
			}
		})
	}
}

// TestAppendEditedLargeGame: a game over maxReadBack bytes is not read
// back, so a removal that needs it keeps the tags; a plain one is made.
func TestAppendEditedLargeGame(t *testing.T) {
	moves := "1. e4 {" + strings.Repeat("x", maxReadBack) + "} *\n"
	remove := []Edit{{Name: "A", Remove: true}, {Name: "B", Remove: true}}
	tests := []struct{ name, tags, want string }{
		{"two tags removed from one line", "[E \"1\"]\n[A \"2\"] [B \"3\"]\n\n", "[E \"1\"]\n[A \"2\"] [B \"3\"]\n\n"},
		{"two tag lines removed", "[E \"1\"]\n[A \"2\"]\n[B \"3\"]\n\n", "[E \"1\"]\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := firstGame(t, tt.tags+moves)
			if got := string(g.AppendEdited(nil, remove...)); got != tt.want+moves {
				t.Errorf("tags written %q, want %q", got[:min(len(got), len(tt.want)+8)], tt.want)
			}
		})
	}
}

// TestPlainRemoval holds the removals AppendEdited makes without reading
// the game back to the shape its doc gives them.
func TestPlainRemoval(t *testing.T) {
	tests := []struct {
		name, input string
		tag         int // the tag whose line is removed
		want        bool
	}{
		{"between tag lines", "[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n\n*\n", 1, true},
		{"the last tag line, a blank line after", "[A \"1\"]\n[B \"2\"]\n\n*\n", 1, true},
		{"the last tag line, the game's end after", "[A \"1\"]\n[B \"2\"]\n", 1, true},
		{"CRLF", "[A \"1\"]\r\n[B \"2\"]\r\n\r\n*\r\n", 1, true},
		{"lone CRs", "[A \"1\"]\r[B \"2\"]\r\r*\r", 1, true},
		{"the first tag", "[A \"1\"]\n[B \"2\"]\n\n*\n", 0, false},
		{"the moves after", "[A \"1\"]\n[B \"2\"]\n1. e4 *\n", 1, false},
		{"an escape line before", "[A \"1\"]\n%x\n[B \"2\"]\n\n*\n", 1, false},
		{"an escape line after", "[A \"1\"]\n[B \"2\"]\n%x\n[C \"3\"]\n\n*\n", 1, false},
		{"a tag of another name after", "[A \"1\"]\n[B \"2\"]\n[0 \"3\"]\n\n*\n", 1, false},
		{"blanks before the tag", "[A \"1\"]\n [B \"2\"]\n[C \"3\"]\n\n*\n", 1, false},
		{"a control byte in the tag", "[A \"1\"]\n[B \"\x01\"]\n[C \"3\"]\n\n*\n", 1, false},
		{"a lone CR after the tag", "[A \"1\"]\n[B \"2\"]\r x\n[C \"3\"]\n\n*\n", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := firstGame(t, tt.input)
			tag := g.Tags[tt.tag]
			start, end := g.lineSpan(tag.Start, tag.End)
			if got := g.plainRemoval(start, end); got != tt.want {
				t.Errorf("plainRemoval of %q's %s (%d:%d) = %v, want %v", tt.input, tag.Name, start, end, got, tt.want)
			}
		})
	}
}

func TestTagLookup(t *testing.T) {
	g := firstGame(t, "[Event \"x\"]\n[FEN \"a\"]\n[FEN \"b\"]\n\n*\n")
	if v, ok := g.Tag("FEN"); !ok || string(v) != "a" {
		t.Errorf("Tag(FEN) = %q %v, want the first", v, ok)
	}
	if _, ok := g.Tag("Round"); ok {
		t.Error("found a tag that is not there")
	}
}

func firstGame(t *testing.T, input string) *Game {
	t.Helper()
	r := NewReader(strings.NewReader(input))
	r.Name = "t.pgn"
	g, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestTerminationFoundOnce checks that the marker the reader finds and
// keeps for each game is the one the function Termination finds in its
// movetext, and its line the one counted from the game's start, whatever
// the line ends, and for a Game made by hand, which no reader looked at.
func TestTerminationFoundOnce(t *testing.T) {
	lf := "[Event \"a\"]\n\n1. e4 e5 1-0\n\n" +
		"[Event \"b\"]\n\n1. d4 {a comment} *\n% an escape line\n\n" +
		"[Event \"c\"]\n\n1. c4 1/2-1/2 {a comment after the marker}\n\n" +
		"[Event \"d\"]\n\n1. f4 ; no marker\n\n" +
		"[Event \"e\"]\n[Result \"0-1\"]\n\n" +
		"1. g4\n0-1\n"
	for _, input := range []string{lf, strings.ReplaceAll(lf, "\n", "\r\n"), strings.ReplaceAll(lf, "\n", "\r")} {
		for _, maxSize := range []int{0, 30} {
			games := readAll(t, input, iotest.HalfReader, maxSize)
			if len(games) < 5 {
				t.Fatalf("%d games", len(games))
			}
			for _, g := range games {
				want, off := Termination(g.Movetext())
				wantLine := 0
				if want != nil {
					wantLine = g.Line + strings.Count(string(g.Raw[:g.movetext+off]), string(g.newline()))
				}
				marker, line := g.Termination()
				if string(marker) != string(want) || line != wantLine || string(g.TerminationMarker()) != string(want) {
					t.Errorf("%q: marker %q at line %d, and %q; want %q at line %d", g.Raw, marker, line, g.TerminationMarker(), want, wantLine)
				}
			}
		}
	}
	g := &Game{Raw: []byte("1. e4 0-1 {x}\n"), Line: 3}
	if marker, line := g.Termination(); string(marker) != "0-1" || line != 3 || string(g.TerminationMarker()) != "0-1" {
		t.Errorf("a Game made by hand: %q at line %d", marker, line)
	}
}

// FuzzAppendEdited applies edits chosen by the fuzzer to any game without
// problems, holds the short path for insertions to the general one, and
// reads the result back: each tag set has its value in its
// first occurrence, each tag removed is gone, the other tags are as they
// were, in their order, and the movetext is unchanged. Its corpus is in
// testdata/fuzz/FuzzAppendEdited.
func FuzzAppendEdited(f *testing.F) {
	f.Add("[Event \"x\"]\n[FEN \"f\"]\n[Site \"y\"]\n\n1. e4 *\n", []byte{0x10, 0x21, 0x32})
	f.Add("[A \"1\"]\n[B \"2\"]\n\n*\n", []byte{0x13, 0x24})
	f.Add("[A \"1\"]\n[B \"2\"]\n\n*\n", []byte{0x61, 0xc2}) // set B, then insert C where B begins
	f.Add("[Event \"x\"][Site \"y\"] 1. e4 *\n", []byte{0x40, 0x51})
	f.Add("[A \"1\"]\n[B \"2\"]%\n[C \"3\"]\n", []byte{0x01, 0x12})
	f.Add("[A \"1\"]\n% x\n[B \"2\"] %\n[C \"3\"]\n", []byte{0x01})
	f.Add("[B \"1\"]\r\n[A \"2\"]\r\n[B \"3\"]\r\n\r\n*\r\n", []byte{0x03, 0x14, 0x25})
	names := []string{"A", "B", "C", "FEN", "Event", "Site"}
	values := []string{"1", "", `a "q" \b`, "518"}
	f.Fuzz(func(t *testing.T, input string, choice []byte) {
		g, err := NewReader(strings.NewReader(input)).Next()
		if err != nil || len(g.Tags) == 0 || g.Partial || g.TagsIncomplete {
			return
		}
		// Each byte of choice is an edit: its low bits name the tag,
		// its high bits say remove, or which value, and After.
		var edits []Edit
		edited := map[string]bool{}
		for _, c := range choice {
			name := names[int(c&0x0f)%len(names)]
			if edited[name] || len(edits) == 12 {
				continue
			}
			edited[name] = true
			e := Edit{Name: name}
			switch v := int(c >> 4); {
			case v < 2:
				e.Remove = true
			default:
				e.Value = values[v%len(values)]
				e.After = names[v%len(names)]
			}
			edits = append(edits, e)
		}
		out := g.AppendEdited(nil, edits...)
		// The short path for insertions writes what the general one does.
		if fast, ok, general := bothPaths(g, edits); ok && !bytes.Equal(fast, general) {
			t.Fatalf("%q with %+v: insertions wrote %q, the general path %q", input, edits, fast, general)
		}
		removedAll := true
		for _, tag := range g.Tags {
			removedAll = removedAll && slices.ContainsFunc(edits, func(e Edit) bool { return e.Remove && e.Name == string(tag.Name) })
		}
		if removedAll {
			return // no tag section is left to read back
		}
		// The game after it still begins where it did: no edit leaves
		// this game's end open, nor takes the next game's tags in.
		const next = "[Next \"game\"]\n\n*\n"
		if gamesIn(string(g.Raw)+next) == 2 && gamesIn(string(out)+next) != 2 {
			t.Fatalf("%q with %+v: %q and a game after it read as %d games", input, edits, out, gamesIn(string(out)+next))
		}
		h, err := NewReader(bytes.NewReader(out)).Next()
		if err != nil {
			t.Fatalf("%q: the edited game %q does not read: %v", input, out, err)
		}
		// The blanks after a removed tag that began a line stay, and
		// begin the movetext when the moves followed on that line.
		if got, want := strings.TrimLeft(string(h.Movetext()), lineBlanks), strings.TrimLeft(string(g.Movetext()), lineBlanks); got != want {
			t.Fatalf("%q with %+v: movetext %q, want %q", input, edits, got, want)
		}
		for _, e := range edits {
			v, ok := h.Tag(e.Name)
			switch {
			case e.Remove && ok && !percentFollows(g, e.Name) && !loneBreakAhead(g) && !firstLeftNoLetter(g, edits):
				// A tag with a '%' after it may be kept, one before a lone
				// line break, and the first tags before one that does not
				// begin with a letter or after more than blanks, see
				// AppendEdited. A tag that only the read-back keeps fails
				// here on purpose: the game is safe, but a rule is
				// missing that would let the other removals be made.
				t.Fatalf("%q with %+v: %s not removed from %q", input, edits, e.Name, out)
			case !e.Remove && (!ok || string(v) != e.Value):
				t.Fatalf("%q with %+v: %s is %q (%v), want %q, in %q", input, edits, e.Name, v, ok, e.Value, out)
			}
		}
		// Where a removal was made, reading the output back agrees: the
		// removals made without it (plainRemoval) too.
		if len(h.Tags) < len(g.Tags) && !g.readsAsRemoved(out, edits) {
			t.Fatalf("%q with %+v: %q reads otherwise than the game less its removed tags", input, edits, out)
		}
		var kept, left []string
		for _, tag := range g.Tags {
			if !edited[string(tag.Name)] {
				kept = append(kept, string(tag.Name)+"="+string(tag.Value))
			}
		}
		for _, tag := range h.Tags {
			if !edited[string(tag.Name)] {
				left = append(left, string(tag.Name)+"="+string(tag.Value))
			}
		}
		if !slices.Equal(kept, left) {
			t.Fatalf("%q with %+v: other tags %q, want %q", input, edits, left, kept)
		}
	})
}

// TestAppendInsertions checks the short path of AppendEdited for inserting
// one or two new tags: where it is taken, what it writes (spelled out
// here, and the same as the general path writes), and that it leaves to
// the general path every edit it does not cover.
func TestAppendInsertions(t *testing.T) {
	const lf = "[Event \"e\"]\n[FEN \"f\"]\n[Site \"s\"]\n\n1. e4 *\n"
	numbers := []Edit{{Name: "SP", Value: "5", After: "FEN"}, {Name: "F9", Value: "7", After: "FEN"}}
	for _, c := range []struct {
		name, input string
		edits       []Edit
		want        string // "" when the general path must take the edits
	}{
		{"after the FEN", lf, numbers,
			"[Event \"e\"]\n[FEN \"f\"]\n[SP \"5\"]\n[F9 \"7\"]\n[Site \"s\"]\n\n1. e4 *\n"},
		{"one edit", lf, numbers[:1],
			"[Event \"e\"]\n[FEN \"f\"]\n[SP \"5\"]\n[Site \"s\"]\n\n1. e4 *\n"},
		{"no After: after the last tag", lf, []Edit{{Name: "SP", Value: "5"}},
			"[Event \"e\"]\n[FEN \"f\"]\n[Site \"s\"]\n[SP \"5\"]\n\n1. e4 *\n"},
		{"After absent: after the last tag", lf, []Edit{{Name: "SP", Value: "5", After: "Date"}},
			"[Event \"e\"]\n[FEN \"f\"]\n[Site \"s\"]\n[SP \"5\"]\n\n1. e4 *\n"},
		{"the second placed first", lf, []Edit{{Name: "SP", Value: "5", After: "Site"}, {Name: "F9", Value: "7", After: "Event"}},
			"[Event \"e\"]\n[F9 \"7\"]\n[FEN \"f\"]\n[Site \"s\"]\n[SP \"5\"]\n\n1. e4 *\n"},
		{"escaped value", lf, []Edit{{Name: "SP", Value: `a "b" \`, After: "FEN"}},
			"[Event \"e\"]\n[FEN \"f\"]\n[SP \"a \\\"b\\\" \\\\\"]\n[Site \"s\"]\n\n1. e4 *\n"},
		{"CRLF", strings.ReplaceAll(lf, "\n", "\r\n"), numbers,
			"[Event \"e\"]\r\n[FEN \"f\"]\r\n[SP \"5\"]\r\n[F9 \"7\"]\r\n[Site \"s\"]\r\n\r\n1. e4 *\r\n"},
		{"lone CRs", strings.ReplaceAll(lf, "\n", "\r"), numbers,
			"[Event \"e\"]\r[FEN \"f\"]\r[SP \"5\"]\r[F9 \"7\"]\r[Site \"s\"]\r\r1. e4 *\r"},
		{"tags only, last line ended", "[Event \"e\"]\n[FEN \"f\"]\n", numbers,
			"[Event \"e\"]\n[FEN \"f\"]\n[SP \"5\"]\n[F9 \"7\"]\n"},
		{"the tag is there: set in place", lf + "", []Edit{{Name: "Site", Value: "x", After: "FEN"}}, ""},
		{"a removal", lf, []Edit{{Name: "Site", Remove: true}}, ""},
		{"three edits", lf, append(slices.Clone(numbers), Edit{Name: "X", Value: "1"}), ""},
		{"tags only, last line not ended", "[Event \"e\"]\n[FEN \"f\"]", numbers, ""},
		{"more tags on the line", "[Event \"e\"] [FEN \"f\"] [Site \"s\"]\n\n*\n", numbers, ""},
		{"moves on the tag's line", "[Event \"e\"]\n[FEN \"f\"] 1. e4 *\n", numbers, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := NewReader(strings.NewReader(c.input)).Next()
			if err != nil {
				t.Fatal(err)
			}
			fast, ok, general := bothPaths(g, c.edits)
			switch {
			case c.want == "" && ok:
				t.Fatalf("took the short path: %q", fast)
			case c.want == "":
				return
			case !ok:
				t.Fatalf("left to the general path, which wrote %q", general)
			case string(fast) != c.want:
				t.Fatalf("wrote %q, want %q", fast, c.want)
			case string(general) != c.want:
				t.Fatalf("the general path wrote %q, want %q", general, c.want)
			case string(g.AppendEdited([]byte("x"), c.edits...)) != "x"+c.want:
				t.Fatal("AppendEdited does not append what the short path writes")
			}
		})
	}
}

// bothPaths returns what AppendEdited's short path for insertions writes
// of edits, ok false when it declines them, and what its general path
// writes of them.
func bothPaths(g *Game, edits []Edit) (short []byte, ok bool, general []byte) {
	if len(edits) == 0 || len(g.Tags) == 0 {
		return nil, false, g.AppendEdited(nil)
	}
	var named, after [8]int
	g.findEdited(edits[:min(len(edits), 8)], &named, &after)
	short, ok = g.appendInsertions(nil, edits, &named, &after)
	return short, ok, g.appendEdited(nil, edits, &named, &after)
}

// loneBreakAhead reports whether a line break not of the game's kind
// stands in it: a lone CR in a game of line feeds, a line feed in a game
// of lone CRs; or whether a lone CR is its only line break, which a
// removal of its line would take, and a file beginning with the game would
// no longer read as one of lone CRs.
func loneBreakAhead(g *Game) bool {
	if g.LineEnding() == "\r" {
		return bytes.IndexByte(g.Raw, '\n') >= 0 || bytes.Count(g.Raw, []byte("\r")) == 1
	}
	return bytes.Contains(bytes.ReplaceAll(g.Raw, []byte("\r\n"), nil), []byte("\r"))
}

// firstLeftNoLetter reports whether the first tag of g that edits do not
// remove is written other than '[' and a letter, or has more than blanks
// between it and the tags removed before it.
func firstLeftNoLetter(g *Game, edits []Edit) bool {
	for i, tag := range g.Tags {
		if !slices.ContainsFunc(edits, func(e Edit) bool { return e.Remove && e.Name == string(tag.Name) }) {
			c := g.Raw[tag.Start+1]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
				return true
			}
			for k := 0; k < i; k++ {
				if len(bytes.Trim(g.Raw[g.Tags[k].End:g.Tags[k+1].Start], " \t\r\n\f\v\x1a")) > 0 {
					return true
				}
			}
			return false
		}
	}
	return false
}

// gamesIn returns the number of games a Reader finds in text.
func gamesIn(text string) int {
	r := NewReader(strings.NewReader(text))
	n := 0
	for {
		if _, err := r.Next(); err != nil {
			return n
		}
		n++
	}
}

// lineBlanks are the blanks a tag line may hold, which a reader skips.
const lineBlanks = " \t\f\v\x1a"

// percentFollows reports whether a '%' follows a tag named name on its
// line, after the blanks a tag line may hold.
func percentFollows(g *Game, name string) bool {
	for _, tag := range g.Tags {
		if string(tag.Name) == name {
			rest := bytes.TrimLeft(g.Raw[tag.End:], lineBlanks)
			if len(rest) > 0 && rest[0] == '%' {
				return true
			}
		}
	}
	return false
}

// TestTagAppendLeavesRaw appends to every tag's name and value, as a
// program building a string from them might, and wants the games' bytes,
// and the other tags, unchanged: Next's games and ScanPart's alike.
func TestTagAppendLeavesRaw(t *testing.T) {
	const input = "[Event \"a\"]\n[Site \"b\\\"c\"]\n[Round \"1\"]\n[Note \"d\\\\e\"]\n\n1. e4 *\n\n[White \"x\"] [Black \"y\"]\n\n*\n"
	check := func(t *testing.T, games []Game) {
		var all []byte
		var before []string
		for i := range games {
			for _, tag := range games[i].Tags {
				before = append(before, string(tag.Name)+"="+string(tag.Value))
			}
		}
		k := 0
		for i := range games {
			g := &games[i]
			for j := range g.Tags {
				tag := &g.Tags[j]
				_ = append(tag.Name, "XX"...)
				_ = append(tag.Value, "YY"...)
			}
			all = append(all, g.Raw...)
		}
		if string(all) != input {
			t.Fatalf("games' bytes after appending to their tags:\n%q\nwant\n%q", all, input)
		}
		for i := range games {
			for _, tag := range games[i].Tags {
				if got := string(tag.Name) + "=" + string(tag.Value); got != before[k] {
					t.Fatalf("tag %d is %q after appending to the others, was %q", k, got, before[k])
				}
				k++
			}
		}
	}
	t.Run("Next", func(t *testing.T) {
		var games []Game
		for _, g := range readAll(t, input, func(r io.Reader) io.Reader { return r }, 0) {
			games = append(games, *g)
		}
		check(t, games)
	})
	t.Run("ScanPart", func(t *testing.T) {
		var b Batch
		if err := NewReader(strings.NewReader(input)).ReadPart(&b, 1<<20); err != nil {
			t.Fatal(err)
		}
		if _, complete := b.ScanPart(); !complete {
			t.Fatal("the part was not confirmed")
		}
		check(t, b.Games)
	})
}
