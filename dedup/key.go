package dedup

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"unicode"
	"unicode/utf8"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

// Key says which parts of a game make it the same game as another.
// Every key holds the start position, the main line's moves and the
// result.
type Key uint8

// The keys.
const (
	// Moves compares the start position, the main line and the result.
	Moves Key = iota
	// MovesPlayers adds the players' names, compared without regard to
	// case and blanks.
	MovesPlayers
	// MovesPlayersDate adds the Date tag as written.
	MovesPlayersDate
)

var keyNames = [...]string{Moves: "moves", MovesPlayers: "moves+players", MovesPlayersDate: "moves+players+date"}

func (k Key) String() string {
	if int(k) < len(keyNames) {
		return keyNames[k]
	}
	return fmt.Sprintf("Key(%d)", int(k))
}

// ParseKey reads a key's name: "moves", "moves+players" or
// "moves+players+date".
func ParseKey(s string) (Key, error) {
	for k, name := range keyNames {
		if s == name {
			return Key(k), nil
		}
	}
	return 0, fmt.Errorf("%w %s: want moves, moves+players or moves+players+date", ErrKey, words.Quote(s))
}

// The results a key tells apart (fields.Result decides a game's result);
// a game without one is resultOther.
const (
	resultWhite = iota
	resultBlack
	resultDraw
	resultUnfinished
	resultOther
)

func resultCode(b []byte) uint8 {
	switch string(b) {
	case "1-0":
		return resultWhite
	case "0-1":
		return resultBlack
	case "1/2-1/2":
		return resultDraw
	case "*":
		return resultUnfinished
	}
	return resultOther
}

