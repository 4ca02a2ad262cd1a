package pgn

import (
	"bytes"
	"io"
	"slices"
	"sort"
	"sync"
)

// Game is one game of a PGN stream: its exact bytes and its parsed tags.
type Game struct {
	// Raw holds every byte of the game as read, from the first byte after
	// the previous game to the last byte before the next one: blank lines,
	// comments and junk between games included.
	Raw []byte
	// Index is the game's number in the stream, from 1.
	Index int
	// Line is the line number of Raw's first byte, from 1.
	Line int
	// Offset is the input offset of Raw's first byte.
	Offset int64
	// Tags are the tag pairs of the tag section, in order of appearance.
	Tags []Tag
	// Problems found while splitting: unterminated comments and tags,
	// binary bytes, a missing result, in the order of their lines; then
	// those of the game as a whole, at its first line: its being too large
	// to hold, and how many more malformed tags it has than were reported
	// one by one. The game is still complete in Raw.
	Problems []*ParseError

	// Partial is set when the game exceeded Reader.MaxGameSize: Raw holds
	// only its first part, and the following "games" with Continued set
	// hold the rest. Such parts are not examined beyond the tags.
	Partial bool
	// Continued is set on the second and later parts of a partial game.
	Continued bool
	// TagsIncomplete is set when Tags does not hold the whole tag section:
	// it ran past a Partial game's first part, or held more than MaxTags
	// tags. Nothing can be known, or changed, of such a game from its
	// tags.
	TagsIncomplete bool

	file     string
	lonelyCR bool // lines end with a lone CR, as old Mac exports have them
	movetext int  // offset of the movetext in Raw
	badTags  int  // malformed tag pairs, of which the first few are in Problems
	// marker is where the reader found the termination marker in the
	// movetext, plus one, with markerLen its length; -1 when there is
	// none, and 0 when the reader did not look (see markerAt).
	marker    int
	markerLen uint8
}

// Tag is one tag pair, `[Name "Value"]`. Name and Value have no room
// past their length: appending to them copies them, and leaves the game's
// bytes as they are.
type Tag struct {
	Name  []byte
	Value []byte // with \" and \\ resolved
	// Start and End delimit the tag pair in Game.Raw, from '[' to after ']'.
	Start, End int
	// Line is the tag's line number in the input.
	Line int
}

// Tag returns the value of the first tag with the given name.
func (g *Game) Tag(name string) (value []byte, ok bool) {
	if i := g.tagIndex(name); i >= 0 {
		return g.Tags[i].Value, true
	}
	return nil, false
}

// tagIndex returns the index in g.Tags of the first tag named name, or -1.
func (g *Game) tagIndex(name string) int {
	for i := range g.Tags {
		if string(g.Tags[i].Name) == name {
			return i
		}
	}
	return -1
}

// newline returns the byte that ends the game's lines.
func (g *Game) newline() []byte {
	if g.lonelyCR {
		return cr
	}
	return nl
}

var cr = []byte{'\r'}

// IsBlank reports whether b holds nothing but blanks (see IsSpace).
func IsBlank(b []byte) bool {
	for _, c := range b {
		if !IsSpace(c) {
			return false
		}
	}
	return true
}

// IsSpace reports whether c is one of PGN's blank characters between
// tokens: space, tab, line feed, carriage return, form feed, vertical tab,
// and the DOS end-of-file mark 0x1a that old exports leave behind. Every
// part of the package that skips blanks uses this one set.
func IsSpace(c byte) bool { return spaceTable[c] }

var spaceTable = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '\f': true, '\v': true, 0x1a: true}

// isLineSpace reports whether c is a blank that does not end a line.
func isLineSpace(c byte) bool { return c != '\n' && spaceTable[c] }

// trimSpaceRight returns b without its trailing blanks.
func trimSpaceRight(b []byte) []byte {
	for len(b) > 0 && spaceTable[b[len(b)-1]] {
		b = b[:len(b)-1]
	}
	return b
}

