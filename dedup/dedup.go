// Package dedup writes each game of PGN archives once: the first
// occurrence goes to one writer, byte for byte, and every later copy to
// another, so that the two outputs together are the input, game for game.
//
// # What makes two games one
//
// A game's key is its start position (the Scharnagl number, the two
// numbers of a DFRC game, or the FEN of any other start without its move
// counters), the moves of its main line and its result. The moves are compared as moves, not as
// text: comments, NAGs, variations, move numbers, check and mate marks
// and glyphs such as "!?" do not count, and castling is O-O however it is
// spelled (O-O, 0-0, o-o). A [Key] may add the players' names, compared
// without regard to case and blanks, and the date.
//
// A game without moves has no line to compare: it is one game with
// another only when all their tags are equal, so that two unplayed rounds
// between the same players stay two games.
//
// With [Options.Prefix], a game whose moves are a strict prefix of
// another's, with the same key otherwise (result aside), is a duplicate
// too: the longest game is kept, at its own place, and the shorter ones
// go to the duplicates. Deciding that needs every game seen first, so a
// run then reads its inputs twice: [Deduper.Index] over every input, then
// [Deduper.Run] over them again in the same order.
//
// # Memory
//
// A Deduper remembers a 128-bit hash of each distinct key and nothing
// else, in an open-addressing table kept 64 to 80 % full: 20 to 25 bytes
// per distinct game once it holds more than about 1.7 million (below that
// it may be 40 % full, 32 MiB at the most). With Prefix a Bloom filter of
// a byte a slot stands beside it, for the look-ups of every prefix. Two different games share a
// hash with a probability of about n²/2¹²³ for n games (6 of the 128 bits
// hold flags): for a billion games, under 10⁻¹⁸. The hashes are keyed by a
// seed drawn per Deduper, so no input can be made to collide on purpose.
//
// # Bytes between games
//
// Bytes that are not a game of their own (the continued parts of a game
// larger than the reader holds at once, blank text) go with the game
// before them, as in package selector; blank text before the first game
// goes with the first game. A game the reader does not hold whole (its
// parts or its tags) is never compared and is kept: its moves cannot be
// read at once.
package dedup

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"runtime"
	"sync/atomic"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

// Errors of the package.
var (
	// ErrKey is the error of ParseKey for a name that is no Key.
	ErrKey = errors.New("unknown key")
	// ErrOrder is returned by Index after Run or Close, or without
	// Options.Prefix.
	ErrOrder = errors.New("dedup: Index reads the inputs before Run, and only to find prefixes")
	// ErrClosed is returned by Run after Close.
	ErrClosed = errors.New("dedup: Run after Close")
)

// Options say what makes two games one.
type Options struct {
	// Key is the parts of a game compared besides its start, moves and
	// result.
	Key Key
	// Prefix makes a game whose moves are a strict prefix of another's,
	// with the same start and key fields, a duplicate of the longer game.
	// It needs Index to have read every input before Run reads them again.
	Prefix bool
}

// Summary counts what a run read and where it went.
type Summary struct {
	// Tally counts the games read by Run and the problems reported.
	startpos.Tally
	// Unique counts the games written as first occurrences.
	Unique int64
	// Duplicates counts the games with the key of an earlier one.
	Duplicates int64
	// PrefixDuplicates counts the games whose moves a longer game
	// continues (Options.Prefix).
	PrefixDuplicates int64
	// Passed counts the games not compared and written to the output as
	// they are: those pipeline.Options.Where does not select, and those the
	// reader did not hold whole.
	Passed int64
	// Keys is the number of distinct keys remembered, and TableBytes the
	// memory they take.
	Keys       int64
	TableBytes int64
}

// Deduper sends the first occurrence of each game to one writer and the
// other occurrences to another. A run may read several inputs: they are
// one stream, as if concatenated, and a game of a later input is a
// duplicate of one of an earlier input.
type Deduper struct {
	out, dups io.Writer
	opts      Options
	seeds     [2]maphash.Seed
	table     *table
	// extra holds, with Options.Prefix, the keys Run meets that Index
	// did not insert (games without moves), so that table keeps its
	// shape while Run's workers look prefixes up in it.
	extra *table

	ran     bool
	closed  bool
	last    int    // destination of the last game; -1 before the first
	pending []byte // bytes before the first game
	sum     Summary
}

const (
	toOutput = iota
	toDuplicates
)

// New returns a Deduper writing the first occurrences to out and the
// duplicates to dups, which may be nil to discard them.
func New(out, dups io.Writer, opts Options) *Deduper {
	d := &Deduper{out: out, dups: dups, opts: opts, seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, table: &table{filtered: opts.Prefix}, extra: new(table), last: -1}
	// The tables live outside the Go heap (see allocSlots): a Deduper
	// dropped without Close gives them back when collected.
	runtime.AddCleanup(d, (*table).free, d.table)
	runtime.AddCleanup(d, (*table).free, d.extra)
	return d
}

