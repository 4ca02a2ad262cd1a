package export

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"math/bits"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/delta"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/frctool/frctool/pipeline"
)

// The Parquet file is written here column by column rather than through
// parquet-go's row writer: the rows arrive in input order on one
// goroutine, while the workers that made them run in parallel, so that
// goroutine must do as little as it can. A worker encodes each value as
// Parquet will store it (parquetRow), and adding a row only copies each
// value to the end of its column and notes whether it is null. A row
// group's columns are encoded as pages and compressed when the group is
// full. parquet-go boxed every value of every row and kept statistics
// and page indexes per value, and that took most of an export's time.

// errCorrupt would mean that a row's binary form was misread: a bug.
var errCorrupt = errors.New("internal error: row encoding misread")

// A row's binary form, as a worker appends it for add to read: per column
// a byte, 0 for null and 1 for a value, then the value as Parquet's PLAIN
// encoding has it: 4 bytes for an int32 or a date, 8 for an int64 or a
// double, 1 for a bool, a 4-byte length and the bytes for a string; a
// map has a 4-byte count and that many keys and values, each a string,
// key first.

// A column chunk of strings, int32s, dates or doubles is written with a
// dictionary unless its distinct values pass either bound; then that
// column is not of low cardinality after all, is written PLAIN, and is
// not tried again in later row groups.
var (
	maxDictValues = 1 << 15
	maxDictBytes  = 1 << 20
)

// leaf is one leaf column of the file and the values of the row group
// being built.
type leaf struct {
	name     []string // path in the schema
	typ      format.Type
	optional bool // definition levels 0 (null) and 1
	repeated bool // the map's key and value: repetition levels too
	at       int  // the leaf's place among the file's leaves

	// rep and def hold one level per value, nulls included. The def of
	// a column that is not the map's has RowGroupSize bytes, written by
	// row: the row group's rows are its first ones.
	rep, def []byte
	data     []byte // PLAIN values; Bool: one byte per value, packed when written
	values   int    // levels, nulls included
	nulls    int64
}

// dictionary holds the distinct values of a column chunk in their PLAIN
// encoding, one after the other, found by their hash in an
// open-addressing table.
type dictionary struct {
	plain  []byte
	starts []int32 // where each value's bytes begin in plain
	ends   []int32
	hashes []uint64
	slots  []int32 // entry+1, 0 when empty
	idx    []int32 // each value's entry
	// keys are the values of a dictionary of numbers, fixed their
	// number; strings use starts, ends and hashes.
	keys  []uint64
	fixed int
}

func (d *dictionary) reset() {
	d.plain, d.starts, d.ends, d.hashes, d.idx, d.keys = d.plain[:0], d.starts[:0], d.ends[:0], d.hashes[:0], d.idx[:0], d.keys[:0]
	d.fixed = 0
	clear(d.slots)
}

func (d *dictionary) entry(i int) []byte { return d.plain[d.starts[i]:d.ends[i]] }

