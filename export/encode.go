package export

import (
	"encoding/binary"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/frctool/frctool/internal/csvfield"
	"github.com/frctool/frctool/pgn"
)

// utf8Text returns s as UTF-8: s itself when it is, else s with every
// byte that is not part of a UTF-8 sequence read as Latin-1 (pgn.AppendUTF8,
// the rule every command reads text by), appended to scratch. Text formats
// and Parquet's strings must be UTF-8.
func utf8Text(scratch *[]byte, s []byte) []byte {
	if utf8.Valid(s) {
		return s
	}
	*scratch = pgn.AppendUTF8((*scratch)[:0], s)
	return *scratch
}

// textOf returns s, a string of cell c, as UTF-8.
func (k *worker) textOf(c *cell, s []byte) []byte {
	if c.utf8 {
		return s
	}
	return utf8Text(&k.text, s)
}

// appendDate appends days since 1970-01-01 as an ISO date.
func appendDate(dst []byte, days int64) []byte {
	return time.Unix(days*86400, 0).UTC().AppendFormat(dst, time.DateOnly)
}

func appendFloat(dst []byte, f float64) []byte {
	return strconv.AppendFloat(dst, f, 'f', -1, 64)
}

func (k *worker) appendCSVRow(out []byte) []byte {
	start := len(out)
	for i := range k.w.columns {
		if i > 0 {
			out = append(out, ',')
		}
		c := &k.cells[i]
		if c.null {
			continue
		}
		switch k.w.columns[i].Type {
		case String:
			out = csvfield.Append(out, k.textOf(c, c.s))
		case Int32, Int64:
			out = strconv.AppendInt(out, c.i, 10)
		case Float:
			out = appendFloat(out, c.f)
		case Date:
			out = appendDate(out, c.i)
		case Bool:
			out = strconv.AppendBool(out, c.i != 0)
		}
	}
	return csvfield.EndRecord(out, start)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string.
func appendJSONString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i, c := range s {
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func (k *worker) appendJSONRow(out []byte) []byte {
	out = append(out, '{')
	for i := range k.w.columns {
		col := &k.w.columns[i]
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, col.Name...)
		out = append(out, '"', ':')
		c := &k.cells[i]
		if c.null {
			out = append(out, "null"...)
			continue
		}
		switch col.Type {
		case String:
			out = appendJSONString(out, k.textOf(c, c.s))
		case Int32, Int64:
			out = strconv.AppendInt(out, c.i, 10)
		case Float:
			out = appendFloat(out, c.f)
		case Date:
			out = append(out, '"')
			out = appendDate(out, c.i)
			out = append(out, '"')
		case Bool:
			out = strconv.AppendBool(out, c.i != 0)
		case Map:
			out = append(out, '{')
			n := 0
			for j, t := range c.tags {
				if !firstTag(c, j) {
					continue
				}
				if n > 0 {
					out = append(out, ',')
				}
				n++
				out = appendJSONString(out, k.textOf(c, t.Name))
				out = append(out, ':')
				out = appendJSONString(out, k.textOf(c, t.Value))
			}
			out = append(out, '}')
		}
	}
	return append(out, '}', '\n')
}

// firstTag reports whether the j-th tag is the first of its name: a map
// holds one value a key, the first, as pgn.Game.Tag reads it.
func firstTag(c *cell, j int) bool {
	name := c.tags[j].Name
	for _, t := range c.tags[:j] {
		if string(t.Name) == string(name) {
			return false
		}
	}
	return true
}

// appendParquetRow appends the row's binary form, which pqFile.add reads.
func (k *worker) appendParquetRow(out []byte) []byte {
	le := binary.LittleEndian
	cols, cells := k.w.columns, k.cells[:len(k.w.columns)]
	for i := range cols {
		c := &cells[i]
		if c.null {
			out = append(out, 0)
			continue
		}
		out = append(out, 1)
		switch cols[i].Type {
		case String:
			out = appendPlain(out, k.textOf(c, c.s))
		case Int32, Date:
			out = le.AppendUint32(out, uint32(c.i))
		case Int64:
			out = le.AppendUint64(out, uint64(c.i))
		case Bool:
			out = append(out, byte(c.i))
		case Float:
			out = le.AppendUint64(out, math.Float64bits(c.f))
		case Map:
			n := 0
			for j := range c.tags {
				if firstTag(c, j) {
					n++
				}
			}
			out = le.AppendUint32(out, uint32(n))
			for j, t := range c.tags {
				if firstTag(c, j) {
					out = appendPlain(out, k.textOf(c, t.Name))
					out = appendPlain(out, k.textOf(c, t.Value))
				}
			}
		}
	}
	return out
}

// appendPlain appends s as Parquet's PLAIN encoding has a byte array:
// its length in 4 bytes, then its bytes.
func appendPlain(dst, s []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s)))
	return append(dst, s...)
}
