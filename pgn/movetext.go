package pgn

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
)

// TokenKind is the kind of a movetext token.
type TokenKind uint8

// The kinds of movetext tokens.
const (
	// TokenInvalid is text that is no PGN token: stray punctuation, a ')'
	// with no '(' open, "[%clk ...]" outside a comment, a '$' without
	// digits. Readers usually skip it.
	TokenInvalid TokenKind = iota
	// TokenMoveNumber is a move number indication: "12.", "12...", "12",
	// or a lone "..." continuation.
	TokenMoveNumber
	// TokenMove is a move in SAN or what looks like one (it starts with
	// a letter or a figurine, or is castling with zeros, or the null move
	// "--"); the scanner does not check that it is legal or even SAN. Check and
	// mate marks stay with the move; trailing "!", "?" glyphs become a
	// separate TokenNAG.
	TokenMove
	// TokenNAG is a numeric annotation glyph "$14" or a symbolic one:
	// "!", "?", "!!", "??", "!?", "?!", and symbols such as "+-", "=",
	// "±" written on their own.
	TokenNAG
	// TokenComment is a brace comment, braces included. A comment left
	// open runs to the end of the movetext and has no closing brace.
	TokenComment
	// TokenLineComment is a ';' comment, to the end of its line (the
	// line ending not included).
	TokenLineComment
	// TokenOpenVariation is '('.
	TokenOpenVariation
	// TokenCloseVariation is ')'.
	TokenCloseVariation
	// TokenEscape is a '%' escape line, to the end of the line.
	TokenEscape
	// TokenResult is a game termination marker: "1-0", "0-1", "1/2-1/2"
	// or "*".
	TokenResult
)

var tokenKindNames = [...]string{
	TokenInvalid:        "invalid",
	TokenMoveNumber:     "move-number",
	TokenMove:           "move",
	TokenNAG:            "nag",
	TokenComment:        "comment",
	TokenLineComment:    "line-comment",
	TokenOpenVariation:  "open-variation",
	TokenCloseVariation: "close-variation",
	TokenEscape:         "escape",
	TokenResult:         "result",
}

func (k TokenKind) String() string {
	if int(k) < len(tokenKindNames) {
		return tokenKindNames[k]
	}
	return "TokenKind(" + strconv.Itoa(int(k)) + ")"
}

// Token is one token of a movetext.
type Token struct {
	Kind TokenKind
	// Text is the token's bytes, a slice of the scanned movetext: valid as
	// long as the movetext is, and not to be modified.
	Text []byte
	// Offset is the offset of Text in the scanned movetext.
	Offset int
	// Line is the line of the token's first byte, counted from the first
	// line given to Reset.
	Line int
	// Depth is the variation nesting level: 0 in the main line, 1 inside
	// one pair of parentheses, and so on. A '(' and its ')' carry the
	// level of the variation they enclose, so the main line is exactly
	// the tokens of Depth 0.
	Depth int
}

// MovetextScanner splits a game's movetext into tokens, in the manner of
// bufio.Scanner:
//
//	var s pgn.MovetextScanner
//	s.Reset(g.Movetext(), 1)
//	for s.Next() {
//		tok := s.Token()
//		...
//	}
//
// It never fails and never allocates: whatever is not a token comes back
// as TokenInvalid, and every token's Text points into the movetext. The
// zero value scans nothing until Reset.
type MovetextScanner struct {
	buf   []byte
	pos   int // next byte to examine
	bol   bool
	depth int

	kind  TokenKind
	start int
	end   int
	tdep  int

	// Lines are counted lazily, when Token is called, so that callers
	// that never ask for lines (CountPlies) never count newlines.
	line    int
	lineOff int
	nl      [1]byte // the byte that ends lines: '\n', or '\r' (lineBreak)

	// pendingNAG is the offset of glyphs ("!?") that followed a move
	// without a blank, to be returned as the next token; -1 when none.
	pendingNAG int
	pendingEnd int

	// game, after ResetGame until Token first needs lines, is the game
	// whose movetext line is the first line's number.
	game *Game
}

