package where

import (
	"errors"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

func readGame(t testing.TB, input string) *pgn.Game {
	t.Helper()
	g, err := pgn.NewReader(strings.NewReader(input)).Next()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The fixtures: a rated blitz Chess960 game, an unrated DFRC game with a
// partial date and no clock, and a bot's bullet game of standard chess.
const (
	blitz960 = `[Event "Rated Chess960 game"]
[Site "https://lichess.org/abcd"]
[Date "2024.05.17"]
[Round "3"]
[White "Carlsen, Magnus"]
[Black "Nakamura, \"Hikaru\""]
[Result "1-0"]
[WhiteElo "2101"]
[BlackElo "1900"]
[TimeControl "180+2"]
[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. e4 e5 2. Nf3 Nc6 1-0
`
	dfrcUnrated = `[Event "Casual DFRC"]
[Date "2023.11.??"]
[White "x"]
[Black "y"]
[Result "1/2-1/2"]
[WhiteElo "?"]
[BlackElo "1500"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]

1. e4 1/2-1/2
`
	botBullet = `[Event "Bot game"]
[Date "????.??.??"]
[UTCDate "2025.01.02"]
[White "bot1"]
[Black "human"]
[Result "0-1"]
[WhiteElo "2500"]
[BlackElo "2300"]
[WhiteTitle "BOT"]
[TimeControl "60+0"]
[PlyCount "60"]

1. e4 e5 0-1
`
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name string
		expr string
		want [3]bool // blitz960, dfrcUnrated, botBullet
	}{
		// Operators on numbers.
		{"= number", "elo = 2000", [3]bool{true, false, false}},
		{"!= number", "elo != 2000", [3]bool{false, false, true}},
		{"< number", "elo < 2400", [3]bool{true, false, false}},
		{"<= number", "elo <= 2400", [3]bool{true, false, true}},
		{"> number", "elo > 2000", [3]bool{false, false, true}},
		{">= number", "elo >= 2000", [3]bool{true, false, true}},
		{"== is =", "elo == 2000", [3]bool{true, false, false}},
		{"decimal", "elo > 1999.5", [3]bool{true, false, true}},
		{"negative", "elo_diff > -1", [3]bool{true, false, true}},
		{"negative without blanks", "elo_diff>-1", [3]bool{true, false, true}},
		{"tag read as number", "WhiteElo >= 2000", [3]bool{true, false, true}},
		{"tag read as number, unreadable", "WhiteElo < 5000", [3]bool{true, false, true}},
		{"tag read as number, missing", "PlyCount >= 0", [3]bool{false, false, true}},
		{"Round as number", "Round = 3.0", [3]bool{true, false, false}},
		// Derived fields.
		{"sp", "sp = 0", [3]bool{true, false, false}},
		{"sp standard", "sp = 518", [3]bool{false, false, true}},
		{"fritz9", "fritz9 = 81", [3]bool{true, false, false}},
		{"white_sp", "white_sp = 518", [3]bool{false, true, true}},
		{"black_sp", "black_sp = 0", [3]bool{true, true, false}},
		{"kind", "kind = dfrc", [3]bool{false, true, false}},
		{"kind quoted", `kind = "chess960"`, [3]bool{true, false, true}},
		{"kind !=", "kind != dfrc", [3]bool{true, false, true}},
		{"plies counted", "plies = 4", [3]bool{true, false, false}},
		{"plies from PlyCount", "plies >= 60", [3]bool{false, false, true}},
		{"plies twice", "plies >= 1 and plies <= 4", [3]bool{true, true, false}},
		{"min_elo", "min_elo >= 1900", [3]bool{true, false, true}},
		{"elo_band", "elo_band = 2400", [3]bool{false, false, true}},
		{"year", "year = 2023", [3]bool{false, true, false}},
		{"year from UTCDate", "year = 2025", [3]bool{false, false, true}},
		{"base", "base = 60", [3]bool{false, false, true}},
		{"increment", "increment > 0", [3]bool{true, false, false}},
		{"speed", "speed = blitz", [3]bool{true, false, false}},
		{"speed quoted", `speed = "bullet"`, [3]bool{false, false, true}},
		{"speed != on a missing clock", "speed != blitz", [3]bool{false, false, true}},
		{"result", `result = "1/2-1/2"`, [3]bool{false, true, false}},
		{"bot alone", "bot", [3]bool{false, false, true}},
		{"not bot", "not bot", [3]bool{true, true, false}},
		{"bot = true", "bot = true", [3]bool{false, false, true}},
		{"bot != true", "bot != true", [3]bool{true, true, false}},
		{"bot = false quoted", `bot = "false"`, [3]bool{true, true, false}},
		// Text.
		{"text =", `White = "Carlsen, Magnus"`, [3]bool{true, false, false}},
		{"text = is case-sensitive", `White = "carlsen, magnus"`, [3]bool{false, false, false}},
		{"text with escapes", `Black = "Nakamura, \"Hikaru\""`, [3]bool{true, false, false}},
		{"text <", `White < "c"`, [3]bool{true, false, true}},
		{"text >=", `White >= "human"`, [3]bool{false, true, false}},
		{"text != missing", `WhiteTitle != "GM"`, [3]bool{false, false, true}},
		{"empty string", `Round = ""`, [3]bool{false, false, false}},
		// Regular expressions.
		{"~", `Event ~ "Chess960|DFRC"`, [3]bool{true, true, false}},
		{"~ anchored", `Event ~ "^Bot"`, [3]bool{false, false, true}},
		{"~ ignoring case", `White ~ "(?i)^CARLSEN"`, [3]bool{true, false, false}},
		{"!~", `Event !~ "DFRC"`, [3]bool{true, false, true}},
		{"!~ on missing", `WhiteTitle !~ "BOT"`, [3]bool{false, false, false}},
		{"~ on a derived text", `speed ~ "^b"`, [3]bool{true, false, true}},
		{"~ on a date", `date ~ "^2024"`, [3]bool{true, false, false}},
		{"~ on a date tag's text", `Date ~ "\\?"`, [3]bool{false, true, true}},
		{"~ on an unreadable date tag", `Date !~ "x"`, [3]bool{true, true, true}},
		// Dates.
		{"date >= full", `date >= "2024.05.01"`, [3]bool{true, false, true}},
		{"date >= full, partial game date", `date >= "2023.11.01"`, [3]bool{true, false, true}},
		{"date < full, partial game date", `date < "2023.11.30"`, [3]bool{false, false, false}},
		{"date > decided by the month", `date > "2023.10.31"`, [3]bool{true, true, true}},
		{"date = month", `date = "2023.11"`, [3]bool{false, true, false}},
		{"date >= month", `date >= "2024.05"`, [3]bool{true, false, true}},
		{"date <= month takes the month in", `date <= "2024.05"`, [3]bool{true, true, false}},
		{"date = year", `date = "2025"`, [3]bool{false, false, true}},
		{"date != on unknown day", `date != "2023.11.05"`, [3]bool{true, false, true}},
		{"date with dashes", `date >= "2024-05-17"`, [3]bool{true, false, true}},
		{"Date tag", `Date >= "2023"`, [3]bool{true, true, false}},
		{"UTCDate tag", `UTCDate = "2025.01.02"`, [3]bool{false, false, true}},
		// exists.
		{"exists tag", "exists(TimeControl)", [3]bool{true, false, true}},
		{"exists derived", "exists(elo)", [3]bool{true, false, true}},
		{"exists start", "exists(sp)", [3]bool{true, false, true}},
		{"exists with blanks", "exists ( UTCDate )", [3]bool{false, false, true}},
		{"not exists", "not exists(WhiteTitle)", [3]bool{true, true, false}},
		// Missing values and not.
		{"missing is false", "speed = blitz", [3]bool{true, false, false}},
		{"not of missing is true", "not (elo = 2000)", [3]bool{false, true, true}},
		{"!= of missing is false", "elo != 1", [3]bool{true, false, true}},
		// Precedence and grouping.
		{"and before or", "kind = dfrc or speed = blitz and elo > 3000", [3]bool{false, true, false}},
		{"parentheses", "(kind = dfrc or speed = blitz) and elo > 3000", [3]bool{false, false, false}},
		{"not before and", "not kind = dfrc and not bot", [3]bool{true, false, false}},
		{"not of a group", "not (kind = dfrc or bot)", [3]bool{true, false, false}},
		{"not not", "not not bot", [3]bool{false, false, true}},
		{"or chain", "year = 2023 or year = 2025 or sp = 0", [3]bool{true, true, true}},
		{"and chain", "exists(Date) and exists(Result) and exists(FEN)", [3]bool{true, true, false}},
		{"nested", "((bot))", [3]bool{false, false, true}},
		{"newlines and tabs", "bot\n\tor\tkind = dfrc", [3]bool{false, true, true}},
	}
	games := []*pgn.Game{readGame(t, blitz960), readGame(t, dfrcUnrated), readGame(t, botBullet)}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.expr)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.expr, err)
			}
			for i, g := range games {
				c := startpos.Classify(g)
				if got := e.Match(g, &c); got != tt.want[i] {
					t.Errorf("game %d: Match = %v, want %v", i+1, got, tt.want[i])
				}
				if got := e.Match(g, nil); got != tt.want[i] {
					t.Errorf("game %d with a nil class: Match = %v, want %v", i+1, got, tt.want[i])
				}
			}
		})
	}
}

