package export

import (
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

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
