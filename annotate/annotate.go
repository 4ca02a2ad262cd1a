// Package annotate tags the games of PGN archives with the numbers of their
// Chess960 start positions: [Chess960 "518"] for Scharnagl's number and
// [Chess960Fritz9 "359"] for Fritz 9's, "W:B" pairs for double Fischer
// random games whose two back ranks differ.
//
// Annotation changes only the two tags (and, when asked, the Variant,
// SetUp and FEN castling field): deleting the lines of the two tags from
// the output gives back the input byte for byte, and annotating an
// annotated archive changes nothing. Asked to, it also replays every game's
// main line (see package replay) to set PlyCount and to write the final
// position as a comment before the result; a second run rewrites the same
// bytes again.
package annotate

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/replay"
	"github.com/frctool/frctool/startpos"
)

// Default tag names.
const (
	DefaultSPTag     = "Chess960"
	DefaultFritz9Tag = "Chess960Fritz9"
)

// Options say what to write.
type Options struct {
	// SPTag and Fritz9Tag name the two tags; empty means the defaults.
	SPTag, Fritz9Tag string
	// NoFritz9 leaves the Fritz9 tag out.
	NoFritz9 bool
	// Variant sets [Variant "Chess960"] and [SetUp "1"] on games from a
	// Chess960 array other than standard chess, fixing archives that say
	// "Standard" or nothing.
	Variant bool
	// Castling, unless nil, rewrites the castling field of the game's FEN
	// in that style (X-FEN or Shredder-FEN).
	Castling *fen.Style
	// PlyCount sets [PlyCount "N"] to the number of moves of the main
	// line, counted by replaying them (see package replay).
	PlyCount bool
	// FinalFEN writes the position after the main line's last move as a
	// comment { "FEN" } before the game termination marker, the form
	// pgn-extract -F writes, replacing such a comment already there. The
	// castling field follows Castling, or else the game's FEN tag.
	FinalFEN bool
}

// ErrTagName is the error of Options.Check for a tag annotate cannot
// write a number into.
var ErrTagName = errors.New("bad tag name")

// protectedTags are the tags a game's identity and start are read from
// (the Seven Tag Roster, FEN, SetUp, Variant) and the one annotate writes
// otherwise (PlyCount): a number written into one would replace what it
// holds.
var protectedTags = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result", "FEN", "SetUp", "Variant", "PlyCount"}

// Check reports whether the options can be used: each tag to be written
// is named with letters, digits and _ only, the two differ, and neither is
// a tag that writing a number into would destroy (the Seven Tag Roster,
// FEN, SetUp, Variant, PlyCount). Empty names stand for the defaults.
func (o *Options) Check() error {
	sp, f9 := cmp.Or(o.SPTag, DefaultSPTag), cmp.Or(o.Fritz9Tag, DefaultFritz9Tag)
	for _, t := range []struct{ what, name string }{{"the SP tag", sp}, {"the Fritz9 tag", f9}} {
		if !tagName(t.name) {
			return fmt.Errorf("%w: %s %s: letters, digits and _ only", ErrTagName, t.what, words.Quote(t.name))
		}
		if slices.Contains(protectedTags, t.name) {
			return fmt.Errorf("%w: %s %s would replace the game's own [%s]", ErrTagName, t.what, words.Quote(t.name), t.name)
		}
	}
	if sp == f9 && !o.NoFritz9 {
		return fmt.Errorf("%w: the SP and Fritz9 tags are both %s", ErrTagName, words.Quote(sp))
	}
	return nil
}

// tagName reports whether s is a PGN tag name: letters, digits and _.
func tagName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// replays says whether the options need the moves played.
func (o *Options) replays() bool { return o.PlyCount || o.FinalFEN }

// Annotator annotates games one at a time. It is not safe for concurrent
// use; give each goroutine its own.
type Annotator struct {
	opts     Options
	edits    []pgn.Edit
	replayer *replay.Replayer // plays the moves when the options need it
	// dfrc holds the tags' texts of the DFRC pairs met, made once each:
	// made for every game, they were two allocations a game of a DFRC
	// archive. There are at most maxDFRCTexts.
	dfrc map[[2]int]dfrcText
}

// dfrcText is what a DFRC game's number tags say, "W:B" each.
type dfrcText struct{ sp, fritz9 string }

// maxDFRCTexts bounds Annotator.dfrc: a DFRC archive draws its pairs from
// a few hundred at most, and a hostile one of all 921,600 pairs still
// keeps the memory of an Annotator small. Past it, texts are made anew.
const maxDFRCTexts = 4096