// job returns the runner's job. With mark, the workers mark the games
// each game continues themselves, and no probes reach emit.
func (d *Deduper) job(emit func(*pipeline.Item[gameKey]) error, mark bool) pipeline.Job[gameKey] {
	return pipeline.Job[gameKey]{
		NewWorker: func() func(it *pipeline.Item[gameKey], out []byte) []byte {
			k := newKeyer(d.opts.Key, d.opts.Prefix, &d.seeds)
			if !mark {
				return k.compute
			}
			return func(it *pipeline.Item[gameKey], out []byte) []byte {
				start := len(out)
				out = k.compute(it, out)
				d.mark(out[start:])
				return out[:start]
			}
		},
		Emit: emit,
	}
}

// Index reads r to learn the games that longer ones continue, for
// Options.Prefix: call it on every input, then Run on each again, in the
// same order. Index writes nothing and reports no problems (Run reports
// them); opts.Warn is not called.
func (d *Deduper) Index(ctx context.Context, r *pgn.Reader, opts pipeline.Options) error {
	if d.ran || d.closed || !d.opts.Prefix {
		return ErrOrder
	}
	opts.Warn = nil
	var tally startpos.Tally
	return pipeline.Run(ctx, r, opts, d.job(d.index, false), &tally)
}

// index marks the games this one continues and remembers its own key.
func (d *Deduper) index(it *pipeline.Item[gameKey]) error {
	v := &it.Value
	if !it.Class.Counted || v.skip || v.noMoves {
		return nil
	}
	d.mark(it.Out)
	d.table.insert(norm(v.key))
	return nil
}

// mark sets the covered flag of the keys of the prefixes in probes. Run's
// workers call it concurrently: table does not change shape during Run,
// and its flags are set and read atomically.
func (d *Deduper) mark(probes []byte) {
	for len(probes) >= 16 {
		var k [2]uint64
		for i := range 8 {
			k[0] |= uint64(probes[i]) << (8 * i)
			k[1] |= uint64(probes[8+i]) << (8 * i)
		}
		probes = probes[16:]
		if e := d.table.find(norm(k)); e != nil {
			atomic.OrUint64(&e[0], covered)
		}
	}
}

// Run reads every game of r and writes it to the output or the
// duplicates, computing keys on up to opts.Jobs goroutines while keeping
// the input's order. Only the games opts.Where selects are compared: the
// others are no one's duplicates and have none, and go to the output as
// they are, so that nothing is lost. Call it once per input, then Close.
func (d *Deduper) Run(ctx context.Context, r *pgn.Reader, opts pipeline.Options) error {
	if d.closed {
		return ErrClosed
	}
	d.ran = true
	return pipeline.Run(ctx, r, opts, d.job(d.route, d.opts.Prefix), &d.sum.Tally)
}

// route sends one item where it belongs.
func (d *Deduper) route(it *pipeline.Item[gameKey]) error {
	raw := it.Game.Raw
	if !it.Class.Counted {
		if d.last < 0 {
			d.pending = append(d.pending, raw...)
			return nil
		}
		return d.write(d.last, raw)
	}
	dest := d.decide(&it.Value, it.Out)
	if len(d.pending) > 0 {
		if err := d.write(dest, d.pending); err != nil {
			return err
		}
		d.pending = nil
	}
	d.last = dest
	return d.write(dest, raw)
}

// decide counts a game and returns its destination.
func (d *Deduper) decide(v *gameKey, probes []byte) int {
	if v.skip {
		d.sum.Passed++
		return toOutput
	}
	var e *[2]uint64
	if d.opts.Prefix {
		// Run's workers have marked the games that this one and every
		// game before it continue; Index marked those that games after
		// it continue.
		if e = d.table.find(norm(v.key)); e == nil {
			e = d.extra.insert(norm(v.key))
		}
	} else {
		e = d.table.insert(norm(v.key))
	}
	flags := atomic.LoadUint64(&e[0])
	if flags&covered != 0 {
		d.sum.PrefixDuplicates++
		return toDuplicates
	}
	if bit := uint64(1) << v.result; flags&bit == 0 {
		atomic.OrUint64(&e[0], bit)
		d.sum.Unique++
		return toOutput
	}
	d.sum.Duplicates++
	return toDuplicates
}

func (d *Deduper) write(dest int, b []byte) error {
	if dest == toOutput {
		if _, err := d.out.Write(b); err != nil {
			return fmt.Errorf("writing the games kept: %w", err)
		}
		return nil
	}
	if d.dups == nil {
		return nil
	}
	if _, err := d.dups.Write(b); err != nil {
		return fmt.Errorf("writing the duplicates: %w", err)
	}
	return nil
}

// Close ends the run: it writes what is still held back (the blank text
// of a run that had no game, which goes to the output) and lets go of the
// keys. It does not close the writers.
func (d *Deduper) Close() error {
	if d.closed {
		return nil
	}
	d.sum.Keys, d.sum.TableBytes = d.keys()
	d.closed = true
	d.table.free()
	d.extra.free()
	if len(d.pending) == 0 {
		return nil
	}
	err := d.write(toOutput, d.pending)
	d.pending = nil
	return err
}

// Summary returns the counts so far.
func (d *Deduper) Summary() Summary {
	s := d.sum
	if !d.closed {
		s.Keys, s.TableBytes = d.keys()
	}
	return s
}

func (d *Deduper) keys() (n, bytes int64) {
	return d.table.keys + d.extra.keys, d.table.bytes() + d.extra.bytes()
}
