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
// and copy every other byte through unchanged ([Game.AppendEdited]). Their
// text is bytes as written; [AppendUTF8] and [DecodeRune] read it as UTF-8,
// and bytes that are not as Latin-1, the standard's own character set.
// A Reader whose source can tell it has gone idle, as a live feed's pipe
// does, hands out the games it holds whole instead of waiting for more
// (see [NewReader]).
//
// On amd64 processors with AVX2 the Reader and [CountPlies] look at 32 or
// 64 bytes at a time with vector instructions written in assembly; on
// other processors, or built with the purego tag, loops in Go give the
// same results.
//
// Package startpos tells a game's start position from its FEN, SetUp and
// Variant tags; this package knows only the PGN format.
package pgn

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"
)

// Problems the Reader reports. They come wrapped in a *ParseError that
// carries the line; test for them with errors.Is.
var (
	ErrUnterminatedComment = errors.New("unterminated comment")
	ErrUnterminatedTag     = errors.New("malformed tag pair")
	ErrBinary              = errors.New("binary data")
	ErrNoResult            = errors.New("game has no result (truncated?)")
	ErrGameTooLarge        = errors.New("game too large")
	// ErrNUL is the problem of a NUL byte, reported once a game, at its
	// first, wherever it stands: in a tag or in the moves. errors.Is
	// takes it for ErrBinary too; other binary bytes are reported in the
	// moves only.
	ErrNUL = fmt.Errorf("%w: NUL byte", ErrBinary)
)

// ErrReadCount is the error reading ends with when the io.Reader the
// Reader reads from returns a count of bytes below 0 or above what it was
// asked for, which io.Reader forbids: a broken reader is reported, not
// read past the end of its buffer.
var ErrReadCount = errors.New("the input's Read returned an impossible count")

// readCount checks n, the count a Read into p returned.
func readCount(n int, p []byte) error {
	if n < 0 || n > len(p) {
		return fmt.Errorf("%w: %d bytes read into %d", ErrReadCount, n, len(p))
	}
	return nil
}

// ParseError is a problem found at a line of the input. Its text has the
// form "file:line: message", the form compilers and editors understand.
type ParseError struct {
	File string // the Reader's Name; may be empty
	Line int    // 1-based
	Err  error
}