// NewMovetextScanner returns a scanner over movetext whose first line is
// line 1.
func NewMovetextScanner(movetext []byte) *MovetextScanner {
	s := new(MovetextScanner)
	s.Reset(movetext, 1)
	return s
}

// Reset makes s scan movetext from its beginning, numbering lines from
// firstLine (the input line the movetext starts on, for messages that
// name input lines; see Game.MovetextLine).
//
// Lines end where movetext says they do: with line feeds, or with lone CRs
// in a movetext that holds CRs and no line feed. A scanner of a game's
// moves takes ResetGame instead, which knows the game's own line ending.
func (s *MovetextScanner) Reset(movetext []byte, firstLine int) {
	s.reset(movetext, firstLine, lineBreak(movetext))
}

// ResetGame makes s scan the movetext of g, numbering lines from the input
// line it starts on (Game.MovetextLine), with lines ending as the Reader
// ended the game's. Reset would guess that from the movetext alone, and
// take a game whose moves hold a lone CR and no line feed, in a file of
// line feeds, for one of lone CRs: a '%' after the CR would then begin an
// escape line, which it does not for the Reader.
func (s *MovetextScanner) ResetGame(g *Game) {
	s.reset(g.Movetext(), 0, g.newline()[0])
	s.game = g
}

func (s *MovetextScanner) reset(movetext []byte, firstLine int, nl byte) {
	*s = MovetextScanner{buf: movetext, bol: true, line: firstLine, pendingNAG: -1, nl: [1]byte{nl}}
	if bytes.HasPrefix(movetext, bom) {
		s.pos = len(bom)
	}
}

// MovetextLine returns the input line on which the game's movetext starts.
func (g *Game) MovetextLine() int {
	return g.Line + bytes.Count(g.Raw[:g.movetext], g.newline())
}

// Termination returns the game termination marker that ends the movetext
// (see the function Termination) and its input line, or nil and 0.
func (g *Game) Termination() (marker []byte, line int) {
	off, n := g.markerAt()
	if off < 0 {
		return nil, 0
	}
	return g.Raw[off : off+n], g.Line + bytes.Count(g.Raw[:off], g.newline())
}

// TerminationMarker returns the game termination marker that ends the
// movetext, as Termination does, without counting the lines to it: a game
// from a Reader has it found already.
func (g *Game) TerminationMarker() []byte {
	off, n := g.markerAt()
	if off < 0 {
		return nil
	}
	return g.Raw[off : off+n]
}

// markerAt returns the offset in Raw and the length of the termination
// marker, or -1: as the reader found it, or, for a Game made otherwise,
// as the function Termination finds it now.
func (g *Game) markerAt() (off, n int) {
	switch {
	case g.marker > 0:
		return g.movetext + g.marker - 1, int(g.markerLen)
	case g.marker < 0:
		return -1, 0
	}
	marker, off := Termination(g.Movetext())
	if marker == nil {
		return -1, 0
	}
	return g.movetext + off, len(marker)
}

// Token returns the token found by the last call to Next.
func (s *MovetextScanner) Token() Token {
	if s.game != nil {
		// Counted when asked for: a dedup key never asks.
		s.line, s.game = s.game.MovetextLine(), nil
	}
	if s.lineOff < s.start {
		s.line += bytes.Count(s.buf[s.lineOff:s.start], s.nl[:])
		s.lineOff = s.start
	}
	return Token{Kind: s.kind, Text: s.buf[s.start:s.end], Offset: s.start, Line: s.line, Depth: s.tdep}
}

// Text returns the text of the token found by the last call to Next (see
// Token.Text); it is cheaper than Token, which counts lines to the token.
func (s *MovetextScanner) Text() []byte { return s.buf[s.start:s.end] }

// Kind returns the kind of the token found by the last call to Next; it is
// cheaper than Token when only the kind matters.
func (s *MovetextScanner) Kind() TokenKind { return s.kind }

// Depth returns the variation depth of the token found by the last call
// to Next (see Token.Depth).
func (s *MovetextScanner) Depth() int { return s.tdep }

