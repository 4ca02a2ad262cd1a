// Package export writes one typed row per game of a PGN archive, for
// analysis in a database or a data frame: the game's place in its file,
// its start position (kind, SP, Fritz9 number, back ranks), its tags
// (players, ratings, date, clock, result) and, when asked, what replaying
// it finds (valid, final position, first moves in UCI).
//
// Rows are written as CSV (RFC 4180, with a header), JSON Lines (one
// object a line, numbers as numbers, null where absent) or Parquet (typed
// columns, dictionaries, zstd, row groups of up to RowGroupSize rows
// written column by column as they fill).
// The columns are chosen at run time (Columns); Parquet's schema is built
// from them.
//
// Every game of the input gets its row, in input order, unless a
// selection leaves it out; a game whose start cannot be read has kind
// unknown and says why in its error column. What is not a game of its own
// (startpos.Classify: the continued parts of a game too large to hold, and
// blank text without tags) has no row: it belongs to the game before it.
package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/csvfield"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/position"
	"github.com/frctool/frctool/startpos"
	"github.com/frctool/frctool/validate"
)

// Format is an output format.
type Format uint8

// The output formats.
const (
	CSV     Format = iota // RFC 4180 with a header line; null is an empty field
	JSONL                 // JSON Lines: one object per line
	Parquet               // Apache Parquet, zstd-compressed
)

var formatNames = [...]string{CSV: "csv", JSONL: "jsonl", Parquet: "parquet"}

// String returns the format's name: "csv", "jsonl" or "parquet".
func (f Format) String() string { return formatNames[f] }

// ErrFormat is the error for a format name that is none of the formats.
var ErrFormat = errors.New("unknown format")

// ParseFormat returns the format named name ("json" is read as jsonl).
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(name) {
	case "csv":
		return CSV, nil
	case "jsonl", "json", "ndjson":
		return JSONL, nil
	case "parquet":
		return Parquet, nil
	}
	return 0, fmt.Errorf("%w %s: csv, jsonl or parquet", ErrFormat, words.Quote(name))
}

// FormatOf returns the format a file name asks for by its extension,
// looking through a compression extension (.csv.gz, .jsonl.zst): .csv,
// .jsonl (.ndjson, .json) or .parquet; ok is false for any other name.
// compressed reports that such a compression extension is there.
func FormatOf(name string) (f Format, compressed, ok bool) {
	base := strings.ToLower(filepath.Base(name))
	for _, ext := range []string{".gz", ".bz2", ".zst", ".zstd"} {
		if trimmed, found := strings.CutSuffix(base, ext); found {
			base, compressed = trimmed, true
			break
		}
	}
	switch filepath.Ext(base) {
	case ".csv":
		return CSV, compressed, true
	case ".jsonl", ".ndjson", ".json":
		return JSONL, compressed, true
	case ".parquet":
		return Parquet, compressed, true
	}
	return 0, compressed, false
}

// Options say which columns to write.
type Options struct {
	// Columns names the columns and their order; empty means the default
	// columns followed by those the other options add.
	Columns []string
	// Tags are further tags to write, each as a string column named by
	// SnakeCase.
	Tags []string
	// AllTags adds the column tags, every tag of the game as a map (a
	// JSON object, a Parquet MAP); CSV cannot hold it.
	AllTags bool
	// Replay adds the columns valid, final_fen and replay_error, which
	// replay the game as frctool validate does.
	Replay bool
	// Moves, when above 0, adds the column moves: the game's first Moves
	// plies in UCI.
	Moves int
}

// RowGroupSize is the most rows of a Parquet row group: enough for good
// compression and dictionaries, few enough that the two groups held, one
// written while the next fills, take a few tens of megabytes. Long rows
// end a group sooner.
const RowGroupSize = 100_000

// Writer writes the rows of one export.
type Writer struct {
	format  Format
	opts    Options
	columns []Column
	out     io.Writer
	slotOf  map[string]int // the tags the columns read, by name
	nslots  int
	replay  bool // a column needs the game replayed

	pq *pqFile
	// pending are the Parquet rows of the batch being emitted.
	pending [][]byte
	rows    int64
	tally   startpos.Tally
	err     error // the first error of writing; the Writer is then done
}

