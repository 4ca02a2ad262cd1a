// Package fen parses FEN and EPD records as they are found in the wild, tells
// whether a position is a Chess960 start array and which one, and writes
// start FENs.
//
// Real files disagree on details that a strict reader would reject, so
// [Parse] accepts:
//
//   - 4 to 6 fields: EPD records stop after the en passant field, and what
//     follows it is kept verbatim as [Position.Operations] unless it starts
//     with a number, in which case the half-move and full-move counters are
//     read first;
//   - any run of spaces, tabs or line-end characters between fields and
//     around the record, and a trailing ';' (FEN tags written as
//     "... 0 1;");
//   - the castling field in X-FEN (KQkq), Shredder-FEN (rook files such as
//     HAha, in any order) or a mixture of the two (KFkf), or '-';
//   - w or b for the side to move in either case, adjacent digits in a rank
//     ("44"), and a full-move number of 0, read as 1.
//
// Parse checks syntax, not legality. A castling letter that names no rook
// grants nothing and is skipped without an error: a file letter with no rook
// of that side on that square of its back rank, K or Q for a wing of the
// king without a rook, and any letter of a side with no king (or two) on its
// back rank. Parse never invents a right the board cannot back, so a record
// read and written again may lose such letters, but keeps every real right.
//
// Castling rights are kept per rook, as Shredder-FEN states them; see
// [Castling]. [Position.Format] writes them back in either notation, and
// [RewriteCastling] converts the castling field of a record without touching
// anything else.
//
// [Position.Start] identifies Chess960 start arrays by their Scharnagl
// numbers (see package numbering), including double Fischer random (DFRC)
// arrays whose two back ranks differ.
package fen

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Position is a parsed FEN or EPD record.
type Position struct {
	// Board holds the pieces by square index rank*8 + file (a1 = 0, b1 = 1,
	// h8 = 63) as FEN letters, 'P' to 'K' for White and 'p' to 'k' for
	// Black; 0 is an empty square.
	Board     [64]byte
	Turn      byte     // side to move, 'w' or 'b'
	Castling  Castling // castling rights, per rook
	EnPassant int      // en passant target square index, or -1
	HalfMove  int      // half-move clock; 0 when the record has none
	FullMove  int      // full-move number; 1 when the record has none
	// Operations holds an EPD record's operations after the fourth field
	// verbatim, e.g. `bm e4; id "x";`, and is "" for a FEN.
	Operations string
}

// Error is a syntax error in a FEN or EPD record.
type Error struct {
	// Field is the field at fault: "placement", "turn", "castling",
	// "en passant", "halfmove" or "fullmove".
	Field string
	Msg   string // what is wrong with it
}

func (e *Error) Error() string { return "fen: " + e.Field + ": " + e.Msg }

func errorf(field, format string, args ...any) *Error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Parse reads a FEN or EPD record as described in the package documentation.
// The error is an *Error naming the field at fault.
func Parse(s string) (Position, error) {
	p, _, err := parse(s)
	return p, err
}

// ParseBytes is [Parse] for a byte slice. It does not allocate when it
// succeeds on a record without EPD operations.
func ParseBytes(b []byte) (Position, error) {
	p, _, err := parse(b)
	return p, err
}

// text is what the parser reads; being generic over both spares ParseBytes
// the string conversion that would cost an allocation per record.
type text interface{ ~string | ~[]byte }

// span is a field's byte range in the record.
type span struct{ start, end int }

// scanner splits a record into whitespace-separated fields.
type scanner[T text] struct {
	s T
	i int
}

func isSpace(c byte) bool { return byteClass[c] == space }

// Classes of bytes in a record, looked up rather than compared because the
// loops over placement and spacing are the parser's hot path.
const (
	plain = iota
	space
	piece
)

var byteClass = func() (t [256]uint8) {
	for _, c := range []byte(" \t\n\r\v\f") {
		t[c] = space
	}
	for _, c := range []byte("PNBRQKpnbrqk") {
		t[c] = piece
	}
	return t
}()

// next returns the next field and where it is, or ok = false at the end.
func (sc *scanner[T]) next() (field T, at span, ok bool) {
	for sc.i < len(sc.s) && isSpace(sc.s[sc.i]) {
		sc.i++
	}
	at.start = sc.i
	for sc.i < len(sc.s) && !isSpace(sc.s[sc.i]) {
		sc.i++
	}
	at.end = sc.i
	return sc.s[at.start:at.end], at, at.end > at.start
}

// rest returns the unread part of the record without surrounding space.
func (sc *scanner[T]) rest() T {
	i, j := sc.i, len(sc.s)
	for i < j && isSpace(sc.s[i]) {
		i++
	}
	for j > i && isSpace(sc.s[j-1]) {
		j--
	}
	return sc.s[i:j]
}

