// Package words writes the counts and quotations of frctool's messages:
// "1 game", "2 games", and input quoted but never at length. The messages
// are for people; machines read the commands' CSV and JSON.
package words

import (
	"strconv"
	"unicode/utf8"
)

// Count returns n followed by the noun one when n is 1 and many
// otherwise, the form English uses for zero as for larger numbers.
func Count[N ~int | ~int64](n N, one, many string) string {
	noun := many
	if n == 1 {
		noun = one
	}
	return strconv.FormatInt(int64(n), 10) + " " + noun
}

// Quote returns s in double quotes with Go's escapes, as %q writes it,
// when it is at most quoteMax bytes; a longer s is cut there, at a
// character's start, and its length follows: "xxxx"... (3001 bytes). A
// message quoting a hostile tag value or input line then stays a line.
func Quote[S ~string | ~[]byte](s S) string {
	if len(s) <= quoteMax {
		return strconv.Quote(string(s))
	}
	cut := quoteMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(string(s[:cut])) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// quoteMax is the most bytes of a value Quote shows.
const quoteMax = 64
