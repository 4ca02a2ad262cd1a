package pgn

import (
	"bytes"
	"strings"
	"testing"
)

func TestAppendFinalComment(t *testing.T) {
	// isMark accepts the comments the tests write, "mark" and "mark N".
	isMark := func(c []byte) bool { return bytes.HasPrefix(c, []byte("mark")) }
	long := strings.Repeat("1. Nf3 Nf6 2. Ng1 Ng8 ", 3)
	tests := []struct {
		name     string
		dst      string // what stands before the movetext
		movetext string
		text     string
		replace  func([]byte) bool
		eol      string
		want     string // what is appended after dst
	}{
		{"before the marker", "", "1. e4 e5 *\n", "mark", isMark, "\n", "1. e4 e5 { mark } *\n"},
		{"blanks before the marker become one space", "", "1. e4 e5 \t \n  1-0\n\n", "mark", isMark, "\n", "1. e4 e5 { mark } 1-0\n\n"},
		{"an earlier comment of its kind is replaced", "", "1. e4 e5\n{ mark 1 }\n*\n", "mark 2", isMark, "\n", "1. e4 e5 { mark 2 } *\n"},
		{"an earlier comment without blanks is replaced", "", "1. e4 {mark 1} 0-1", "mark 2", isMark, "\n", "1. e4 { mark 2 } 0-1"},
		{"other comments stay", "", "1. e4 {good} *\n", "mark", isMark, "\n", "1. e4 {good} { mark } *\n"},
		{"nil replace keeps every comment", "", "1. e4 {mark 1} *\n", "mark 2", nil, "\n", "1. e4 {mark 1} { mark 2 } *\n"},
		{"comments after the marker stay after it", "", "1. e4 1/2-1/2 {agreed}\n", "mark", isMark, "\n", "1. e4 { mark } 1/2-1/2 {agreed}\n"},
		{"no marker: after the last token", "", "1. d4 d5\n\n", "mark", isMark, "\n", "1. d4 d5 { mark }\n\n"},
		{"nothing but a marker: leading blanks stay", "", "\n*\n", "mark", isMark, "\n", "\n{ mark } *\n"},
		{"blank movetext is left alone", "", " \n\n", "mark", isMark, "\n", " \n\n"},
		{"a long line breaks before the comment", "", long + "*\n", "a comment that is long", isMark, "\n", strings.TrimSuffix(long, " ") + "\n{ a comment that is long } *\n"},
		{"the break is the game's own line ending", "", long + "*\r\n", "a comment that is long", isMark, "\r\n", strings.TrimSuffix(long, " ") + "\r\n{ a comment that is long } *\r\n"},
		{"the line may begin before the movetext", strings.Repeat("x", 60), " 1. e4 *", "a comment", isMark, "\r\n", " 1. e4\r\n{ a comment } *"},
		{"not on an escape line", "", "1. e4\n%\n1-0", "mark", isMark, "\n", "1. e4\n%\n{ mark } 1-0"},
		{"not on an escape line with leading blanks", "", "1. e4\n  % x\n1-0", "mark", isMark, "\n", "1. e4\n  % x\n{ mark } 1-0"},
		{"not in a ';' comment", "", "1. e4 ; fine {move}\n1-0", "mark", isMark, "\n", "1. e4 ; fine {move}\n{ mark } 1-0"},
		{"a ';' in a brace comment is no comment", "", "1. e4 {a; b} *", "mark", isMark, "\n", "1. e4 {a; b} { mark } *"},
		{"a '%' inside a line is no escape", "", "1. e4 {50%} *", "mark", isMark, "\n", "1. e4 {50%} { mark } *"},
		{"a line that just fits stays whole", strings.Repeat("x", 56), " 1. e4 *", "a comment", isMark, "\n", " 1. e4 { a comment } *"},
		// A lone CR breaks no line of a game whose lines end with CRLF, as
		// the Reader reads it: the '%' after it begins no escape line, and
		// 1-0 ends the game. Guessed from this movetext alone, lines would
		// end with CRs and the marker be on an escape line.
		{"a lone CR in a CRLF game breaks no line", "", "\r% x 1-0", "mark", isMark, "\r\n", "\r% x\r\n{ mark } 1-0"},
		{"in a game of lone CRs it does", "", "1. e4\r% x 1-0", "mark", isMark, "\r", "1. e4\r% x 1-0\r{ mark }"},
		// After a junk "{" and a blank line, the reader takes a tag line
		// for the next game's only when no '}' follows on it.
		{"not on the tags' line", "{\n\n[A \"1\"]", "*", "mark", isMark, "\n", "\n{ mark } *"},
		{"not on the tags' line after moves", "[A \"1\"]", " 1. e4 *", "mark", isMark, "\n", " 1. e4\n{ mark } *"},
		{"in a game of lone CRs a line begins after a CR", strings.Repeat("x", 70) + "\r", "1. e4 *", "mark", isMark, "\r", "1. e4 { mark } *"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AppendFinalComment([]byte(tt.dst), []byte(tt.movetext), []byte(tt.text), tt.replace, tt.eol)
			if !strings.HasPrefix(string(got), tt.dst) {
				t.Fatalf("dst changed: %q", got)
			}
			if got := string(got[len(tt.dst):]); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			// Writing the same comment again changes nothing when the
			// comment is one replace accepts.
			if tt.replace != nil && strings.Contains(tt.want, "mark") {
				again := AppendFinalComment([]byte(tt.dst), got[len(tt.dst):], []byte(tt.text), tt.replace, tt.eol)
				if again := string(again[len(tt.dst):]); again != tt.want {
					t.Errorf("a second time gives %q", again)
				}
			}
		})
	}
}