// Movetext returns the bytes after the tag section: the moves, comments,
// result and whatever follows up to the next game.
func (g *Game) Movetext() []byte { return g.Raw[g.movetext:] }

// HasTagSection reports whether the game begins with tag pairs. Text with
// no tags at all (junk before the first game, a bare move list) has none.
func (g *Game) HasTagSection() bool { return len(g.Tags) > 0 }

// LineEnding returns the game's own line ending: "\r\n" when its first
// line ends so, "\r" in an input whose lines end with a lone CR, "\n"
// otherwise.
func (g *Game) LineEnding() string {
	if g.lonelyCR {
		return "\r"
	}
	// Nearly every game begins with its first tag, on a line of its own,
	// and no tag spans lines: the byte after it tells without a search.
	if len(g.Tags) > 0 && g.Tags[0].Start == 0 {
		if end := g.Tags[0].End; end+1 < len(g.Raw) {
			switch {
			case g.Raw[end] == '\n':
				return "\n"
			case g.Raw[end] == '\r' && g.Raw[end+1] == '\n':
				return "\r\n"
			}
		}
	}
	if i := bytes.IndexByte(g.Raw, '\n'); i > 0 && g.Raw[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// An Edit changes one tag of a game, see Game.AppendEdited.
type Edit struct {
	Name  string
	Value string
	// Remove deletes every tag named Name instead of setting it.
	Remove bool
	// After names the tag after which a new tag is inserted when the game
	// has no tag named Name; when the game lacks that tag too, or After is
	// empty, the new tag goes at the end of the tag section.
	After string
}

// AppendEdited appends the game's bytes to dst with the edits applied and
// returns the extended slice. Every byte outside the edited tags is copied
// unchanged:
//
//   - Setting a tag that exists rewrites the value of its first occurrence
//     in place; later occurrences are left alone.
//   - Setting a tag that does not exist inserts `[Name "Value"]` on a line
//     of its own, with the game's line ending, after the After tag's line
//     or after the last tag's line. Edits inserted at the same place keep
//     the order they are given in.
//   - Removing a tag deletes its bytes, and its whole line when nothing
//     else stands on it, or only what a reader skips after a lone CR. No
//     removal changes how the game reads. A '%' after the tag joins the
//     tag line before it rather than begin a line, where it would begin
//     an escape line and the moves after it would read as tags; with no
//     such line the tag stays. So do the tags whose removal would change
//     the game's first line break, or what follows it, since a reader
//     takes a file's line ending from its first; and so do
//     the first tags when the first tag left would not begin its line
//     with '[' and a letter, as a reader wants of tags after junk lines.
//     A removal other than of a tag line among tag lines, the usual one,
//     is checked besides by reading the game back, before and after the
//     removals, with a game after it: when it reads otherwise than less
//     the tags removed, every tag stays, as it does in a game over 1 MiB,
//     which is not read back.
//
// A game without a tag section is appended unchanged.
func (g *Game) AppendEdited(dst []byte, edits ...Edit) []byte {
	if len(edits) == 0 || len(g.Tags) == 0 {
		return append(dst, g.Raw...)
	}
	// The tags the first eight edits name are found once, for whichever
	// path writes the game.
	var named, after [8]int
	g.findEdited(edits[:min(len(edits), 8)], &named, &after)
	if out, ok := g.appendInsertions(dst, edits, &named, &after); ok {
		return out
	}
	return g.appendEdited(dst, edits, &named, &after)
}

// appendInsertions is AppendEdited for its most common call, annotate's on
// a game not numbered before: one or two tags, neither in the game, each
// inserted after a tag that ends its line. It writes what appendEdited
// writes (TestAppendInsertions and FuzzAppendEdited hold it to that)
// without the planning of spans, which took a quarter of annotate's time
// on header-only games: 1,380 instructions an edit against 1,950
// (BenchmarkAppendEdited/insert). ok false says the edits are not such,
// and nothing was written. named and after are what findEdited found of
// the edits.
func (g *Game) appendInsertions(dst []byte, edits []Edit, named, after *[8]int) (out []byte, ok bool) {
	if len(edits) == 0 || len(edits) > 2 || len(g.Tags) == 0 {
		return dst, false
	}
	for k := range edits {
		if edits[k].Remove {
			return dst, false
		}
	}
	nl := g.newline()[0]
	var at [2]int
	for k := range edits {
		if named[k] > 0 {
			return dst, false // set in place
		}
		i := len(g.Tags) - 1
		if edits[k].After != "" && after[k] > 0 {
			i = after[k] - 1
		}
		switch end := g.Tags[i].End; {
		case end < len(g.Raw) && g.Raw[end] == nl:
			at[k] = end + 1
		case nl == '\n' && end+1 < len(g.Raw) && g.Raw[end] == '\r' && g.Raw[end+1] == '\n':
			at[k] = end + 2
		default:
			return dst, false // the line goes on after the tag, or is not ended
		}
	}
	first, second := 0, 1
	if len(edits) == 2 && at[1] < at[0] {
		first, second = 1, 0
	}
	eol := g.LineEnding()
	pos := at[first]
	dst = append(dst, g.Raw[:pos]...)
	dst = append(appendTag(dst, edits[first].Name, edits[first].Value), eol...)
	if len(edits) == 2 {
		dst = append(dst, g.Raw[pos:at[second]]...)
		pos = at[second]
		dst = append(appendTag(dst, edits[second].Name, edits[second].Value), eol...)
	}
	return append(dst, g.Raw[pos:]...), true
}

// findEdited sets, for each of up to eight edits, named[k] to the index+1
// of the first tag named as edit k names, and after[k] to that of the
// first tag named as its After, or leaves them 0: one pass over the tags
// for all the edits, where a pass for each name cost annotate a tenth of
// its time on header-only games.
func (g *Game) findEdited(edits []Edit, named, after *[8]int) {
	// Most tags have a name of a length no edit's names have: a bit per
	// length tells them at once.
	var lengths uint64
	for k := range edits {
		lengths |= lengthBit(len(edits[k].Name)) | lengthBit(len(edits[k].After))
	}
	for ti := range g.Tags {
		name := g.Tags[ti].Name
		if lengths&lengthBit(len(name)) == 0 {
			continue
		}
		for k := range edits {
			e := &edits[k]
			if named[k] == 0 && len(name) == len(e.Name) && string(name) == e.Name {
				named[k] = ti + 1
			}
			if after[k] == 0 && len(name) == len(e.After) && string(name) == e.After {
				after[k] = ti + 1
			}
		}
	}
}

// appendEdited is AppendEdited for any edits; named and after are what
// findEdited found of the first eight.
func (g *Game) appendEdited(dst []byte, edits []Edit, named, after *[8]int) []byte {
	// Work out, for every tag, what happens to it; then copy Raw once,
	// front to back, applying those decisions. At most a handful of edits
	// are involved, so plain loops beat any map.
	var spans [8]span
	ops := spans[:0]
	eol := g.LineEnding()
	all := edits
	for len(edits) > 0 {
		// The tags of the first eight edits were found by AppendEdited;
		// those of each later eight are found here.
		if len(edits) < len(all) {
			*named, *after = [8]int{}, [8]int{}
			g.findEdited(edits[:min(len(edits), 8)], named, after)
		}
		batch := edits[:min(len(edits), 8)]
		edits = edits[len(batch):]
		for k := range batch {
			e := &batch[k]
			switch {
			case e.Remove:
				for ti := named[k] - 1; ti >= 0 && ti < len(g.Tags); ti++ {
					if t := &g.Tags[ti]; string(t.Name) == e.Name {
						start, end := g.lineSpan(t.Start, t.End)
						ops = addSpan(ops, start, end, nil)
					}
				}
			case named[k] > 0:
				t := &g.Tags[named[k]-1]
				ops = addSpan(ops, t.Start, t.End, e)
			default:
				at := len(g.Tags) - 1
				if e.After != "" && after[k] > 0 {
					at = after[k] - 1
				}
				ops = g.addInsert(ops, at, e)
			}
		}
	}
	sortSpans(ops)
	ops = g.wholeLines(ops)
	if len(ops) > 0 && !ops[0].insert && ops[0].edit == nil && ops[0].start <= g.Tags[0].Start {
		ops = g.keepTagStart(ops)
	}
	pos, base, removed, plain := 0, len(dst), false, true
	for _, op := range ops {
		if op.start < pos {
			if !op.insert {
				continue // overlaps an earlier removal
			}
			// A tag to insert after one whose line a removal took goes
			// on a line of its own where the removal ends.
			op.start, op.end, op.inline = pos, pos, false
		}
		dst = append(dst, g.Raw[pos:op.start]...)
		if op.edit != nil && op.inline {
			dst = append(dst, ' ')
			dst = appendTag(dst, op.edit.Name, op.edit.Value)
		} else if op.edit != nil {
			if op.insert && len(dst) > base && dst[len(dst)-1] != g.newline()[0] {
				// The tag section's last line, as written so far, has no
				// line ending (the game ends there): give the new tag a
				// line of its own. What was written decides, not the
				// input: that line may have been removed.
				dst = append(dst, eol...)
			}
			dst = appendTag(dst, op.edit.Name, op.edit.Value)
			if op.insert && (op.start < len(g.Raw) || g.Raw[len(g.Raw)-1] == g.newline()[0]) {
				dst = append(dst, eol...)
			}
		}
		pos = op.end
		if op.edit == nil {
			removed, plain = true, plain && g.plainRemoval(op.start, op.end)
			if g.percentAfter(pos) {
				dst = g.keepPercentInLine(dst, base, op.start, op.end)
			}
		}
	}
	dst = append(dst, g.Raw[pos:]...)
	if removed && (loneCRs(dst[base:]) != loneCRs(g.Raw) || !plain && !g.readsAsRemoved(dst[base:], all)) {
		// A reader takes a file's line ending from its first line break,
		// and the removals changed this game's: it would change a file's
		// that begins with it. Or the game read back differs by more
		// than the tags removed. The tags stay.
		var kept [8]Edit
		return g.AppendEdited(dst[:base], keptTags(kept[:0], all)...)
	}
	return dst
}

// readsAsRemoved reports whether out, the game as edited with removals,
// reads as the game edited without them does, less tags the edits remove:
// the same games before and after it, the same tags otherwise, the same
// moves, and no problem that game lacks. It reads both back with a
// Reader, so that a removal the rules above did not foresee keeps its tag
// rather than change the game. It is asked only for removals other than
// plainRemoval's, which are rare.
func (g *Game) readsAsRemoved(out []byte, edits []Edit) bool {
	if g.Partial || g.Continued || len(g.Raw) > maxReadBack {
		// A game read in parts is not read back whole; one of more
		// than maxReadBack bytes is not read back, to keep the memory
		// of each job's worker small.
		return false
	}
	rb := readBacks.Get().(*readBack)
	defer readBacks.Put(rb)
	rb.kept = keptTags(rb.kept[:0], edits)
	rb.ref = g.AppendEdited(rb.ref[:0], rb.kept...)
	// After another game, a game begins only at a line that begins with
	// '[' and a letter: one that begins otherwise is read first in its
	// file. One that begins so, before and after the removals, begins
	// there after another game too; otherwise it is read after one, where
	// a removal might move its start.
	nl := g.newline()[0]
	first := !isTagStart(g.Raw, 0) || isTagStart(out, 0)
	rb.want.frame(rb.ref, nl, first)
	rb.got.frame(out, nl, first)
	edited := 1
	if first {
		edited = 0
	}
	for i := 0; ; i++ {
		w, errW := rb.want.Next()
		h, errH := rb.got.Next()
		if errW != nil || errH != nil {
			if errW != errH {
				return false
			}
			break
		}
		if i == edited {
			if !sameLessRemoved(w, h, edits) {
				return false
			}
		} else if !bytes.Equal(w.Raw, h.Raw) {
			return false
		}
	}
	return true
}

// plainRemoval reports whether removing Raw[start:end] leaves the game
// reading as before less one tag, without reading it back: the span is
// one tag and its line break, of a line that follows a line ending with a
// tag and comes before a line that begins with one, or a blank line, or
// the game's end. No lines but tag lines are then joined, and the tag
// holds no control byte whose report would move to a later one. This is
// the removal annotate makes of a stale tag nearly always.
func (g *Game) plainRemoval(start, end int) bool {
	if g.TagsIncomplete {
		return false // tags past the last recorded would be read anew
	}
	i := sort.Search(len(g.Tags), func(k int) bool { return g.Tags[k].Start >= start })
	if i == 0 || i == len(g.Tags) || g.Tags[i].Start != start {
		return false
	}
	t := &g.Tags[i]
	if t.End+g.lineBreakAt(t.End) != end || g.lineBreakAt(g.Tags[i-1].End) != start-g.Tags[i-1].End || end == t.End {
		return false
	}
	for _, c := range g.Raw[t.Start:t.End] {
		if c < ' ' || c == 0x7f {
			return false
		}
	}
	return end == len(g.Raw) || isTagStart(g.Raw, end) || g.lineBreakAt(end) > 0
}

// lineBreakAt returns the length of the line break at Raw[i], or 0: the
// game's line ending, or in a file of line feeds a CR and a line feed.
func (g *Game) lineBreakAt(i int) int {
	nl := g.newline()[0]
	switch {
	case i < len(g.Raw) && g.Raw[i] == nl:
		return 1
	case nl == '\n' && i+1 < len(g.Raw) && g.Raw[i] == '\r' && g.Raw[i+1] == '\n':
		return 2
	}
	return 0
}

// maxReadBack is the largest game readsAsRemoved reads back. It holds the
// game three times, and the removal of a stale tag that a rule may not
// foresee nearly always comes in games of a few kilobytes.
const maxReadBack = 1 << 20

// A readBack holds what readsAsRemoved reads with, kept for the next game
// with removals: a Reader's buffers would cost several times the edit.
type readBack struct {
	ref       []byte
	kept      []Edit
	want, got framedReader
}

var readBacks = sync.Pool{New: func() any { return new(readBack) }}

// A framedReader reads a game as a Reader reads it in a file: the whole
// text is in the Reader's buffer from the start, so that it needs no
// buffer of its own.
type framedReader struct {
	Reader
	text []byte
}

// frame sets r to read game, whose lines end with nl, as in a file of
// such lines: first in the file when first is set, else after a game, and
// with a game after it.
func (r *framedReader) frame(game []byte, nl byte, first bool) {
	text := r.text[:0]
	if !first {
		text = append(append(append(append(text, `[Before "game"]`...), nl, nl, '*', nl, nl), game...), `[After "game"]`...)
	} else {
		text = append(append(text, game...), `[After "game"]`...)
	}
	text = append(text, nl, nl, '*', nl)
	scan, game0 := r.scan, r.game
	r.Reader = Reader{src: eofReader{}, line: 1, ReuseGame: true, lineEnds: lineEndsLF,
		buf: text, end: len(text), err: io.EOF, MaxGameSize: max(DefaultMaxGameSize, len(text)),
		scan: scan, game: game0}
	if nl == '\r' {
		r.lineEnds = lineEndsCR
		swapLineEnds(text)
	}
	r.scan.longGame, r.scan.movetext = false, -1
	r.scan.reset()
	r.text = text
}

// eofReader is the source of a framedReader, which holds all its input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// sameLessRemoved reports whether game h reads as game w with none, some or
// all of the tags that edits remove taken out.
func sameLessRemoved(w, h *Game, edits []Edit) bool {
	// A removal at a line's start leaves the blanks after the tag, which
	// a reader skips: the moves may begin with them.
	wm, hm := w.Movetext(), h.Movetext()
	if !bytes.Equal(wm[skipBlanks(wm, 0):], hm[skipBlanks(hm, 0):]) || w.TagsIncomplete != h.TagsIncomplete || w.Partial != h.Partial {
		return false
	}
	// A problem may go with the tag that held it (a control byte), but
	// none may come.
	k := 0
	for _, p := range h.Problems {
		for k < len(w.Problems) && w.Problems[k].Err.Error() != p.Err.Error() {
			k++
		}
		if k == len(w.Problems) {
			return false
		}
		k++
	}
	k = 0
	for _, t := range w.Tags {
		if k < len(h.Tags) && bytes.Equal(t.Name, h.Tags[k].Name) && bytes.Equal(t.Value, h.Tags[k].Value) {
			k++
			continue
		}
		if !slices.ContainsFunc(edits, func(e Edit) bool { return e.Remove && e.Name == string(t.Name) }) {
			return false
		}
	}
	return k == len(h.Tags)
}

// loneCRs reports whether a Reader takes a file that begins with b for a
// file of lone CRs: its first line break is a CR that no line feed follows.
func loneCRs(b []byte) bool {
	// IndexByte twice is several times faster than IndexAny.
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
	}
	i := bytes.IndexByte(b, '\r')
	return i >= 0 && (i+1 == len(b) || b[i+1] != '\n')
}

// keptTags appends to dst the edits that are not removals.
func keptTags(dst, edits []Edit) []Edit {
	for _, e := range edits {
		if !e.Remove {
			dst = append(dst, e)
		}
	}
	return dst
}

// keepTagStart takes the removals of the first tags out of ops, sorted,
// when the first tag left would not begin with '[' and a letter, or would
// have more than blanks before it: after junk lines a reader begins a
// game's tags only at a line that begins so (isTagStart), and the junk
// and the tags left would read as text of no game.
func (g *Game) keepTagStart(ops []span) []span {
	removed := func(t *Tag) bool {
		for _, op := range ops {
			if !op.insert && op.edit == nil && op.start <= t.Start && t.Start < op.end {
				return true
			}
		}
		return false
	}
	for i := range g.Tags {
		t := &g.Tags[i]
		if removed(t) {
			continue
		}
		// What the removals leave before t must be blanks: anything else
		// (a malformed pair) would begin the line instead.
		ok, pos := isTagStart(g.Raw, t.Start), -1
		for _, op := range ops {
			if op.start >= t.Start {
				break
			}
			if op.insert || op.edit != nil {
				continue
			}
			ok = ok && (pos < 0 || IsBlank(g.Raw[pos:op.start]))
			pos = max(pos, op.end)
		}
		if ok && (pos < 0 || pos >= t.Start || IsBlank(g.Raw[pos:t.Start])) {
			return ops
		}
		kept := ops[:0]
		for _, op := range ops {
			if op.insert || op.edit != nil || op.start >= t.Start {
				kept = append(kept, op)
			}
		}
		return kept
	}
	return ops
}

// percentAfter reports whether a removal that ends at i, inside a line,
// leaves a '%' after the blanks there: at the start of a line, where the
// removal may leave it, that begins an escape line, which a tag section
// skips, and the moves after it would be read as tags.
func (g *Game) percentAfter(i int) bool {
	if i == 0 || i == len(g.Raw) || g.Raw[i-1] == g.newline()[0] {
		return false
	}
	i = skipBlanks(g.Raw, i)
	return i < len(g.Raw) && g.Raw[i] == '%'
}

// keepPercentInLine is called after the removal of Raw[start:end], which
// leaves a '%' after it on its line (percentAfter), with dst written up to
// the removal. When only blanks, or nothing, came before the removal on
// its line, the '%' would now begin one: it joins the tag line before
// instead, as it followed the tag removed, and when there is none in the
// game the removed bytes are put back. An escape line there would be
// skipped, and the lines after it, the moves or the next game's tags,
// read as tags of this game.
func (g *Game) keepPercentInLine(dst []byte, base, start, end int) []byte {
	nl := g.newline()[0]
	ls := max(bytes.LastIndexByte(dst, nl)+1, base)
	if skipBlanks(dst, ls) < len(dst) {
		return dst // the line goes on before the '%'
	}
	// Only blanks, if anything, stand before the '%' on its line, and a
	// reader skips them: they go with it.
	if joined := joinTagLine(dst[:ls], base, nl); len(joined) < ls {
		return append(joined, dst[ls:]...)
	}
	return append(dst, g.Raw[start:end]...)
}

// joinTagLine removes the line break that ends dst when the line before it,
// from base on at most, is a line of tag pairs that a '%' after it
// follows as movetext (joinsAsTags), so that the '%' follows those tags on
// their line, as it followed the tag removed.
func joinTagLine(dst []byte, base int, nl byte) []byte {
	if len(dst) <= base || dst[len(dst)-1] != nl {
		return dst // nothing of this game's before it
	}
	lb := len(dst) - 1
	if nl == '\n' && lb > base && dst[lb-1] == '\r' {
		lb--
	}
	if !joinsAsTags(dst[max(base, bytes.LastIndexByte(dst[:lb], nl)+1):lb]) {
		return dst
	}
	return dst[:lb]
}

// joinsAsTags reports whether the reader takes line, a line without its
// line break, with a '%' after it, for tag pairs and then movetext that
// begins at the '%'. A line that only looks like tags does not: a
// malformed pair (`[]`) or a lone CR makes the reader skip the rest of
// the line, the '%' with it. It is asked only where a removal leaves a '%',
// rarely, and the scanner's own tag reading answers it.
func joinsAsTags(line []byte) bool {
	j := skipBlanks(line, 0)
	if j == len(line) || line[j] != '[' {
		return false
	}
	var s scanner
	k, rest := s.tagPairs(append(line[:len(line):len(line)], '%'), 0, j)
	return rest && k == len(line)
}

// spanBefore is sortSpans' order.
func spanBefore(a, b *span) bool {
	return a.start < b.start || a.start == b.start && a.insert && !b.insert
}

// lengthBit is the bit of AppendEdited's set of name lengths for length
// n: its own up to 62, one shared by longer names.
func lengthBit(n int) uint64 { return 1 << min(n, 63) }

// addInsert appends to ops the insertion of edit e's tag after tag i.
func (g *Game) addInsert(ops []span, i int, e *Edit) []span {
	at, inline := g.lineEnd(i), false
	if end := g.Tags[i].End; end < len(g.Raw) && g.Raw[end] != g.newline()[0] && !IsBlank(g.Raw[end:at]) {
		// More tags, or the movetext, follow on the same line: the new
		// tag goes right after this one, on that line, so that it stays
		// in the tag section.
		at, inline = end, true
	}
	ops = addSpan(ops, at, at, e)
	op := &ops[len(ops)-1]
	op.insert, op.inline = true, inline
	return ops
}

type span struct {
	start, end int
	edit       *Edit // nil: delete start..end
	insert     bool
	inline     bool // insert after a tag that shares its line with more
}

// addSpan appends the span from start to end with the given edit to ops.
// It fills the span in place: one made aside is copied in with wide loads
// that wait for its narrow stores to land, which showed in annotate's
// profile.
func addSpan(ops []span, start, end int, e *Edit) []span {
	ops = append(ops, span{})
	op := &ops[len(ops)-1]
	op.start, op.end, op.edit = start, end, e
	return ops
}

// sortSpans orders spans by position, keeping the given order among equal
// positions (insertion sort: there are only a few), except that a tag
// inserted where a replaced or removed span begins comes first: after
// that span, the copy would take the insertion for a part of it and drop
// it.
func sortSpans(s []span) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && spanBefore(&s[j], &s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// lineEnd returns the offset just after the line ending of the line that
// holds tag i.
func (g *Game) lineEnd(i int) int {
	end := g.Tags[i].End
	nl := g.newline()[0]
	if end < len(g.Raw) && g.Raw[end] == nl {
		return end + 1 // a tag on a line of its own, as nearly always
	}
	if k := bytes.IndexByte(g.Raw[end:], nl); k >= 0 {
		return end + k + 1
	}
	return len(g.Raw)
}

// lineSpan returns the bytes to delete to remove the tags in
// Raw[from:to]: their whole line when only blanks stand beside them, or
// only what a reader skips after a lone CR; from:to otherwise.
func (g *Game) lineSpan(from, to int) (start, end int) {
	eol := g.newline()[0]
	start = from
	for start > 0 && g.Raw[start-1] != eol && isLineSpace(g.Raw[start-1]) {
		start--
	}
	end = to
	for end < len(g.Raw) && g.Raw[end] != eol && isLineSpace(g.Raw[end]) {
		end++
	}
	atLineStart := start == 0 || g.Raw[start-1] == eol
	if atLineStart && end < len(g.Raw) && g.Raw[end] == eol {
		return start, end + 1
	}
	if atLineStart && end == len(g.Raw) {
		return start, end
	}
	if !atLineStart {
		return from, to
	}
	// A lone CR ends a tag line for a reader, which skips the rest of the
	// line; left at the line's start, it would make the line blank and
	// end the tag section. The whole line goes. In a file of lone CRs a
	// line feed is that byte.
	other := byte('\r')
	if eol == '\r' {
		other = '\n'
	}
	if j := skipBlanks(g.Raw, to); j < len(g.Raw) && g.Raw[j] == other {
		if k := bytes.IndexByte(g.Raw[j:], eol); k >= 0 {
			return start, j + k + 1
		}
		return start, len(g.Raw)
	}
	return from, to
}

// wholeLines merges removals in ops, sorted, that only blanks part into
// one (lineSpan), so that tags removed together from a line take the line
// with them when nothing else stands on it, as a tag alone on its line
// does: the blank line they left would end the tag section.
func (g *Game) wholeLines(ops []span) []span {
	removal := func(op *span) bool { return op.edit == nil && !op.insert }
	out := ops[:0]
	for i := 0; i < len(ops); i++ {
		op := ops[i]
		if removal(&op) {
			j := i
			// Only on one line: a removal that took its line ends after
			// its line break.
			for j+1 < len(ops) && removal(&ops[j+1]) && g.Raw[op.end-1] != g.newline()[0] && ops[j+1].start <= skipBlanks(g.Raw, op.end) {
				j++
				op.end = max(op.end, ops[j].end)
			}
			if j > i {
				op.start, op.end = g.lineSpan(op.start, op.end)
				i = j
			}
		}
		out = append(out, op)
	}
	return out
}

// appendTag appends `[name "value"]` with the value escaped.
func appendTag(dst []byte, name, value string) []byte {
	dst = append(dst, '[')
	dst = append(dst, name...)
	dst = append(dst, ' ', '"')
	plain := 0 // the bytes before the first that takes a backslash
	for plain < len(value) && value[plain] != '"' && value[plain] != '\\' {
		plain++
	}
	dst = append(dst, value[:plain]...) // all of it, nearly always
	for i := plain; i < len(value); i++ {
		if value[i] == '"' || value[i] == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, value[i])
	}
	return append(dst, '"', ']')
}

// Problem returns a problem of the game at line, named by the file the game
// was read from (the Reader's Name), for code that examines games further.
func (g *Game) Problem(line int, err error) *ParseError {
	return &ParseError{File: g.file, Line: line, Err: err}
}
