package pgn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/frctool/frctool/internal/words"
)

// The splitter is a small state machine over the bytes of one game. It can
// stop anywhere for lack of input and resume where it stopped once the
// Reader has read more, so a game may span any number of reads.

type mode uint8

const (
	modeStart    mode = iota // before the tag section: blank lines, BOM, % lines
	modeTags                 // in the tag section, at the start of a line
	modeMovetext             // in the movetext, outside comments
	modeBrace                // inside a {...} comment
)

type tagSpan struct {
	start, end         int // '[' .. after ']'
	nameStart, nameEnd int
	valStart, valEnd   int // into the game's bytes, or into vals when escaped
	escaped            bool
	line               int // newlines before the tag within the game
}

type problem struct {
	off int // byte offset in the game
	err error
}

type scanner struct {
	pos       int  // next byte to examine, relative to the game's first byte
	mode      mode // where pos is
	lines     int  // newlines before pos, counted while in the tag section
	gameLines int  // newlines in the game when the skim ended it, else -1
	movetext  int  // offset where the movetext begins; -1 before that
	braceOpen int  // offset of the '{' of the open comment
	ctrl      bool // a control byte was already reported for this game
	badTags   int  // malformed tag pairs seen in this game
	tagsCut   bool // tags past MaxTags were not recorded
	skipLine  bool // the part starts inside a header line, to be skipped
	walkOnly  bool // never skim nor take quick (for tests that hold them to the walk)
	longGame  bool // the game before had more movetext than skimLimit
	tags      []tagSpan
	vals      []byte
	problems  []problem
}

func (s *scanner) reset() {
	// Field by field: a struct literal is built aside and copied in,
	// which cost 6% of scanning header-only games.
	s.longGame = s.movetext >= 0 && s.pos-s.movetext > skimLimit
	s.pos, s.mode, s.lines, s.movetext, s.braceOpen, s.gameLines = 0, modeStart, 0, -1, 0, -1
	s.ctrl, s.badTags, s.tagsCut, s.skipLine = false, 0, false, false
	s.tags, s.vals, s.problems = s.tags[:0], s.vals[:0], s.problems[:0]
}

// next prepares for the game after the one just emitted. After a partial
// game the next part goes on in the same state, from offset 0.
func (s *scanner) next(partial bool) {
	if !partial {
		s.reset()
		return
	}
	m := s.mode
	s.reset()
	s.mode = m
	if m != modeStart && m != modeTags {
		s.movetext = 0
	} else {
		// The cut fell inside a line of the tag section: its rest is the
		// end of a tag, not the start of the movetext.
		s.skipLine = true
	}
}

// byte classes of the movetext loop
const (
	clsPlain = iota
	clsNewline
	clsBrace
	clsSemicolon
	clsControl
)

var movetextClass = func() (t [256]uint8) {
	t['\n'] = clsNewline
	t['{'] = clsBrace
	t[';'] = clsSemicolon
	for c := 0; c < 0x20; c++ {
		if !IsSpace(byte(c)) {
			t[c] = clsControl
		}
	}
	t[0x7f] = clsControl
	return t
}()

