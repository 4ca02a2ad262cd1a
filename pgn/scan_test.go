package pgn

import (
	"slices"
	"testing"
)

// plainTagLineCases are lines that plainTagLine must read, or leave to
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

// TestPlainTagLine checks which lines take the fast path, and that those
// come out as the general path reads them.
func TestPlainTagLine(t *testing.T) {
	for _, c := range plainTagLineCases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.line + "\n1. e4 *\n")
			if c.name == "cut before the line end" || c.name == "cut after a carriage return" {
				data = []byte(c.line)
			}
			var s scanner
			s.reset()
			got := s.plainTagLine(data, 0)
			if (got > 0) != c.plain {
				t.Fatalf("plainTagLine(%q) = %d, want the fast path %v", c.line, got, c.plain)
			}
			if got > 0 {
				checkAsGeneralPath(t, data, &s, got)
			}
		})
	}
}

// checkAsGeneralPath compares what plainTagLine made of the line at the
// start of data, next being its result, with the general path's reading.
func checkAsGeneralPath(t *testing.T, data []byte, fast *scanner, next int) {
	t.Helper()
	var s scanner
	s.reset()
	want, ok := s.anyHeaderLine(data, 0, false)
	if !ok || want != next || s.mode != fast.mode || s.lines != fast.lines || !slices.Equal(s.tags, fast.tags) || len(s.problems) > 0 {
		t.Fatalf("%q: fast path gives next %d, mode %d, lines %d, tags %+v; general path %d (%v), mode %d, lines %d, tags %+v, problems %v",
			data, next, fast.mode, fast.lines, fast.tags, want, ok, s.mode, s.lines, s.tags, s.problems)
	}
}

// FuzzPlainTagLine holds plainTagLine to the general path on any line it
// takes. The corpus it has found is in testdata/fuzz/FuzzPlainTagLine.
func FuzzPlainTagLine(f *testing.F) {
	for _, c := range plainTagLineCases {
		f.Add([]byte(c.line))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || data[0] != '[' {
			return
		}
		var s scanner
		s.reset()
		if next := s.plainTagLine(data, 0); next > 0 {
			checkAsGeneralPath(t, data, &s, next)
		}
	})
}