// index returns the entry of s, whose hash is h, adding it when new;
// plain is how s is PLAIN-encoded.
func (d *dictionary) index(h uint64, s, plain []byte) uint32 {
	if 2*(len(d.starts)+1) > len(d.slots) {
		d.grow()
	}
	mask := uint64(len(d.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := d.slots[i]
		if e == 0 {
			n := len(d.starts)
			d.plain = append(d.plain, plain...)
			d.starts = append(d.starts, int32(len(d.plain)-len(s)))
			d.ends = append(d.ends, int32(len(d.plain)))
			d.hashes = append(d.hashes, h)
			d.slots[i] = int32(n + 1)
			return uint32(n)
		}
		if d.hashes[e-1] == h && bytes.Equal(d.entry(int(e-1)), s) {
			return uint32(e - 1)
		}
	}
}

func (d *dictionary) grow() {
	d.slots = make([]int32, max(2*len(d.slots), 64))
	mask := uint64(len(d.slots) - 1)
	for n, h := range d.hashes {
		i := h & mask
		for d.slots[i] != 0 {
			i = (i + 1) & mask
		}
		d.slots[i] = int32(n + 1)
	}
}

// sampleValues is the number of values after which a dictionary is
// given up when most of them were distinct: names, sites and times
// would only fill it to its bound, in vain.
const sampleValues = 4096

// hashString hashes s: inline for the short strings most values are,
// with maphash for the rest.
func hashString(s []byte, seed maphash.Seed) uint64 {
	le := binary.LittleEndian
	switch n := len(s); {
	case n > 16:
		return maphash.Bytes(seed, s)
	case n >= 8:
		return mix(mix(le.Uint64(s)^uint64(n)) ^ le.Uint64(s[n-8:]))
	case n >= 4:
		return mix(uint64(le.Uint32(s))<<32 | uint64(le.Uint32(s[n-4:])) ^ uint64(n)<<59)
	default:
		var v uint64
		for _, c := range s {
			v = v<<8 | uint64(c)
		}
		return mix(v ^ uint64(n)<<59)
	}
}

// mix spreads the bits of a number over the low bits the table uses.
func mix(v uint64) uint64 {
	h := v * 0x9e3779b97f4a7c15
	return h ^ h>>32
}

// build makes the dictionary of a leaf's values; ok is false when they
// pass the bounds. A value equal to the one before, as runs of an event
// or a result are, costs no lookup.
func (d *dictionary) build(l *leaf, seed maphash.Seed) (ok bool) {
	d.reset()
	if l.typ != format.ByteArray {
		return d.buildFixed(l)
	}
	data, le := l.data, binary.LittleEndian
	var prev []byte
	var prevIdx uint32
	for pos := 0; pos < len(data); {
		end := pos + 4 + int(le.Uint32(data[pos:]))
		s := data[pos+4 : end]
		if prev == nil || !bytes.Equal(s, prev) {
			prevIdx = d.index(hashString(s, seed), s, data[pos:end])
			prev = s
			if len(d.starts) > maxDictValues || len(d.plain) > maxDictBytes {
				return false
			}
		}
		d.idx = append(d.idx, int32(prevIdx))
		if len(d.idx) == sampleValues && 4*len(d.starts) > 3*sampleValues {
			return false
		}
		pos = end
	}
	return true
}

// buildFixed is build for int32s, dates and doubles, whose values are
// compared as numbers.
func (d *dictionary) buildFixed(l *leaf) (ok bool) {
	width := 8
	if l.typ == format.Int32 {
		width = 4
	}
	data, le := l.data, binary.LittleEndian
	d.plain = append(d.plain[:0], data[:width]...)
	d.keys = append(d.keys[:0], 0)
	if width == 4 {
		d.keys[0] = uint64(le.Uint32(data))
	} else {
		d.keys[0] = le.Uint64(data)
	}
	prev, prevIdx := d.keys[0], uint32(0)
	if len(d.slots) < 64 {
		d.slots = make([]int32, 64)
	}
	mask := uint64(len(d.slots) - 1)
	d.slots[mix(prev)&mask] = 1
	for pos := 0; pos < len(data); pos += width {
		var v uint64
		if width == 4 {
			v = uint64(le.Uint32(data[pos:]))
		} else {
			v = le.Uint64(data[pos:])
		}
		if v != prev {
			prev = v
			for i := mix(v) & mask; ; i = (i + 1) & mask {
				e := d.slots[i]
				if e == 0 {
					prevIdx = uint32(len(d.keys))
					d.keys = append(d.keys, v)
					d.plain = append(d.plain, data[pos:pos+width]...)
					d.slots[i] = int32(prevIdx + 1)
					if 2*len(d.keys) > len(d.slots) {
						if len(d.keys) > maxDictValues {
							return false
						}
						d.growFixed()
						mask = uint64(len(d.slots) - 1)
					}
					break
				}
				if d.keys[e-1] == v {
					prevIdx = uint32(e - 1)
					break
				}
			}
		}
		d.idx = append(d.idx, int32(prevIdx))
		if len(d.idx) == sampleValues && 4*len(d.keys) > 3*sampleValues {
			return false
		}
	}
	d.fixed = len(d.keys)
	return len(d.keys) <= maxDictValues
}

func (d *dictionary) growFixed() {
	d.slots = make([]int32, 2*len(d.slots))
	mask := uint64(len(d.slots) - 1)
	for n, v := range d.keys {
		i := mix(v) & mask
		for d.slots[i] != 0 {
			i = (i + 1) & mask
		}
		d.slots[i] = int32(n + 1)
	}
}

// size returns the number of values in the dictionary.
func (d *dictionary) size() int {
	if d.fixed > 0 {
		return d.fixed
	}
	return len(d.starts)
}

// pqFile writes a Parquet file of the export's columns.
//
// A full row group is encoded, compressed and written on a goroutine of
// its own while the rows of the next one are added, into a second set of
// leaves: the goroutine that adds rows is the one that keeps the export
// waiting.
type pqFile struct {
	cols   []Column
	leaves []*leaf // the row group being built
	spare  []*leaf // the other set, free once the last group is written
	// slot says how to read each column of a row into leaves, spareSlot
	// into spare.
	slot, spareSlot []slot
	first           []int // each column's first leaf

	schema    []format.SchemaElement
	rows      int64
	groupRows int
	groupSize int64 // the binary rows' bytes added to the group
	cursor    []int // where decode is in each row

	// done receives the result of writing a row group, when one is
	// being written.
	done    chan error
	writing bool

	// What follows belongs to the goroutine writing a row group.
	out             io.Writer
	pos             int64
	enc             *zstd.Encoder
	groups          []format.RowGroup
	noDict          []bool // by leaf: its dictionary overflowed, for good
	dict            dictionary
	seed            maphash.Seed
	page, comp      []byte // scratch
	encoded, levels []byte
	ints            []int64
}

// newParquetWriter writes the file's magic number and returns the writer
// of its rows.
func newParquetWriter(out io.Writer, cols []Column) (*pqFile, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false), zstd.WithWindowSize(1<<20))
	if err != nil {
		return nil, err
	}
	p := &pqFile{out: out, cols: cols, enc: enc, done: make(chan error, 1)}
	p.schema = append(p.schema, format.SchemaElement{Name: "game", NumChildren: thrift.New(int32(len(cols)))})
	for _, c := range cols {
		switch c.Type {
		case Map:
			p.schema = append(p.schema,
				format.SchemaElement{Name: c.Name, RepetitionType: thrift.New(format.Required), NumChildren: thrift.New(int32(1)),
					ConvertedType: thrift.New(deprecated.Map), LogicalType: format.LogicalType{Value: &format.MapType{}}},
				format.SchemaElement{Name: "key_value", RepetitionType: thrift.New(format.Repeated), NumChildren: thrift.New(int32(2))},
				stringElement("key", format.Required),
				stringElement("value", format.Required))
			continue
		case String:
			rep := format.Optional
			if c.Required {
				rep = format.Required
			}
			p.schema = append(p.schema, stringElement(c.Name, rep))
			continue
		}
		e := format.SchemaElement{Name: c.Name, RepetitionType: thrift.New(format.Optional)}
		if c.Required {
			e.RepetitionType = thrift.New(format.Required)
		}
		switch c.Type {
		case Int32:
			e.Type = thrift.New(format.Int32)
			e.ConvertedType, e.LogicalType.Value = thrift.New(deprecated.Int32), &format.IntType{BitWidth: 32, IsSigned: true}
		case Int64:
			e.Type = thrift.New(format.Int64)
			e.ConvertedType, e.LogicalType.Value = thrift.New(deprecated.Int64), &format.IntType{BitWidth: 64, IsSigned: true}
		case Date:
			e.Type = thrift.New(format.Int32)
			e.ConvertedType, e.LogicalType.Value = thrift.New(deprecated.Date), &format.DateType{}
		case Float:
			e.Type = thrift.New(format.Double)
		case Bool:
			e.Type = thrift.New(format.Boolean)
		}
		p.schema = append(p.schema, e)
	}
	p.leaves = p.newLeaves()
	p.slot = p.slots(p.leaves)
	p.noDict = make([]bool, len(p.leaves))
	p.seed = maphash.MakeSeed()
	if err := p.write([]byte("PAR1")); err != nil {
		return nil, err
	}
	return p, nil
}

