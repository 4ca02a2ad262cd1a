package pgn

import (
	"bytes"
	"fmt"
	"io"
)

// Reading in parts.
//
// ReadBatch finds the games on the goroutine that reads, so on archives of
// short games that one goroutine bounds a whole program however many cores
// do the rest. ReadPart instead only reads: it cuts the input where a game
// probably starts (a line opening a tag pair after a blank line or a line
// of movetext) and leaves
// finding the games to Batch.ScanPart, which any goroutine may run. A guess
// is confirmed when the games ScanPart finds, starting afresh from the
// part's first byte, end exactly at the cut: the scanner's state between
// two games is empty, so the games are then the ones Next would return.
// When a guess was wrong (a comment left open across a blank line and a
// tag, say, or a game larger than MaxGameSize), Resume gives the
// unconfirmed bytes back and the Reader reads them in order.

// part is what ReadPart knows of a Batch's bytes and what ScanPart found
// in them.
type part struct {
	on       bool
	cut      int   // where the next part begins; -1 when no cut was found
	stop     int   // where the part's bytes end when there is no cut
	eof      bool  // the part runs to the end of the input
	line     int   // line number of raw[0]
	off      int64 // input offset of raw[0]
	limit    int   // the Reader's MaxGameSize
	name     string
	lonelyCR bool
	first    int   // games in the input before the part's first
	rest     int   // first byte of raw not in a game ScanPart confirmed
	restLine int   // line number of raw[rest]
	restOff  int64 // input offset of raw[rest]
	midGame  bool  // the part starts inside a game cut into parts
}

// end returns where the part's own bytes end: at the cut, or at the end
// of what was read when there is no cut.
func (p *part) end(raw []byte) int {
	if p.cut < 0 {
		return p.stop
	}
	return p.cut
}

// ReadPart reads at least size bytes of input into b, or up to the end of
// the input, and cuts them where a game probably starts, for b.ScanPart to
// find the games in, possibly on another goroutine. The bytes after the
// cut are kept for the next part; b holds a copy of them too, because
// ScanPart needs to look past the cut to confirm it. Parts are read in
// order, one after the other, and their games are numbered by
// Batch.CountFrom.
//
// At the end of the input ReadPart returns io.EOF, or the error reading
// stopped with, and b holds no games.
func (r *Reader) ReadPart(b *Batch, size int) error {
	b.raw, b.vals, b.spans, b.probs, b.meta = b.raw[:0], b.vals[:0], b.spans[:0], b.probs[:0], b.meta[:0]
	b.Games, b.built, b.idle = b.Games[:0], false, false
	if r.start == r.end && r.err != nil {
		b.part = part{}
		return r.err
	}
	limit := r.limit()
	p := part{on: true, line: r.line, off: r.off, limit: limit, name: r.Name}
	raw := append(b.raw, r.buf[r.start:r.end]...)
	mapped := len(raw)
	// A part that does not start between two games (after a game cut into
	// parts by MaxGameSize) is never cut: ScanPart confirms none of it.
	cuttable := !r.cont && r.scan.mode == modeStart && r.scan.pos == 0
	p.midGame = !cuttable
	want := min(max(size, len(raw)+1), limit-1)
	for {
		var idle bool
		raw, idle = r.readInto(raw, want, cuttable)
		r.mapLineEnds(raw, 0, mapped)
		mapped = len(raw)
		if r.err != nil {
			p.cut, p.eof = len(raw), true
			if !cuttable {
				p.cut = -1
			}
			break
		}
		if c := lastCut(raw); c > 0 && cuttable {
			p.cut, b.idle = c, idle
			break
		}
		if idle {
			continue // no game whole yet: wait for more
		}
		// A game larger than a few parts is rare: rather than read on to
		// MaxGameSize, let the Reader take it in order.
		if len(raw) >= min(limit-1, 4*size) || !cuttable {
			p.cut = -1
			break
		}
		want = min(2*len(raw), limit-1, 4*size)
	}
	p.lonelyCR = r.lineEnds == lineEndsCR
	p.stop = len(raw)
	if r.lineEnds == lineEndsUnknown && p.stop > 0 && raw[p.stop-1] == '\r' {
		// The byte after a first CR tells what ends lines: keep the CR
		// with the bytes that bring it.
		p.stop--
	}
	b.raw, b.lonelyCR, b.part = raw, p.lonelyCR, p

	end := p.end(raw)
	if r.buf == nil {
		// Only the bytes after the cut are kept here, so the buffer is
		// made to their size: an input of one short game, each file of
		// a folder of them, takes no more.
		r.buf = make([]byte, 0, len(raw)-end)
		r.scan.reset()
	}
	r.buf = append(r.buf[:0], raw[end:]...)
	r.start, r.end = 0, len(r.buf)
	r.line += bytes.Count(raw[:end], nl)
	r.off += int64(end)
	return nil
}