// Next advances to the next token and reports whether there is one.
func (s *MovetextScanner) Next() bool {
	if s.pendingNAG >= 0 {
		s.set(TokenNAG, s.pendingNAG, s.pendingEnd)
		s.pendingNAG = -1
		return true
	}
	b := s.buf
	i := s.pos
	// Skip blanks, remembering whether the next token starts a line:
	// only then is '%' an escape.
	for i < len(b) {
		c := b[i]
		if c == s.nl[0] {
			s.bol = true
		} else if !IsSpace(c) {
			break
		}
		i++
	}
	if i >= len(b) {
		s.pos = i
		return false
	}
	bol := s.bol
	s.bol = false
	switch c := b[i]; c {
	case '{':
		end := len(b)
		if k := bytes.IndexByte(b[i+1:], '}'); k >= 0 {
			end = i + 1 + k + 1
		}
		s.set(TokenComment, i, end)
	case ';':
		s.set(TokenLineComment, i, lineEnd(b, i, s.nl[0]))
	case '%':
		if bol {
			s.set(TokenEscape, i, lineEnd(b, i, s.nl[0]))
		} else {
			s.set(TokenInvalid, i, i+1)
		}
	case '(':
		s.depth++
		s.set(TokenOpenVariation, i, i+1)
	case ')':
		if s.depth == 0 {
			s.set(TokenInvalid, i, i+1)
			break
		}
		s.set(TokenCloseVariation, i, i+1)
		s.depth--
	case '$':
		j := i + 1
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == i+1 {
			s.set(TokenInvalid, i, j)
		} else {
			s.set(TokenNAG, i, j)
		}
	case '}':
		s.set(TokenInvalid, i, i+1)
	default:
		s.word(i)
	}
	return true
}

// set records the current token and moves past it. The depth of ')' was
// taken before it closed its variation, so that it matches its '('.
func (s *MovetextScanner) set(k TokenKind, start, end int) {
	s.kind, s.start, s.end, s.tdep = k, start, end, s.depth
	s.pos = end
}

// wordEnd tells which bytes end a word: blanks and the bytes that start
// tokens of their own.
var wordEnd = func() (t [256]bool) {
	for c := range t {
		t[c] = IsSpace(byte(c))
	}
	for _, c := range []byte("{}();$") {
		t[c] = true
	}
	return t
}()

// word classifies the word starting at b[i].
func (s *MovetextScanner) word(i int) {
	b := s.buf
	j := i
	for j < len(b) && !wordEnd[b[j]] {
		j++
	}
	w := b[i:j]
	// A move number, possibly glued to the move: "12.", "12...e5".
	if d := leadingDigits(w); d > 0 || w[0] == '.' {
		dots := d
		for dots < len(w) && w[dots] == '.' {
			dots++
		}
		if dots == len(w) || dots > d {
			s.set(TokenMoveNumber, i, i+dots)
			return
		}
	}
	switch {
	case isResult(w):
		s.set(TokenResult, i, j)
	case isMoveWord(w):
		// Glyphs glued to the move: "Nf3!?" is "Nf3" and "!?".
		k := len(w)
		for k > 0 && (w[k-1] == '!' || w[k-1] == '?') {
			k--
		}
		if k > 0 && k < len(w) {
			s.set(TokenMove, i, i+k)
			s.pendingNAG, s.pendingEnd = i+k, j
			return
		}
		s.set(TokenMove, i, j)
	case isGlyph(w):
		s.set(TokenNAG, i, j)
	default:
		s.set(TokenInvalid, i, j)
	}
}

func leadingDigits(w []byte) int {
	n := 0
	for n < len(w) && w[n] >= '0' && w[n] <= '9' {
		n++
	}
	return n
}

func isResult(w []byte) bool {
	switch string(w) {
	case "1-0", "0-1", "1/2-1/2", "*":
		return true
	}
	return false
}