// trimSemicolon removes the ';' that ends a record written as "... 0 1;".
func trimSemicolon[T text](f T) (T, bool) {
	if n := len(f); n > 0 && f[n-1] == ';' {
		return f[:n-1], true
	}
	return f, false
}

// parse does the work of Parse and also returns where the castling field is,
// for RewriteCastling. Fields are checked in order, so the error names the
// first one at fault.
func parse[T text](s T) (Position, span, error) {
	var p Position
	at, err := parseInto(&p, s)
	if err != nil {
		return Position{}, span{}, err
	}
	return p, at, nil
}

func parseInto[T text](p *Position, s T) (castling span, err error) {
	sc := scanner[T]{s: s}
	field := func(name string) (T, span, error) {
		f, at, ok := sc.next()
		if !ok {
			return f, at, &Error{Field: name, Msg: "missing"}
		}
		return f, at, nil
	}

	f, _, err := field("placement")
	if err != nil {
		return castling, err
	}
	if err := parsePlacement(&p.Board, f); err != nil {
		return castling, err
	}

	if f, _, err = field("turn"); err != nil {
		return castling, err
	}
	switch string(f) {
	case "w", "W":
		p.Turn = 'w'
	case "b", "B":
		p.Turn = 'b'
	default:
		return castling, errorf("turn", "%q is not w or b", string(f))
	}

	if f, castling, err = field("castling"); err != nil {
		return castling, err
	}
	if p.Castling, err = parseCastling(&p.Board, f); err != nil {
		return castling, err
	}

	if f, _, err = field("en passant"); err != nil {
		return castling, err
	}
	f, ended := trimSemicolon(f)
	if p.EnPassant, err = parseEnPassant(f); err != nil {
		return castling, err
	}

	p.HalfMove, p.FullMove = 0, 1
	for _, name := range [...]string{"halfmove", "fullmove"} {
		if ended {
			break
		}
		save := sc.i
		f, _, ok := sc.next()
		if !ok {
			break
		}
		f, ended = trimSemicolon(f)
		if !numeric(f) {
			sc.i = save // EPD operations, not a counter
			break
		}
		n, err := parseCounter(name, f)
		if err != nil {
			return castling, err
		}
		if name == "halfmove" {
			p.HalfMove = n
		} else if n > 0 { // some programs write 0; the game's first move is 1
			p.FullMove = n
		}
	}
	if ops := sc.rest(); len(ops) > 0 && string(ops) != ";" {
		p.Operations = string(ops)
	}
	return castling, nil
}

// parsePlacement fills board from the piece-placement field.
func parsePlacement[T text](board *[64]byte, f T) error {
	ranks := 1
	for i := 0; i < len(f); i++ {
		if f[i] == '/' {
			ranks++
		}
	}
	if ranks != 8 {
		return errorf("placement", "%d ranks, want 8", ranks)
	}
	rank, file := 7, 0
	for i := 0; i <= len(f); i++ {
		if i == len(f) || f[i] == '/' {
			if file != 8 {
				return errorf("placement", "rank %d describes %d squares", rank+1, file)
			}
			rank, file = rank-1, 0
			continue
		}
		switch c := f[i]; {
		case '1' <= c && c <= '8':
			file += int(c - '0')
		case byteClass[c] == piece:
			if file < 8 {
				board[rank*8+file] = c
			}
			file++
		case c == '0' || c == '9':
			return errorf("placement", "digit '%c' in rank %d, want 1 to 8", c, rank+1)
		default:
			return errorf("placement", "unknown piece %q", runeAt(f, i))
		}
	}
	return nil
}

// runeAt decodes the character at f[i] for an error message, so that a
// non-ASCII letter is quoted whole rather than as its first byte.
func runeAt[T text](f T, i int) rune {
	r, _ := utf8.DecodeRuneInString(string(f[i:min(i+utf8.UTFMax, len(f))]))
	return r
}

// parseEnPassant reads '-' or a square on rank 3 or 6. It does not check that
// the square fits the side to move: writers differ on when they set it.
func parseEnPassant[T text](f T) (int, error) {
	if len(f) == 1 && f[0] == '-' {
		return -1, nil
	}
	if len(f) == 2 && 'a' <= f[0] && f[0] <= 'h' && (f[1] == '3' || f[1] == '6') {
		return int(f[1]-'1')*8 + int(f[0]-'a'), nil
	}
	return 0, errorf("en passant", "%q is not - or a square on rank 3 or 6", string(f))
}

