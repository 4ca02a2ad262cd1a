package where

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/internal/words"
)

// SyntaxError is a mistake in an expression: what is wrong, and where.
type SyntaxError struct {
	Expr string // the expression as given
	Col  int    // the column of the mistake, from 1, in characters
	Msg  string
	// Err is the underlying error, when there is one: a
	// fields.ErrUnknownField, or the regexp package's error.
	Err error
}

// Error returns the message with its column.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("column %d: %s", e.Col, e.Msg)
}

// Unwrap returns the underlying error, or nil.
func (e *SyntaxError) Unwrap() error { return e.Err }

// Caret returns two lines: the expression, and a caret under the column
// of the mistake. Line breaks in the expression show as spaces, other
// control characters escaped (\x1b, four columns), and tabs are repeated
// on the second line, so that the caret lines up. An expression wider
// than caretWidth columns is cut to the part around the mistake, with
// "..." where it was cut, so that the message stays a line however long
// the expression.
func (e *SyntaxError) Caret() string {
	chars := []rune(e.Expr)
	from, to := window(chars, e.Col-1)
	var line, mark strings.Builder
	if from > 0 {
		line.WriteString("...")
		mark.WriteString("   ")
	}
	for i, r := range chars[from:to] {
		switch {
		case r == '\n', r == '\r':
			line.WriteByte(' ')
		case caretControl(r):
			// Escaped, as every message shows control characters: raw,
			// an escape sequence would act on the terminal.
			fmt.Fprintf(&line, "\\x%02x", r)
		default:
			line.WriteRune(r)
		}
		if from+i+1 < e.Col {
			if r == '\t' {
				mark.WriteByte('\t')
			} else {
				mark.WriteString("    "[:caretColumns(r)])
			}
		}
	}
	if to < len(chars) {
		line.WriteString("...")
	}
	for col := to + 1; col < e.Col; col++ {
		mark.WriteByte(' ')
	}
	mark.WriteByte('^')
	return line.String() + "\n" + mark.String()
}

// window returns the characters of chars that Caret shows around the one
// at index at (len(chars) for the end): all of them when they fit in
// caretWidth columns, else as many as fit, as many on each side as the
// other side leaves room for.
func window(chars []rune, at int) (from, to int) {
	at = min(max(at, 0), len(chars))
	from, to = at, at
	room := caretWidth
	if to < len(chars) && caretColumns(chars[to]) <= room {
		room -= caretColumns(chars[to])
		to++
	}
	for {
		left := from > 0 && caretColumns(chars[from-1]) <= room
		right := to < len(chars) && caretColumns(chars[to]) <= room
		switch {
		case left && (!right || at-from <= to-at):
			from--
			room -= caretColumns(chars[from])
		case right:
			room -= caretColumns(chars[to])
			to++
		default:
			return from, to
		}
	}
}

// caretControl reports whether Caret shows r escaped.
func caretControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f
}

// caretColumns returns the columns r takes on Caret's first line.
func caretColumns(r rune) int {
	if caretControl(r) {
		return 4
	}
	return 1
}

// caretWidth is the most columns of an expression that Caret shows.
const caretWidth = 72

type tokKind uint8

const (
	tEOF tokKind = iota
	tName
	tNumber
	tString
	tOp
	tLParen
	tRParen
)

type token struct {
	kind tokKind
	pos  int    // byte offset in the expression
	text string // as written; for tString the value with escapes resolved
	op   op
}

// describe names a token for an error message.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "the end"
	case tString:
		return "a string"
	}
	return words.Quote(t.text)
}

type op uint8

const (
	opEq op = iota + 1
	opNe
	opLt
	opLe
	opGt
	opGe
	opMatch
	opNoMatch
)

var opText = [...]string{opEq: "=", opNe: "!=", opLt: "<", opLe: "<=", opGt: ">", opGe: ">=", opMatch: "~", opNoMatch: "!~"}

// parser holds the expression and the position of the next token.
type parser struct {
	src   string
	pos   int
	tok   token // the current token
	err   *SyntaxError
	depth int // of open parentheses and nots
}

// maxDepth bounds the nesting of parentheses and nots, which no one
// writes by hand, so that a generated expression cannot exhaust the stack.
const maxDepth = 500

func (p *parser) fail(pos int, err error, format string, args ...any) {
	if p.err != nil {
		return
	}
	p.err = &SyntaxError{Expr: p.src, Col: column(p.src, pos), Msg: fmt.Sprintf(format, args...), Err: err}
}