// isMoveWord reports whether w looks like a move: it starts with a letter
// (SAN, "Z0"), or with a non-ASCII figurine and holds a file letter, or is
// castling written with zeros, or the null move "--".
func isMoveWord(w []byte) bool {
	// Most words are SAN moves starting with a letter: decide those first
	// (this runs for every word of every game).
	switch c := w[0]; {
	case isLetter(c):
		return true
	case c == '0' || c == '-':
		k := len(w)
		for k > 0 && (w[k-1] == '+' || w[k-1] == '#' || w[k-1] == '!' || w[k-1] == '?') {
			k--
		}
		switch string(w[:k]) {
		case "0-0", "0-0-0", "--":
			return true
		}
	case c >= 0x80:
		for _, c := range w {
			if isLetter(c) {
				return true
			}
		}
	}
	return false
}

// isGlyph reports whether w is made of annotation symbols only: ASCII
// "!?+-=/" and any non-ASCII bytes (±, ∓, ∞, ⩲ and the like).
func isGlyph(w []byte) bool {
	for _, c := range w {
		switch {
		case c == '!' || c == '?' || c == '+' || c == '-' || c == '=' || c == '/' || c >= 0x80:
		default:
			return false
		}
	}
	return len(w) > 0
}

// lineEnd returns the offset of the line ending of the line holding b[i]
// ("\r\n" or "\n", or "\r" when nl is '\r'), or len(b).
func lineEnd(b []byte, i int, nl byte) int {
	k := bytes.IndexByte(b[i:], nl)
	if k < 0 {
		return len(b)
	}
	k += i
	if nl == '\n' && k > i && b[k-1] == '\r' {
		k--
	}
	return k
}

// onlyResult reports whether b holds a result and blanks, nothing else.
func onlyResult(b []byte) bool {
	for len(b) > 0 && spaceTable[b[0]] {
		b = b[1:]
	}
	return isResult(trimSpaceRight(b))
}

// lineBreak returns the byte that ends the lines of a game's movetext:
// '\r' for a game from an input whose lines end with a lone CR (old Mac
// exports: the reader hands them out with their CRs), '\n' otherwise.
// Such a movetext holds CRs and no line feed; any other holds a line feed,
// usually on its first line, so the test costs little.
func lineBreak(movetext []byte) byte {
	if bytes.IndexByte(movetext, '\n') < 0 && bytes.IndexByte(movetext, '\r') >= 0 {
		return '\r'
	}
	return '\n'
}

// CountPlies counts the moves of the main line of a movetext: moves inside
// variations, comments, NAGs, move numbers, escape lines and the result
// are not moves. Null moves ("--", "Z0") count, since they take a turn.
//
// It counts exactly the TokenMove tokens of Depth 0 that a MovetextScanner
// returns (the fuzz test holds the two together), with a loop of its own:
// statistics call it for every game without a PlyCount tag, and skipping
// the Token bookkeeping makes it several times faster. Lines end as
// MovetextScanner.Reset says; Game.CountPlies counts with the game's own
// line ending.
func CountPlies(movetext []byte) int { return countPlies(movetext, 0) }

// CountPlies counts the moves of the main line of the game's movetext, as
// the function CountPlies does, with lines ending as the Reader ended the
// game's (see MovetextScanner.ResetGame).
func (g *Game) CountPlies() int { return countPlies(g.Movetext(), g.newline()[0]) }

