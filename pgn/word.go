package pgn

import (
	"encoding/binary"
	"math/bits"
)

// The scanner's inner loops and CountPlies look at eight bytes at a time
// where the runs they skip are short: a tag value, a move, the text
// between two clock comments. bytes.IndexByte is faster
// on long runs, but its set-up costs more than these runs take, and it
// finds one byte where they look for several. A word is read little-endian
// (binary.LittleEndian), so that its first byte is its lowest. Where the
// vector loops of nibble.go are built in, they take lineOrControl's runs,
// plainTagLines' names and values and most of CountPlies' movetext
// instead.

const (
	wordOnes  = 0x0101010101010101
	wordHighs = 0x8080808080808080
)

// wordZeros marks the zero bytes of the little-endian word x by their high
// bits. A byte above a zero byte may be marked too, from the borrow; the
// lowest mark, the one firstMarked reads, is always right.
func wordZeros(x uint64) uint64 { return (x - wordOnes) &^ x & wordHighs }

// wordBelow marks the bytes of x below n (n at most 0x80) as wordZeros
// marks zero bytes, with the same caveat.
func wordBelow(x uint64, n byte) uint64 { return (x - wordOnes*uint64(n)) &^ x & wordHighs }

// firstMarked returns the offset of the byte of the lowest mark.
func firstMarked(m uint64) int { return bits.TrailingZeros64(m) / 8 }

// movetextPlainEnd returns the offset of the first byte at or after i that
// the movetext loop must look at (not clsPlain), or len(data).
func movetextPlainEnd(data []byte, i int) int {
	for {
		if i = movetextMarked(data, i); i == len(data) || movetextClass[data[i]] != clsPlain {
			return i
		}
		i++ // a blank below ' ', such as a tab or CR: marked, but plain
	}
}

// movetextMarked returns the offset of the first byte at or after i that
// is below ' ' (control bytes, the line feed among them), '{', ';' or DEL,
// or len(data).
func movetextMarked(data []byte, i int) int {
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		if m := wordBelow(w, ' ') | wordZeros(w^'{'*wordOnes) | wordZeros(w^';'*wordOnes) | wordZeros(w^0x7f*wordOnes); m != 0 {
			return i + firstMarked(m)
		}
	}
	for i < len(data) && movetextClass[data[i]] == clsPlain {
		i++
	}
	return i
}

// lineOrControl returns the offset of the first byte at or after p that is
// below ' ' (a line feed, another blank or a control byte) or DEL, or
// len(data). It reads sixteen bytes a turn, from a slice that it moves on:
// indexing data afresh eight bytes a turn took half as many instructions
// again (34 a word against 22), and lines of moves run for dozens of bytes
// between the line feeds.
func lineOrControl(data []byte, p int) int {
	if vectorScan && len(data)-p >= 32 {
		if c := data[p]; c < ' ' || c == 0x7f {
			return p // an empty line, as those around a header-only game's result, needs no vector
		}
		return p + indexNibble(data[p:], lineOrControlSet)
	}
	if p >= len(data) {
		return len(data)
	}
	d := data[p:]
	for len(d) >= 16 {
		w0, w1 := binary.LittleEndian.Uint64(d), binary.LittleEndian.Uint64(d[8:])
		m0 := wordBelow(w0, ' ') | wordZeros(w0^0x7f*wordOnes)
		m1 := wordBelow(w1, ' ') | wordZeros(w1^0x7f*wordOnes)
		if m0|m1 != 0 {
			if m0 != 0 {
				return len(data) - len(d) + firstMarked(m0)
			}
			return len(data) - len(d) + 8 + firstMarked(m1)
		}
		d = d[16:]
	}
	for len(d) > 0 && d[0] >= ' ' && d[0] != 0x7f {
		d = d[1:]
	}
	return len(data) - len(d)
}

// lastIndexByte is bytes.LastIndexByte reading eight bytes a turn from the
// end. Go's own is a byte loop, and the runs it looks back over here, the
// last line of a movetext and the text after its last comment, are dozens
// of bytes.
func lastIndexByte(b []byte, c byte) int {
	i := len(b)
	for ; i >= 8; i -= 8 {
		w := binary.LittleEndian.Uint64(b[i-8:]) ^ uint64(c)*wordOnes
		// The zero bytes' high bits, exactly: a byte's low seven bits
		// plus 0x7f carry into its high bit unless all are zero, and
		// never into the next byte, so the highest mark is right too,
		// which wordZeros does not promise.
		if z := ^((w&^wordHighs + wordOnes*0x7f) | w | wordOnes*0x7f); z != 0 {
			return i - 8 + 7 - bits.LeadingZeros64(z)/8
		}
	}
	for i--; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}