// NewWriter returns a Writer of rows in format f to w, with the columns
// that opts choose. CSV's header is written at once.
func NewWriter(w io.Writer, f Format, opts Options) (*Writer, error) {
	if f > Parquet {
		return nil, fmt.Errorf("%w %d", ErrFormat, f)
	}
	if opts.Moves < 0 {
		return nil, fmt.Errorf("%w: a negative number of plies (%d)", ErrColumn, opts.Moves)
	}
	cols, err := Columns(f, opts)
	if err != nil {
		return nil, err
	}
	ew := &Writer{format: f, opts: opts, columns: cols, out: w, slotOf: map[string]int{}}
	for i, t := range fixedTags {
		ew.slotOf[t] = i
	}
	for i, t := range opts.Tags {
		ew.slotOf[t] = fixedSlots + i
	}
	ew.nslots = fixedSlots + len(opts.Tags)
	for _, c := range cols {
		switch c.Name {
		case "valid", "final_fen", "replay_error", "moves":
			ew.replay = true
		}
	}
	switch f {
	case CSV:
		var line []byte
		for i, c := range cols {
			if i > 0 {
				line = append(line, ',')
			}
			line = csvfield.Append(line, []byte(c.Name))
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return nil, err
		}
	case Parquet:
		if ew.pq, err = newParquetWriter(w, cols); err != nil {
			return nil, err
		}
	}
	return ew, nil
}

// Columns returns the columns the Writer writes, in order.
func (w *Writer) Columns() []Column { return w.columns }

// Rows returns the number of rows written so far.
func (w *Writer) Rows() int64 { return w.rows }

// Tally returns the games read so far, by the kind of their start, and
// the problems reported.
func (w *Writer) Tally() *startpos.Tally { return &w.tally }

// Close writes what is buffered: for Parquet the last row group and the
// file's footer. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.pq != nil {
		w.err = w.pq.close()
	}
	return w.err
}

// Run writes a row for every game of r that opts.Where selects, naming
// file as the game's input. Rows are worked out on up to opts.Jobs
// goroutines and written in input order. Run can be called again for
// further inputs; Close ends the output.
func (w *Writer) Run(ctx context.Context, r *pgn.Reader, file string, opts pipeline.Options) error {
	if w.err != nil {
		return w.err
	}
	name := []byte(file)
	job := pipeline.Job[struct{}]{
		NewWorker: func() func(it *pipeline.Item[struct{}], out []byte) []byte {
			k := w.newWorker(name)
			return k.do
		},
		Emit: func(it *pipeline.Item[struct{}]) error {
			if !it.Selected {
				return nil
			}
			if w.err != nil {
				return w.err
			}
			w.rows++
			if w.pq != nil {
				w.pending = append(w.pending, it.Out)
			}
			return nil
		},
	}
	popts := opts
	if w.pq == nil {
		job.Output = w.out
	} else {
		// The runner reports progress once it has emitted a batch's
		// games and before it reuses the batch's memory, which the rows
		// pending point into: they are added then, all at once.
		popts.Progress = func(games int) {
			if err := w.pq.addRows(w.pending); err != nil && w.err == nil {
				w.err = fmt.Errorf("writing Parquet: %w", err)
			}
			w.pending = w.pending[:0]
			if opts.Progress != nil {
				opts.Progress(games)
			}
		}
	}
	err := pipeline.Run(ctx, r, popts, job, &w.tally)
	if err == nil {
		err = w.err
	}
	if err != nil && w.pq != nil {
		// A row group may still be being written: the output is not to be
		// touched once Run has returned with an error.
		w.pending = w.pending[:0]
		_ = w.pq.wait()
	}
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		w.err = err
	}
	return err
}

// worker works out the rows of the games one goroutine is given; its
// buffers are reused from game to game.
type worker struct {
	w     *Writer
	x     row
	cells []cell
	check *validate.Validator
	hist  []position.Move
	fen   []byte
	moves []byte
	errs  []byte
	rerr  []byte
	text  []byte // scratch for text that is not UTF-8
}

func (w *Writer) newWorker(file []byte) *worker {
	k := &worker{w: w, cells: make([]cell, len(w.columns))}
	k.x.file, k.x.fileUTF8 = file, utf8.Valid(file)
	k.x.slots = make([][]byte, w.nslots)
	if w.replay {
		k.check = validate.New(validate.Options{})
	}
	return k
}

// empty stands for a tag that is present with an empty value, since nil
// means absent.
var empty = []byte{}

// Why a game with no problem of its own has an unknown start.
const (
	noTags       = "start position unknown: no tags"
	tagsTooLarge = "start position unknown: the tag section is too large to hold"
)

