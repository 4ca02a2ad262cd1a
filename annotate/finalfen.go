package annotate

import (
	"bytes"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/position"
)

// maxLine is the line length the PGN export format asks writers to stay
// below; the final-position comment goes on a line of its own rather than
// lengthen a line beyond it.
const maxLine = 79

// blanks are what separates movetext tokens, as pgn.Termination skips them.
const blanks = " \t\r\n\f\v\x1a"

// setFinalComment puts { "FEN" } with the final position before the game
// termination marker of the movetext that makes up dst[mt:], replacing a
// final-position comment already there, and returns the extended slice. A
// movetext without a marker gets the comment after its last token; an empty
// one gets none.
//
// The whitespace between the last move (or whatever precedes the comment)
// and the marker is replaced by one space, or by a line break when the line
// would grow too long, so that a second run writes the same bytes again.
func setFinalComment(dst []byte, mt int, final *position.Board, style fen.Style, eol string) []byte {
	m := dst[mt:]
	marker, anchor := pgn.Termination(m)
	if marker == nil {
		anchor = len(bytes.TrimRight(m, blanks))
		if anchor == 0 {
			return dst
		}
	}
	// prev ends the text that stays in front of the comment.
	prev := len(bytes.TrimRight(m[:anchor], blanks))
	if prev > 0 && m[prev-1] == '}' {
		if k := bytes.LastIndexByte(m[:prev], '{'); k >= 0 && isFENComment(m[k+1:prev-1]) {
			prev = len(bytes.TrimRight(m[:k], blanks))
		}
	}
	sep := " "
	if prev == 0 {
		// Nothing before the comment but blanks, which stay.
		prev = len(m) - len(bytes.TrimLeft(m, blanks))
		sep = ""
	}

	var buf [160]byte
	comment := append(buf[:0], `{ "`...)
	p := final.Position()
	comment = p.AppendFormat(comment, style)
	comment = append(comment, `" }`...)
	if marker != nil {
		comment = append(comment, ' ')
	}
	if sep != "" {
		lineStart := bytes.LastIndexByte(dst[:mt+prev], '\n') + 1
		if width := mt + prev - lineStart + len(sep) + len(comment) + len(marker); width > maxLine {
			sep = eol
		}
	}

	// The tail from the anchor on (the marker and what follows it) is
	// short; keep it aside while the comment takes its place.
	var tailBuf [64]byte
	tail := append(tailBuf[:0], m[anchor:]...)
	dst = append(dst[:mt+prev], sep...)
	dst = append(dst, comment...)
	return append(dst, tail...)
}

// isFENComment says whether a comment's text is a quoted FEN and nothing
// else, the form of the comment setFinalComment writes.
func isFENComment(text []byte) bool {
	text = bytes.Trim(text, blanks)
	if len(text) < 2 || text[0] != '"' || text[len(text)-1] != '"' {
		return false
	}
	_, err := fen.ParseBytes(text[1 : len(text)-1])
	return err == nil
}
