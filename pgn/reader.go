// Package pgn reads and rewrites PGN chess archives as streams of games.
//
// A [Reader] splits its input into games one at a time, in constant memory,
// the way archive/tar's Reader hands out entries: call [Reader.Next] until it
// returns io.EOF. Every input byte belongs to exactly one [Game]'s Raw bytes,
// so writing all Raw slices in order reproduces the input exactly, whatever
// it contains: BOMs, CRLF line endings, Latin-1 text, binary junk, truncated
// games. Problems found on the way are reported as [ParseError] values with
// line numbers, never by dropping bytes.
//
// Tags are parsed with their byte spans, so a program can change one tag
// and copy every other byte through unchanged ([Game.AppendEdited]).
// [Game.Start] tells the game's start position from its FEN, SetUp and
// Variant tags, with Chess960 numbers from package numbering.
package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Problems the Reader reports. They come wrapped in a *ParseError that
// carries the line; test for them with errors.Is.
var (
	ErrUnterminatedComment = errors.New("unterminated comment")
	ErrUnterminatedTag     = errors.New("malformed tag pair")
	ErrBinary              = errors.New("binary data")
	ErrNoResult            = errors.New("game has no result (truncated?)")
	ErrGameTooLarge        = errors.New("game too large")
)

// ParseError is a problem found at a line of the input. Its text has the
// form "file:line: message", the form compilers and editors understand.
type ParseError struct {
	File string // the Reader's Name; may be empty
	Line int    // 1-based
	Err  error
}