// countPlies is CountPlies with lines ending at nl, or at the byte
// lineBreak guesses when nl is 0: the guess is made only at a ';' or a
// '%', which are rare.
func countPlies(movetext []byte, nl byte) int {
	b := movetext
	i := 0
	// Spelled out: bytes.HasPrefix is a call to memequal, which took
	// nearly a tenth of the time of a lichess game.
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		i = 3
	}
	if len(b)-i <= 16 && onlyResult(b[i:]) {
		return 0 // a header-only game's movetext, told at once
	}
	first := i
	n, depth := 0, 0
	if vectorScan && len(b)-i >= 64 {
		var done bool
		if n, i, done = countPliesVector(b, i); done {
			return n
		}
	}
	for i < len(b) {
		// First the tokens that make up most of every archive, in their
		// most common forms: moves followed by a blank, move numbers,
		// comments of up to 16 bytes, blanks and parentheses. Each is
		// told from a few bytes read at once, with no byte loop whose end
		// a branch would mispredict, as the scanner's word loop does on
		// nearly every word; whatever else comes, or where a case would
		// have to look further, is left to the switch after this loop.
		// That switch is written out here rather than called: as a
		// function it made CountPlies a tenth slower on lichess games.
	common:
		for i < len(b) {
			class := plyClass[b[i]]
			if class == pcLetter {
				// A word starting with a letter is a move (SAN or not),
				// whatever its other bytes. Of the eight bytes after its
				// first, the first one below '!' ends it, if that is a
				// blank and none before it is another byte that ends
				// words: '$', '(', ')', ';', '{' or '}' (wordEnd). Longer
				// words, words glued to a comment or a parenthesis and
				// control bytes are left to the switch. As in wordZeros,
				// only the lowest mark of each test is sure, and only
				// lowest marks are used.
				if len(b)-i < 9 {
					break common
				}
				w := binary.LittleEndian.Uint64(b[i+1 : i+9])
				blank := wordBelow(w, '!') // ASCII bytes below '!'
				other := wordZeros(w^'$'*wordOnes) |
					wordBelow(w^'('*wordOnes, 2) | // '(' and ')'
					wordZeros(w^';'*wordOnes) |
					wordZeros(w^'{'*wordOnes) |
					wordZeros(w^'}'*wordOnes)
				if blank == 0 || other&(blank&-blank-1) != 0 { // none, or another before it
					break common
				}
				k := firstMarked(blank)
				if spaceBits>>(w>>(8*k)&0x3f)&1 == 0 {
					break common // a control byte
				}
				i += 1 + k + 1 // the word and its blank
				if depth == 0 {
					n++
				}
				continue
			}
			if class == pcNumber {
				// Digits then dots, followed by a blank, by a move glued
				// to the dots ("12.e4") or by the end of the word, are a
				// move number ("12.", "12...", "12", "..."), as word
				// tells them.
				d := i
				for d < len(b) && b[d]-'0' < 10 {
					d++
				}
				dots := d
				for dots < len(b) && b[dots] == '.' {
					dots++
				}
				if dots == len(b) {
					return n
				}
				if b[dots] == ' ' {
					i = dots + 1
					continue
				}
				if dots > d || wordEnd[b[dots]] {
					i = dots
					continue
				}
				break common // "1-0", "0-0" and the like
			}
			if class == pcBrace {
				// Lichess's clock comment, "{ [%clk 0:10:00] }", and the
				// blank after it: no comment is more frequent, since it
				// follows every move of most lichess games.
				if len(b)-i >= 19 {
					c := b[i : i+19]
					if binary.LittleEndian.Uint64(c) == clockComment && c[16] == ' ' && c[17] == '}' &&
						wordZeros(binary.LittleEndian.Uint64(c[8:16])^'}'*wordOnes) == 0 {
						i += 18
						if IsSpace(c[18]) {
							i++
						}
						continue
					}
				}
				// Any other comment that ends within 16 bytes, as the
				// clocks of other sites and the evaluations of engine
				// matches do ("{+0.31/11 0.30s}").
				if len(b)-i >= 17 {
					c := b[i+1 : i+17]
					m0 := wordZeros(binary.LittleEndian.Uint64(c[0:8]) ^ '}'*wordOnes)
					m1 := wordZeros(binary.LittleEndian.Uint64(c[8:16]) ^ '}'*wordOnes)
					if m0 != 0 {
						i += 1 + firstMarked(m0) + 1
						continue
					}
					if m1 != 0 {
						i += 1 + 8 + firstMarked(m1) + 1
						continue
					}
				}
				break common
			}
			switch class {
			case pcBlank:
				i++
			case pcOpen:
				depth++
				i++
			case pcClose:
				if depth > 0 {
					depth--
				}
				i++
			default:
				break common
			}
		}
		if i >= len(b) {
			break
		}
		// Any token at all, as Next and word read it.
		switch plyClass[b[i]] {
		case pcBlank:
			i++
		case pcBrace:
			k := bytes.IndexByte(b[i+1:], '}')
			if k < 0 {
				return n
			}
			i += k + 2
		case pcSemicolon:
			if nl == 0 {
				nl = lineBreak(b)
			}
			i = lineEnd(b, i, nl)
		case pcPercent:
			if nl == 0 {
				nl = lineBreak(b)
			}
			if atLineStart(b, first, i, nl) {
				i = lineEnd(b, i, nl)
			} else {
				i++
			}
		case pcOpen:
			depth++
			i++
		case pcClose:
			if depth > 0 {
				depth--
			}
			i++
		case pcDollar:
			i++
			for i < len(b) && b[i]-'0' < 10 {
				i++
			}
		case pcOther:
			i++
		case pcLetter:
			i = skipWord(b, i+1)
			if depth == 0 {
				n++
			}
		default: // any other word
			j := skipWord(b, i+1)
			w := b[i:j]
			if plyClass[w[0]] == pcNumber {
				// A move number, maybe glued to its move.
				d := leadingDigits(w)
				dots := d
				for dots < len(w) && w[dots] == '.' {
					dots++
				}
				if dots == len(w) || dots > d {
					i += dots
					continue
				}
			}
			if depth == 0 && !isResult(w) && isMoveWord(w) {
				n++
			}
			i = j
		}
	}
	return n
}

