package where

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/frctool/frctool/pgn"
)

// FuzzParse checks what Parse promises whatever the text: it never
// panics; a mistake is a *SyntaxError whose column lies within the text
// or just after it; and an expression prints (String) as text that parses
// back to an expression printing the same, reading the same names and
// selecting the same games. The seed corpus is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add(`WhiteElo >= 2000 and speed = "blitz"`)
	f.Add(`not (kind = dfrc or bot) and date <= "2024.05"`)
	games := []*pgn.Game{readGame(f, blitz960), readGame(f, dfrcUnrated), readGame(f, botBullet)}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q): %v is no *SyntaxError", s, err)
			}
			if se.Col < 1 || se.Col > utf8.RuneCountInString(s)+1 || se.Expr != s || se.Msg == "" {
				t.Fatalf("Parse(%q): column %d, message %q", s, se.Col, se.Msg)
			}
			// Two lines, the first of bounded length, the caret last.
			lines := strings.Split(se.Caret(), "\n")
			if len(lines) != 2 || utf8.RuneCountInString(lines[0]) > caretWidth+6 || !strings.HasSuffix(lines[1], "^") {
				t.Fatalf("Parse(%q): Caret() = %q", s, se.Caret())
			}
			return
		}
		printed := e.String()
		again, err := Parse(printed)
		if err != nil {
			t.Fatalf("Parse(%q) printed %q, which does not parse: %v", s, printed, err)
		}
		if again.String() != printed {
			t.Fatalf("Parse(%q) printed %q, which prints %q", s, printed, again.String())
		}
		if !slices.Equal(e.Names(), again.Names()) {
			t.Fatalf("Parse(%q) reads %q, its print %q", s, e.Names(), again.Names())
		}
		for i, g := range games {
			if e.Match(g, nil) != again.Match(g, nil) {
				t.Fatalf("Parse(%q) and its print %q disagree on game %d", s, printed, i+1)
			}
		}
	})
}