func (e *ParseError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// DefaultMaxGameSize is the largest game a Reader holds in memory at once.
// Real games are a few kilobytes; engine games with long comments reach a
// few hundred. Anything larger is passed on in parts (see Game.Partial).
const DefaultMaxGameSize = 16 << 20

const (
	minRead       = 256 << 10 // read at least this much at a time
	initialBuffer = 1 << 20
)

// Reader reads games from a PGN stream.
type Reader struct {
	// Name is the file name used in ParseErrors.
	Name string
	// ReuseGame makes Next return the same *Game every time, with Raw and
	// the tag slices pointing into the Reader's buffer, valid only until
	// the next call to Next. This avoids allocating for every game, as
	// ReuseRecord does for encoding/csv.
	ReuseGame bool
	// MaxGameSize bounds the memory one game may take; 0 means
	// DefaultMaxGameSize.
	MaxGameSize int

	src   io.Reader
	err   error // sticky read error, io.EOF at the end
	buf   []byte
	start int   // first byte of the current game in buf
	end   int   // end of valid data in buf
	line  int   // line number of buf[start]
	off   int64 // input offset of buf[start]
	index int   // games returned so far

	scan  scanner
	game  Game
	cont  bool // the next game continues a partial one
	vals  []byte
	tags  []tagSpan
	probs []problem
}

// NewReader returns a Reader reading from r. It buffers its input itself,
// so r needs no bufio.
func NewReader(r io.Reader) *Reader {
	return &Reader{src: r, line: 1}
}

// Line returns the line number at which the next game starts.
func (r *Reader) Line() int { return r.line }

// Offset returns the input offset at which the next game starts.
func (r *Reader) Offset() int64 { return r.off }

// Next returns the next game, or io.EOF after the last one. Malformed games
// are returned like any other, with their problems in Game.Problems; an
// error other than io.EOF means the underlying reader failed, and the
// bytes read before the failure have already been returned as games.
func (r *Reader) Next() (*Game, error) {
	if r.buf == nil {
		r.buf = make([]byte, initialBuffer)
		r.scan.reset()
	}
	limit := r.MaxGameSize
	if limit <= 0 {
		limit = DefaultMaxGameSize
	}
	// Skip nothing: even a stream of blank lines is a "game" that must be
	// written back. But at the very end, with no bytes left, we are done.
	for {
		n, done := r.scan.run(r.buf[r.start:r.end], r.err != nil)
		if done {
			return r.emit(n, false), nil
		}
		if r.err != nil {
			if r.start == r.end {
				if r.err == io.EOF {
					return nil, io.EOF
				}
				return nil, r.err
			}
			// All remaining bytes form the last game.
			return r.emit(r.end-r.start, false), nil
		}
		if r.end-r.start >= limit {
			return r.emit(r.end-r.start, true), nil
		}
		r.fill()
	}
}

// fill reads more input, making room by moving the current game to the
// front of the buffer or growing it.
func (r *Reader) fill() {
	if r.start > 0 && (len(r.buf)-r.end < minRead) {
		copy(r.buf, r.buf[r.start:r.end])
		r.end -= r.start
		r.start = 0
	}
	if len(r.buf)-r.end < minRead {
		nb := make([]byte, 2*len(r.buf)+minRead)
		copy(nb, r.buf[r.start:r.end])
		r.end -= r.start
		r.start = 0
		r.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := r.src.Read(r.buf[r.end:])
		r.end += n
		if err != nil {
			r.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	r.err = io.ErrNoProgress
}

// emit turns the first n bytes of the current data into a Game.
func (r *Reader) emit(n int, partial bool) *Game {
	raw := r.buf[r.start : r.start+n]
	g := &r.game
	if !r.ReuseGame {
		g = &Game{}
		raw = bytes.Clone(raw)
	}
	r.index++
	*g = Game{
		Raw:       raw,
		Index:     r.index,
		Line:      r.line,
		Offset:    r.off,
		Partial:   partial,
		Continued: r.cont,
		Tags:      g.Tags[:0],
		Problems:  g.Problems[:0],
		file:      r.Name,
		movetext:  r.scan.movetext,
	}
	if g.movetext < 0 || g.movetext > n {
		g.movetext = n
	}
	s := &r.scan
	// Values with escapes were unescaped into s.vals; the others point into Raw.
	vals := s.vals
	if !r.ReuseGame && len(vals) > 0 {
		vals = bytes.Clone(vals)
	}
	for _, t := range s.tags {
		tag := Tag{
			Name:  raw[t.nameStart:t.nameEnd],
			Start: t.start,
			End:   t.end,
			Line:  r.line + t.line,
		}
		if t.escaped {
			tag.Value = vals[t.valStart:t.valEnd]
		} else {
			tag.Value = raw[t.valStart:t.valEnd]
		}
		g.Tags = append(g.Tags, tag)
	}
	for _, p := range s.problems {
		g.Problems = append(g.Problems, &ParseError{File: r.Name, Line: r.line + bytes.Count(raw[:p.off], nl), Err: p.err})
	}
	if !partial {
		if i := bytes.IndexByte(raw, 0); i >= 0 {
			g.Problems = append(g.Problems, &ParseError{File: r.Name, Line: r.line + bytes.Count(raw[:i], nl), Err: fmt.Errorf("%w: NUL byte", ErrBinary)})
		}
		if s.mode == modeBrace {
			g.Problems = append(g.Problems, &ParseError{File: r.Name, Line: r.line + bytes.Count(raw[:s.braceOpen], nl), Err: fmt.Errorf("%w: '{' never closed before the end of the input", ErrUnterminatedComment)})
		} else if !g.Continued && g.movetext < n && !hasResult(raw[g.movetext:]) && hasMoves(raw[g.movetext:]) {
			g.Problems = append(g.Problems, &ParseError{File: r.Name, Line: r.line + bytes.Count(raw[:lastNonSpace(raw)], nl), Err: ErrNoResult})
		}
	} else {
		g.Problems = append(g.Problems, &ParseError{File: r.Name, Line: r.line, Err: fmt.Errorf("%w: over %d bytes; passed through in parts, unexamined", ErrGameTooLarge, n)})
	}
	r.cont = partial
	r.line += bytes.Count(raw, nl)
	r.off += int64(n)
	r.start += n
	r.scan.next(partial)
	return g
}

var nl = []byte{'\n'}