// newLeaves returns a set of the file's leaf columns, empty.
func (p *pqFile) newLeaves() []*leaf {
	var leaves []*leaf
	p.first = p.first[:0]
	for _, c := range p.cols {
		p.first = append(p.first, len(leaves))
		if c.Type == Map {
			for _, name := range []string{"key", "value"} {
				leaves = append(leaves, &leaf{name: []string{c.Name, "key_value", name}, typ: format.ByteArray, optional: true, repeated: true, at: len(leaves)})
			}
			continue
		}
		l := &leaf{name: []string{c.Name}, optional: !c.Required, at: len(leaves)}
		if l.optional {
			l.def = make([]byte, RowGroupSize)
		}
		switch c.Type {
		case String:
			l.typ = format.ByteArray
		case Int32, Date:
			l.typ = format.Int32
		case Int64:
			l.typ = format.Int64
		case Float:
			l.typ = format.Double
		case Bool:
			l.typ = format.Boolean
		}
		leaves = append(leaves, l)
	}
	return leaves
}

func stringElement(name string, rep format.FieldRepetitionType) format.SchemaElement {
	return format.SchemaElement{Name: name, Type: thrift.New(format.ByteArray), RepetitionType: thrift.New(rep),
		ConvertedType: thrift.New(deprecated.UTF8), LogicalType: format.LogicalType{Value: &format.StringType{}}}
}

