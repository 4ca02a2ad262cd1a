// Package archivegen writes PGN archives that look like real Chess960
// archives, for benchmarks and robustness tests that must not depend on
// files outside the repository.
//
// Games are random but legal: they are played move by move with package
// position from a random Chess960 start position, so that every reader,
// classifier and replay in the project sees what it would see in a real
// archive. Two shapes are written: the lichess export (about 1 KB a game,
// with a clock comment after every move) and header-only games (about 150
// bytes, tags and at most a result), the two ends of the game sizes frctool
// meets. A seed fixes every byte, so figures taken on generated archives
// can be repeated.
package archivegen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/position"
)

// Shape is the kind of archive written.
type Shape int

const (
	// Lichess is a lichess export of Chess960 games: lichess's tag set, a
	// FEN for every start but the standard array, a clock comment after
	// every move and lines wrapped at 80 columns. Games are about 1 KB.
	Lichess Shape = iota
	// Headers is header-only games of about 150 bytes: a handful of tags
	// and a result token or no movetext at all, as game indexes and
	// database exports without moves have them.
	Headers
)

var shapeNames = [...]string{Lichess: "lichess", Headers: "headers"}

func (s Shape) String() string {
	if s >= 0 && int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return fmt.Sprintf("Shape(%d)", int(s))
}

// ErrShape is wrapped by the error of ParseShape.
var ErrShape = errors.New("unknown archive shape")

// ParseShape returns the shape named by String's words: "lichess" or
// "headers".
func ParseShape(name string) (Shape, error) {
	for s, n := range shapeNames {
		if n == name {
			return Shape(s), nil
		}
	}
	return 0, fmt.Errorf("%w %q (want lichess or headers)", ErrShape, name)
}

// Options choose the archive a Generator writes.
type Options struct {
	// Seed fixes the archive: the same options give the same bytes.
	Seed uint64
	// Shape is the kind of games written.
	Shape Shape
	// Dialects mixes in what real archives other than lichess's do: other
	// spellings of the Variant tag, Shredder-FEN castling (both letter
	// orders), a FEN for the standard array, a FEN ending in ';', a SetUp
	// tag missing or before the FEN, and CRLF line endings. Every game
	// still starts from the position its Record names.
	Dialects bool
	// MeanPlies is the mean length of the Lichess games in plies; 0 means
	// 21, which makes games of about 1 KB with their clock comments, and
	// the least is 2. Larger values make longer (and slower to generate)
	// games: 70 makes games of about 2.2 KB.
	MeanPlies int
}

// StandardShare is the share of games that start from the standard array,
// SP 518, which lichess exports without a FEN tag.
const StandardShare = 1.0 / 8

// Record is what the generator knows about a game it wrote, for tests to
// check a reader, a classifier or a replay against.
type Record struct {
	// SP is the Scharnagl number of the game's start position.
	SP int
	// FEN is whether the game has a FEN tag; without one it starts from the
	// standard array, SP 518.
	FEN bool
	// Moves is the main line as played. It is valid until the next call
	// to the Generator.
	Moves []position.Move
	// Result is the game's result, as in its Result tag: "1-0", "0-1",
	// "1/2-1/2" or "*".
	Result string
	// Marker is whether the movetext ends with the result as its
	// termination marker; header-only games may have no movetext at all.
	Marker bool
	// CRLF is whether the game's lines end in CR LF.
	CRLF bool
}

// Generator writes the games of one archive, one after another. It is not
// safe for concurrent use.
type Generator struct {
	opt   Options
	rng   *rand.Rand
	board position.Board
	moves []position.Move
	game  []byte // a game written with LF, to be copied with CRLF

	moveText []byte // a game's movetext, written before its tags
}

// New returns a Generator of the archive o describes.
func New(o Options) *Generator {
	if o.MeanPlies <= 0 {
		o.MeanPlies = 21
	}
	o.MeanPlies = max(o.MeanPlies, 2)
	// A fixed second PCG word keeps Seed the one thing that picks the
	// archive.
	return &Generator{opt: o, rng: rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))}
}

// AppendGame appends one game, with the blank line that ends it, to dst,
// and returns the extended slice and what the game is.
func (g *Generator) AppendGame(dst []byte) ([]byte, Record) {
	if !g.opt.Dialects || !g.chance(0.2) {
		return g.appendGame(dst)
	}
	var rec Record
	g.game, rec = g.appendGame(g.game[:0])
	for line := range bytes.Lines(g.game) {
		if line[len(line)-1] == '\n' {
			dst = append(append(dst, line[:len(line)-1]...), '\r', '\n')
		} else {
			dst = append(dst, line...)
		}
	}
	rec.CRLF = true
	return dst, rec
}

func (g *Generator) appendGame(dst []byte) ([]byte, Record) {
	if g.opt.Shape == Headers {
		return g.appendHeaders(dst)
	}
	return g.appendLichess(dst)
}