// Error returns "file:line: message". Control characters that came from
// the input, such as a terminal's escape sequences in a tag value, are
// shown escaped (\x1b), never raw.
func (e *ParseError) Error() string {
	var msg string
	if e.File == "" {
		msg = fmt.Sprintf("line %d: %v", e.Line, e.Err)
	} else {
		msg = fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return EscapeControls(msg)
}

// EscapeControls returns s with its control characters (below 0x20, and
// DEL) written as \xNN, so that text from an input can be shown on a
// terminal safely.
func EscapeControls(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

func (e *ParseError) Unwrap() error { return e.Err }

// DefaultMaxGameSize is the largest game a Reader holds in memory at once.
// Real games are a few kilobytes; engine games with long comments reach a
// few hundred. Anything larger is passed on in parts (see Game.Partial).
const DefaultMaxGameSize = 4 << 20

const (
	minRead       = 32 << 10 // read at least this much at a time
	firstRead     = 4 << 10  // a part's first read into a new buffer, and Next's first buffer
	initialBuffer = 64 << 10 // grows with the largest game
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
	idler idler // src, when it can tell that it is idle
	err   error // sticky read error, io.EOF at the end
	buf   []byte
	start int   // first byte of the current game in buf
	end   int   // end of valid data in buf
	full  bool  // the last fill filled buf: the input is longer than buf
	line  int   // line number of buf[start]
	off   int64 // input offset of buf[start]
	index int   // games returned so far

	scan scanner
	game Game
	cont bool // the next game continues a partial one

	// Old Mac exports end lines with a lone CR. In such an input the
	// Reader swaps CR and LF in its buffer, so that the scanner sees LF
	// line ends, and swaps them back in every game it returns.
	lineEnds lineEnds
}

type lineEnds uint8

const (
	lineEndsUnknown lineEnds = iota // no line end seen yet
	lineEndsLF                      // LF or CRLF: bytes are scanned as they are
	lineEndsCR                      // lone CR: CR and LF swapped in buf
)

// NewReader returns a Reader reading from r. It buffers its input itself,
// so r needs no bufio.
//
// When r has a method Idle(time.Duration) bool, as a stream.Input reading
// a pipe has, ReadBatch and ReadPart ask it before they wait for more
// input, and when it has had nothing new for a tenth of a second they hand
// out the games they hold whole instead of waiting to fill the batch: a
// program reading a live feed (tail -f, a broadcast) passes each game on
// once the next one begins. Next, which returns one game at a time, never
// needs to.
func NewReader(r io.Reader) *Reader {
	ir, _ := r.(idler)
	return &Reader{src: r, idler: ir, line: 1}
}

// idler is a source that can tell that it has had nothing to read for a
// while.
type idler interface{ Idle(d time.Duration) bool }

// idleWait is how long a source must have had nothing new before a batch
// is handed out early: long enough that a producer merely slower than
// the Reader (a decompressor writing to a pipe) does not cut the input into
// small parts, short enough that a live feed's games seem to pass at once.
const idleWait = 100 * time.Millisecond

// errIdle ends a batch early: the input is idle.
var errIdle = errors.New("input idle")

// Line returns the line number at which the next game starts.
func (r *Reader) Line() int { return r.line }

// Offset returns the input offset at which the next game starts.
func (r *Reader) Offset() int64 { return r.off }

// Next returns the next game, or io.EOF after the last one. Malformed games
// are returned like any other, with their problems in Game.Problems; an
// error other than io.EOF means the underlying reader failed, and the
// bytes read before the failure have already been returned as games.
func (r *Reader) Next() (*Game, error) {
	n, partial, err := r.scanGame(false)
	if err != nil {
		return nil, err
	}
	s := &r.scan
	raw, vals := r.buf[r.start:r.start+n], s.vals
	g := &r.game
	if !r.ReuseGame {
		g = &Game{}
		raw, vals = bytes.Clone(raw), bytes.Clone(vals)
	}
	r.build(g, raw, vals, s.tags, s.problems, partial)
	r.advance(n, partial)
	if r.lineEnds == lineEndsCR {
		swapLineEnds(g.Raw)
	}
	return g, nil
}

// ReadAll reads the remaining games, each with memory of its own whatever
// ReuseGame says. It suits small inputs and tests; an archive of any size is
// read with Next or ReadBatch. The error is nil at the end of the stream,
// as for encoding/csv's ReadAll.
func (r *Reader) ReadAll() ([]Game, error) {
	reuse := r.ReuseGame
	r.ReuseGame = false
	defer func() { r.ReuseGame = reuse }()
	var games []Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			return games, nil
		}
		if err != nil {
			return games, err
		}
		games = append(games, *g)
	}
}

// A Batch holds consecutive games of a stream in buffers that are reused
// from one ReadBatch to the next, so that games can be handed to other
// goroutines without allocating for each one.
type Batch struct {
	// Games are the games read. With Deferred they are there only after
	// Build.
	Games []Game
	// Deferred makes ReadBatch only find and copy the games, and leaves
	// making their Games (tags, problems, line ends) to Build, so that a
	// program reading on one goroutine can build on another: the reader,
	// which must scan the input in order, does half the work.
	Deferred bool
	// TagMemory, if set, holds the games' tags in place of memory of the
	// batch's own. A program that makes the games of its batches on
	// several goroutines (ScanPart, Build) can give each goroutine memory
	// of its own, so that a goroutine writes tags where it wrote them
	// before rather than where another one did: on archives of
	// header-only games, where making the tags is most of the work,
	// frctool's runner is faster so. The games' tags are valid until the
	// batch's games are made again, or the memory is used for another
	// batch's.
	TagMemory *TagMemory

	raw      []byte
	vals     []byte
	spans    []tagSpan
	probs    []problem
	tags     TagMemory
	meta     []batchGame
	lonelyCR bool // the games' lines end with a lone CR, to put back
	built    bool
	part     part    // set by ReadPart
	scan     scanner // ScanPart's, kept for its buffers
	idle     bool    // handed out early: the input went idle
}

// Idle reports whether ReadBatch or ReadPart handed the batch out before
// it was full because the input went idle (see NewReader): a program
// following a live feed passes on what it made of the games now, rather
// than when more input comes.
func (b *Batch) Idle() bool { return b.idle }

type batchGame struct {
	raw, vals, spans, probs [2]int // ranges in the Batch's buffers
	game                    Game   // line, offset, index, partial, continued
}

