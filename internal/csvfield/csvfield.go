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
	// Every byte of every cell of an export passes here: one look-up a
	// byte, and the first rune decoded only when it is not ASCII.
	for _, c := range field {
		if quoted[c] {
			return true
		}
	}
	if c := field[0]; c < utf8.RuneSelf {
		return asciiSpace[c]
	}
	r, _ := utf8.DecodeRune(field)
	return unicode.IsSpace(r)
}

// quoted are the bytes that make a field need quotes wherever they stand.
var quoted = [256]bool{',': true, '"': true, '\r': true, '\n': true}

// asciiSpace are the ASCII bytes unicode.IsSpace reports.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

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

// EndRecord ends the record that begins at dst[start:] with a line feed.
// A record that is one empty field is first written as "": a blank line
// would be skipped by the readers (encoding/csv's, pandas', DuckDB's), and
// its row lost, though encoding/csv's Writer writes one.
func EndRecord(dst []byte, start int) []byte {
	if len(dst) == start {
		dst = append(dst, '"', '"')
	}
	return append(dst, '\n')
}
