package pgn

// A nibbleSet is a set of bytes in the form that a vector loop tests
// thirty-two at a time with two table lookups: byte c is in the set when
// lo[c&0xf]&hi[c>>4] is not zero. The scanner's inner loops look for a few
// bytes, or a range of them, in runs of dozens of bytes: a tag name and
// value, a line of moves. Where the vector loops are built in
// (vectorScan; nibble_amd64.go), indexNibble finds the first member of a
// set in place of a word-at-a-time loop, tagLinesVector reads the tag
// lines of plainTagLines from the members of two sets in 64 bytes at once,
// a few tag lines' worth (classify64 gives the same masks to plainTagLines'
// own loop, for the lines it takes), skimVector skims movetext from
// masks of its line ends and braces, and plyClasses gives CountPlies the
// classes of 64 bytes of movetext.
type nibbleSet struct{ lo, hi [16]byte }

// newNibbleSet returns the set of the bytes for which in is true. Each
// high nibble that has members is given the bit of its row, the set of low
// nibbles that complete a member; rows alike share a bit. Eight distinct
// rows fit, and the sets here have at most six: newNibbleSet panics past
// eight, at package initialization.
func newNibbleSet(in func(c byte) bool) *nibbleSet {
	var s nibbleSet
	var rows []uint16
	for h := range 16 {
		var row uint16
		for l := range 16 {
			if in(byte(h<<4 | l)) {
				row |= 1 << l
			}
		}
		if row == 0 {
			continue
		}
		bit := -1
		for k, r := range rows {
			if r == row {
				bit = k
			}
		}
		if bit < 0 {
			if bit = len(rows); bit == 8 {
				panic("pgn: a nibble set of more than eight distinct rows")
			}
			rows = append(rows, row)
			for l := range 16 {
				if row&(1<<l) != 0 {
					s.lo[l] |= 1 << bit
				}
			}
		}
		s.hi[h] = 1 << bit
	}
	return &s
}

// has reports whether c is in s, as the vector loop tests it.
func (s *nibbleSet) has(c byte) bool { return s.lo[c&0xf]&s.hi[c>>4] != 0 }

// The sets of the scanner's loops, in word.go and scan.go.
var (
	// lineOrControlSet: bytes below ' ', and DEL.
	lineOrControlSet = newNibbleSet(func(c byte) bool { return c < ' ' || c == 0x7f })
	// plainValueSet: what ends a value on plainTagLines' path.
	plainValueSet = newNibbleSet(func(c byte) bool { return plainValueEnd[c] })
	// notNameSet: the bytes that are not in a tag name.
	notNameSet = newNibbleSet(func(c byte) bool { return !nameBytes[c] })
)
