package pgn

import "bytes"

// maxLineLength is the line length the export format asks writers to stay
// below: a final comment that would lengthen a line beyond it goes on a
// line of its own.
const maxLineLength = 79

// AppendFinalComment appends movetext to dst with the comment { text } set
// just before its game termination marker, and returns the extended slice.
// The marker is found as Termination finds it, but with lines ending at
// the last byte of eol, the game's line ending, as the Reader read them: a
// movetext whose only line break is a CR is not taken for one of lone CRs.
// A movetext without a marker gets the comment after its last token; one
// with nothing but blanks is appended unchanged.
//
// When the text before the marker already ends with a comment that
// replace accepts (it receives the comment's text between the braces,
// without the blanks around it), that comment is replaced rather than
// joined by another; a nil replace accepts none. So a program that marks
// its own comments, by their form, writes the same bytes when it runs
// again on its own output.
//
// The blanks between the text that stays (the last move, another comment)
// and the comment become one space, or a line break eol when the line
// would grow beyond 79 bytes, or is a '%' escape line or ends in a ';'
// comment, which would take the comment in, or is the tag section's last
// line, where the comment's '}' would close, to a reader, a comment left
// open before the tags. Everything from the marker on, comments after it
// included, is kept as it was. text must not contain '}', which would end
// the comment early.
func AppendFinalComment(dst, movetext, text []byte, replace func(comment []byte) bool, eol string) []byte {
	nl := lineBreak(movetext)
	if eol != "" {
		nl = eol[len(eol)-1]
	}
	marker, anchor := termination(movetext, nl)
	if marker == nil {
		anchor = len(trimBlanksRight(movetext))
		if anchor == 0 {
			return append(dst, movetext...)
		}
	}
	// prev ends the text that stays in front of the comment.
	prev := len(trimBlanksRight(movetext[:anchor]))
	if prev > 0 && movetext[prev-1] == '}' && replace != nil {
		if k := bytes.LastIndexByte(movetext[:prev], '{'); k >= 0 && replace(trimBlanks(movetext[k+1:prev-1])) {
			prev = len(trimBlanksRight(movetext[:k]))
		}
	}
	sep := " "
	if prev == 0 {
		// Nothing before the comment but blanks, which stay.
		prev = len(movetext) - len(trimBlanksLeft(movetext))
		sep = ""
	}
	dst = append(dst, movetext[:prev]...)
	// The line so far may have begun before the movetext, in dst.
	lineStart := bytes.LastIndexByte(dst, nl) + 1
	switch {
	case bytes.HasPrefix(trimBlanksLeft(dst[lineStart:]), []byte("[")):
		// The movetext begins on the tag section's last line. A '}'
		// there would close, to a reader, a comment left open before
		// the tags, which then seem to be its text: the comment takes a
		// line of its own.
		sep = eol
	case sep != "" && endsInLineComment(movetext[:prev], nl):
		// On that line the comment would be text of the escape line or
		// of the ';' comment, and lost.
		sep = eol
	case sep != "":
		width := len(dst) - lineStart
		width += len(sep) + len("{ ") + len(text) + len(" }")
		if marker != nil {
			width += len(" ") + len(marker)
		}
		if width > maxLineLength {
			sep = eol
		}
	}
	dst = append(dst, sep...)
	dst = append(dst, "{ "...)
	dst = append(dst, text...)
	dst = append(dst, " }"...)
	if marker != nil {
		dst = append(dst, ' ')
	}
	return append(dst, movetext[anchor:]...)
}

// endsInLineComment says whether the last line of movetext may be, or
// end in, a comment that runs to the end of the line: a '%' escape line,
// or a ';' that does not stand in a brace comment opened on that line.
// In doubt (a brace comment from an earlier line) it says yes, which
// costs nothing but a line break.
func endsInLineComment(movetext []byte, nl byte) bool {
	line := trimBlanksLeft(movetext[bytes.LastIndexByte(movetext, nl)+1:])
	if len(line) > 0 && line[0] == '%' {
		return true
	}
	inBraces := false
	for _, c := range line {
		switch {
		case c == '{':
			inBraces = true
		case c == '}':
			inBraces = false
		case c == ';' && !inBraces:
			return true
		}
	}
	return false
}

// trimBlanksRight returns b without the blanks (IsSpace) at its end.
func trimBlanksRight(b []byte) []byte {
	for len(b) > 0 && IsSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// trimBlanksLeft returns b without the blanks at its start.
func trimBlanksLeft(b []byte) []byte {
	for len(b) > 0 && IsSpace(b[0]) {
		b = b[1:]
	}
	return b
}

func trimBlanks(b []byte) []byte { return trimBlanksLeft(trimBlanksRight(b)) }
