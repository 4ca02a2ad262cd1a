// Package where selects PGN games by an expression over their tags and
// derived fields (package fields), the language of frctool's --where:
//
//	WhiteElo >= 2000 and speed = blitz and not bot
//	(kind = chess960 and sp != 518) or Event ~ "(?i)freestyle"
//	date >= "2024.05" and exists(TimeControl)
//
// Comparisons are NAME OP VALUE with =, !=, <, <=, >, >=, ~ and !~ (an
// RE2 regular expression, package regexp, that matches anywhere in the
// text unless anchored), joined by and, or, not and parentheses; not binds
// tighter than and, and and tighter than or. exists(NAME) tests that a tag
// is present, or that a derived field has a value. Parse gives the full
// grammar.
//
// How a comparison compares depends on the field:
//
//   - Numbers (elo, plies, sp, ...) compare as numbers. A tag compared with
//     a number is read as a decimal number: WhiteElo >= 2000.
//   - Dates (date and the tags Date, UTCDate, EventDate) compare as dates,
//     at the precision of the value written: "2024.05" stands for all of
//     May 2024, so date >= "2024.05" takes every game from the first of
//     May on and date <= "2024.05" every game until its end. A game whose
//     date lacks a part that the comparison needs ("2024.05.??" against
//     "2024.05.17") does not match, unless an earlier part decides
//     (it is after "2024.04.30"); see fields.Date.Compare.
//   - Text compares byte by byte, case-sensitively; use a regular
//     expression with (?i) to ignore case. A tag's bytes that are not
//     UTF-8 are read as Latin-1 (pgn.AppendUTF8), so that "München"
//     selects an old archive's "M\xfcnchen" too.
//   - kind, speed and bot take the bare words of their values: kind =
//     dfrc, speed != bullet, bot = false; a value that does not exist is a
//     mistake. bot alone means bot = true.
//
// A comparison with a value that is missing or unreadable is false,
// whatever the operator: WhiteElo != 2000 is false for a game without
// WhiteElo, and so not (WhiteElo = 2000) is true for it. exists tells the
// two cases apart.
//
// Names that start with a lower-case letter are derived fields; a
// lower-case name that is none is a mistake (fields.ErrUnknownField),
// since PGN tags start with a capital and such a name is most likely a
// misspelt field. Tags are named as in the PGN, case-sensitively.
//
// The shortcuts MinElo, Speeds, MinPlies, Since, Until and NoBots give the
// expressions of frctool's selection options, to combine with And.
package where

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// Expr is a parsed expression. It is safe for concurrent use. A nil *Expr
// selects every game.
type Expr struct {
	root  *node
	names []string
}

type nodeKind uint8

const (
	nCmp nodeKind = iota
	nExists
	nNot
	nAnd
	nOr
)

type node struct {
	kind nodeKind
	l, r *node
	c    *cmp
}

type litKind uint8

const (
	litNumber litKind = iota + 1
	litText
	litDate
	litBool
	litRegexp
)

// cmp is one comparison, its value typed when parsed.
type cmp struct {
	field fields.Field
	name  string
	op    op
	lit   litKind
	text  string // the value as given: text, number, date or regexp
	num   float64
	date  fields.Date
	b     bool
	textB []byte // text, for comparing with tag values without converting
	re    *regexp.Regexp
	bare  bool // the value was written as a bare word
	alone bool // a bool field written alone
}

// collect lists the names the expression reads, once each, in order.
func (e *Expr) collect(n *node) {
	if n == nil {
		return
	}
	e.collect(n.l)
	e.collect(n.r)
	if n.c != nil {
		for _, s := range e.names {
			if s == n.c.name {
				return
			}
		}
		e.names = append(e.names, n.c.name)
	}
}

// Names returns the fields and tags the expression reads, each once, in
// the order they appear. The caller must not modify it.
func (e *Expr) Names() []string {
	if e == nil {
		return nil
	}
	return e.names
}

// Tags returns the tags the expression reads, directly or through the
// derived fields it names (fields.Field.Tags), each once. A command can
// give its reader these and no others.
func (e *Expr) Tags() []string {
	if e == nil {
		return nil
	}
	var tags []string
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil {
			return
		}
		walk(n.l)
		walk(n.r)
		if n.c == nil {
			return
		}
		for _, t := range n.c.field.Tags() {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
	}
	walk(e.root)
	return tags
}

// And returns an expression selecting the games that all of exprs
// select; nil ones are left out, and nil is returned when all are.
func And(exprs ...*Expr) *Expr {
	var all *Expr
	for _, e := range exprs {
		switch {
		case e == nil:
		case all == nil:
			all = e
		default:
			j := &Expr{root: &node{kind: nAnd, l: all.root, r: e.root}}
			j.collect(j.root)
			all = j
		}
	}
	return all
}

