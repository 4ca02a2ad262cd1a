// Package csvfield writes one CSV field at a time into a byte slice,
// quoted exactly as encoding/csv quotes it, for the commands that write
// CSV rows on many goroutines into reused buffers, where a csv.Writer per
// row would cost an allocation and a copy.
package csvfield

import (
	"unicode"
	"unicode/utf8"
)

// NeedsQuotes reports whether encoding/csv's Writer, with its default
// comma, quotes the field: when it holds a comma, a quote, a carriage
// return or a line feed, begins with a blank, or is `\.`, which some
// readers take for the end of the data.
func NeedsQuotes(field []byte) bool {
	if len(field) == 0 {
		return false
	}
	if string(field) == `\.` {
		return true
	}
	for _, c := range field {
		if c == ',' || c == '"' || c == '\r' || c == '\n' {
			return true
		}
	}
	r, _ := utf8.DecodeRune(field)
	return unicode.IsSpace(r)
}

// Append appends field to dst, quoted when NeedsQuotes says so, with its
// quotes doubled, and returns the extended slice. Like encoding/csv, it
// writes the field's line ends as they are.
func Append(dst, field []byte) []byte {
	if !NeedsQuotes(field) {
		return append(dst, field...)
	}
	dst = append(dst, '"')
	for _, c := range field {
		if c == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}
