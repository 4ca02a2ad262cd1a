// Package annotate tags the games of PGN archives with the numbers of their
// Chess960 start positions: [Chess960 "518"] for Scharnagl's number and
// [Chess960Fritz9 "359"] for Fritz 9's, "W:B" pairs for double Fischer
// random games whose two back ranks differ.
//
// Annotation changes only the two tags (and, when asked, the Variant,
// SetUp and FEN castling field): deleting the lines of the two tags from
// the output gives back the input byte for byte, and annotating an
// annotated archive changes nothing. Asked to, it also replays every game's
// main line (see package validate) to set PlyCount and to write the final
// position as a comment before the result; a second run rewrites the same
// bytes again.
package annotate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/startpos"
	"github.com/frctool/frctool/validate"
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
	// line, counted by replaying them (see package validate).
	PlyCount bool
	// FinalFEN writes the position after the main line's last move as a
	// comment { "FEN" } before the game termination marker, the form
	// pgn-extract -F writes, replacing such a comment already there. The
	// castling field follows Castling, or else the game's FEN tag.
	FinalFEN bool
}

// replays says whether the options need the moves played.
func (o *Options) replays() bool { return o.PlyCount || o.FinalFEN }

// Annotator annotates games one at a time. It is not safe for concurrent
// use; give each goroutine its own.
type Annotator struct {
	opts      Options
	edits     []pgn.Edit
	validator *validate.Validator // replays the moves when the options need it
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
		a.validator = validate.New(validate.Options{})
	}
	return a
}

// Result is what annotating one game found.
type Result struct {
	// Counted is false for what is not a game: a game's second part (see
	// pgn.Game.Continued), or blank text with no tags and no moves.
	Counted bool
	// Start is the game's start position.
	Start startpos.Start
	// Replayed is set when the options asked for a replay and the whole
	// main line could be played.
	Replayed bool
	// Problems are the reader's and the start tags' problems, in line
	// order as far as they come from one place, and with a replay those of
	// validate.Validator.Check in their place.
	Problems []*pgn.ParseError
}

// Append appends g, annotated, to dst and returns the extended slice.
// Games without a tag section, and parts of games too large to examine,
// are appended unchanged.
func (a *Annotator) Append(dst []byte, g *pgn.Game) ([]byte, Result) {
	res := Result{Problems: g.Problems, Start: startpos.Start{Kind: startpos.Unknown, White: -1, Black: -1, FEN: -1}}
	res.Counted = startpos.Classify(g).Counted
	if !res.Counted || !g.HasTagSection() || g.Partial {
		return append(dst, g.Raw...), res
	}
	st, problems := startpos.OfGame(g)
	res.Start = st
	if len(problems) > 0 {
		res.Problems = append(res.Problems[:len(res.Problems):len(res.Problems)], problems...)
	}

	o := &a.opts
	edits := a.edits[:0]
	_, hasSPTag := g.Tag(o.SPTag)
	fritzAfter := "FEN"
	if hasSPTag {
		fritzAfter = o.SPTag
	}
	switch st.Kind {
	case startpos.Chess960:
		edits = append(edits, pgn.Edit{Name: o.SPTag, Value: spText[st.White], After: "FEN"})
		if !o.NoFritz9 {
			f, _ := numbering.SPToFritz9(st.White)
			edits = append(edits, pgn.Edit{Name: o.Fritz9Tag, Value: fritz9Text[f], After: fritzAfter})
		}
	case startpos.DFRC:
		edits = append(edits, pgn.Edit{Name: o.SPTag, Value: spText[st.White] + ":" + spText[st.Black], After: "FEN"})
		if !o.NoFritz9 {
			fw, fb, _ := st.Fritz9()
			edits = append(edits, pgn.Edit{Name: o.Fritz9Tag, Value: fritz9Text[fw] + ":" + fritz9Text[fb], After: fritzAfter})
		}
	default:
		// Not a Chess960 array: a tag from an earlier run is stale.
		edits = append(edits, pgn.Edit{Name: o.SPTag, Remove: true}, pgn.Edit{Name: o.Fritz9Tag, Remove: true})
	}
	if o.Variant && st.FEN >= 0 && (st.Kind == startpos.DFRC || st.Kind == startpos.Chess960 && st.White != numbering.StandardSP) {
		edits = append(edits, pgn.Edit{Name: "Variant", Value: "Chess960"}, pgn.Edit{Name: "SetUp", Value: "1"})
	}
	if o.Castling != nil && st.FEN >= 0 {
		old := string(g.Tags[st.FEN].Value)
		if rewritten, err := fen.RewriteCastling(old, *o.Castling); err == nil && rewritten != old {
			edits = append(edits, pgn.Edit{Name: "FEN", Value: rewritten})
		}
	}
	var final *position.Board
	if a.validator != nil && editable(g) {
		// The replay reports the reader's and the start's problems too,
		// and a game that cannot be replayed keeps its PlyCount and gets
		// no comment: malformed games pass through unchanged.
		check := a.validator.Check(g)
		res.Problems = check.Problems
		if final = check.Final; final != nil {
			res.Replayed = true
			if o.PlyCount {
				edits = append(edits, pgn.Edit{Name: "PlyCount", Value: itoa(check.MainPlies)})
			}
		}
	}
	a.edits = edits
	dst = g.AppendEdited(dst, edits...)
	if o.FinalFEN && final != nil {
		style := fen.XFEN
		switch {
		case o.Castling != nil:
			style = *o.Castling
		case st.FEN >= 0:
			style = fen.CastlingStyle(g.Tags[st.FEN].Value)
		}
		// Tag edits end before the movetext, which is therefore the tail
		// of dst.
		dst = setFinalComment(dst, len(dst)-len(g.Movetext()), final, style, g.LineEnding())
	}
	return dst, res
}