// numeric tells a move counter from the first EPD operation, whose opcode
// must begin with a letter.
func numeric[T text](f T) bool {
	if len(f) > 1 && (f[0] == '-' || f[0] == '+') {
		f = f[1:]
	}
	return len(f) > 0 && '0' <= f[0] && f[0] <= '9'
}

// maxCounter bounds the move counters so that they cannot overflow; no game
// comes near it.
const maxCounter = 999_999_999

func parseCounter[T text](field string, f T) (int, error) {
	digits := f
	if f[0] == '+' {
		digits = f[1:]
	}
	n := 0
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' { // a leading '-' too
			return 0, errorf(field, "%q is not a non-negative integer", string(f))
		}
		if n = n*10 + int(c-'0'); n > maxCounter {
			return 0, errorf(field, "%q is too large", string(f))
		}
	}
	return n, nil
}

// Style is a notation for the castling field.
type Style int

const (
	// XFEN writes K or Q for a right of the outermost rook on that side of
	// the king, as plain FEN does, and the rook's file letter for an inner
	// rook.
	XFEN Style = iota
	// Shredder writes the rook's file letter for every right, king-side
	// (h-side) rook first: HAha, HFhf.
	Shredder
)

func (s Style) String() string {
	switch s {
	case XFEN:
		return "X-FEN"
	case Shredder:
		return "Shredder-FEN"
	}
	return "Style(" + strconv.Itoa(int(s)) + ")"
}

// Placement returns the piece-placement field, e.g.
// "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR".
func (p *Position) Placement() string {
	var buf [64 + 7]byte
	return string(p.appendPlacement(buf[:0]))
}

func (p *Position) appendPlacement(b []byte) []byte {
	for rank := 7; rank >= 0; rank-- {
		empty := byte(0)
		for _, c := range p.Board[rank*8 : rank*8+8] {
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b = append(b, '0'+empty)
				empty = 0
			}
			b = append(b, c)
		}
		if empty > 0 {
			b = append(b, '0'+empty)
		}
		if rank > 0 {
			b = append(b, '/')
		}
	}
	return b
}

// String returns the position as a FEN with an X-FEN castling field.
func (p *Position) String() string { return p.Format(XFEN) }

// Format returns the position as a six-field FEN with the castling field in
// the given style. EPD operations are not written; a Turn other than 'b' is
// written as 'w'.
func (p *Position) Format(style Style) string {
	var buf [128]byte
	return string(p.AppendFormat(buf[:0], style))
}

// AppendFormat appends what [Position.Format] returns to b.
func (p *Position) AppendFormat(b []byte, style Style) []byte {
	b = p.appendPlacement(b)
	turn := byte('w')
	if p.Turn == 'b' {
		turn = 'b'
	}
	b = append(b, ' ', turn, ' ')
	b = appendCastling(b, &p.Board, p.Castling, style)
	b = append(b, ' ')
	// Only squares Parse accepts are written, so that the result is a FEN
	// even for a Position built by hand with EnPassant left at 0.
	if sq := p.EnPassant; sq/8 == 2 || sq/8 == 5 {
		b = append(b, 'a'+byte(sq%8), '1'+byte(sq/8))
	} else {
		b = append(b, '-')
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.HalfMove), 10)
	b = append(b, ' ')
	return strconv.AppendInt(b, int64(p.FullMove), 10)
}

// RewriteCastling returns the record with its castling field written in the
// given style. Every other byte, spacing, EPD operations and a trailing ';'
// included, is kept as it was. The new field states the rights that [Parse]
// reads from the old one, so a letter naming no rook disappears.
func RewriteCastling(fen string, style Style) (string, error) {
	p, at, err := parse(fen)
	if err != nil {
		return "", err
	}
	var buf [16]byte
	field := appendCastling(buf[:0], &p.Board, p.Castling, style)
	return fen[:at.start] + string(field) + fen[at.end:], nil
}

// CastlingStyle returns the notation record's castling field is written in:
// Shredder when it names every rook by its file (HAha, Fd), XFEN otherwise,
// including a field of "-" and a record too short to have one. It lets a
// program answer in the notation its input uses.
func CastlingStyle(record []byte) Style {
	sc := scanner[[]byte]{s: record}
	for range 2 {
		if _, _, ok := sc.next(); !ok {
			return XFEN
		}
	}
	f, _, _ := sc.next()
	return styleOfField(f)
}

func styleOfField(f []byte) Style {
	if len(f) == 0 || f[0] == '-' {
		return XFEN
	}
	for _, c := range f {
		if !(c >= 'A' && c <= 'H' || c >= 'a' && c <= 'h') {
			return XFEN
		}
	}
	return Shredder
}