// run scans data, the bytes of the current game so far, from s.pos. It
// returns done with the game's length n when the next game starts at
// data[n]. Without done, the game runs to the end of data: more input is
// needed, or at EOF the game is all of data.
func (s *scanner) run(data []byte, atEOF bool) (n int, done bool) {
	if s.pos == 0 && s.mode == modeStart && vectorScan {
		if n, ok := s.quick(data); ok {
			return n, true
		}
	}
	i := s.pos
	defer func() { s.pos = i }()
	for i < len(data) {
		switch s.mode {
		case modeStart, modeTags:
			if s.skipLine {
				k := bytes.IndexByte(data[i:], '\n')
				if k < 0 {
					i = len(data)
					return 0, false
				}
				i += k + 1
				s.skipLine, s.lines = false, s.lines+1
				continue
			}
			next, ok := s.headerLine(data, i, atEOF)
			if !ok {
				return 0, false // need more input for this line
			}
			i = next
		case modeMovetext:
			// A game with tags is first skimmed from its movetext's start;
			// the walk below takes whatever the skim leaves. A game with
			// no tags is walked: junk before a game's tags joins that game
			// (hasMoves), which the skim does not tell.
			if i == s.movetext && len(s.tags) > 0 && !s.walkOnly && !s.longGame {
				if end, lines, ok := skimMovetext(data, i); ok {
					// The skim saw every line end of the movetext, and
					// those before it are counted: the game's lines need
					// no count of their own.
					i, s.gameLines = end, s.lines+lines
					return end, true
				}
			}
			if i = movetextPlainEnd(data, i); i == len(data) {
				break
			}
			switch movetextClass[data[i]] {
			case clsNewline:
				lineStart := i + 1
				j := skipBlanks(data, lineStart)
				if j+1 >= len(data) && !atEOF {
					i = lineStart - 1 // look at this line again with more input
					return 0, false
				}
				if j < len(data) && data[j] == '%' {
					// An escape line: ignored to its end, which must be
					// there, since what follows it is movetext again.
					if i = endOfLine(data, j); i == len(data) && !atEOF {
						i = lineStart - 1
						return 0, false
					}
					continue
				}
				if !isTagStart(data, j) {
					i = lineStart
					continue
				}
				if len(s.tags) == 0 && !hasMoves(data[:lineStart]) {
					// Only comments or junk so far: it belongs to the
					// game whose tags start here.
					s.mode = modeTags
					s.movetext = -1
					s.lines = bytes.Count(data[:lineStart], nl)
					i = lineStart
					continue
				}
				i = lineStart
				return lineStart, true
			case clsBrace:
				s.braceOpen = i
				s.mode = modeBrace
				i++
			case clsSemicolon:
				j := bytes.IndexByte(data[i:], '\n')
				if j < 0 {
					if !atEOF {
						return 0, false
					}
					i = len(data)
					break
				}
				i += j // the newline is handled as any other
			case clsControl:
				if !s.ctrl && data[i] != 0 { // NUL is reported once per game by the Reader
					s.ctrl = true
					s.problems = append(s.problems, problem{i, fmt.Errorf("%w: control byte 0x%02x in the movetext", ErrBinary, data[i])})
				}
				i++
			}
		case modeBrace:
			j := bytes.IndexByte(data[i:], '}')
			seg := data[i:]
			if j >= 0 {
				seg = seg[:j]
			}
			if k := tagAfterBlankLine(seg, j < 0 && atEOF); k >= 0 {
				// A blank line and then a tag pair: the comment was never
				// closed and this is the next game, unless a '}' closes it
				// before anything else could: then the comment merely
				// quotes a game.
				open, sure := leftOpen(data[i+k:], atEOF)
				if !sure {
					return 0, false // decide with more input
				}
				if !open {
					i += j + 1
					s.mode = modeMovetext
					continue
				}
				s.problems = append(s.problems, problem{s.braceOpen, fmt.Errorf("%w: '{' not closed before the next game's tags", ErrUnterminatedComment)})
				s.mode = modeMovetext
				i += k
				return i, true
			}
			if j < 0 {
				if atEOF {
					i = len(data)
					return 0, false
				}
				// Resume at the last lines, so that a blank line and a tag
				// straddling two reads are still seen.
				i = max(i, startOfLastLines(data, 3))
				return 0, false
			}
			i += j + 1
			s.mode = modeMovetext
		}
	}
	return 0, false
}