// The numbers as tag values, made once so that tagging a game allocates
// nothing.
var spText, fritz9Text = func() (sp [numbering.Count]string, f9 [numbering.Count + 1]string) {
	for i := range sp {
		sp[i] = strconv.Itoa(i)
	}
	for i := 1; i < len(f9); i++ {
		f9[i] = strconv.Itoa(i)
	}
	return sp, f9
}()

// editable says whether a game's movetext can take a comment: after an
// unterminated comment or binary bytes nobody knows where its moves end,
// and the game must pass through as it is.
func editable(g *pgn.Game) bool {
	for _, p := range g.Problems {
		if errors.Is(p.Err, pgn.ErrUnterminatedComment) || errors.Is(p.Err, pgn.ErrBinary) {
			return false
		}
	}
	return true
}

// itoa is strconv.Itoa without an allocation for the numbers of start
// positions and the lengths of nearly all games.
func itoa(n int) string {
	if n >= 0 && n < len(spText) {
		return spText[n]
	}
	return strconv.Itoa(n)
}

// Summary counts what a run annotated.
type Summary struct {
	Games    int // games read, each counted once however large
	Chess960 int // games from a Chess960 array, standard chess included
	DFRC     int // games whose two back ranks differ
	Other    int // games from a FEN that is not a start array
	Unknown  int // games whose start the tags do not tell
	Warnings int // problems reported
	// Replayed counts the games whose main line was played to its end,
	// when the options ask for a replay.
	Replayed int
	seen     [numbering.Count]bool
	distinct int
}

// Add counts one game's result.
func (s *Summary) Add(r Result) {
	s.Warnings += len(r.Problems)
	if !r.Counted {
		return
	}
	s.Games++
	if r.Replayed {
		s.Replayed++
	}
	switch r.Start.Kind {
	case startpos.Chess960:
		s.Chess960++
		if !s.seen[r.Start.White] {
			s.seen[r.Start.White] = true
			s.distinct++
		}
	case startpos.DFRC:
		s.DFRC++
	case startpos.Other:
		s.Other++
	default:
		s.Unknown++
	}
}

// Distinct returns how many different SPs the Chess960 games started from.
func (s *Summary) Distinct() int { return s.distinct }

func (s *Summary) String() string {
	str := fmt.Sprintf("%d games, %d identified (%d distinct SPs), %d DFRC, %d other start positions, %d unknown, %d warnings",
		s.Games, s.Chess960, s.distinct, s.DFRC, s.Other, s.Unknown, s.Warnings)
	if s.Replayed > 0 {
		str += fmt.Sprintf(", %d replayed", s.Replayed)
	}
	return str
}

// batchResult is one batch annotated by a worker.
type batchResult struct {
	out     []byte
	results []Result
	ann     *Annotator
}

// Hooks are called by Run on its calling goroutine, in input order.
type Hooks = pgn.Hooks

// Run annotates every game of r and writes it to w, using up to jobs
// goroutines while keeping the input's order. sum, if not nil, accumulates
// the counts, also across several calls to Run.
func Run(ctx context.Context, r *pgn.Reader, w io.Writer, opts Options, jobs int, sum *Summary, hooks Hooks) error {
	if sum == nil {
		sum = new(Summary)
	}
	work := func(b *pgn.Batch, res *batchResult) {
		if res.ann == nil {
			res.ann = New(opts)
		}
		res.out = res.out[:0]
		res.results = res.results[:0]
		for i := range b.Games {
			var r Result
			res.out, r = res.ann.Append(res.out, &b.Games[i])
			res.results = append(res.results, r)
		}
	}
	emit := func(_ *pgn.Batch, res *batchResult) error {
		before := sum.Games
		for _, r := range res.results {
			sum.Add(r)
			hooks.Report(r.Problems)
		}
		hooks.Done(sum.Games - before)
		_, err := w.Write(res.out)
		return err
	}
	return pgn.Pipeline(ctx, r, jobs, work, emit)
}
