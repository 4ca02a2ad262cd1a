package pgn

import "unicode/utf8"

// The text of PGN files.
//
// The PGN standard writes its text in ISO 8859-1 (Latin-1). Most archives
// now write UTF-8, old ones Latin-1, and one file may hold both. A byte
// that is not part of a UTF-8 sequence is read as Latin-1, so that
// "M\xfcller" from an old archive and "Müller" from a new one are one
// name, and neither becomes "M\uFFFDller", where "Möller" would too.

// DecodeRune returns the first character of b and its length in bytes: a
// UTF-8 sequence, or else the first byte read as Latin-1. It returns
// (utf8.RuneError, 0) for an empty b.
func DecodeRune(b []byte) (r rune, size int) {
	r, size = utf8.DecodeRune(b)
	if r == utf8.RuneError && size == 1 {
		return rune(b[0]), 1
	}
	return r, size
}

// AppendUTF8 appends the text s to dst as UTF-8, reading every byte that
// is not part of a UTF-8 sequence as Latin-1 (see DecodeRune), and returns
// the extended slice. Text that is UTF-8 is appended as it is.
func AppendUTF8(dst, s []byte) []byte {
	if utf8.Valid(s) {
		return append(dst, s...)
	}
	for len(s) > 0 {
		r, n := DecodeRune(s)
		dst = utf8.AppendRune(dst, r)
		s = s[n:]
	}
	return dst
}