// ReadBatch replaces the games in b with the next games of the stream, up
// to about size bytes of them (always at least one game). It returns io.EOF
// when no game is left. The games stay valid until b is used again.
func (r *Reader) ReadBatch(b *Batch, size int) error {
	b.raw, b.vals, b.spans, b.probs, b.meta = b.raw[:0], b.vals[:0], b.spans[:0], b.probs[:0], b.meta[:0]
	b.part, b.idle = part{}, false
	// At least one game, whatever the size: a batch of none, but no
	// error, would leave a caller's loop going round for ever.
	for len(b.meta) == 0 || len(b.raw) < size {
		n, partial, err := r.scanGame(len(b.meta) > 0)
		if err == errIdle {
			b.idle = true
			break
		}
		if err != nil {
			if len(b.meta) > 0 && err == io.EOF {
				break
			}
			if len(b.meta) > 0 {
				break // return what was read; the error comes again next time
			}
			b.Games = b.Games[:0]
			return err
		}
		s := &r.scan
		m := batchGame{
			raw:   [2]int{len(b.raw), len(b.raw) + n},
			vals:  [2]int{len(b.vals), len(b.vals) + len(s.vals)},
			spans: [2]int{len(b.spans), len(b.spans) + len(s.tags)},
			probs: [2]int{len(b.probs), len(b.probs) + len(s.problems)},
		}
		b.raw = append(b.raw, r.buf[r.start:r.start+n]...)
		b.vals = append(b.vals, s.vals...)
		b.spans = append(b.spans, s.tags...)
		b.probs = append(b.probs, s.problems...)
		r.setMeta(&m.game, partial)
		b.meta = append(b.meta, m)
		r.advance(n, partial)
	}
	b.lonelyCR, b.built = r.lineEnds == lineEndsCR, false
	if !b.Deferred {
		b.Build()
	}
	return nil
}

// Build makes the Games of a batch read with Deferred; it does nothing
// when they are made already. It needs nothing of the Reader, so it may
// run on another goroutine while the Reader reads the next batch.
func (b *Batch) Build() {
	if b.built {
		return
	}
	b.built = true
	// Only now are the buffers final, so only now can games point into them.
	b.Games = slicesResize(b.Games, len(b.meta))
	tags := b.tagMemory()
	tags.reset()
	for i := range b.meta {
		m := &b.meta[i]
		g := &b.Games[i]
		probs := g.Problems[:0]
		*g = m.game
		g.Tags, g.Problems = tags.take(m.spans[1]-m.spans[0]), probs
		buildGame(g, b.raw[m.raw[0]:m.raw[1]], b.vals[m.vals[0]:m.vals[1]], b.spans[m.spans[0]:m.spans[1]], b.probs[m.probs[0]:m.probs[1]], true)
	}
	if b.lonelyCR {
		swapLineEnds(b.raw)
	}
}

func slicesResize(g []Game, n int) []Game {
	if cap(g) >= n {
		return g[:n]
	}
	return append(g[:cap(g)], make([]Game, n-cap(g))...)
}

// scanGame finds the end of the next game: its length n at r.buf[r.start:],
// and whether it was cut at MaxGameSize. With handOut, when it needs more
// input and the input is idle, it returns errIdle instead of waiting.
func (r *Reader) scanGame(handOut bool) (n int, partial bool, err error) {
	if r.buf == nil {
		// Small at first, so that a short input (one game a file, as
		// broadcasts come) costs what it holds; fill doubles it while
		// the input fills it.
		r.buf = make([]byte, firstRead)
		r.scan.reset()
	}
	limit := r.limit()
	for {
		// The scanner sees no more than limit bytes, so that whether a
		// game is cut into parts, and where, depends on the input alone,
		// not on how much of it a read happened to bring.
		avail := r.end - r.start
		if r.lineEnds == lineEndsUnknown && r.err == nil && avail > 0 && r.buf[r.end-1] == '\r' {
			// The byte after the first CR decides whether it ends the
			// line, and mapLineEnds may then swap it: the scanner must
			// not have passed it as another byte before.
			avail--
		}
		final := r.err != nil && avail <= limit
		n, done := r.scan.run(r.buf[r.start:r.start+min(avail, limit)], final)
		if done {
			return n, false, nil
		}
		if final {
			if avail == 0 {
				return 0, false, r.err
			}
			// All remaining bytes form the last game.
			r.scan.unclosedAtEnd()
			return avail, false, nil
		}
		if avail > limit {
			return limit, true, nil
		}
		// At exactly limit bytes the game fits if the input ends there:
		// read on to know, whatever size the reads come in.
		if handOut && r.idler != nil && r.idler.Idle(idleWait) {
			return 0, false, errIdle
		}
		r.fill()
	}
}

// doubled is the next size of a buffer of size n that grows as the input
// comes: firstRead at first, then twice n, up to limit. The parts' buffers
// (readInto) and Next's (fill) grow by it.
func doubled(n, limit int) int { return min(limit, max(2*n, firstRead)) }