func trimBlanks(b []byte) []byte {
	for len(b) > 0 && pgn.IsSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && pgn.IsSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// gameKey is what a worker finds in one game.
type gameKey struct {
	// key is the hash of the game without its result: the start, the
	// fields of the Key and the moves, or, for a game without moves, its
	// tags.
	key    [2]uint64
	result uint8
	// skip: the game is not compared (not selected, or not held whole).
	skip bool
	// noMoves: the key is of the tags; such a game is no one's prefix.
	noMoves bool
}

// maxProbes bounds the prefixes of one game looked up with
// Options.Prefix: no legal game has more plies (about 11,800 under the
// fifty-move rule), and the bound keeps a worker's scratch within 16 bytes
// times this per game whatever the input.
const maxProbes = 12000

// keyer computes the keys of games; each worker goroutine has its own.
type keyer struct {
	kind   Key
	prefix bool
	h      [2]maphash.Hash
	seeds  [2]maphash.Seed
	// flushed says bytes were handed to h since the last reset.
	flushed bool
	s       pgn.MovetextScanner
	norm    [64]byte
	varint  [binary.MaxVarintLen64]byte
	buf     []byte // bytes written and not yet hashed
}

func newKeyer(kind Key, prefix bool, seeds *[2]maphash.Seed) *keyer {
	k := &keyer{kind: kind, prefix: prefix, seeds: *seeds}
	k.h[0].SetSeed(seeds[0])
	k.h[1].SetSeed(seeds[1])
	return k
}

// write adds b to what is hashed. Bytes are gathered and handed to the
// hashes in blocks: two calls per move would cost more than the hashing.
func (k *keyer) write(b []byte) {
	k.buf = append(k.buf, b...)
	if len(k.buf) >= flushSize {
		k.flush()
	}
}

func (k *keyer) writeByte(c byte) {
	k.buf = append(k.buf, c)
}

// flushSize bounds a worker's gathered bytes, however large the game.
const flushSize = 4 << 10

func (k *keyer) flush() {
	k.h[0].Write(k.buf)
	k.h[1].Write(k.buf)
	k.buf = k.buf[:0]
	k.flushed = true
}

// field writes b preceded by its length, so that no two sequences of
// fields write the same bytes.
func (k *keyer) field(b []byte) {
	k.write(binary.AppendUvarint(k.varint[:0], uint64(len(b))))
	k.write(b)
}

// sum returns the hash of everything written since reset; what is
// written after it goes on from there (the keys of a game's prefixes).
func (k *keyer) sum() [2]uint64 {
	k.flush()
	return [2]uint64{k.h[0].Sum64(), k.h[1].Sum64()}
}

// last is sum for the last time before reset. When all that was written
// is still gathered, as it is but for long games, it is hashed by
// maphash.Bytes, once a seed: the package defines that as Write and Sum64
// on a new Hash with the seed, so the sum is the same (TestLastIsSum),
// without the Hash's calls to reset, fill and sum it, which took a
// quarter of dedup's time on header-only games, each tag hashed alone.
func (k *keyer) last() [2]uint64 {
	if k.flushed {
		return k.sum()
	}
	return [2]uint64{maphash.Bytes(k.seeds[0], k.buf), maphash.Bytes(k.seeds[1], k.buf)}
}

func (k *keyer) reset() {
	k.buf = k.buf[:0]
	if k.flushed {
		k.h[0].Reset()
		k.h[1].Reset()
		k.flushed = false
	}
}

// name writes a player's name lowercased and without blanks, ended by
// 0xff, a byte no UTF-8 text holds. A byte that is not UTF-8 is read as
// Latin-1 (pgn.DecodeRune), so that an old archive's "M\xfcller" is the
// "Müller" of a new one, and not the "M\xf6ller" beside it.
func (k *keyer) name(b []byte) {
	for len(b) > 0 {
		c := b[0]
		if c < utf8.RuneSelf {
			b = b[1:]
			if pgn.IsSpace(c) {
				continue
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			k.writeByte(c)
			continue
		}
		r, n := pgn.DecodeRune(b)
		b = b[n:]
		if unicode.IsSpace(r) {
			continue
		}
		k.write(utf8.AppendRune(k.norm[:0], unicode.ToLower(r)))
	}
	k.writeByte(0xff)
}

// compute fills it.Value and, with Options.Prefix, appends to out the
// keys of the game's proper prefixes of one move or more, 16 bytes each.
// The runner's per-batch output is the scratch that carries them to
// Emit; no Job.Output writes it anywhere.
func (k *keyer) compute(it *pipeline.Item[gameKey], out []byte) []byte {
	g := it.Game
	v := &it.Value
	if !it.Selected || g.Partial || g.TagsIncomplete {
		// A game the reader did not hold whole has moves or tags that
		// cannot be compared: it is kept as it is.
		v.skip = true
		return out
	}
	k.reset()
	k.writeByte('M')
	st := it.Class.Start
	k.writeByte(byte(st.Kind))
	switch st.Kind {
	case startpos.Chess960, startpos.DFRC:
		k.write(binary.AppendUvarint(k.varint[:0], uint64(st.White)))
		k.write(binary.AppendUvarint(k.varint[:0], uint64(st.Black)))
	case startpos.Other:
		k.position(g.Tags[st.FEN].Value)
	}
	if k.kind >= MovesPlayers {
		w, _ := g.Tag("White")
		b, _ := g.Tag("Black")
		k.name(w)
		k.name(b)
	}
	if k.kind >= MovesPlayersDate {
		d, _ := g.Tag("Date")
		k.field(trimBlanks(d))
	}
	start := len(out)
	plies := 0
	k.s.ResetGame(g)
	for k.s.Next() {
		if k.s.Depth() != 0 {
			continue
		}
		switch k.s.Kind() {
		case pgn.TokenMove:
			m := normalize(k.norm[:0], k.s.Token().Text)
			if len(m) == 0 {
				continue
			}
			k.field(m)
			plies++
			if k.prefix && plies <= maxProbes {
				s := k.sum()
				out = binary.LittleEndian.AppendUint64(out, s[0])
				out = binary.LittleEndian.AppendUint64(out, s[1])
			}
		}
	}
	result, _ := fields.Result(g)
	v.result = resultCode(result)
	if plies > 0 {
		v.key = k.last()
		if k.prefix && plies <= maxProbes {
			out = out[:len(out)-16] // the game itself is not its own prefix
		}
		return out
	}
	out = out[:start]
	v.noMoves = true
	v.key = k.tagsKey(g)
	return out
}

// position writes the position of a FEN: its first four fields, without
// the move counters, which two exports of one game may write differently.
func (k *keyer) position(fen []byte) {
	for f := 0; f < 4; f++ {
		for len(fen) > 0 && pgn.IsSpace(fen[0]) {
			fen = fen[1:]
		}
		i := 0
		for i < len(fen) && !pgn.IsSpace(fen[i]) && fen[i] != ';' {
			i++
		}
		k.field(fen[:i])
		fen = fen[i:]
	}
}

// tagsKey is the key of a game without moves: all its tags, in any
// order, or for text with no tags its words. Two games without moves are
// one game only when nothing else tells them apart: two rounds between
// the same players, both unplayed, stay two games.
func (k *keyer) tagsKey(g *pgn.Game) [2]uint64 {
	var sum [2]uint64
	add := func() {
		s := k.last()
		sum[0] += s[0]
		sum[1] += s[1]
	}
	if len(g.Tags) == 0 {
		k.reset()
		b := g.Raw
		for len(b) > 0 {
			i := 0
			for i < len(b) && pgn.IsSpace(b[i]) {
				i++
			}
			j := i
			for j < len(b) && !pgn.IsSpace(b[j]) {
				j++
			}
			if j > i {
				k.field(b[i:j])
			}
			b = b[j:]
		}
		add()
	}
	// Tags are summed, each hashed on its own, so that their order does
	// not matter.
	for i := range g.Tags {
		k.reset()
		k.field(g.Tags[i].Name)
		k.field(g.Tags[i].Value)
		add()
	}
	k.reset()
	k.writeByte('N')
	k.write(binary.LittleEndian.AppendUint64(k.varint[:0], sum[0]))
	k.write(binary.LittleEndian.AppendUint64(k.varint[:0], sum[1]))
	return k.last()
}

// figurines maps the second continuation byte of the chess symbols
// U+2654..U+265F (UTF-8 E2 99 94..9F) to SAN letters; 0 for the pawns,
// which SAN does not name.
var figurines = [12]byte{'K', 'Q', 'R', 'B', 'N', 0, 'K', 'Q', 'R', 'B', 'N', 0}

// normalize appends to dst the move m as the key compares it: without
// check and mate marks, glyphs and an "e.p." suffix; castling as O-O or
// O-O-O whether written with letter O, zeros or lowercase o; figurines
// as letters; a promotion as the square and an uppercase piece letter
// ("e8=Q", "e8Q", "e8/Q", "e8=q" are one move); null moves as "--". A
// move longer than dst's capacity is kept as it is. An empty result is
// no move (a lone "e.p.").
func normalize(dst, m []byte) []byte {
	for len(m) > 0 {
		switch m[len(m)-1] {
		case '+', '#', '!', '?':
			m = m[:len(m)-1]
			continue
		}
		break
	}
	if n := len(m); n >= 4 && string(m[n-4:]) == "e.p." {
		m = m[:n-4]
	}
	if len(m) > cap(dst) {
		return append(dst, m...)
	}
	if c := castling(m); c != nil {
		return append(dst, c...)
	}
	switch string(m) {
	case "--", "Z0", "z0":
		return append(dst, "--"...)
	}
	for i := 0; i < len(m); i++ {
		c := m[i]
		switch {
		case c == '=' || c == '/':
			continue
		case c == 0xe2 && i+2 < len(m) && m[i+1] == 0x99 && m[i+2] >= 0x94 && m[i+2] <= 0x9f:
			if p := figurines[m[i+2]-0x94]; p != 0 {
				dst = append(dst, p)
			}
			i += 2
			continue
		}
		dst = append(dst, c)
	}
	// A lowercase promotion piece after the last rank: "e8q", "bxa1n".
	if n := len(dst); n >= 3 && (dst[n-2] == '8' || dst[n-2] == '1') {
		switch dst[n-1] {
		case 'q', 'r', 'n':
			dst[n-1] -= 'a' - 'A'
		case 'b':
			// "b" after a rank is a bishop: a file never follows a rank.
			dst[n-1] = 'B'
		}
	}
	return dst
}

// castling returns the castling move m spells, or nil.
func castling(m []byte) []byte {
	if len(m) != 3 && len(m) != 5 {
		return nil
	}
	for i, c := range m {
		if i%2 == 1 {
			if c != '-' {
				return nil
			}
		} else if c != 'O' && c != 'o' && c != '0' {
			return nil
		}
	}
	if len(m) == 3 {
		return castleShort
	}
	return castleLong
}

var castleShort, castleLong = []byte("O-O"), []byte("O-O-O")