// countPliesVector counts the moves of b from b[i] as CountPlies does, 64
// bytes at a time from masks of their classes (the whole blocks in
// assembly, pliesBlocks; the last, shorter one with plyClasses and
// plyState.count, which say the same in Go), where b is
// written as most archives write their movetext: moves, move numbers,
// blanks and comments. It returns done with n the whole count, or leaves
// the rest to CountPlies' loop: n moves before b[next], where next is i for
// anything else outside the comments (a variation, a NAG, a line comment,
// a control or non-ASCII byte, a word that starts with neither a letter
// nor a digit or dot, the result at the end aside, digits and dots
// followed by anything but a blank, a brace or, after a dot, a move, a '{'
// inside a comment or a '}' outside one), or the end of a comment of
// longComment bytes or more, after which the loop is the faster.
//
// Outside the comments, then, a word that starts with a letter is a move,
// and so is one that follows the dots of a move number in the same word
// ("12.e4", "1...e5"); nothing else is.
func countPliesVector(b []byte, i int) (n, next int, done bool) {
	// The result at the end would fail the test on a word's first byte.
	end := len(trimSpaceRight(b))
	w := end
	for w > i && !wordEnd[b[w-1]] {
		w--
	}
	if isResult(b[w:end]) {
		end = w
	}
	st := plyState{afterBlank: 1}
	for p := i; p < end; {
		if st.inComment != 0 {
			// A block that would start inside a comment starts at its
			// '}' instead, found by IndexByte, many times faster over
			// the long comments of engines; after one of those the
			// loop takes over, faster too on such games.
			k := bytes.IndexByte(b[p:end], '}')
			if k < 0 {
				break // open to the end, and nothing in it counts
			}
			if p += k; k >= longComment {
				return st.n, p, false
			}
		}
		if end-p >= 64 {
			// Whole blocks, in assembly, to the end or to a block that
			// ends inside a comment.
			var counted bool
			if p, counted = pliesBlocks(b[:end], p, &st, &plySets); !counted {
				return 0, i, false
			}
			continue
		}
		var masks [7]uint64
		if end >= 64 {
			// The last block, read from 64 bytes before the end: the
			// bytes counted already are shifted out, and the bits left
			// free at the top are taken for blanks, which are no moves.
			plyClasses((*[64]byte)(b[end-64:end]), &plySets, &masks)
			seen := uint(64 - (end - p))
			for k := range masks {
				masks[k] >>= seen
			}
			masks[2] |= ^(^uint64(0) >> seen)
		} else {
			var tail [64]byte
			copy(tail[:], b[p:end])
			for k := end - p; k < 64; k++ {
				tail[k] = ' '
			}
			plyClasses(&tail, &plySets, &masks)
		}
		if !st.count(&masks) {
			return 0, i, false
		}
		break
	}
	return st.n, end, true
}