func TestNilExpr(t *testing.T) {
	var e *Expr
	g := readGame(t, blitz960)
	if !e.Match(g, nil) || e.String() != "" || e.Names() != nil {
		t.Errorf("nil Expr: Match %v, String %q, Names %v", e.Match(g, nil), e.String(), e.Names())
	}
}

func TestSyntaxError(t *testing.T) {
	tests := []struct {
		name  string
		expr  string
		col   int
		msg   string // a part of the message
		caret string // the second line of Caret
		err   error  // what the error wraps, if anything
	}{
		{"empty", "", 1, "empty expression", "^", nil},
		{"blank", "   ", 4, "empty expression", "   ^", nil},
		{"unknown field", "elo >= 2000 and speeed = blitz", 17, `unknown field "speeed"`, "                ^", fields.ErrUnknownField},
		{"no operator", "WhiteElo 2000", 10, "expected an operator", "         ^", nil},
		{"no value", "WhiteElo >=", 12, "expected a value after WhiteElo >=, found the end", "           ^", nil},
		{"operator for a value", "WhiteElo >= >", 13, `expected a value after WhiteElo >=, found ">"`, "            ^", nil},
		{"lone !", "! bot", 1, "unexpected '!'", "^", nil},
		{"stray byte", "elo >= 2000 & bot", 13, `unexpected "&"`, "            ^", nil},
		{"unclosed paren", "(bot or kind = dfrc", 20, "expected ')' to close the '(' of column 1, found the end", "                   ^", nil},
		{"extra paren", "bot)", 4, "')' without a '('", "   ^", nil},
		{"empty parens", "()", 2, "empty parentheses", " ^", nil},
		{"trailing words", "bot kind = dfrc", 5, `expected and, or or the end, found "kind"`, "    ^", nil},
		{"no operator before a word", "WhiteElo kind = dfrc", 10, `expected an operator (=, !=, <, <=, >, >=, ~, !~) after WhiteElo, found "kind"`, "         ^", nil},
		{"two comparisons without and", "kind = dfrc bot", 13, `expected and, or or the end, found "bot"`, "            ^", nil},
		{"and first", "and bot", 1, `expected a comparison before "and"`, "^", nil},
		{"dangling and", "bot and", 8, "expression ends too soon", "       ^", nil},
		{"dangling not", "not", 4, "expression ends too soon", "   ^", nil},
		{"unclosed string", `White = "Carlsen`, 9, "string not closed", "        ^", nil},
		{"bad escape", `White ~ "\d+"`, 10, "unknown escape", "         ^", nil},
		{"bad regexp", `White ~ "(a"`, 9, "bad regular expression", "        ^", nil},
		{"regexp on a number", `elo ~ "^2"`, 5, "elo is a number: ~ needs a text or date field", "    ^", nil},
		{"regexp unquoted", `Event ~ 12`, 9, "a regular expression is written in double quotes", "        ^", nil},
		{"string for a number", `elo >= "2000"`, 8, "elo is a number", "       ^", nil},
		{"bare word for a tag", `Event = Titled`, 9, `a text value is written in double quotes: "Titled"`, "        ^", nil},
		{"unknown speed", "speed = blits", 9, `speed is one of ultrabullet, bullet, blitz, rapid, classical, correspondence, not "blits"`, "        ^", nil},
		{"number for a speed", "speed = 3", 9, `speed is one of`, "        ^", nil},
		{"order on an enumeration", "speed < rapid", 7, "speed has no order", "      ^", nil},
		{"bad bool", "bot = yes", 7, `bot is true or false, not "yes"`, "      ^", nil},
		{"order on a bool", "bot < true", 5, "only = and != compare it", "    ^", nil},
		{"number for a date", "date >= 2024", 9, "date is a date", "        ^", nil},
		{"bad date", `Date >= "May 2024"`, 9, "Date is a date", "        ^", nil},
		{"exists of nothing", "exists()", 8, "expected a field name in exists( ), found \")\"", "       ^", nil},
		{"exists unclosed", "exists(Date", 12, "expected ')' after exists(Date", "           ^", nil},
		{"exists of an unknown field", "exists(foo)", 8, `unknown field "foo"`, "       ^", fields.ErrUnknownField},
		{"number glued to a word", "elo >= 2000x", 12, `unexpected "x" in a number`, "           ^", nil},
		{"column counts characters", `White = "é" and 1`, 17, `expected a field name, '(' or not, found "1"`, "                ^", nil},
		{"tab before the mistake", "bot\tand\t?", 9, `unexpected "?"`, "   \t   \t^", nil},
		{"upper-case AND", "bot AND kind = dfrc", 5, `found "AND" (write and in lower case)`, "    ^", nil},
		{"upper-case NOT", "NOT bot", 5, `after NOT, found "bot" (write not in lower case)`, "    ^", nil},
		{"nested too deeply", strings.Repeat("(", 500) + strings.Repeat("not ", 10) + "bot", 501, "nested too deeply", "", nil},
		{"invalid UTF-8", "bot and \xff", 9, "unexpected byte 0xff", "        ^", nil},
		{"a control character before the mistake", "White ~ \"\x1b\" and", 16, "expression ends too soon", strings.Repeat(" ", 18) + "^", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.expr)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) = %v, want a *SyntaxError", tt.expr, err)
			}
			if se.Col != tt.col || !strings.Contains(se.Msg, tt.msg) || se.Expr != tt.expr {
				t.Errorf("Parse(%q): column %d %q, want column %d %q", tt.expr, se.Col, se.Msg, tt.col, tt.msg)
			}
			if want := "column " + itoa(tt.col) + ": " + se.Msg; err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
			if tt.err != nil && !errors.Is(err, tt.err) {
				t.Errorf("error %v does not wrap %v", err, tt.err)
			}
			lines := strings.Split(se.Caret(), "\n")
			// Invalid bytes show as U+FFFD; a long expression is cut
			// (TestCaretCutsLongExpressions).
			// A control character shows escaped, as in every message.
			shown := strings.NewReplacer("\n", " ", "\x1b", `\x1b`).Replace(string([]rune(tt.expr)))
			if len(lines) != 2 || utf8.RuneCountInString(tt.expr) <= caretWidth && lines[0] != shown {
				t.Fatalf("Caret() = %q", se.Caret())
			}
			if tt.caret != "" && lines[1] != tt.caret {
				t.Errorf("Caret() second line %q, want %q", lines[1], tt.caret)
			}
		})
	}
}