// dfrcTexts returns the texts of the number tags of a DFRC game from st.
func (a *Annotator) dfrcTexts(st startpos.Start) dfrcText {
	pair := [2]int{st.White, st.Black}
	if t, ok := a.dfrc[pair]; ok {
		return t
	}
	fw, fb, _ := st.Fritz9()
	t := dfrcText{sp: numberText[st.White] + ":" + numberText[st.Black], fritz9: numberText[fw] + ":" + numberText[fb]}
	if len(a.dfrc) < maxDFRCTexts {
		if a.dfrc == nil {
			a.dfrc = make(map[[2]int]dfrcText)
		}
		a.dfrc[pair] = t
	}
	return t
}

// New returns an Annotator for the options.
func New(opts Options) *Annotator {
	if opts.SPTag == "" {
		opts.SPTag = DefaultSPTag
	}
	if opts.Fritz9Tag == "" {
		opts.Fritz9Tag = DefaultFritz9Tag
	}
	a := &Annotator{opts: opts, edits: make([]pgn.Edit, 0, 8)}
	if opts.replays() {
		a.replayer = replay.New(replay.Options{})
	}
	return a
}

// Result is what annotating one game found.
type Result struct {
	// Replayed is set when the options asked for a replay and the whole
	// main line could be played.
	Replayed bool
	// Problems are the annotator's own: the moves the replay could not
	// play, or why it could not start. The reader's and the start tags'
	// problems stay in pgn.Game.Problems and startpos.Class.Problems.
	Problems []*pgn.ParseError
}

// Append appends g, annotated, to dst and returns the extended slice; c
// is what startpos.Classify says of g. What is not a counted game, games
// without a tag section, and games too large to examine (parts, or tag
// sections the reader did not hold whole) are appended unchanged.
func (a *Annotator) Append(dst []byte, g *pgn.Game, c *startpos.Class) ([]byte, Result) {
	var res Result
	if !c.Counted || !g.HasTagSection() || g.Partial || g.TagsIncomplete {
		return append(dst, g.Raw...), res
	}
	st := c.Start

	o := &a.opts
	edits := a.edits[:0]
	_, hasSPTag := g.Tag(o.SPTag)
	fritzAfter := "FEN"
	if hasSPTag {
		fritzAfter = o.SPTag
	}
	switch st.Kind {
	case startpos.Chess960:
		edits = addEdit(edits, o.SPTag, numberText[st.White], "FEN")
		if !o.NoFritz9 {
			f, _ := numbering.SPToFritz9(st.White)
			edits = addEdit(edits, o.Fritz9Tag, numberText[f], fritzAfter)
		}
	case startpos.DFRC:
		texts := a.dfrcTexts(st)
		edits = addEdit(edits, o.SPTag, texts.sp, "FEN")
		if !o.NoFritz9 {
			edits = addEdit(edits, o.Fritz9Tag, texts.fritz9, fritzAfter)
		}
	default:
		// Not a Chess960 array: a tag from an earlier run is stale.
		edits = append(edits, pgn.Edit{Name: o.SPTag, Remove: true}, pgn.Edit{Name: o.Fritz9Tag, Remove: true})
	}
	if o.Variant && st.FEN >= 0 && (st.Kind == startpos.DFRC || st.Kind == startpos.Chess960 && st.White != numbering.StandardSP) {
		edits = addEdit(addEdit(edits, "Variant", "Chess960", ""), "SetUp", "1", "")
	}
	if o.Castling != nil && st.FEN >= 0 {
		old := string(g.Tags[st.FEN].Value)
		if rewritten, err := fen.RewriteCastling(old, *o.Castling); err == nil && rewritten != old {
			edits = addEdit(edits, "FEN", rewritten, "")
		}
	}
	var final *position.Board
	if a.replayer != nil && st.Kind != startpos.Unknown && editable(g) {
		edits, final = a.replay(edits, g, st, &res)
	}
	a.edits = edits
	dst = g.AppendEdited(dst, edits...)
	if o.FinalFEN && final != nil {
		dst = a.appendFinalFEN(dst, g, st, final)
	}
	return dst, res
}

// replay plays g's main line from st for --plycount and --final-fen,
// adding the PlyCount edit to edits when it was played through. A game
// that cannot be replayed keeps its PlyCount and gets no comment:
// malformed games pass through unchanged. An unknown start is not tried:
// the start tags' problem already says so. It is a function of its own,
// out of Append's way, whose frame it made larger for every game.
func (a *Annotator) replay(edits []pgn.Edit, g *pgn.Game, st startpos.Start, res *Result) ([]pgn.Edit, *position.Board) {
	line, err := a.replayer.SetUp(g, st)
	if err != nil {
		res.Problems = append(res.Problems, replay.Problem(g, line, replay.GameError{Err: err}))
		return edits, nil
	}
	played := a.replayer.Play(g)
	res.Problems = played.Problems
	if played.Final == nil {
		return edits, nil
	}
	res.Replayed = true
	if a.opts.PlyCount {
		edits = addEdit(edits, "PlyCount", itoa(played.MainPlies), "")
	}
	return edits, played.Final
}