// quick scans the game at the start of data when it is the common game
// of short archives, with one call to each vector loop: plain tag lines
// from its first byte, a blank line, and movetext that the skim ends. It
// leaves the scanner as run would, with the game's end. Any other game it
// reports with ok false, having changed nothing that run reads, and run
// scans it from its start: on header-only games the walk from run to the
// vector loops, through headerLine, plainTagLines and skimMovetext, and
// back, cost as much as the tag lines' own loop.
func (s *scanner) quick(data []byte) (n int, ok bool) {
	if s.longGame || s.walkOnly || len(data) < 64 || data[0] != '[' {
		return 0, false
	}
	if cap(s.tags) < 16 {
		s.tags = slices.Grow(s.tags[:0], 64)
	}
	room := s.tags[:0:min(cap(s.tags), MaxTags)]
	i, k, lines := tagLinesVector(data, 0, room, 0, notNameSet, plainValueSet)
	// With the room full, the loop may have stopped for room rather than
	// at a line: run takes such a game.
	if k == 0 || k == cap(room) || i+1 >= len(data) || !(data[i] == '\n' || data[i] == '\r' && data[i+1] == '\n') {
		return 0, false
	}
	end, more, ok := skimMovetext(data, i)
	if !ok {
		return 0, false
	}
	s.tags, s.lines, s.mode, s.movetext = room[:k], lines, modeMovetext, i
	s.pos, s.gameLines = end, lines+more
	return end, true
}

// skimMovetext finds where the movetext beginning at i, outside a
// comment, ends, if it can tell so in one pass over its lines: the walk in
// run stops at every comment, and a lichess game has one per move. It
// returns ok false, to leave the movetext to the walk, at whatever the
// walk would report or treat apart: a control byte, a line that begins
// with a blank, a '%', or a '[' and a byte of a tag name other than a
// letter, or the end of data before the next game. Otherwise the first
// line that begins with '[' and a letter starts the next game, unless it
// lies inside a comment. Comments do not nest and the first '}' after a
// '{' closes its comment, so it does not when no '{' follows the last '}'
// before it (FuzzSkimMovetext holds the skim to the walk). With ok, lines
// is the number of line feeds from i to end.
func skimMovetext(data []byte, i int) (end, lines int, ok bool) {
	data = data[:min(len(data), i+skimLimit)]
	p := i
	if vectorScan {
		// 64 bytes at a time, in assembly, while they last.
		var verdict int
		switch p, lines, end, verdict = skimVector(data, i, lineOrControlSet, &spaceTable, &nameBytes, &tagBlanks); verdict {
		case skimmed:
			return end, lines, true
		case skimGiveUp:
			return 0, 0, false
		}
	}
	for ; ; p++ {
		if p = lineOrControl(data, p); p+2 >= len(data) {
			return 0, 0, false
		}
		if c := data[p]; c != '\n' {
			if !spaceTable[c] {
				return 0, 0, false
			}
			continue
		}
		lines++
		switch c := data[p+1]; {
		case c == '[':
			if !isLetter(data[p+2]) {
				if isNameByte(data[p+2]) {
					return 0, 0, false // not a tag here, but inside a comment a sign of one left open
				}
				continue // "[%clk ...]" and the like
			}
			seg := data[i : p+1]
			if bytes.IndexByte(seg, '{') >= 0 {
				if k := lastIndexByte(seg, '}'); k < 0 || bytes.IndexByte(seg[k:], '{') >= 0 {
					return 0, 0, false
				}
			}
			return p + 1, lines, true
		case c == '%' || tagBlanks[c]:
			return 0, 0, false
		}
	}
}

// skimLimit bounds skimMovetext. Past a few lines of moves the walk is
// faster when comments are long: it skips each with one IndexByte, and
// games of long comments (an engine's analysis) are long. After such a
// game the next is not skimmed: in an archive of them a skim would only
// cost its bytes. Games of moves and clocks, such as lichess's, reach
// 8 KB at about 300 plies.
const skimLimit = 8 << 10

// skimVector's verdicts.
const (
	skimMore   = iota // it stopped fewer than 64 bytes before the end of data
	skimmed           // the next game starts at end
	skimGiveUp        // the walk is to take the movetext
)

// headerLine handles one line in modeStart or modeTags, starting at
// i, the beginning of a line, and the plain tag lines after it. It returns
// where the next line starts, or ok false when the line is not complete in
// data yet.
func (s *scanner) headerLine(data []byte, i int, atEOF bool) (next int, ok bool) {
	if data[i] == '[' {
		if next := s.plainTagLines(data, i); next > i {
			return next, true
		}
	}
	return s.anyHeaderLine(data, i, atEOF)
}