// A long expression is shown cut to the part around the mistake, the
// caret under the character the column names.
func TestCaretCutsLongExpressions(t *testing.T) {
	many := strings.Repeat("bot and ", 30)
	for _, tt := range []struct {
		name       string
		expr       string
		col        int
		cutBefore  bool // the line starts with "..."
		cutAfter   bool // and ends with it
		underCaret string
	}{
		{"mistake in the middle", many + "? and " + many + "bot", len(many) + 1, true, true, "?"},
		{"mistake at the start", "? " + many + "bot", 1, false, true, "?"},
		{"mistake at the end", many + "?", len(many) + 1, true, false, "?"},
		{"the end is the mistake", many, len(many) + 1, true, false, ""},
		{"just short enough", strings.Repeat("bot and ", 8) + "bot or ?", caretWidth, false, false, "?"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.expr)
			var se *SyntaxError
			if !errors.As(err, &se) || se.Col != tt.col {
				t.Fatalf("Parse: %v, want a mistake at column %d", err, tt.col)
			}
			lines := strings.Split(se.Caret(), "\n")
			if len(lines) != 2 {
				t.Fatalf("Caret() = %q", se.Caret())
			}
			line, mark := lines[0], lines[1]
			if got := strings.HasPrefix(line, "..."); got != tt.cutBefore {
				t.Errorf("line %q: cut before %v, want %v", line, got, tt.cutBefore)
			}
			if got := strings.HasSuffix(line, "..."); got != tt.cutAfter {
				t.Errorf("line %q: cut after %v, want %v", line, got, tt.cutAfter)
			}
			if n := utf8.RuneCountInString(line); n > caretWidth+6 {
				t.Errorf("line of %d characters", n)
			}
			inner := strings.TrimSuffix(strings.TrimPrefix(line, "..."), "...")
			if !strings.Contains(tt.expr, inner) {
				t.Errorf("line %q is not a part of the expression", line)
			}
			at := len(mark) - 1
			if strings.TrimRight(mark, "^") != strings.Repeat(" ", at) {
				t.Fatalf("mark %q", mark)
			}
			under := ""
			if at < len(line) {
				under = line[at : at+1]
			}
			if under != tt.underCaret {
				t.Errorf("%q under the caret, want %q\n%s\n%s", under, tt.underCaret, line, mark)
			}
		})
	}
}