// Append appends n games to dst.
func (g *Generator) Append(dst []byte, n int) []byte {
	for range n {
		dst, _ = g.AppendGame(dst)
	}
	return dst
}

// AppendSize appends games to dst until at least size bytes were added.
func (g *Generator) AppendSize(dst []byte, size int) []byte {
	for end := len(dst) + size; len(dst) < end; {
		dst, _ = g.AppendGame(dst)
	}
	return dst
}

// WriteGames writes n games to w, in writes of about 1 MB, and returns the
// number of bytes written.
func (g *Generator) WriteGames(w io.Writer, n int) (int64, error) {
	return g.write(w, func(written int64, games int) bool { return games < n })
}

// WriteSize writes games to w until at least size bytes were written, and
// returns the number of bytes written.
func (g *Generator) WriteSize(w io.Writer, size int64) (int64, error) {
	return g.write(w, func(written int64, games int) bool { return written < size })
}

func (g *Generator) write(w io.Writer, more func(written int64, games int) bool) (int64, error) {
	const chunk = 1 << 20
	var total int64
	buf := make([]byte, 0, chunk+16<<10)
	for games := 0; more(total+int64(len(buf)), games); games++ {
		buf, _ = g.AppendGame(buf)
		if len(buf) >= chunk {
			n, err := w.Write(buf)
			total += int64(n)
			if err != nil {
				return total, err
			}
			buf = buf[:0]
		}
	}
	n, err := w.Write(buf)
	return total + int64(n), err
}

type cacheKey struct {
	opt  Options
	size int
}

var cache struct {
	sync.Mutex
	archives map[cacheKey][]byte
}

// Bytes returns an archive of at least size bytes (whole games), made
// once per process for each set of options and size, so that benchmarks
// of several packages or runs share it. The slice is shared: it must not
// be changed.
func Bytes(o Options, size int) []byte {
	cache.Lock()
	defer cache.Unlock()
	k := cacheKey{o, size}
	if b, ok := cache.archives[k]; ok {
		return b
	}
	b := New(o).AppendSize(make([]byte, 0, size+16<<10), size)
	if cache.archives == nil {
		cache.archives = make(map[cacheKey][]byte)
	}
	cache.archives[k] = b
	return b
}

// chance returns true with probability p.
func (g *Generator) chance(p float64) bool { return g.rng.Float64() < p }

// pick returns one of the choices at random.
func pick[T any](g *Generator, choices []T) T { return choices[g.rng.IntN(len(choices))] }

// startSP draws a start position: the standard array as often as lichess
// players get it, any of the 960 otherwise.
func (g *Generator) startSP() int {
	if g.chance(StandardShare) {
		return numbering.StandardSP
	}
	return g.rng.IntN(numbering.Count)
}

// appendFEN appends the start FEN of sp in the castling notation lichess
// writes, X-FEN (KQkq), or with Dialects as often in Shredder-FEN, rook
// files h-side first (HAha) or a-side first (AHah), sometimes with EPD's
// ';' at the end.
func (g *Generator) appendFEN(dst []byte, sp int) []byte {
	r, err := numbering.FromSP(sp)
	if err != nil {
		panic(err) // sp comes from startSP
	}
	p := fen.StartPosition(r, r)
	style := fen.XFEN
	if g.opt.Dialects && g.chance(0.5) {
		style = fen.Shredder
	}
	start := len(dst)
	dst = p.AppendFormat(dst, style)
	if g.opt.Dialects && style == fen.Shredder && g.chance(0.3) {
		// Ascending order, as some programs write it: AHah, not HAha.
		c := bytes.IndexByte(dst[start:], ' ') + start + 3
		dst[c], dst[c+1] = dst[c+1], dst[c]
		dst[c+2], dst[c+3] = dst[c+3], dst[c+2]
	}
	if g.opt.Dialects && g.chance(0.05) {
		dst = append(dst, ';')
	}
	return dst
}

// variants are the Variant tag's spellings in real archives, the first
// lichess's.
var variants = []string{
	"Chess960", "chess960", "chess 960", "chess-960", "Fischerandom",
	"fischerrandom", "Fischer Random", "960", "FRC", "wild/fr", "w22",
}

// variant returns the Variant tag's value: lichess's, or with Dialects
// any spelling, and now and then "Standard", which real files put on
// games whose FEN is a Chess960 array.
func (g *Generator) variant(hasFEN bool) string {
	if !g.opt.Dialects || g.chance(0.3) {
		return variants[0]
	}
	if hasFEN && g.chance(0.05) {
		return "Standard"
	}
	return pick(g, variants)
}

// appendTag appends `[name "value"]` and a newline; values never need
// escapes here.
func appendTag(dst []byte, name, value string) []byte {
	dst = append(dst, '[')
	dst = append(dst, name...)
	dst = append(dst, " \""...)
	dst = append(dst, value...)
	return append(dst, "\"]\n"...)
}