// anyHeaderLine is headerLine's general path, for any line.
func (s *scanner) anyHeaderLine(data []byte, i int, atEOF bool) (next int, ok bool) {
	eol := bytes.IndexByte(data[i:], '\n')
	if eol < 0 {
		if !atEOF {
			return i, false
		}
		eol = len(data)
	} else {
		eol += i + 1
	}
	line := data[i:eol]
	j := 0
	if i == 0 && bytes.HasPrefix(line, bom) {
		j = len(bom)
	}
	j = skipBlanks(line, j)
	switch {
	case j == len(line) || line[j] == '\n' || line[j] == '\r':
		if s.mode == modeTags {
			// A blank line ends the tag section.
			s.mode = modeMovetext
			s.movetext = i
			return i, true
		}
	case line[j] == '%':
		// An escape line: ignored.
	case line[j] == '[':
		k, rest := s.tagPairs(line, i, j)
		s.mode = modeTags
		if rest {
			// Movetext follows the tags on the same line.
			// Its line end lies ahead, in the movetext.
			s.mode = modeMovetext
			s.movetext = i + k
			return i + k, true
		}
	default:
		s.mode = modeMovetext
		s.movetext = i
		return i, true
	}
	if eol > i && data[eol-1] == '\n' {
		s.lines++
	}
	return eol, true
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// plainTagLines reads the lines from data[i] on that are each one tag
// pair written as nearly every program writes it, `[Name "value"]` and a
// line end, with no escape in the value, and the blank line that may end
// them. It returns where it stopped: the start of the first other line, or
// of the blank line, with the movetext begun there. Any other line, or one
// not complete in data, is left to headerLine's general path, which reads
// these lines the same way: the point is to walk such a line once, not
// find its end, its quotes and its backslashes in three searches, and to
// go from one to the next without a call (FuzzPlainTagLines holds the two
// paths together). Tag lines are most of the bytes of short games.
func (s *scanner) plainTagLines(data []byte, i int) int {
	// The tags and the line count are kept in locals, not reloaded from s
	// at every line.
	tags, lines := s.tags, s.lines
	if vectorScan && i+64 <= len(data) {
		// The lines that lie within 64-byte windows of data are read by
		// tagLinesVector, in assembly, where the window's masks and the
		// tables stay in registers from line to line; the loop below takes
		// the line it stopped at. In Go, saving and reloading around the
		// call for the masks cost the loop as much as the lines' own work:
		// the assembly takes 16% of filter's instructions off header-only
		// games. TestTagLinesVector holds the two loops together.
		for {
			if cap(tags)-len(tags) < 16 {
				tags = slices.Grow(tags, 64)
			}
			room := tags[:len(tags):min(cap(tags), MaxTags)]
			next, n, l := tagLinesVector(data, i, room, lines, notNameSet, plainValueSet)
			if n > len(tags) {
				s.mode = modeTags
			}
			tags, lines, i = tags[:n], l, next
			if n < cap(room) || n == MaxTags {
				break // stopped at a line, not for room
			}
		}
	}
	// Here too, with the vector loops built in, the name's and the value's
	// ends are read from masks of the 64 bytes from win (classify64), for
	// the lines the assembly leaves: notName and valueEnd hold their
	// non-name bytes and the bytes that end a value. A window is made
	// again once a line starts in its second half, or a value runs past
	// it; near the end of data the loops below take over.
	win, notName, valueEnd := -64, uint64(0), uint64(0) // no window yet
tagLines:
	for i+2 < len(data) && data[i] == '[' && len(tags) < MaxTags {
		if vectorScan && uint(i-win) >= 32 && i+64 <= len(data) {
			win = i
			notName, valueEnd = classify64((*[64]byte)(data[i:i+64]), notNameSet, plainValueSet)
		}
		p := i + 1
		if off := uint(p - win); off < 64 && notName>>off != 0 {
			p += bits.TrailingZeros64(notName >> off)
		} else {
			for p < len(data) && nameBytes[data[p]] {
				p++
			}
		}
		nameEnd := p
		if p == i+1 || p+1 >= len(data) || data[p] != ' ' || data[p+1] != '"' {
			break tagLines
		}
		p += 2
		valStart := p
		off := uint(p - win)
		if vectorScan && (off >= 64 || valueEnd>>off == 0) && p+64 <= len(data) {
			win, off = p, 0
			notName, valueEnd = classify64((*[64]byte)(data[p:p+64]), notNameSet, plainValueSet)
		}
		if off < 64 && valueEnd>>off != 0 {
			p += bits.TrailingZeros64(valueEnd >> off)
		} else {
			p = plainValueLength(data, p)
		}
		if p+2 >= len(data) || data[p] != '"' || data[p+1] != ']' {
			break tagLines
		}
		valEnd, end := p, p+2
		switch {
		case data[end] == '\n':
			p = end + 1
		case data[end] == '\r' && end+1 < len(data) && data[end+1] == '\n':
			p = end + 2
		default:
			break tagLines
		}
		// Stored field by field into the slice: a tagSpan made aside is
		// copied in with loads that wait on its stores.
		n := len(tags)
		if n == cap(tags) {
			tags = append(tags, tagSpan{})
		}
		tags = tags[:n+1]
		t := &tags[n]
		t.start, t.end, t.nameStart, t.nameEnd = i, end, i+1, nameEnd
		t.valStart, t.valEnd, t.escaped, t.line = valStart, valEnd, false, lines
		s.mode = modeTags
		lines++
		i = p
	}
	s.tags, s.lines = tags, lines
	if s.mode == modeTags && i < len(data) {
		// A blank line ends the tag section, as in anyHeaderLine.
		if data[i] == '\n' || data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			s.mode = modeMovetext
			s.movetext = i
		}
	}
	return i
}

