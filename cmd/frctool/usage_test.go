package main

import (
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		want int
	}{
		{"same", "stats", "stats", 0},
		{"both empty", "", "", 0},
		{"from nothing", "", "tree", 4},
		{"one letter more", "dept", "depth", 1},
		{"one letter less", "anotate", "annotate", 1},
		{"one letter other", "grup-by", "grop-by", 1},
		{"two letters swapped", "stast", "stats", 1},
		{"swap at the start", "fromat", "format", 1},
		{"nothing alike", "xyz", "tree", 4},
		{"characters, not bytes", "dépth", "depth", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := editDistance(tc.a, tc.b); got != tc.want {
				t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
			if got := editDistance(tc.b, tc.a); got != tc.want {
				t.Errorf("editDistance(%q, %q) = %d, want %d (it is symmetric)", tc.b, tc.a, got, tc.want)
			}
		})
	}
}

func TestNearest(t *testing.T) {
	flags := []string{"sp", "fritz9", "q", "quiet", "o", "output", "group-by", "format", "depth", "where"}
	for _, tc := range []struct {
		name  string
		typed string
		want  string
	}{
		{"another case", "SP", "sp"},
		{"a one-letter flag in another case", "Q", "q"},
		{"any other one letter is not a guess", "x", ""},
		{"a letter left out", "grup-by", "group-by"},
		{"two letters swapped", "fromat", "format"},
		{"two swaps in six letters are close", "fromta", "format"},
		{"two swaps in five letters are not", "dpeht", ""},
		{"too far", "nonsense", ""},
		{"two changes in four letters are too many", "wxre", ""},
		{"a prefix of a long name", "out", ""},
		{"longer than any name", strings.Repeat("format", 20), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := nearest(tc.typed, flags); got != tc.want {
				t.Errorf("nearest(%q) = %q, want %q", tc.typed, got, tc.want)
			}
		})
	}
}

// TestLongArgumentsCutShort checks that a message about a long argument
// quotes its start and its length, not the whole of it.
func TestLongArgumentsCutShort(t *testing.T) {
	long := strings.Repeat("x", 300)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"command", []string{long}, `unknown command "` + long[:64] + `"... (300 bytes)`},
		{"flag", []string{"stats", "--" + long}, `unknown flag "--` + long[:62] + `"... (302 bytes)`},
		{"flag value", []string{"stats", "--sort", long, "/dev/null"}, `unknown sort order "` + long[:64] + `"... (300 bytes)`},
		{"notation", []string{"convert", "--from", long, "1"}, `--from "` + long[:64] + `"... (300 bytes): want one of`},
		{"table", []string{"tables", long}, `unknown table "` + long[:64] + `"... (300 bytes)`},
		{"field", []string{"filter", "--where", long + " = 1", "/dev/null"}, `unknown field "` + long[:64] + `"... (300 bytes)`},
		{"tag name", []string{"annotate", "--sp-tag", "a b" + long, "/dev/null"}, `"a b` + long[:61] + `"... (303 bytes): letters, digits and _ only`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := frctool(t, "", tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tt.want)
			}
			if strings.Contains(stderr, long) {
				t.Errorf("the whole argument is quoted: %q", stderr)
			}
		})
	}
}
