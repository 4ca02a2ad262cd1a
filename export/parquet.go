package export

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"reflect"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// errCorrupt would mean that a row's binary form was misread: a bug.
var errCorrupt = errors.New("internal error: row encoding misread")

// orderedGroup is a Parquet group whose fields keep the order given:
// parquet.Group, a Go map, sorts them by name, and the columns are to
// come in the order chosen.
type orderedGroup struct{ fields []parquet.Field }

type namedField struct {
	parquet.Node
	name string
}

func (f namedField) Name() string                      { return f.name }
func (f namedField) Value(reflect.Value) reflect.Value { return reflect.Value{} }

func (g *orderedGroup) ID() int                     { return 0 }
func (g *orderedGroup) String() string              { return "group" }
func (g *orderedGroup) Type() parquet.Type          { return parquet.Group{}.Type() }
func (g *orderedGroup) Optional() bool              { return false }
func (g *orderedGroup) Repeated() bool              { return false }
func (g *orderedGroup) Required() bool              { return true }
func (g *orderedGroup) Leaf() bool                  { return false }
func (g *orderedGroup) Fields() []parquet.Field     { return g.fields }
func (g *orderedGroup) Encoding() encoding.Encoding { return nil }
func (g *orderedGroup) Compression() compress.Codec { return nil }
func (g *orderedGroup) GoType() reflect.Type        { return reflect.TypeFor[map[string]any]() }

// zstdCodec compresses pages with one zstd encoder kept for the whole
// file. parquet-go's own codec takes its encoders from a pool that the
// garbage collector empties, and each new encoder allocates its history
// window again: that cost more than the compression itself.
type zstdCodec struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

func newZstdCodec() (*zstdCodec, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false), zstd.WithWindowSize(1<<20))
	if err != nil {
		return nil, err
	}
	return &zstdCodec{enc: enc}, nil
}

func (c *zstdCodec) String() string                            { return "ZSTD" }
func (c *zstdCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }
func (c *zstdCodec) Encode(dst, src []byte) ([]byte, error) {
	return c.enc.EncodeAll(src, dst[:0]), nil
}

// Decode is not used by a writer; it is there for the interface.
func (c *zstdCodec) Decode(dst, src []byte) ([]byte, error) {
	if c.dec == nil {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		c.dec = d
	}
	return c.dec.DecodeAll(src, dst[:0])
}

// lowCardinality are the columns with few distinct values, which a
// dictionary stores as small numbers: less to compress, and a smaller
// file. Names, sites and times are nearly all distinct; a dictionary of
// them would only cost time and memory.
var lowCardinality = map[string]bool{
	"file": true, "kind": true, "white_rank": true, "black_rank": true, "event": true, "round": true, "result": true,
	"date_text": true, "white_title": true, "black_title": true, "time_control": true, "speed": true,
	"eco": true, "opening": true, "termination": true,
}

// node returns the Parquet node of a column.
func node(c Column) parquet.Node {
	var n parquet.Node
	switch c.Type {
	case String:
		n = parquet.String()
		if lowCardinality[c.Name] {
			n = parquet.Encoded(n, &parquet.RLEDictionary)
		}
	case Int32:
		n = parquet.Int(32)
	case Int64:
		n = parquet.Int(64)
	case Float:
		n = parquet.Leaf(parquet.DoubleType)
	case Date:
		n = parquet.Date()
	case Bool:
		n = parquet.Leaf(parquet.BooleanType)
	case Map:
		// Every game has its map, empty when it has no tags.
		return parquet.Map(parquet.String(), parquet.String())
	}
	if c.Required {
		return n
	}
	return parquet.Optional(n)
}

// Schema returns the Parquet schema of the columns, in their order.
func Schema(cols []Column) *parquet.Schema {
	g := &orderedGroup{}
	for _, c := range cols {
		g.fields = append(g.fields, namedField{Node: node(c), name: c.Name})
	}
	return parquet.NewSchema("game", g)
}

// parquetWriter turns rows in their binary form into Parquet rows.
type parquetWriter struct {
	w    *parquet.GenericWriter[any]
	cols []Column
	leaf []int // each column's first leaf column index
	// nulls holds each leaf column's null value, made once: most rows
	// have many null columns.
	nulls []parquet.Value
	// The rows added and not yet written: their values one after the
	// other, and where each row ends.
	values parquet.Row
	ends   []int
	batch  []parquet.Row
	// The rows of the current row group, and the file's size when it
	// began.
	groupRows  int
	groupStart int64
}