// column returns the column of byte offset pos, from 1, counting
// characters.
func column(s string, pos int) int {
	if pos > len(s) {
		pos = len(s)
	}
	return utf8.RuneCountInString(s[:pos]) + 1
}

func isNameStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
}

func isNameChar(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

// isBlank reports whether c separates tokens: expressions may span lines.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// next reads the next token into p.tok.
func (p *parser) next() {
	s := p.src
	for p.pos < len(s) && isBlank(s[p.pos]) {
		p.pos++
	}
	start := p.pos
	if start == len(s) {
		p.tok = token{kind: tEOF, pos: start}
		return
	}
	c := s[start]
	switch {
	case isNameStart(c):
		end := start + 1
		for end < len(s) && isNameChar(s[end]) {
			end++
		}
		p.pos = end
		p.tok = token{kind: tName, pos: start, text: s[start:end]}
	case isDigit(c) || c == '-' && start+1 < len(s) && isDigit(s[start+1]):
		end := start + 1
		for end < len(s) && isDigit(s[end]) {
			end++
		}
		if end+1 < len(s) && s[end] == '.' && isDigit(s[end+1]) {
			end += 2
			for end < len(s) && isDigit(s[end]) {
				end++
			}
		}
		if end < len(s) && (isNameChar(s[end]) || s[end] == '.') {
			p.fail(end, nil, "unexpected %q in a number", s[end:end+1])
		}
		p.pos = end
		p.tok = token{kind: tNumber, pos: start, text: s[start:end]}
	case c == '"':
		p.str()
	case c == '(':
		p.pos++
		p.tok = token{kind: tLParen, pos: start, text: "("}
	case c == ')':
		p.pos++
		p.tok = token{kind: tRParen, pos: start, text: ")"}
	default:
		o, n := lexOp(s[start:])
		if o == 0 {
			r, size := utf8.DecodeRuneInString(s[start:])
			if r == utf8.RuneError && size == 1 {
				p.fail(start, nil, "unexpected byte %#x", c)
			} else if c == '!' {
				p.fail(start, nil, "unexpected '!': write != or !~, or not")
			} else {
				p.fail(start, nil, "unexpected %q", string(r))
			}
			p.pos = len(s)
			p.tok = token{kind: tEOF, pos: start}
			return
		}
		p.pos += n
		p.tok = token{kind: tOp, pos: start, text: s[start:p.pos], op: o}
	}
}

// lexOp reads an operator; "==" is taken for "=".
func lexOp(s string) (op, int) {
	two := ""
	if len(s) >= 2 {
		two = s[:2]
	}
	switch two {
	case "==":
		return opEq, 2
	case "!=":
		return opNe, 2
	case "<=":
		return opLe, 2
	case ">=":
		return opGe, 2
	case "!~":
		return opNoMatch, 2
	}
	switch s[0] {
	case '=':
		return opEq, 1
	case '<':
		return opLt, 1
	case '>':
		return opGt, 1
	case '~':
		return opMatch, 1
	}
	return 0, 0
}

// str reads a string literal, resolving \" and \\.
func (p *parser) str() {
	s, start := p.src, p.pos
	var b strings.Builder
	for i := start + 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			p.pos = i + 1
			p.tok = token{kind: tString, pos: start, text: b.String()}
			return
		case '\\':
			if i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
				i++
				b.WriteByte(s[i])
				continue
			}
			p.fail(i, nil, `unknown escape in a string: only \" and \\ are escapes (a regular expression's \d is written \\d)`)
			p.pos = len(s)
			p.tok = token{kind: tEOF, pos: len(s)}
			return
		default:
			b.WriteByte(s[i])
		}
	}
	p.fail(start, nil, "string not closed: a '\"' is missing")
	p.pos = len(s)
	p.tok = token{kind: tEOF, pos: len(s)}
}