// limit returns the largest game the Reader holds whole.
func (r *Reader) limit() int {
	if r.MaxGameSize <= 0 {
		return DefaultMaxGameSize
	}
	return r.MaxGameSize
}

// readInto reads from the input, appending to buf, until it holds at least
// want bytes or reading fails; the error is kept in r.err. With handOut it
// also stops, after one read at least, when the input is idle.
func (r *Reader) readInto(buf []byte, want int, handOut bool) (_ []byte, idle bool) {
	// Read no more than asked, though the buffer may be larger from an
	// earlier part, so that parts stay small enough to share out.
	most := want + minRead
	empty := 0
	for len(buf) < want && r.err == nil {
		if room := min(cap(buf), most) - len(buf); (cap(buf) == 0 || room < cap(buf)/2) && cap(buf) < most {
			// The buffer grows as the input comes, from firstRead and
			// doubling whenever less than half of it is left, not at
			// once to all a part may take: an input of one short game,
			// each file of a folder of them, then takes 4 KB, not 288.
			// A batch keeps its buffer for its next parts, so a large
			// input grows it once.
			nb := make([]byte, len(buf), doubled(cap(buf), most))
			copy(nb, buf)
			buf = nb
		}
		into := buf[len(buf):min(cap(buf), most)]
		n, err := r.src.Read(into)
		if e := readCount(n, into); e != nil {
			r.err = e
			return buf, false
		}
		buf = buf[:len(buf)+n]
		if err != nil {
			r.err = err
			return buf, false
		}
		if n == 0 {
			if empty++; empty == 100 {
				r.err = io.ErrNoProgress
				return buf, false
			}
		}
		if handOut && len(buf) < want && r.idler != nil && r.idler.Idle(idleWait) {
			return buf, true
		}
	}
	return buf, false
}

// lastCut returns the offset of the last line of b that probably starts a
// game, or -1: a tag pair opened after a blank line or after a line that is
// not a tag pair (games with no blank line between them), of which b holds
// the whole line, so that the scanner can tell the game before it ended.
func lastCut(b []byte) int {
	end := len(b)
	for end > 1 {
		k := bytes.LastIndexByte(b[:end], '[')
		if k < 1 {
			return -1
		}
		end = k
		if b[k-1] != '\n' || k+1 >= len(b) || !isLetter(b[k+1]) || !afterMovetext(b, k-1) {
			continue
		}
		if bytes.IndexByte(b[k:], '\n') >= 0 {
			return k
		}
	}
	return -1
}

// afterMovetext reports whether the line ending at b[nl] is blank or holds
// no tag pair, and follows a line end.
func afterMovetext(b []byte, nl int) bool {
	start := bytes.LastIndexByte(b[:nl], '\n') + 1
	if start == 0 {
		return false
	}
	j := skipBlanks(b[:nl], start)
	return j == nl || b[j] != '['
}

// ScanPart finds and makes the games of a part read by ReadPart, as Next
// would, and reports whether they end exactly at the part's cut. When they
// do not, the games before the first that runs past the cut are kept and
// the rest is for Resume. Games are numbered from 1 within the part until
// CountFrom says how many came before.
func (b *Batch) ScanPart() (games int, complete bool) {
	p := &b.part
	if !p.on {
		return 0, false
	}
	s := &b.scan
	tags := b.tagMemory()
	tags.reset()
	b.built = true
	data := b.raw
	pos, line, off, end := 0, p.line, p.off, p.end(data)
	if p.cut < 0 {
		end = 0
	}
	// Looking for a NUL byte once in the part spares a look in each game.
	mayHoldNUL := bytes.IndexByte(data, 0) >= 0
	for pos < end {
		// As in Reader.scanGame, the scanner sees at most limit bytes:
		// a game it cannot end within them is cut into parts, which only
		// the Reader does.
		s.reset()
		avail := len(data) - pos
		final := p.eof && avail <= p.limit
		n, done := s.run(data[pos:pos+min(avail, p.limit)], final)
		if !done {
			if !final {
				break
			}
			n = avail
			s.unclosedAtEnd()
		}
		if pos+n > end {
			break
		}
		// Escaped values are unescaped into the scanner's buffer, which
		// the next game reuses: keep them in the batch's.
		// (Values of earlier games stay where they are if it grows.)
		var vals []byte
		if len(s.vals) > 0 { // rare: not even a call to copy nothing
			v := len(b.vals)
			b.vals = append(b.vals, s.vals...)
			vals = b.vals[v:]
		}
		k := len(b.Games)
		b.Games = slicesResize(b.Games, k+1)
		g := &b.Games[k]
		// Field by field, not as a struct literal, which is put together
		// on the stack and copied in with wide loads that wait for its
		// narrow stores to land.
		g.Index, g.Line, g.Offset, g.file = k+1, line, off, p.name
		g.Partial, g.Continued, g.TagsIncomplete, g.lonelyCR = false, false, s.tagsCut, p.lonelyCR
		g.movetext, g.badTags = s.movetext, s.badTags
		g.Tags, g.Problems = tags.take(len(s.tags)), g.Problems[:0]
		buildGame(g, data[pos:pos+n], vals, s.tags, s.problems, mayHoldNUL)
		if s.gameLines >= 0 {
			line += s.gameLines
		} else {
			line += bytes.Count(data[pos:pos+n], nl)
		}
		off += int64(n)
		pos += n
	}
	if p.lonelyCR {
		// The rest, if any, goes back to the Reader as it was read.
		swapLineEnds(data[:pos])
	}
	p.rest, p.restLine, p.restOff = pos, line, off
	return len(b.Games), p.cut >= 0 && pos == p.cut
}