func (p *pqFile) write(b []byte) error {
	n, err := p.out.Write(b)
	p.pos += int64(n)
	return err
}

// How add reads a column's value.
const (
	slotFixed  = iota // width bytes
	slotString        // a length and the bytes
	slotMap           // a count and the keys and values
)

// slot says how add reads one column of a row, and where it puts it.
type slot struct {
	leaf     *leaf
	kind     uint8
	width    uint8 // slotFixed's bytes
	optional bool  // its leaf's optional, at hand
}

// slots returns the columns' slots for the leaves given.
func (p *pqFile) slots(leaves []*leaf) []slot {
	var slots []slot
	for i, c := range p.cols {
		s := slot{leaf: leaves[p.first[i]]}
		s.optional = s.leaf.optional
		switch c.Type {
		case Map:
			s.kind = slotMap
		case String:
			s.kind = slotString
		case Int32, Date:
			s.width = 4
		case Int64, Float:
			s.width = 8
		case Bool:
			s.width = 1
		}
		slots = append(slots, s)
	}
	return slots
}

// addRows appends rows, each in its binary form, to the row group,
// writing each group as it fills. The rows of a batch come at once, so
// that they are read column by column: one loop a column, with what the
// column is decided once rather than for every row.
func (p *pqFile) addRows(rows [][]byte) error {
	for len(rows) > 0 {
		n, size := min(len(rows), RowGroupSize-p.groupRows), p.groupSize
		for i, row := range rows[:n] {
			if size += int64(len(row)); size > rowGroupBytes {
				n = i + 1
				break
			}
		}
		if err := p.decode(rows[:n]); err != nil {
			return err
		}
		if p.rows == 0 {
			p.reserve(n, size)
		}
		p.rows += int64(n)
		p.groupRows += n
		p.groupSize = size
		rows = rows[n:]
		if p.groupRows >= RowGroupSize || p.groupSize > rowGroupBytes {
			if err := p.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// decode appends rows to the leaves, column by column. A row misread
// would be a bug: the bounds checks that find it are Go's, turned into
// errCorrupt.
func (p *pqFile) decode(rows [][]byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errCorrupt, r)
		}
	}()
	le := binary.LittleEndian
	base := p.groupRows
	pos := p.cursor[:0]
	for range rows {
		pos = append(pos, 0)
	}
	p.cursor = pos
	for _, s := range p.slot {
		l := s.leaf
		if s.kind == slotMap {
			val := p.leaves[l.at+1]
			for r, row := range rows {
				var ok bool
				if pos[r], ok = p.addMap(l, val, row, pos[r]+1); !ok {
					return errCorrupt
				}
			}
			continue
		}
		var def []byte
		if s.optional {
			def = l.def[base : base+len(rows)]
		}
		data := l.data
		switch {
		case s.kind == slotString:
			for r, row := range rows {
				at := pos[r]
				flag := row[at]
				at++
				if def != nil {
					def[r] = flag
				}
				if flag != 0 {
					end := at + 4 + int(le.Uint32(row[at:]))
					data = append(data, row[at:end]...)
					at = end
				}
				pos[r] = at
			}
		case s.width == 4:
			for r, row := range rows {
				at := pos[r]
				flag := row[at]
				if def != nil {
					def[r] = flag
				}
				if flag != 0 {
					data = le.AppendUint32(data, le.Uint32(row[at+1:]))
					at += 4
				}
				pos[r] = at + 1
			}
		case s.width == 8:
			for r, row := range rows {
				at := pos[r]
				flag := row[at]
				if def != nil {
					def[r] = flag
				}
				if flag != 0 {
					data = le.AppendUint64(data, le.Uint64(row[at+1:]))
					at += 8
				}
				pos[r] = at + 1
			}
		default:
			for r, row := range rows {
				at := pos[r]
				flag := row[at]
				if def != nil {
					def[r] = flag
				}
				if flag != 0 {
					data = append(data, row[at+1])
					at++
				}
				pos[r] = at + 1
			}
		}
		l.data = data
	}
	for r, row := range rows {
		if pos[r] != len(row) {
			return errCorrupt
		}
	}
	return nil
}