func (k *worker) do(it *pipeline.Item[struct{}], out []byte) []byte {
	if !it.Selected {
		return out
	}
	g, x := it.Game, &k.x
	x.g, x.c = g, &it.Class
	clear(x.slots)
	// One check of the tag section spares one of every value in it.
	x.tagsUTF8 = false
	if n := len(g.Tags); n > 0 {
		start, end := g.Tags[0].Start, g.Tags[n-1].End
		x.tagsUTF8 = 0 <= start && start <= end && end <= len(g.Raw) && utf8.Valid(g.Raw[start:end])
	}
	for _, t := range g.Tags {
		i := fixedSlot(t.Name)
		if i < 0 && len(k.w.opts.Tags) > 0 {
			var ok bool
			if i, ok = k.w.slotOf[string(t.Name)]; !ok {
				i = -1
			}
		}
		if i >= 0 && x.slots[i] == nil {
			v := t.Value
			if v == nil {
				v = empty
			}
			x.slots[i] = v
		}
	}

	x.errText = nil
	var first *pgn.ParseError
	if len(g.Problems) > 0 {
		first = g.Problems[0]
	} else if len(it.Class.Problems) > 0 {
		first = it.Class.Problems[0]
	}
	switch {
	case first != nil:
		k.errs = append(k.errs[:0], first.Error()...)
		x.errText = k.errs
	case it.Class.Start.Kind == startpos.Unknown && g.TagsIncomplete:
		x.errText = []byte(tagsTooLarge)
	case it.Class.Start.Kind == startpos.Unknown && !g.HasTagSection():
		x.errText = []byte(noTags)
	}

	if k.check != nil {
		k.replay(it)
	}
	cols, cells := k.w.columns, k.cells[:len(k.w.columns)]
	for i := range cols {
		c := &cells[i]
		*c = cell{}
		cols[i].compute(x, c)
	}
	switch k.w.format {
	case CSV:
		return k.appendCSVRow(out)
	case JSONL:
		return k.appendJSONRow(out)
	default:
		return k.appendParquetRow(out)
	}
}

// replay checks the game as frctool validate does and records the final
// position and the first moves.
func (k *worker) replay(it *pipeline.Item[struct{}]) {
	x := &k.x
	x.checked, x.valid, x.finalFEN, x.replayErr, x.movesOK = false, false, nil, nil, false
	// Check hands the start tags' problems over to its result; a copy of
	// the class keeps them where the runner reports them.
	class := it.Class
	res := k.check.Check(it.Game, &class)
	x.checked = res.Checked
	x.valid = res.Checked && !res.Failed
	if len(res.Problems) > 0 {
		k.rerr = append(k.rerr[:0], res.Problems[0].Error()...)
		x.replayErr = k.rerr
	}
	b := res.Final
	if b == nil {
		return
	}
	style := fen.XFEN
	if st := it.Class.Start; st.FEN >= 0 {
		style = fen.CastlingStyle(it.Game.Tags[st.FEN].Value)
	}
	p := b.Position()
	k.fen = p.AppendFormat(k.fen[:0], style)
	x.finalFEN = k.fen
	if n := k.w.opts.Moves; n > 0 {
		// The board keeps the moves as a stack: take them all back to
		// read the first ones. The board is set up anew for the next game.
		played := b.MovesPlayed()
		if cap(k.hist) < played {
			k.hist = make([]position.Move, played)
		}
		k.hist = k.hist[:played]
		for i := played - 1; i >= 0; i-- {
			k.hist[i] = b.Pop()
		}
		k.moves = k.moves[:0]
		for i, m := range k.hist[:min(n, played)] {
			if i > 0 {
				k.moves = append(k.moves, ' ')
			}
			k.moves = appendUCI(k.moves, m)
		}
		x.moves, x.movesOK = k.moves, true
	}
}

// appendUCI appends m in UCI notation, castling as king takes rook, as
// position.Move.String writes it, without allocating.
func appendUCI(dst []byte, m position.Move) []byte {
	if m == position.NullMove {
		return append(dst, "0000"...)
	}
	from, to := m.From(), m.To()
	dst = append(dst, byte('a'+from.File()), byte('1'+from.Rank()), byte('a'+to.File()), byte('1'+to.Rank()))
	if p := m.Promotion(); p != position.NoPieceType {
		dst = append(dst, p.Letter()|0x20)
	}
	return dst
}