func itoa(n int) string { return formatInt(n) }

func TestRegexpErrorWrapped(t *testing.T) {
	_, err := Parse(`White ~ "(a"`)
	var re *syntax.Error
	if !errors.As(err, &re) || re.Code != syntax.ErrMissingParen {
		t.Errorf("Parse: %v does not wrap the regexp error", err)
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		name string
		expr string
		want string
	}{
		{"blanks", "  elo>=2000   and speed=blitz", "elo >= 2000 and speed = blitz"},
		{"== prints as =", "elo == 2000", "elo = 2000"},
		{"numbers as written", "elo > 1999.50", "elo > 1999.50"},
		{"strings quoted with escapes", `Black = "a \"b\" \\c"`, `Black = "a \"b\" \\c"`},
		{"bare words stay bare", `kind = dfrc and speed = "blitz"`, `kind = dfrc and speed = "blitz"`},
		{"bool alone", "not bot", "not bot"},
		{"needless parentheses go", "(a_b) or ((bot))", ""},
		{"needless parentheses go", "(bot) or ((bot and kind = dfrc))", "bot or bot and kind = dfrc"},
		{"needed parentheses stay", "(bot or kind = dfrc) and elo > 1", "(bot or kind = dfrc) and elo > 1"},
		{"right grouping kept", "bot or (kind = dfrc or elo > 1)", "bot or (kind = dfrc or elo > 1)"},
		{"left grouping dropped", "(bot or kind = dfrc) or elo > 1", "bot or kind = dfrc or elo > 1"},
		{"not of a group", "not (bot and elo > 1)", "not (bot and elo > 1)"},
		{"exists", "exists ( Date )", "exists(Date)"},
		{"regexp", `Event ~ "^\\d+"`, `Event ~ "^\\d+"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.expr)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("Parse(%q) succeeded", tt.expr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := e.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			again, err := Parse(e.String())
			if err != nil || again.String() != e.String() {
				t.Errorf("String() does not read back: %v, %q", err, again)
			}
		})
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		name string
		expr string
		want string
		tags string
	}{
		{"one", "bot", "bot", "WhiteTitle BlackTitle"},
		{"in order, once", "WhiteElo > 1 and (speed = blitz or WhiteElo < 3) and not exists(Date)", "WhiteElo speed Date", "WhiteElo TimeControl Date"},
		{"tags and derived", `plies >= 20 and Event ~ "x"`, "plies Event", "PlyCount Event"},
		{"derived sharing tags", `elo > 1 and min_elo > 1 and year = 2024 and date < "2025"`, "elo min_elo year date", "WhiteElo BlackElo Date UTCDate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(e.Names(), " "); got != tt.want {
				t.Errorf("Names() = %q, want %q", got, tt.want)
			}
			if got := strings.Join(e.Tags(), " "); got != tt.tags {
				t.Errorf("Tags() = %q, want %q", got, tt.tags)
			}
		})
	}
}

func TestShortcuts(t *testing.T) {
	speeds, err := Speeds("blitz, rapid")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		text func() (string, error)
		want string
		// matches on blitz960, dfrcUnrated, botBullet
		match [3]bool
	}{
		{"MinElo", func() (string, error) { return MinElo(1900), nil }, "min_elo >= 1900", [3]bool{true, false, true}},
		{"MinPlies", func() (string, error) { return MinPlies(4), nil }, "plies >= 4", [3]bool{true, false, true}},
		{"NoBots", func() (string, error) { return NoBots(), nil }, "not bot", [3]bool{true, true, false}},
		{"one speed", func() (string, error) { return Speeds("bullet") }, "speed = bullet", [3]bool{false, false, true}},
		{"speeds", func() (string, error) { return speeds, nil }, "(speed = blitz or speed = rapid)", [3]bool{true, false, false}},
		{"Since full", func() (string, error) { return Since("2024-05-17") }, `date >= "2024.05.17"`, [3]bool{true, false, true}},
		{"Since month", func() (string, error) { return Since("2023.11") }, `date >= "2023.11"`, [3]bool{true, true, true}},
		{"Until year", func() (string, error) { return Until("2024") }, `date <= "2024"`, [3]bool{true, true, false}},
		{"Until day", func() (string, error) { return Until("2023.11.30") }, `date <= "2023.11.30"`, [3]bool{false, false, false}},
	}
	games := []*pgn.Game{readGame(t, blitz960), readGame(t, dfrcUnrated), readGame(t, botBullet)}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, err := tt.text()
			if err != nil || text != tt.want {
				t.Fatalf("got %q, %v; want %q", text, err, tt.want)
			}
			e, err := Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			for i, g := range games {
				if got := e.Match(g, nil); got != tt.match[i] {
					t.Errorf("game %d: Match = %v, want %v", i+1, got, tt.match[i])
				}
			}
		})
	}
}

func TestShortcutErrors(t *testing.T) {
	tests := []struct {
		name string
		call func() (string, error)
		err  error
	}{
		{"unknown speed", func() (string, error) { return Speeds("blitz,fast") }, ErrSpeed},
		{"empty speeds", func() (string, error) { return Speeds(" , ") }, ErrSpeed},
		{"Since no date", func() (string, error) { return Since("yesterday") }, ErrDate},
		{"Until bad month", func() (string, error) { return Until("2024.13") }, ErrDate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.call(); !errors.Is(err, tt.err) {
				t.Errorf("error %v, want %v", err, tt.err)
			}
		})
	}
}

func TestAnd(t *testing.T) {
	user, err := Parse("kind = dfrc or bot")
	if err != nil {
		t.Fatal(err)
	}
	noBots, _ := Parse(NoBots())
	tests := []struct {
		name  string
		exprs []*Expr
		want  string
		names string
	}{
		{"none", nil, "", ""},
		{"nils", []*Expr{nil, nil}, "", ""},
		{"one", []*Expr{nil, user}, "kind = dfrc or bot", "kind bot"},
		{"two keeps the grouping", []*Expr{user, noBots}, "(kind = dfrc or bot) and not bot", "kind bot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := And(tt.exprs...)
			if e.String() != tt.want || strings.Join(e.Names(), " ") != tt.names {
				t.Errorf("And = %q reading %q, want %q reading %q", e, e.Names(), tt.want, tt.names)
			}
		})
	}
	if e := And(user, noBots); e.Match(readGame(t, botBullet), nil) || !e.Match(readGame(t, dfrcUnrated), nil) {
		t.Error("And does not require both")
	}
}

func TestMatchAllocations(t *testing.T) {
	g := readGame(t, blitz960)
	c := startpos.Classify(g)
	for _, expr := range []string{
		`WhiteElo >= 2000 and speed = "blitz"`,
		`Event ~ "Chess960" and date >= "2024.05" and not bot and sp != 518`,
		`plies >= 2 and plies < 100 and exists(Result)`,
	} {
		e, err := Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		if raceEnabled && strings.Contains(expr, "~") {
			// regexp takes its matchers from a sync.Pool, which the race
			// detector empties at random: a match then makes one.
			continue
		}
		if n := testing.AllocsPerRun(100, func() { e.Match(g, &c) }); n != 0 {
			t.Errorf("%s: %v allocations a match", expr, n)
		}
	}
}

func BenchmarkMatch(b *testing.B) {
	g := readGame(b, blitz960)
	c := startpos.Classify(g)
	for _, bench := range []struct{ name, expr string }{
		{"elo-speed", `WhiteElo >= 2000 and speed = "blitz"`},
		{"regexp-date", `Event ~ "Chess960" and date >= "2024.05"`},
		{"plies-counted", `plies >= 20`},
	} {
		e, err := Parse(bench.expr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.Match(g, &c)
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(`WhiteElo >= 2000 and speed = "blitz" and not bot`); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLatin1Tags: a tag's bytes that are not UTF-8 are read as Latin-1,
// so that comparisons and regular expressions written in UTF-8 select an
// old archive's games as they select a new one's.
func TestLatin1Tags(t *testing.T) {
	games := map[string]string{
		"Latin-1": "[Event \"M\xfcnchen\"]\n[White \"M\xfcller, J\xf6rg\"]\n\n1. e4 *\n",
		"UTF-8":   "[Event \"München\"]\n[White \"Müller, Jörg\"]\n\n1. e4 *\n",
		"other":   "[Event \"M\xf6nchen\"]\n[White \"M\xf6ller, J\xf6rg\"]\n\n1. e4 *\n",
	}
	for _, tt := range []struct {
		expr string
		want map[string]bool
	}{
		{`Event = "München"`, map[string]bool{"Latin-1": true, "UTF-8": true, "other": false}},
		{`Event != "München"`, map[string]bool{"Latin-1": false, "UTF-8": false, "other": true}},
		{`Event > "Mz"`, map[string]bool{"Latin-1": true, "UTF-8": true, "other": true}},
		{`White ~ "(?i)^MÜLLER"`, map[string]bool{"Latin-1": true, "UTF-8": true, "other": false}},
		{`White ~ "ö"`, map[string]bool{"Latin-1": true, "UTF-8": true, "other": true}},
	} {
		e, err := Parse(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		for name, text := range games {
			g, err := pgn.NewReader(strings.NewReader(text)).Next()
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Match(g, nil); got != tt.want[name] {
				t.Errorf("%s on the %s game: %v, want %v", tt.expr, name, got, tt.want[name])
			}
		}
	}
}