// reserve makes room in the leaves for a row group of rows like the
// first n, of size bytes, so that they are not grown step by step, each
// step copying what the last one held.
func (p *pqFile) reserve(n int, size int64) {
	rows := int(min(int64(RowGroupSize), rowGroupBytes*int64(n)/max(size, 1)))
	for _, l := range p.leaves {
		if want := len(l.data) / n * rows * 5 / 4; want > cap(l.data) {
			// Not slices.Grow, which clears the room it makes: memory
			// fresh from the system is clear already.
			data := make([]byte, len(l.data), want)
			copy(data, l.data)
			l.data = data
		}
	}
}

// addMap adds a map's entries, from b[pos:], to its key and value
// columns and returns where the map ends; ok is false when b is short.
func (p *pqFile) addMap(key, val *leaf, b []byte, pos int) (end int, ok bool) {
	le := binary.LittleEndian
	if pos+4 > len(b) {
		return 0, false
	}
	n := int(le.Uint32(b[pos:]))
	pos += 4
	if n == 0 {
		for _, l := range [2]*leaf{key, val} {
			l.rep, l.def = append(l.rep, 0), append(l.def, 0)
			l.values++
			l.nulls++
		}
		return pos, true
	}
	for j := range 2 * n {
		l := key
		if j&1 == 1 {
			l = val
		}
		if pos+4 > len(b) {
			return 0, false
		}
		end := pos + 4 + int(le.Uint32(b[pos:]))
		if end > len(b) || end < pos+4 {
			return 0, false
		}
		var r byte
		if j > 1 {
			r = 1
		}
		l.rep, l.def = append(l.rep, r), append(l.def, 1)
		l.values++
		l.data = append(l.data, b[pos:end]...)
		pos = end
	}
	return pos, true
}

// rowGroupBytes bounds the memory of the row group being built, counted
// as the bytes of the rows' binary form: long rows (many tags, many
// moves) end a group before RowGroupSize rows. Two groups are held, one
// written while the next fills, each in slices that may be twice as long
// as their values.
var rowGroupBytes int64 = 16 << 20

// flush hands the row group built so far to a goroutine that writes it,
// once the one before is written, and goes on with the other set of
// leaves.
func (p *pqFile) flush() error {
	if p.groupRows == 0 {
		return nil
	}
	if err := p.wait(); err != nil {
		return err
	}
	if p.spare == nil {
		p.spare = p.newLeaves()
		p.spareSlot = p.slots(p.spare)
		for i, l := range p.spare {
			l.data = make([]byte, 0, cap(p.leaves[i].data))
		}
	}
	full, rows := p.leaves, p.groupRows
	for _, l := range full {
		if !l.repeated {
			l.values = rows
		}
	}
	p.leaves, p.spare = p.spare, full
	p.slot, p.spareSlot = p.spareSlot, p.slot
	p.groupRows, p.groupSize = 0, 0
	p.writing = true
	go func() {
		// A panic here would end the program before the caller could
		// remove its temporary file: wait panics with it instead.
		defer func() {
			if v := recover(); v != nil {
				p.done <- pipeline.PanicErrorOf(v)
			}
		}()
		p.done <- p.writeGroup(full, rows)
	}()
	return nil
}

// wait waits for the row group being written, if one is, and panics
// again on the caller's goroutine if writing it panicked.
func (p *pqFile) wait() error {
	if !p.writing {
		return nil
	}
	p.writing = false
	err := <-p.done
	if pe, ok := err.(*pipeline.PanicError); ok {
		panic(pe)
	}
	return err
}