// plyState is what countPliesVector carries from one block of 64 bytes to
// the next, as bits of the block's first byte or all of them, and the
// moves counted. pliesBlocks, in assembly, reads and writes its fields by
// their offsets.
type plyState struct {
	n          int
	inComment  uint64 // all ones when a comment is open
	afterBlank uint64 // the byte before is a blank or a brace (or there is none)
	afterDot   uint64 // the byte before is a '.'
	carry      uint64 // a move number runs on
}

// count counts the moves of a block from its masks (plyClasses'), as
// pliesBlocks does, and reports false when the block holds what is left to
// CountPlies' own loop.
func (st *plyState) count(masks *[7]uint64) bool {
	letter, number, blank, other, dot, open, close := masks[0], masks[1], masks[2], masks[3], masks[4], masks[5], masks[6]
	// in is 1 after each byte where a comment is open, counting a '{' in
	// and a '}' out: the prefix XOR of the braces.
	braces := open | close
	in := braces
	in ^= in << 1
	in ^= in << 2
	in ^= in << 4
	in ^= in << 8
	in ^= in << 16
	in ^= in << 32
	in ^= st.inComment
	if open&^in != 0 || close&in != 0 {
		return false // a '{' inside a comment, or a '}' outside one
	}
	st.inComment = -(in >> 63)
	outside := ^(in | braces)
	if other&outside != 0 {
		return false
	}
	ends := blank | braces // the bytes that end a word here
	starts := outside &^ ends & (ends<<1 | st.afterBlank)
	if starts&^(letter|number) != 0 {
		return false
	}
	st.n += bits.OnesCount64(starts & letter)
	// A word that starts with a digit or a dot: adding its first bit to
	// the run of them carries past the run, to the byte after it.
	sum, c := bits.Add64(number, starts&number, st.carry)
	after := sum &^ number
	glued := after & letter & (dot<<1 | st.afterDot)
	if after&^ends&^glued != 0 {
		return false
	}
	st.n += bits.OnesCount64(glued)
	st.carry, st.afterBlank, st.afterDot = c, ends>>63, dot>>63
	return true
}

// longComment is the length of a comment after which countPliesVector
// leaves the movetext to CountPlies' loop: the clock comments of lichess
// are 19 bytes, an engine's comment in a TCEC game hundreds.
const longComment = 128

// plySets are the byte classes of countPliesVector that plyClasses looks
// up, taken from CountPlies' own (plyClass): letters, digits and dots,
// blanks, and what sends a movetext back to CountPlies' loop when it comes
// outside comments: a line comment, a variation's parentheses, a NAG, and
// control and non-ASCII bytes, which the loop reads as words of their own.
var plySets = [4]nibbleSet{
	*newNibbleSet(func(c byte) bool { return plyClass[c] == pcLetter }),
	*newNibbleSet(func(c byte) bool { return plyClass[c] == pcNumber }),
	*newNibbleSet(func(c byte) bool { return plyClass[c] == pcBlank }),
	*newNibbleSet(func(c byte) bool {
		switch plyClass[c] {
		case pcSemicolon, pcOpen, pcClose, pcDollar:
			return true
		}
		return c < ' ' && !IsSpace(c) || c >= 0x7f
	}),
}

// skipWord returns the offset of the first byte from b[i] on that ends a
// word (wordEnd), or len(b).
func skipWord(b []byte, i int) int {
	for i < len(b) && !wordEnd[b[i]] {
		i++
	}
	return i
}