// plainValueLength returns the offset of the first byte at or after p that
// ends a value on plainTagLines' path, or len(data). It tests eight bytes
// at a time: values are a few dozen bytes, too short for IndexByte's
// set-up to pay, and it finds three bytes at once.
func plainValueLength(data []byte, p int) int {
	for ; p+8 <= len(data); p += 8 {
		w := binary.LittleEndian.Uint64(data[p:])
		if m := wordZeros(w^'"'*wordOnes) | wordZeros(w^'\\'*wordOnes) | wordZeros(w^'\n'*wordOnes); m != 0 {
			return p + firstMarked(m)
		}
	}
	for p < len(data) && !plainValueEnd[data[p]] {
		p++
	}
	return p
}

// plainValueEnd are the bytes that end a tag value on plainTagLines'
// path: its closing quote, or what sends the line to the general path.
var plainValueEnd = [256]bool{'"': true, '\\': true, '\n': true}

// tagPairs parses the tag pairs on one line, line[j] being '['; base is the
// line's offset in the game. It returns rest true, with k the offset in line,
// when something other than tag pairs follows them on the line.
func (s *scanner) tagPairs(line []byte, base, j int) (k int, rest bool) {
	for j < len(line) && line[j] == '[' {
		end, ok := s.tagPair(line, base, j)
		if !ok {
			// A game of nothing but broken tag lines must not make a
			// message, and memory, per line: the first few are reported.
			if s.badTags++; s.badTags <= maxTagProblems {
				s.problems = append(s.problems, problem{base + j, fmt.Errorf("%w: %s", ErrUnterminatedTag, quoteLine(line[j:]))})
			}
			return 0, false
		}
		j = skipBlanks(line, end)
	}
	if j < len(line) && line[j] != '\r' && line[j] != '\n' {
		return j, true
	}
	return 0, false
}