// writeGroup writes a row group, each column as an optional dictionary
// page and one data page, and empties the leaves.
func (p *pqFile) writeGroup(leaves []*leaf, rows int) error {
	rg := format.RowGroup{NumRows: int64(rows), FileOffset: p.pos, Ordinal: int16(len(p.groups))}
	for _, l := range leaves {
		if l.optional && !l.repeated {
			l.def = l.def[:rows]
			l.nulls = int64(bytes.Count(l.def, []byte{0}))
		}
		cc, err := p.writeChunk(l)
		if err != nil {
			return err
		}
		rg.TotalByteSize += cc.MetaData.TotalUncompressedSize
		rg.TotalCompressedSize += cc.MetaData.TotalCompressedSize
		rg.Columns = append(rg.Columns, cc)
		l.rep, l.def, l.data = l.rep[:0], l.def[:0], l.data[:0]
		if l.optional && !l.repeated {
			l.def = l.def[:RowGroupSize]
		}
		l.values, l.nulls = 0, 0
	}
	p.groups = append(p.groups, rg)
	return nil
}

// writeChunk writes one column chunk of the row group: levels and
// values PLAIN, except that int64s (the game's place in its file) are
// delta-encoded and that strings, int32s, dates and doubles go through a
// dictionary when it stays small.
func (p *pqFile) writeChunk(l *leaf) (format.ColumnChunk, error) {
	md := format.ColumnMetaData{Type: l.typ, PathInSchema: l.name, Codec: format.Zstd, NumValues: int64(l.values)}
	start := p.pos
	dict := l.typ != format.Boolean && l.typ != format.Int64 && !p.noDict[l.at] && len(l.data) > 0
	if dict && !p.dict.build(l, p.seed) {
		dict, p.noDict[l.at] = false, true
	}
	if dict {
		md.DictionaryPageOffset = p.pos
		h := format.PageHeader{Type: format.DictionaryPage, DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(p.dict.size()), Encoding: format.Plain})}
		if err := p.writePage(&h, p.dict.plain, &md); err != nil {
			return format.ColumnChunk{}, err
		}
	}

	page := p.page[:0]
	var err error
	if l.repeated {
		if page, err = p.appendLevels(page, l.rep); err != nil {
			return format.ColumnChunk{}, err
		}
	}
	if l.optional {
		if page, err = p.appendLevels(page, l.def); err != nil {
			return format.ColumnChunk{}, err
		}
	}
	encoding := format.Plain
	switch {
	case dict:
		encoding = format.RLEDictionary
		width := max(bits.Len32(uint32(p.dict.size()-1)), 1)
		page = append(page, byte(width))
		enc := rle.Encoding{BitWidth: width}
		if p.encoded, err = enc.EncodeInt32(p.encoded, p.dict.idx); err != nil {
			return format.ColumnChunk{}, err
		}
		page = append(page, p.encoded...)
	case l.typ == format.Boolean:
		var acc byte
		for i, v := range l.data {
			acc |= v << (i & 7)
			if i&7 == 7 {
				page, acc = append(page, acc), 0
			}
		}
		if len(l.data)&7 != 0 {
			page = append(page, acc)
		}
	case l.typ == format.Int64:
		encoding = format.DeltaBinaryPacked
		p.ints = p.ints[:0]
		for i := 0; i+8 <= len(l.data); i += 8 {
			p.ints = append(p.ints, int64(binary.LittleEndian.Uint64(l.data[i:])))
		}
		// The encoder writes from the start of the slice it is given.
		if p.encoded, err = deltaInt64.EncodeInt64(p.encoded, p.ints); err != nil {
			return format.ColumnChunk{}, err
		}
		page = append(page, p.encoded...)
	default:
		page = append(page, l.data...)
	}
	p.page = page
	md.DataPageOffset = p.pos
	h := format.PageHeader{Type: format.DataPage, DataPageHeader: thrift.New(format.DataPageHeader{
		NumValues: int32(l.values), Encoding: encoding, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE})}
	if err := p.writePage(&h, page, &md); err != nil {
		return format.ColumnChunk{}, err
	}
	md.Encoding = thrift.Slice[format.Encoding]{encoding, format.RLE}
	if dict {
		md.Encoding = thrift.Slice[format.Encoding]{format.Plain, format.RLE, format.RLEDictionary}
	}
	md.Statistics = p.statistics(l, dict)
	return format.ColumnChunk{FileOffset: start, MetaData: md}, nil
}

// deltaInt64 encodes the game's index, offset and line, which grow by
// small steps: a few bits a row instead of 8 bytes to compress.
var deltaInt64 delta.BinaryPackedEncoding