// appendFinalFEN writes final as a comment { "FEN" } before the result of
// the game edited at the end of dst.
func (a *Annotator) appendFinalFEN(dst []byte, g *pgn.Game, st startpos.Start, final *position.Board) []byte {
	style := fen.XFEN
	switch {
	case a.opts.Castling != nil:
		style = *a.opts.Castling
	case st.FEN >= 0:
		style = fen.CastlingStyle(g.Tags[st.FEN].Value)
	}
	var buf [128]byte
	text := append(buf[:0], '"')
	p := final.Position()
	text = p.AppendFormat(text, style)
	text = append(text, '"')
	// Tag edits end before the movetext, which is therefore the tail of
	// dst: it is written again, from g, with the comment.
	return pgn.AppendFinalComment(dst[:len(dst)-len(g.Movetext())], g.Movetext(), text, isFENComment, g.LineEnding())
}

// addEdit appends to edits the edit setting tag name to value, a new tag
// going after the tag named after. It fills the edit in place: an Edit
// made as a literal is copied in with wide loads that wait for its
// narrower stores to land, which showed in annotate's profile.
func addEdit(edits []pgn.Edit, name, value, after string) []pgn.Edit {
	edits = append(edits, pgn.Edit{})
	e := &edits[len(edits)-1]
	e.Name, e.Value, e.After = name, value, after
	return edits
}

// editable says whether a game's movetext can take a comment: after an
// unterminated comment or binary bytes in it nobody knows where its moves
// end, and the game must pass through as it is. Binary bytes in the tags
// alone do not count: the tag edits may rewrite those tags, and a second
// run would then replay a game the first did not.
func editable(g *pgn.Game) bool {
	for _, p := range g.Problems {
		switch {
		case errors.Is(p.Err, pgn.ErrUnterminatedComment):
			return false
		case errors.Is(p.Err, pgn.ErrNUL):
			// The reader reports a game's first NUL only, which may be
			// in its tags, even on the line where its moves begin, with
			// another in its moves.
			if bytes.IndexByte(g.Movetext(), 0) >= 0 {
				return false
			}
		case errors.Is(p.Err, pgn.ErrBinary):
			return false // other binary bytes are reported in the moves only
		}
	}
	return true
}

// itoa is strconv.Itoa without an allocation for the numbers of start
// positions and the lengths of nearly all games.
func itoa(n int) string {
	if n >= 0 && n < len(numberText) {
		return numberText[n]
	}
	return strconv.Itoa(n)
}

// Summary counts what a run annotated: the games by the kind of their
// start and the problems reported, as every command counts them, and the
// games replayed.
type Summary struct {
	startpos.Tally
	// Replayed counts the games whose main line was played to its end,
	// when the options ask for a replay.
	Replayed int64
}

// String returns the Tally's summary line, with ", N replayed" when games
// were replayed.
func (s *Summary) String() string {
	str := s.Tally.String()
	if s.Replayed > 0 {
		str += fmt.Sprintf(", %d replayed", s.Replayed)
	}
	return str
}

// Run annotates every game of r as opts say and writes it to w, on up to
// run.Jobs goroutines while keeping the input's order. run.Warn receives
// the reader's problems, the start tags' and the replay's. Every game is
// annotated and written: run.Where is not consulted. sum, if not nil,
// accumulates the counts, also across several calls to Run. Options that
// Check refuses are refused before anything is read.
func Run(ctx context.Context, r *pgn.Reader, w io.Writer, opts Options, run pipeline.Options, sum *Summary) error {
	if err := opts.Check(); err != nil {
		return err
	}
	if sum == nil {
		sum = new(Summary)
	}
	job := pipeline.Job[Result]{
		NewWorker: func() func(*pipeline.Item[Result], []byte) []byte {
			a := New(opts)
			return func(it *pipeline.Item[Result], out []byte) []byte {
				out, it.Value = a.Append(out, it.Game, &it.Class)
				it.Problems = append(it.Problems, it.Value.Problems...)
				return out
			}
		},
		Emit: func(it *pipeline.Item[Result]) error {
			if it.Value.Replayed {
				sum.Replayed++
			}
			return nil
		},
		Output: w,
	}
	run.Where = nil
	return pipeline.Run(ctx, r, run, job, &sum.Tally)
}