// fill reads more input, making room by moving the current game to the
// front of the buffer or growing it.
func (r *Reader) fill() {
	// A buffer smaller than initialBuffer (Next's first, small for a
	// short input) doubles each time the input fills it, so that a long
	// input is soon read in large pieces; until then a read asks for a
	// quarter of it free, not minRead.
	room, grown := minRead, 2*len(r.buf)+minRead
	if len(r.buf) < initialBuffer {
		room, grown = len(r.buf)/4, doubled(len(r.buf), initialBuffer)
		if r.full {
			room = len(r.buf)
		}
		room = max(room, 1)
	}
	if r.start > 0 && (len(r.buf)-r.end < room) {
		copy(r.buf, r.buf[r.start:r.end])
		r.end -= r.start
		r.start = 0
	}
	if len(r.buf)-r.end < room {
		nb := make([]byte, max(grown, r.end-r.start+room))
		copy(nb, r.buf[r.start:r.end])
		r.end -= r.start
		r.start = 0
		r.buf = nb
	}
	from := r.end
	defer func() {
		r.full = r.end == len(r.buf)
		r.mapLineEnds(r.buf[:r.end], r.start, from)
	}()
	// Read at least as much as the game holds so far, so that a huge line
	// arriving in small reads is rescanned a logarithmic number of times,
	// not once per read; small games still go on after one read.
	want := max(r.end-r.start, 1)
	got, empty := 0, 0
	for got < want && r.end < len(r.buf) {
		n, err := r.src.Read(r.buf[r.end:])
		if e := readCount(n, r.buf[r.end:]); e != nil {
			r.err = e
			return
		}
		r.end += n
		got += n
		if err != nil {
			r.err = err
			return
		}
		if n == 0 {
			if empty++; empty == 100 {
				r.err = io.ErrNoProgress
				return
			}
		}
	}
}

// mapLineEnds decides, from the first line end of the input, whether lines
// end with a lone CR, and then swaps CR and LF in the bytes read, buf[from:].
// buf[start:from] are the bytes read before, not yet handed out.
func (r *Reader) mapLineEnds(buf []byte, start, from int) {
	if r.lineEnds == lineEndsUnknown {
		// Only the new bytes, and the one before them, can hold the first
		// line end; IndexByte is much faster than IndexAny on long lines.
		lo := max(from-1, start)
		b := buf[lo:]
		i := bytes.IndexByte(b, '\n')
		limit := b
		if i >= 0 {
			limit = b[:i]
		}
		if k := bytes.IndexByte(limit, '\r'); k >= 0 {
			i = k
		}
		switch {
		case i < 0 && r.err == nil:
			return
		case i < 0 || b[i] == '\n':
			r.lineEnds = lineEndsLF
		case i+1 < len(b):
			r.lineEnds = lineEndsLF
			if b[i+1] != '\n' {
				r.lineEnds = lineEndsCR
			}
		case r.err == nil:
			return // a CR at the end of what was read: wait for the next byte
		default:
			r.lineEnds = lineEndsCR
		}
		// Nothing has been returned yet: the whole buffer is still to scan.
		from = start
	}
	if r.lineEnds == lineEndsCR {
		swapLineEnds(buf[from:])
	}
}

// swapLineEnds swaps CR and LF in b.
func swapLineEnds(b []byte) {
	for i, c := range b {
		switch c {
		case '\r':
			b[i] = '\n'
		case '\n':
			b[i] = '\r'
		}
	}
}

// setMeta fills in what the Reader knows of the game about to be emitted.
func (r *Reader) setMeta(g *Game, partial bool) {
	*g = Game{
		Index:     r.index + 1,
		Line:      r.line,
		Offset:    r.off,
		Partial:   partial,
		Continued: r.cont,
		file:      r.Name,
		lonelyCR:  r.lineEnds == lineEndsCR,
		movetext:  r.scan.movetext,
		badTags:   r.scan.badTags,
		// A game cut while still in its tag section has only some of its
		// tags in its first part.
		TagsIncomplete: r.scan.tagsCut || partial && (r.scan.mode == modeStart || r.scan.mode == modeTags),
	}
}

// build makes g the game just scanned, with its bytes in raw and the
// unescaped tag values in vals.
func (r *Reader) build(g *Game, raw, vals []byte, spans []tagSpan, probs []problem, partial bool) {
	tags, gprobs := g.Tags[:0], g.Problems[:0]
	r.setMeta(g, partial)
	g.Tags, g.Problems = tags, gprobs
	buildGame(g, raw, vals, spans, probs, true)
}