// atLineStart reports whether the token at b[i] is the first of its line,
// where a '%' starts an escape: only blanks stand between it and a line
// break, or first, where the movetext starts. CountPlies looks back at a
// '%', which is rare, rather than keep track at every blank as the
// scanner does. Lines end at nl.
func atLineStart(b []byte, first, i int, nl byte) bool {
	for k := i - 1; k >= first; k-- {
		if b[k] == nl {
			return true
		}
		if !IsSpace(b[k]) {
			return false
		}
	}
	return true
}

// spaceBits has bit c set for each blank c (IsSpace), all below 64:
// CountPlies tells a blank from a control byte with it.
const spaceBits uint64 = 1<<'\t' | 1<<'\n' | 1<<'\v' | 1<<'\f' | 1<<'\r' | 1<<0x1a | 1<<' '

// clockComment is the first eight bytes of lichess's clock comments,
// "{ [%clk ", as a little-endian word (see word.go).
const clockComment = '{' | ' '<<8 | '['<<16 | '%'<<24 | 'c'<<32 | 'l'<<40 | 'k'<<48 | ' '<<56

// Byte classes of CountPlies.
const (
	pcWord = iota
	pcBlank
	pcBrace
	pcSemicolon
	pcPercent
	pcOpen
	pcClose
	pcDollar
	pcOther  // a lone '}'
	pcLetter // the first byte of a move
	pcNumber // the first byte of a move number: a digit or '.'
)

var plyClass = func() (t [256]uint8) {
	for c := range t {
		if IsSpace(byte(c)) {
			t[c] = pcBlank
		}
	}
	t['{'] = pcBrace
	t[';'] = pcSemicolon
	t['%'] = pcPercent
	t['('] = pcOpen
	t[')'] = pcClose
	t['$'] = pcDollar
	t['}'] = pcOther
	t['.'] = pcNumber
	for c := '0'; c <= '9'; c++ {
		t[c] = pcNumber
	}
	for c := 'A'; c <= 'z'; c++ {
		if isLetter(byte(c)) {
			t[c] = pcLetter
		}
	}
	return t
}()

// Termination returns the game termination marker that ends movetext
// ("1-0", "0-1", "1/2-1/2" or "*"), looking back past blanks and comments
// as a reader of the export format would, and its offset in movetext. It
// returns nil and -1 when the movetext does not end with one.
func Termination(movetext []byte) (marker []byte, offset int) {
	return termination(movetext, lineBreak(movetext))
}

// termination is Termination with the byte that breaks lines given: the
// reader knows it, where Termination guesses it from the movetext.
func termination(movetext []byte, nl byte) (marker []byte, offset int) {
	b := movetext
	for {
		b = trimSpaceRight(b)
		if len(b) == 0 {
			return nil, -1
		}
		// Movetext on one line, as lichess writes it, is told at once;
		// a line start is looked back for a word at a time.
		bol := 0
		if bytes.IndexByte(b, nl) >= 0 {
			bol = lastIndexByte(b, nl) + 1
		}
		if b[bol] == '%' {
			// An escape line is ignored, wherever it stands.
			b = b[:bol]
			continue
		}
		if b[len(b)-1] == '}' {
			k := bytes.LastIndexByte(b, '{')
			if k < 0 {
				return nil, -1
			}
			b = b[:k]
			continue
		}
		if k := markerStart(b); k >= 0 {
			return b[k:], k
		}
		return nil, -1
	}
}

// markerStart returns where the termination marker that ends b begins, or
// -1. The four markers end in four different bytes, so the last byte picks
// the one to compare: a header-only game is mostly this check.
func markerStart(b []byte) int {
	n := len(b)
	k := -1
	switch b[n-1] {
	case '*':
		k = n - 1
	case '0':
		if n >= 3 && b[n-2] == '-' && b[n-3] == '1' {
			k = n - 3
		}
	case '1':
		if n >= 3 && b[n-2] == '-' && b[n-3] == '0' {
			k = n - 3
		}
	case '2':
		if n >= 7 && string(b[n-7:]) == "1/2-1/2" {
			k = n - 7
		}
	}
	if k > 0 && !isTokenEnd(b[k-1]) {
		return -1
	}
	return k
}