// Parse reads an expression. The language:
//
//	expr    = or
//	or      = and { "or" and }
//	and     = unary { "and" unary }
//	unary   = "not" unary | "(" expr ")" | "exists" "(" NAME ")" | NAME OP VALUE | NAME
//	OP      = "=" | "!=" | "<" | "<=" | ">" | ">=" | "~" | "!~"
//	VALUE   = NUMBER | STRING | WORD
//
// so not binds tighter than and, and and tighter than or. NAME is a
// derived field (fields.Names) or a tag, [A-Za-z_][A-Za-z0-9_]*. A NUMBER
// is written bare, "-12", "2000", "0.5"; a STRING in double quotes, with
// \" and \\ as its only escapes; a WORD is a bare value of kind, speed or
// bot: "speed = blitz", "kind != dfrc", "bot = false". A NAME alone is
// allowed for bot: "not bot". "==" is read as "=". The words and, or,
// not and exists are lower case.
//
// A mistake gives a *SyntaxError. So does a lower-case name that is no
// derived field (tags start upper-case, so it is most likely misspelt), a
// comparison the field's type cannot make ("elo ~ ...", "speed < blitz",
// "date > 2024"), a kind or speed that does not exist, and a regular
// expression that does not compile.
func Parse(expr string) (*Expr, error) {
	p := &parser{src: expr}
	p.next()
	if p.tok.kind == tEOF && p.err == nil {
		p.fail(p.tok.pos, nil, "empty expression")
		return nil, p.err
	}
	root := p.or()
	if p.err == nil && p.tok.kind != tEOF {
		if p.tok.kind == tRParen {
			p.fail(p.tok.pos, nil, "')' without a '('")
		} else {
			p.fail(p.tok.pos, nil, "expected and, or or the end, found %s%s", p.tok.describe(), lowerHint(p.tok))
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	e := &Expr{root: root}
	e.collect(root)
	return e, nil
}

// lowerHint points out a word of the language written in capitals.
func lowerHint(t token) string {
	if w := strings.ToLower(t.text); t.kind == tName && w != t.text && (w == "and" || w == "or" || w == "not" || w == "exists") {
		return fmt.Sprintf(" (write %s in lower case)", w)
	}
	return ""
}

func (p *parser) isWord(w string) bool { return p.tok.kind == tName && p.tok.text == w }

func (p *parser) or() *node {
	l := p.and()
	for p.err == nil && p.isWord("or") {
		p.next()
		l = &node{kind: nOr, l: l, r: p.and()}
	}
	return l
}

func (p *parser) and() *node {
	l := p.unary()
	for p.err == nil && p.isWord("and") {
		p.next()
		l = &node{kind: nAnd, l: l, r: p.unary()}
	}
	return l
}

func (p *parser) unary() *node {
	if p.err != nil {
		return nil
	}
	t := p.tok
	if (t.kind == tLParen || p.isWord("not")) && p.depth >= maxDepth {
		p.fail(t.pos, nil, "nested too deeply: more than %d parentheses and nots", maxDepth)
		return nil
	}
	p.depth++
	defer func() { p.depth-- }()
	switch {
	case p.isWord("not"):
		p.next()
		return &node{kind: nNot, l: p.unary()}
	case t.kind == tLParen:
		p.next()
		if p.tok.kind == tRParen {
			p.fail(p.tok.pos, nil, "empty parentheses")
			return nil
		}
		n := p.or()
		if p.err == nil && p.tok.kind != tRParen {
			p.fail(p.tok.pos, nil, "expected ')' to close the '(' of column %d, found %s", column(p.src, t.pos), p.tok.describe())
		}
		p.next()
		return n
	case p.isWord("exists") && p.peekParen():
		p.next()
		p.next()
		name := p.tok
		if name.kind != tName {
			p.fail(name.pos, nil, "expected a field name in exists( ), found %s", name.describe())
			return nil
		}
		f := p.field(name)
		p.next()
		if p.err == nil && p.tok.kind != tRParen {
			p.fail(p.tok.pos, nil, "expected ')' after exists(%s, found %s", name.text, p.tok.describe())
		}
		p.next()
		return &node{kind: nExists, c: &cmp{field: f, name: name.text}}
	case t.kind == tName:
		if t.text == "and" || t.text == "or" {
			p.fail(t.pos, nil, "expected a comparison before %s", words.Quote(t.text))
			return nil
		}
		return p.comparison()
	case t.kind == tEOF:
		p.fail(t.pos, nil, "expression ends too soon: a comparison is missing")
	case t.kind == tRParen:
		p.fail(t.pos, nil, "expected a comparison, found ')'")
	default:
		p.fail(t.pos, nil, "expected a field name, '(' or not, found %s", t.describe())
	}
	return nil
}

// peekParen reports whether the next token, after the current one, is a
// '(': "exists(" is the test, "exists = 1" would be a field.
func (p *parser) peekParen() bool {
	i := p.pos
	for i < len(p.src) && isBlank(p.src[i]) {
		i++
	}
	return i < len(p.src) && p.src[i] == '('
}

// field looks a name up, failing on unknown lower-case names.
func (p *parser) field(t token) fields.Field {
	f, err := fields.Lookup(t.text)
	if err != nil {
		p.fail(t.pos, err, "unknown field %s: tags are written as in the PGN, with their capitals (WhiteElo), and the derived fields are %s", words.Quote(t.text), strings.Join(fields.Names(), ", "))
	}
	return f
}

// comparison reads NAME OP VALUE, or a bool field alone.
func (p *parser) comparison() *node {
	name := p.tok
	f := p.field(name)
	if p.err != nil {
		return nil
	}
	p.next()
	c := &cmp{field: f, name: name.text}
	if p.tok.kind != tOp {
		if f.Type() == fields.TypeBool && p.err == nil {
			c.op, c.lit, c.b, c.bare = opEq, litBool, true, true
			c.alone = true
			return &node{kind: nCmp, c: c}
		}
		p.fail(p.tok.pos, nil, "expected an operator (=, !=, <, <=, >, >=, ~, !~) after %s, found %s%s", name.text, p.tok.describe(), lowerHint(name))
		return nil
	}
	c.op = p.tok.op
	opTok := p.tok
	p.next()
	v := p.tok
	if p.err != nil {
		return nil
	}
	switch v.kind {
	case tNumber, tString, tName:
	default:
		p.fail(v.pos, nil, "expected a value after %s %s, found %s", name.text, opText[c.op], v.describe())
		return nil
	}
	c.text, c.textB = v.text, []byte(v.text)
	p.literal(c, v, opTok)
	p.next()
	return &node{kind: nCmp, c: c}
}

// literal types the comparison's value by the field's type, checking
// that the field can be compared so.
func (p *parser) literal(c *cmp, v token, opTok token) {
	typ := c.field.Type()
	values := c.field.Values()
	if c.op == opMatch || c.op == opNoMatch {
		if typ == fields.TypeNumber || typ == fields.TypeBool {
			p.fail(opTok.pos, nil, "%s is a %s: %s needs a text or date field", c.name, typ, opText[c.op])
			return
		}
		if v.kind != tString {
			p.fail(v.pos, nil, "a regular expression is written in double quotes")
			return
		}
		re, err := regexp.Compile(v.text)
		if err != nil {
			p.fail(v.pos, err, "bad regular expression: %v", err)
			return
		}
		c.lit, c.re = litRegexp, re
		return
	}
	switch {
	case typ == fields.TypeBool:
		if c.op != opEq && c.op != opNe {
			p.fail(opTok.pos, nil, "%s is true or false: only = and != compare it", c.name)
			return
		}
		if v.text != "true" && v.text != "false" || v.kind == tNumber {
			p.fail(v.pos, nil, "%s is true or false, not %s", c.name, v.describe())
			return
		}
		c.lit, c.b, c.bare = litBool, v.text == "true", v.kind == tName
	case values != nil:
		if c.op != opEq && c.op != opNe {
			p.fail(opTok.pos, nil, "%s has no order: compare it with = or !=, or ~", c.name)
			return
		}
		if v.kind == tNumber || !contains(values, v.text) {
			p.fail(v.pos, nil, "%s is one of %s, not %s", c.name, strings.Join(values, ", "), v.describe())
			return
		}
		c.lit, c.bare = litText, v.kind == tName
	case v.kind == tName:
		p.fail(v.pos, nil, "a text value is written in double quotes: %s; bare words are only for kind, speed and bot", words.Quote(v.text))
	case typ == fields.TypeNumber:
		if v.kind != tNumber {
			p.fail(v.pos, nil, "%s is a number: write it without quotes", c.name)
			return
		}
		c.lit, c.num = litNumber, parseNum(v.text)
	case typ == fields.TypeDate:
		d, ok := fields.ParseDate([]byte(v.text))
		if v.kind != tString || !ok {
			p.fail(v.pos, nil, "%s is a date: compare it with a date in double quotes, \"2024.05.17\", \"2024.05\" or \"2024\"", c.name)
			return
		}
		c.lit, c.date = litDate, d
	case v.kind == tNumber:
		// A tag compared with a number is read as one: WhiteElo >= 2000.
		c.lit, c.num = litNumber, parseNum(v.text)
	default:
		c.lit = litText
	}
}

func parseNum(s string) float64 {
	f, _ := fields.ParseNumber([]byte(s))
	return f
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