// env is one evaluation: the game, and what was worked out of it that
// more than one comparison may need.
type env struct {
	g *pgn.Game
	c *startpos.Class
	// class is the game's class when the caller gave none; classified
	// says it is set. (A pointer to it in c would move env to the heap.)
	class      startpos.Class
	classified bool
	plies      fields.Value
	// counted is set once plies holds the game's plies, which may take a
	// pass over the moves.
	counted bool
}

var pliesField, _ = fields.Lookup("plies")

func (e *env) value(f fields.Field) fields.Value {
	c := e.c
	switch {
	case f == pliesField:
		if !e.counted {
			e.plies, e.counted = f.Value(e.g, c), true
		}
		return e.plies
	case c == nil && f.Start():
		if !e.classified {
			e.class, e.classified = startpos.Classify(e.g), true
		}
		c = &e.class
	}
	v := f.Value(e.g, c)
	if v.Type == fields.TypeText && !utf8.Valid(v.Text) {
		v.Text = pgn.AppendUTF8(nil, v.Text) // rare, and never in a UTF-8 archive
	}
	return v
}

// Match reports whether the expression selects game g, whose class is c
// (from startpos.Classify; when nil, the game is classified here if the
// expression reads its start). Only the fields the expression names are
// read.
func (e *Expr) Match(g *pgn.Game, c *startpos.Class) bool {
	if e == nil {
		return true
	}
	ev := env{g: g, c: c}
	return ev.eval(e.root)
}

func (e *env) eval(n *node) bool {
	switch n.kind {
	case nAnd:
		return e.eval(n.l) && e.eval(n.r)
	case nOr:
		return e.eval(n.l) || e.eval(n.r)
	case nNot:
		return !e.eval(n.l)
	case nExists:
		if n.c.field.IsTag() {
			_, ok := e.g.Tag(n.c.name)
			return ok
		}
		return !e.value(n.c.field).Missing()
	}
	return n.c.match(e.value(n.c.field))
}

// match compares one value; a missing or unreadable value, or one whose
// order cannot be told, matches nothing.
func (c *cmp) match(v fields.Value) bool {
	var order int
	switch c.lit {
	case litRegexp:
		if v.Type != fields.TypeText && v.Type != fields.TypeDate {
			return false
		}
		return c.re.Match(v.Text) == (c.op == opMatch)
	case litNumber:
		n := v.Num
		switch v.Type {
		case fields.TypeNumber:
		case fields.TypeText:
			var ok bool
			if n, ok = fields.ParseNumber(v.Text); !ok {
				return false
			}
		default:
			return false
		}
		switch {
		case n < c.num:
			order = -1
		case n > c.num:
			order = 1
		}
	case litText:
		if v.Type != fields.TypeText {
			return false
		}
		order = bytes.Compare(v.Text, c.textB)
	case litDate:
		if v.Type != fields.TypeDate {
			return false
		}
		var ok bool
		if order, ok = v.Date.Compare(c.date); !ok {
			return false
		}
	case litBool:
		if v.Type != fields.TypeBool {
			return false
		}
		return (v.Bool == c.b) == (c.op == opEq)
	default:
		return false
	}
	switch c.op {
	case opEq:
		return order == 0
	case opNe:
		return order != 0
	case opLt:
		return order < 0
	case opLe:
		return order <= 0
	case opGt:
		return order > 0
	case opGe:
		return order >= 0
	}
	return false
}

// String returns the expression in a canonical form that Parse reads
// back to the same expression: one space around operators and words,
// parentheses only where the precedence needs them, strings quoted.
func (e *Expr) String() string {
	if e == nil {
		return ""
	}
	var b strings.Builder
	write(&b, e.root)
	return b.String()
}

// prec returns how tightly a node binds.
func prec(n *node) int {
	switch n.kind {
	case nOr:
		return 1
	case nAnd:
		return 2
	}
	return 3
}

func writeSub(b *strings.Builder, n *node, min int) {
	if prec(n) < min {
		b.WriteByte('(')
		write(b, n)
		b.WriteByte(')')
		return
	}
	write(b, n)
}

func write(b *strings.Builder, n *node) {
	switch n.kind {
	case nOr, nAnd:
		word := " or "
		if n.kind == nAnd {
			word = " and "
		}
		// Left-associative: a right operand of the same precedence was
		// parenthesized in the input.
		writeSub(b, n.l, prec(n))
		b.WriteString(word)
		writeSub(b, n.r, prec(n)+1)
	case nNot:
		b.WriteString("not ")
		writeSub(b, n.l, 3)
	case nExists:
		b.WriteString("exists(")
		b.WriteString(n.c.name)
		b.WriteByte(')')
	default:
		c := n.c
		b.WriteString(c.name)
		if c.alone {
			return
		}
		b.WriteByte(' ')
		b.WriteString(opText[c.op])
		b.WriteByte(' ')
		switch {
		case c.bare || c.lit == litNumber:
			b.WriteString(c.text)
		default:
			b.WriteString(quote(c.text))
		}
	}
}

// quote writes s as the language's string literal.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// formatInt is strconv.Itoa, named for the shortcuts.
func formatInt(n int) string { return strconv.Itoa(n) }