func newParquetWriter(out io.Writer, cols []Column) (*parquetWriter, error) {
	schema := Schema(cols)
	codec, err := newZstdCodec()
	if err != nil {
		return nil, err
	}
	cfg, err := parquet.NewWriterConfig(schema, parquet.Compression(codec), parquet.MaxRowsPerRowGroup(RowGroupSize), parquet.CreatedBy("frctool", "", ""))
	if err != nil {
		return nil, err
	}
	p := &parquetWriter{w: parquet.NewGenericWriter[any](out, cfg), cols: cols}
	leaf := 0
	for _, c := range cols {
		p.leaf = append(p.leaf, leaf)
		if c.Type == Map {
			leaf += 2
		} else {
			leaf++
		}
	}
	for i := range leaf {
		p.nulls = append(p.nulls, parquet.Value{}.Level(0, 0, i))
	}
	return p, nil
}

// add decodes one row from its binary form, to be written by flush. The
// values point into b, which must stay as it is until then.
func (p *parquetWriter) add(b []byte) error {
	row := p.values
	for i, c := range p.cols {
		if len(b) == 0 {
			return errCorrupt
		}
		present := b[0] == 1
		b = b[1:]
		col := p.leaf[i]
		def := 1
		if c.Required {
			def = 0
		}
		if !present {
			row = append(row, p.nulls[col])
			continue
		}
		var v parquet.Value
		switch c.Type {
		case String:
			var s []byte
			if s, b = readBytes(b); b == nil {
				return errCorrupt
			}
			v = parquet.ByteArrayValue(s)
		case Int32, Date:
			n, k := binary.Varint(b)
			b = b[k:]
			v = parquet.Int32Value(int32(n))
		case Int64:
			n, k := binary.Varint(b)
			b = b[k:]
			v = parquet.Int64Value(n)
		case Bool:
			n, k := binary.Varint(b)
			b = b[k:]
			v = parquet.BooleanValue(n != 0)
		case Float:
			v = parquet.DoubleValue(math.Float64frombits(binary.LittleEndian.Uint64(b)))
			b = b[8:]
		case Map:
			n, k := binary.Uvarint(b)
			b = b[k:]
			if n == 0 {
				row = append(row, p.nulls[col], p.nulls[col+1])
				continue
			}
			// Values go column by column: the keys, then the values.
			start := b
			for j := uint64(0); j < n; j++ {
				var key []byte
				key, b = readBytes(b)
				_, b = readBytes(b)
				row = append(row, parquet.ByteArrayValue(key).Level(rep(j), 1, col))
			}
			b = start
			for j := uint64(0); j < n; j++ {
				var val []byte
				_, b = readBytes(b)
				val, b = readBytes(b)
				row = append(row, parquet.ByteArrayValue(val).Level(rep(j), 1, col+1))
			}
			continue
		}
		row = append(row, v.Level(0, def, col))
	}
	p.values = row
	p.ends = append(p.ends, len(row))
	return nil
}

// flush writes the rows added since the last flush. Writing many rows at
// once lets the column writers work column by column, which costs much
// less than a call per row.
func (p *parquetWriter) flush() error {
	if len(p.ends) == 0 {
		return nil
	}
	p.batch = p.batch[:0]
	start := 0
	for _, end := range p.ends {
		p.batch = append(p.batch, p.values[start:end:end])
		start = end
	}
	p.values, p.ends = p.values[:0], p.ends[:0]
	rows := p.batch
	for len(rows) > 0 {
		n := min(len(rows), RowGroupSize-p.groupRows)
		if _, err := p.w.WriteRows(rows[:n]); err != nil {
			return err
		}
		rows = rows[n:]
		p.groupRows += n
		// A group's pages are held until it is written: long rows (many
		// tags, many moves) end it before RowGroupSize rows, so that it
		// stays within rowGroupBytes.
		if p.groupRows == RowGroupSize || p.w.Size()-p.groupStart > rowGroupBytes {
			if err := p.w.Flush(); err != nil {
				return err
			}
			p.groupRows, p.groupStart = 0, p.w.Size()
		}
	}
	return nil
}

// rowGroupBytes bounds the memory of the row group being built, as
// parquet-go estimates it (compressed pages and the values not yet in a
// page).
var rowGroupBytes int64 = 64 << 20

func rep(j uint64) int {
	if j == 0 {
		return 0
	}
	return 1
}

// readBytes reads a length-prefixed string; rest is nil when b is short.
func readBytes(b []byte) (s, rest []byte) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return nil, nil
	}
	return b[k : k+int(n)], b[k+int(n):]
}

func (p *parquetWriter) close() error {
	if err := p.flush(); err != nil {
		return err
	}
	return p.w.Close()
}