// buildGame sets g's bytes, tags and problems from what the scanner found.
// g's metadata (line, partial, movetext...) is already set. mayHoldNUL false
// says raw is known to hold no NUL byte.
func buildGame(g *Game, raw, vals []byte, spans []tagSpan, probs []problem, mayHoldNUL bool) {
	g.Raw = raw
	g.marker, g.markerLen = 0, 0
	n := len(raw)
	if g.movetext < 0 || g.movetext > n {
		g.movetext = n
	}
	// Filled in place rather than appended: appending stores the slice's
	// length back into the Game once a tag.
	tags := slices.Grow(g.Tags, len(spans))[:len(g.Tags)+len(spans)]
	for i := range spans {
		t := &spans[i]
		tag := &tags[len(g.Tags)+i]
		// With no room past their ends, a tag's name and value cannot
		// be appended to over the game's bytes; the capacity is then
		// not worked out either, a tenth of the loop.
		tag.Name = raw[t.nameStart:t.nameEnd:t.nameEnd]
		if t.escaped {
			tag.Value = vals[t.valStart:t.valEnd:t.valEnd]
		} else {
			tag.Value = raw[t.valStart:t.valEnd:t.valEnd]
		}
		tag.Start, tag.End, tag.Line = t.start, t.end, g.Line+t.line
	}
	g.Tags = tags
	// Problems come nearly in input order: count lines on from the last
	// one, so that many problems cost one pass over the game, not one each.
	lastOff, lastLine := 0, g.Line
	lineAt := func(off int) int {
		if off < lastOff {
			lastOff, lastLine = 0, g.Line
		}
		lastLine += bytes.Count(raw[lastOff:off], nl)
		lastOff = off
		return lastLine
	}
	for _, p := range probs {
		if g.Continued && errors.Is(p.err, ErrGameTooLarge) {
			// The first part said the game is too large; a later part
			// of a tag section over MaxTags tags would say it again.
			continue
		}
		g.Problems = append(g.Problems, &ParseError{File: g.file, Line: lineAt(p.off), Err: p.err})
	}
	if mayHoldNUL && !g.Partial && !g.Continued {
		if i := bytes.IndexByte(raw, 0); i >= 0 {
			g.Problems = append(g.Problems, &ParseError{File: g.file, Line: lineAt(i), Err: ErrNUL})
		}
	}
	// The NUL is looked for after the scan, its line maybe before the
	// scanner's problems: sorted, the lines rise, as a reader of the
	// reports expects.
	if len(g.Problems) > 1 {
		slices.SortStableFunc(g.Problems, func(a, b *ParseError) int { return cmp.Compare(a.Line, b.Line) })
	}
	switch {
	case g.Continued:
		// The rest of a game already reported as too large; a middle part
		// is Partial too, and must not be reported again.
	case g.Partial:
		g.Problems = append(g.Problems, &ParseError{File: g.file, Line: g.Line, Err: fmt.Errorf("%w: over %d bytes; passed through in parts, unexamined", ErrGameTooLarge, n)})
	default:
		// The marker is looked for once, here, and kept for the
		// commands that read it (Game.TerminationMarker). A line ends
		// with a line feed here, lone CRs being swapped for them.
		mt := raw[g.movetext:]
		g.marker = -1
		if m, off := termination(mt, '\n'); m != nil {
			g.marker, g.markerLen = off+1, uint8(len(m))
		}
		if len(mt) > 0 && g.marker < 0 && hasMoves(mt) && !reported(g.Problems, ErrUnterminatedComment) {
			g.Problems = append(g.Problems, &ParseError{File: g.file, Line: lineAt(lastNonSpace(raw)), Err: ErrNoResult})
		}
	}
	// After the problems of single lines, in the order of their lines:
	// this one is of the game as a whole, as is its size above.
	if more := g.badTags - maxTagProblems; more > 0 {
		g.Problems = append(g.Problems, &ParseError{File: g.file, Line: g.Line, Err: fmt.Errorf("%w: %d more in this game", ErrUnterminatedTag, more)})
	}
}

func reported(problems []*ParseError, err error) bool {
	for _, p := range problems {
		if errors.Is(p, err) {
			return true
		}
	}
	return false
}

// advance moves past the game of n bytes just emitted.
func (r *Reader) advance(n int, partial bool) {
	// The lines of a game the skim ended are counted already.
	if r.scan.gameLines >= 0 && !partial {
		r.line += r.scan.gameLines
	} else {
		r.line += bytes.Count(r.buf[r.start:r.start+n], nl)
	}
	r.index++
	r.cont = partial
	r.off += int64(n)
	r.start += n
	r.scan.next(partial)
}

var nl = []byte{'\n'}