// tagPair parses `[Name "value"]` at line[j] and records it.
func (s *scanner) tagPair(line []byte, base, j int) (end int, ok bool) {
	t := tagSpan{start: base + j, line: s.lines}
	p := skipBlanks(line, j+1)
	t.nameStart = base + p
	for p < len(line) && isNameByte(line[p]) {
		p++
	}
	t.nameEnd = base + p
	if t.nameEnd == t.nameStart {
		return 0, false
	}
	p = skipBlanks(line, p)
	if p >= len(line) || line[p] != '"' {
		return 0, false
	}
	p++
	t.valStart = base + p
	// The closing quote is found at once; only a value holding a
	// backslash, rare, is walked byte by byte for its escapes.
	q := bytes.IndexByte(line[p:], '"')
	if q >= 0 && bytes.IndexByte(line[p:p+q], '\\') < 0 {
		p += q
	} else {
		for ; p < len(line) && line[p] != '"'; p++ {
			if line[p] == '\\' {
				t.escaped = true
				p++
			}
		}
	}
	if p >= len(line) {
		return 0, false
	}
	t.valEnd = base + p
	p = skipBlanks(line, p+1)
	if p >= len(line) || line[p] != ']' {
		return 0, false
	}
	t.end = base + p + 1
	if t.escaped {
		raw := line[t.valStart-base : t.valEnd-base]
		t.valStart = len(s.vals)
		s.vals = unescape(s.vals, raw)
		t.valEnd = len(s.vals)
	}
	if len(s.tags) == MaxTags {
		// A real game has a few dozen tags; past this many the game is
		// hostile, and its tags are not worth the memory.
		if !s.tagsCut {
			s.tagsCut = true
			s.problems = append(s.problems, problem{t.start, fmt.Errorf("%w: over %d tags; the game is passed through unexamined", ErrGameTooLarge, MaxTags)})
		}
		return p + 1, true
	}
	s.tags = append(s.tags, t)
	return p + 1, true
}

// MaxTags is the most tags a Game holds; a game with more has
// TagsIncomplete set.
const MaxTags = 4096

// maxTagProblems is how many malformed tag pairs of one game are reported
// one by one; the rest are counted in one more problem.
const maxTagProblems = 10

// unescape appends the tag value v with \" and \\ resolved. A backslash
// before any other byte is kept, as real files have Windows paths.
func unescape(dst, v []byte) []byte {
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && (v[i+1] == '"' || v[i+1] == '\\') {
			i++
		}
		dst = append(dst, v[i])
	}
	return dst
}

func isNameByte(c byte) bool { return nameBytes[c] }

// IsTagName reports whether the Reader reads name whole as a tag's name:
// it is not empty, and each of its bytes is a letter, a digit or one of
// _ - + # = : (more than the standard's letters, digits and _, since
// archives write such names). A program that takes a tag's name from its
// user checks it here, so that it asks only for names a game can have.
func IsTagName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !nameBytes[name[i]] {
			return false
		}
	}
	return true
}

// nameBytes are the bytes of a tag name, looked up rather than compared
// since every tag of every game passes through it.
var nameBytes = func() (t [256]bool) {
	for c := range t {
		b := byte(c)
		t[c] = b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' ||
			b == '_' || b == '-' || b == '+' || b == '#' || b == '=' || b == ':'
	}
	return t
}()

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// isTagStart reports whether data[j:] begins like a tag pair: '[' and a
// letter. "[%clk ...]" and other bracketed text does not.
func isTagStart(data []byte, j int) bool {
	return j+1 < len(data) && data[j] == '[' && isLetter(data[j+1])
}

// tagAfterBlankLine finds, inside a comment, a whole line that follows a
// blank line and looks like a tag pair (`[Name "`): the sign of a comment
// that was never closed. It returns the offset of that line, or -1. The
// line must end inside seg, or seg must run to the end of the input
// (final), so that a comment closing on the tag's own line is not taken
// for one left open.
func tagAfterBlankLine(seg []byte, final bool) int {
	// Most comments (a clock, an evaluation) hold no line break: one
	// IndexByte settles them, cheaper than looking for "\n[".
	if bytes.IndexByte(seg, '\n') < 0 {
		return -1
	}
	for from := 0; ; {
		k := bytes.Index(seg[from:], []byte("\n["))
		if k < 0 {
			return -1
		}
		k += from + 1 // the '['
		from = k
		if !final && bytes.IndexByte(seg[k:], '\n') < 0 {
			return -1
		}
		if prevLineBlank(seg, k-1) && looksLikeTagPair(seg[k:]) {
			return k
		}
	}
}

