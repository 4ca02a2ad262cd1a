package words

import (
	"strconv"
	"strings"
	"testing"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int64
		want string
	}{
		{"none is plural", 0, "0 plies"},
		{"one is singular", 1, "1 ply"},
		{"two", 2, "2 plies"},
		{"minus one is plural", -1, "-1 plies"},
		{"large", 12_345_678_901, "12345678901 plies"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Count(tc.n, "ply", "plies"); got != tc.want {
				t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
			}
		})
	}
	if got := Count(1, "game", "games"); got != "1 game" {
		t.Errorf("Count of an int: %q", got)
	}
}

func TestQuote(t *testing.T) {
	long := strings.Repeat("x", quoteMax+1)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", `""`},
		{"escapes as %q does", "a\"b\\c\n", `"a\"b\\c\n"`},
		{"as long as shown whole", long[:quoteMax], strconv.Quote(long[:quoteMax])},
		{"one byte longer is cut", long, strconv.Quote(long[:quoteMax]) + "... (65 bytes)"},
		{"cut at a character's start", strings.Repeat("x", quoteMax-1) + "é" + long, strconv.Quote(strings.Repeat("x", quoteMax-1)) + "... (130 bytes)"},
		{"invalid UTF-8 escaped", "\xff", `"\xff"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Quote(tc.in); got != tc.want {
				t.Errorf("Quote(%.80q) = %s, want %s", tc.in, got, tc.want)
			}
			if got := Quote([]byte(tc.in)); got != tc.want {
				t.Errorf("Quote of bytes = %s, want %s", got, tc.want)
			}
		})
	}
}