// CountFrom says how many games of the input came before the part's
// first, so that its games are numbered as Next numbers them.
func (b *Batch) CountFrom(games int) {
	for i := range b.Games {
		b.Games[i].Index += games - b.part.first
	}
	b.part.first = games
}

// Resume gives back to the Reader, unread, the bytes of part b from its
// first game ScanPart did not confirm, and then all of the later parts, in
// order: Next and ReadBatch read them before the rest of the input, with
// the line numbers, offsets and game numbers going on from b's confirmed
// games. It is how a program reading in parts goes on where a cut was
// wrong. No other part may be read in the meantime, and b's confirmed
// games, like the later parts, must be done with.
func (r *Reader) Resume(b *Batch, later ...*Batch) {
	p := &b.part
	total := p.end(b.raw) - p.rest + r.end - r.start
	for _, l := range later {
		total += l.part.end(l.raw)
	}
	buf := make([]byte, 0, max(total+minRead, initialBuffer))
	buf = append(buf, b.raw[p.rest:p.end(b.raw)]...)
	for _, l := range later {
		k := len(buf)
		buf = append(buf, l.raw[:l.part.end(l.raw)]...)
		if l.part.lonelyCR {
			// A later part may have been scanned, and ScanPart gave the
			// games it confirmed their lone CRs back; the Reader holds
			// its bytes with CR and LF swapped.
			swapLineEnds(buf[k : k+l.part.rest])
		}
	}
	buf = append(buf, r.buf[r.start:r.end]...)
	r.buf, r.start, r.end = buf[:cap(buf)], 0, len(buf)
	r.line, r.off, r.index = p.restLine, p.restOff, p.first+len(b.Games)
	if p.rest == 0 && p.midGame {
		// The Reader's scanner is where the part began: inside a game.
		return
	}
	r.cont = false
	r.scan.reset()
}

// Games returns the number of games Next and ReadBatch returned, with
// those Resume counted; the games of parts are counted by the program
// that scans them.
func (r *Reader) Games() int { return r.index }

// unclosedAtEnd reports a comment still open where the input ends.
func (s *scanner) unclosedAtEnd() {
	if s.mode == modeBrace {
		s.problems = append(s.problems, problem{s.braceOpen, fmt.Errorf("%w: '{' never closed before the end of the input", ErrUnterminatedComment)})
	}
}

// TagMemory is memory for the tags of a batch's games, kept from batch to
// batch (see Batch.TagMemory).
type TagMemory struct {
	tagArena
}

// tagMemory returns the memory the batch's tags go in.
func (b *Batch) tagMemory() *tagArena {
	if b.TagMemory != nil {
		return &b.TagMemory.tagArena
	}
	return &b.tags.tagArena
}

// tagArena hands out room for the tags of a batch's games from a few large
// blocks kept from batch to batch, so that making games allocates nothing
// once the blocks have grown, and a game's tags lie next to the game
// before's.
type tagArena struct {
	blocks [][]Tag
	cur    int
}

// The sizes of a tagArena's blocks, in tags: the first, and the largest
// that doubling makes.
const (
	arenaFirst = 64
	arenaBlock = 4096
)

// reset makes all the room free again.
func (a *tagArena) reset() {
	a.cur = 0
	if len(a.blocks) > 0 {
		a.blocks[0] = a.blocks[0][:0]
	}
}

// take returns an empty slice with room for n tags, which appending past
// n does not share with anything else.
func (a *tagArena) take(n int) []Tag {
	for {
		if a.cur == len(a.blocks) {
			// Blocks start small and double up to arenaBlock tags: a
			// batch of one short game, each file of a folder of them,
			// then makes room for a few dozen tags, not thousands.
			size := arenaFirst
			if k := len(a.blocks); k > 0 {
				size = min(2*cap(a.blocks[k-1]), arenaBlock)
			}
			a.blocks = append(a.blocks, make([]Tag, 0, max(n, size)))
		}
		b := a.blocks[a.cur]
		if l := len(b); cap(b)-l >= n {
			a.blocks[a.cur] = b[:l+n]
			return b[l : l : l+n]
		}
		if a.cur++; a.cur < len(a.blocks) {
			a.blocks[a.cur] = a.blocks[a.cur][:0]
		}
	}
}