// leftOpen decides whether a comment that holds a blank line and then a
// line like a tag pair (b begins with that line) was left open. It was
// not when a '}' comes first, before any '{' and before another blank line
// and tag pair: the comment quotes a game. It was when one of those comes
// first, or the input ends. sure is false when b does not tell yet.
func leftOpen(b []byte, atEOF bool) (open, sure bool) {
	closing := bytes.IndexByte(b, '}')
	first := closing
	if k := bytes.IndexByte(b, '{'); k >= 0 && (first < 0 || k < first) {
		first = k
	}
	line := endOfLine(b, 0)
	limit := len(b)
	if first >= 0 {
		limit = first
	}
	if line < limit {
		if k := tagAfterBlankLine(b[line:limit], first < 0 && atEOF); k >= 0 {
			return true, true
		}
	}
	switch {
	case first >= 0:
		return first != closing, true
	case atEOF:
		return true, true
	}
	return false, false
}

// startOfLastLines returns the offset just after the n-th newline from the
// end of b, or 0.
func startOfLastLines(b []byte, n int) int {
	end := len(b)
	for ; n > 0; n-- {
		k := bytes.LastIndexByte(b[:end], '\n')
		if k < 0 {
			return 0
		}
		end = k
	}
	return end + 1
}

// prevLineBlank reports whether the line ending with the newline at nl
// holds only blanks.
func prevLineBlank(b []byte, nl int) bool {
	for i := nl - 1; i >= 0; i-- {
		switch {
		case b[i] == '\n':
			return true
		case !IsSpace(b[i]):
			return false
		}
	}
	return false
}

// looksLikeTagPair checks `[Name "` at the start of b.
func looksLikeTagPair(b []byte) bool {
	p := 1
	for p < len(b) && isNameByte(b[p]) {
		p++
	}
	if p == 1 {
		return false
	}
	p = skipBlanks(b, p)
	return p < len(b) && b[p] == '"'
}

func skipBlanks(b []byte, i int) int {
	for i < len(b) && tagBlanks[b[i]] {
		i++
	}
	return i
}

// tagBlanks are the blanks within a tag line: those of isLineSpace but
// the carriage return, which ends the line.
var tagBlanks = func() (t [256]bool) {
	for c := range t {
		t[c] = isLineSpace(byte(c)) && c != '\r'
	}
	return t
}()

// endOfLine returns the offset of the newline ending the line at i, or
// len(b).
func endOfLine(b []byte, i int) int {
	if k := bytes.IndexByte(b[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(b)
}

// hasMoves reports whether movetext b holds anything besides blanks,
// comments and escape lines.
func hasMoves(b []byte) bool {
	bol := true
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\n':
			bol = true
			continue
		case IsSpace(c):
		case c == '{':
			k := bytes.IndexByte(b[i:], '}')
			if k < 0 {
				return false
			}
			i += k
		case c == ';':
			i = endOfLine(b, i) - 1
		case c == '%':
			if !bol {
				return true
			}
			i = endOfLine(b, i) - 1
		default:
			if i == 0 && bytes.HasPrefix(b, bom) {
				i += len(bom) - 1
				break
			}
			return true
		}
		bol = false
	}
	return false
}

func isTokenEnd(c byte) bool {
	return IsSpace(c) || c == '.' || c == ')' || c == '}'
}

// lastNonSpace returns the offset of the last byte of b that is not a blank.
func lastNonSpace(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if !IsSpace(b[i]) {
			return i
		}
	}
	return 0
}

// quoteLine shows a malformed line in a message, shortened as every
// message quoting the input is (words.Quote).
func quoteLine(b []byte) string {
	return words.Quote(bytes.TrimRight(b, "\r\n"))
}