// writePage compresses a page and writes it with its header.
func (p *pqFile) writePage(h *format.PageHeader, page []byte, md *format.ColumnMetaData) error {
	p.comp = p.enc.EncodeAll(page, p.comp[:0])
	h.UncompressedPageSize, h.CompressedPageSize = int32(len(page)), int32(len(p.comp))
	if len(page) > math.MaxInt32 || len(p.comp) > math.MaxInt32 {
		return fmt.Errorf("a Parquet page of %d bytes is too large", len(page))
	}
	header, err := thrift.Marshal(new(thrift.CompactProtocol), h)
	if err != nil {
		return err
	}
	md.TotalUncompressedSize += int64(len(header) + len(page))
	md.TotalCompressedSize += int64(len(header) + len(p.comp))
	if err := p.write(header); err != nil {
		return err
	}
	return p.write(p.comp)
}

// statistics returns the column chunk's null count, and its least and
// greatest values where they cost little to find: numbers, dates and the
// strings of a dictionary.
func (p *pqFile) statistics(l *leaf, dict bool) format.Statistics {
	s := format.Statistics{NullCount: l.nulls}
	le := binary.LittleEndian
	switch {
	case len(l.data) == 0:
	case dict && l.typ == format.ByteArray:
		d := &p.dict
		lo, hi := d.entry(0), d.entry(0)
		for i := 1; i < len(d.starts); i++ {
			e := d.entry(i)
			if bytes.Compare(e, lo) < 0 {
				lo = e
			}
			if bytes.Compare(e, hi) > 0 {
				hi = e
			}
		}
		s.MinValue, s.MaxValue = bytes.Clone(lo), bytes.Clone(hi)
	case l.typ == format.Int32:
		lo, hi := int32(math.MaxInt32), int32(math.MinInt32)
		for i := 0; i+4 <= len(l.data); i += 4 {
			v := int32(le.Uint32(l.data[i:]))
			lo, hi = min(lo, v), max(hi, v)
		}
		s.MinValue, s.MaxValue = le.AppendUint32(nil, uint32(lo)), le.AppendUint32(nil, uint32(hi))
	case l.typ == format.Int64:
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for i := 0; i+8 <= len(l.data); i += 8 {
			v := int64(le.Uint64(l.data[i:]))
			lo, hi = min(lo, v), max(hi, v)
		}
		s.MinValue, s.MaxValue = le.AppendUint64(nil, uint64(lo)), le.AppendUint64(nil, uint64(hi))
	case l.typ == format.Double:
		lo, hi, any := math.Inf(1), math.Inf(-1), false
		for i := 0; i+8 <= len(l.data); i += 8 {
			v := math.Float64frombits(le.Uint64(l.data[i:]))
			if !math.IsNaN(v) {
				lo, hi, any = min(lo, v), max(hi, v), true
			}
		}
		if any {
			s.MinValue, s.MaxValue = le.AppendUint64(nil, math.Float64bits(lo)), le.AppendUint64(nil, math.Float64bits(hi))
		}
	}
	return s
}

// close writes the last row group and the footer.
func (p *pqFile) close() error {
	if err := p.flush(); err != nil {
		return err
	}
	if err := p.wait(); err != nil {
		return err
	}
	md := format.FileMetaData{Version: 1, Schema: p.schema, NumRows: p.rows, RowGroups: p.groups, CreatedBy: "frctool"}
	if md.RowGroups == nil {
		md.RowGroups = thrift.Slice[format.RowGroup]{}
	}
	for range p.leaves {
		md.ColumnOrders = append(md.ColumnOrders, format.ColumnOrder{Value: &format.TypeDefinedOrder{}})
	}
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		return err
	}
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
	footer = append(footer, "PAR1"...)
	return p.write(footer)
}

// appendLevels appends levels of bit width 1 as a data page v1 has them:
// their length in 4 bytes, then the RLE/bit-packed hybrid.
func (p *pqFile) appendLevels(dst, levels []byte) ([]byte, error) {
	var err error
	if p.levels, err = levelsEncoding.EncodeLevels(p.levels, levels); err != nil {
		return nil, err
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(p.levels)))
	return append(dst, p.levels...), nil
}

var levelsEncoding = rle.Encoding{BitWidth: 1}
