package stats

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// MaxGroups bounds the groups of one count. Each group keeps the counts of
// the positions it has games from, about 200 bytes each, so that a
// grouping by a field of many values (a player's name, an event) cannot
// grow without bound; a table of more groups than this is no longer a
// table anybody reads.
const MaxGroups = 10000

// Errors of grouping.
var (
	// ErrGroupBy is a field that cannot group rows: a position's own
	// number, which every row already has, or a name given twice.
	ErrGroupBy = errors.New("cannot group by this field")
	// ErrGroupedOtherwise is returned by Merge and ReadJSON for counts
	// grouped by other fields than those they are to be added to.
	ErrGroupedOtherwise = errors.New("counts grouped otherwise cannot be added up")
	// ErrTooManyGroups is returned when a count reaches more than
	// MaxGroups groups.
	ErrTooManyGroups = errors.New("too many groups")
	// ErrGroupedCounts is returned by SetGroupBy on Stats that already
	// hold counts.
	ErrGroupedCounts = errors.New("the grouping must be set before counting")
)

// grouping is the state of grouped Stats.
type grouping struct {
	groupBy []fields.Field
	names   []string
	groups  map[string]*Group // by GroupKey
}

// Group is the counts of the games that share the values of the group-by
// fields.
type Group struct {
	// Values are the group's values, one per field of GroupBy.
	Values []GroupValue
	key    string
	// at holds, by SP, the index in cnt of the SP's counts, for the SPs
	// the group has games from; sps holds the SP of each of cnt. Counts
	// reached through a map of pointers were each an allocation, and a
	// pointer for the collector to follow; an array by SP would cost every
	// group 2 KB, and there may be thousands of small ones.
	at   map[int32]int32
	cnt  []Counts
	sps  []int16
	dfrc map[Pair]*Counts
}

// GroupValue is one field's value shared by a group's games.
type GroupValue struct {
	Missing bool    // the games have no value for the field
	Number  bool    // Num holds it; otherwise Text does
	Num     float64 // when Number
	Text    string  // the text of a tag, a date or a word (speed, kind, bool)
}

// String returns the value as it is written in a table: "" when missing.
func (v GroupValue) String() string {
	switch {
	case v.Missing:
		return ""
	case v.Number:
		return string(fields.Value{Type: fields.TypeNumber, Num: v.Num}.Append(nil))
	}
	return v.Text
}

// compare orders values: numbers by value, text byte by byte, missing
// values last.
func (v GroupValue) compare(o GroupValue) int {
	switch {
	case v.Missing || o.Missing:
		return cmp.Compare(b2i(v.Missing), b2i(o.Missing))
	case v.Number && o.Number:
		return cmp.Compare(v.Num, o.Num)
	case v.Number != o.Number:
		return cmp.Compare(b2i(!v.Number), b2i(!o.Number))
	}
	return cmp.Compare(v.Text, o.Text)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// SetGroupBy makes s count games per group: the games that have the same
// values of the named fields, tags or derived fields (package fields),
// such as "speed" and "elo_band". A game without a value for a field is
// in the group of the missing value. An empty list counts all games in
// one table, as the zero Stats does. The position numbers (sp, fritz9,
// white_sp, black_sp) cannot group: every row is one position already.
func (s *Stats) SetGroupBy(names []string) error {
	if s.Totals.Games > 0 || s.grouped() && len(s.groups) > 0 {
		return ErrGroupedCounts
	}
	s.grouping = grouping{}
	for _, name := range names {
		f, err := fields.Lookup(name)
		if err != nil {
			return err
		}
		switch name {
		case "sp", "fritz9", "white_sp", "black_sp":
			return fmt.Errorf("%w: %s: every row is one start position already", ErrGroupBy, name)
		}
		if slices.Contains(s.names, name) {
			return fmt.Errorf("%w: %s is named twice", ErrGroupBy, name)
		}
		s.groupBy = append(s.groupBy, f)
		s.names = append(s.names, name)
	}
	if len(names) > 0 {
		s.groups = make(map[string]*Group)
	}
	return nil
}

// GroupBy returns the names of the fields s groups by; none when it does
// not group.
func (s *Stats) GroupBy() []string { return slices.Clone(s.names) }

func (s *Stats) grouped() bool { return len(s.groupBy) > 0 }

// The types of the encoded values of GroupKey.
const (
	keyMissing byte = iota
	keyNumber
	keyText
)

// GroupKey appends to dst the encoding of the group of game g, whose
// class c is startpos.Classify's: a byte string that is equal for two
// games exactly when their group-by values are. It allocates nothing when
// dst has room, so that workers can compute it for every game.
func (s *Stats) GroupKey(dst []byte, g *pgn.Game, c *startpos.Class) []byte {
	for _, f := range s.groupBy {
		v := f.Value(g, c)
		switch v.Type {
		case fields.TypeMissing:
			dst = appendKeyValue(dst, keyMissing, 0, nil)
		case fields.TypeNumber:
			dst = appendKeyValue(dst, keyNumber, v.Num, nil)
		case fields.TypeBool:
			dst = appendKeyValue(dst, keyText, 0, boolText[b2i(v.Bool)])
		default:
			dst = appendKeyText(dst, v.Text)
		}
	}
	return dst
}

// appendKeyText appends a text value of a key, as UTF-8: a tag's bytes
// that are not UTF-8 are read as Latin-1 (pgn.AppendUTF8), so that a group
// is named the same in every format, JSON included, and an old archive's
// "M\xfcnchen" is the "München" of a new one.
func appendKeyText(dst, text []byte) []byte {
	if utf8.Valid(text) {
		return appendKeyValue(dst, keyText, 0, text)
	}
	// The length goes first: the text is made where it goes, after room
	// for the longest length, and moved up behind the length written.
	dst = append(dst, keyText)
	at := len(dst)
	dst = append(dst, make([]byte, binary.MaxVarintLen64)...)
	from := len(dst)
	dst = pgn.AppendUTF8(dst, text)
	n := len(dst) - from
	w := binary.PutUvarint(dst[at:], uint64(n))
	copy(dst[at+w:], dst[from:])
	return dst[:at+w+n]
}

var boolText = [2][]byte{[]byte("false"), []byte("true")}

// appendKeyValue appends one value of a key: its type, then a number's
// 8 bytes or a text's length and bytes.
func appendKeyValue(dst []byte, t byte, num float64, text []byte) []byte {
	dst = append(dst, t)
	switch t {
	case keyNumber:
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(num))
	case keyText:
		dst = binary.AppendUvarint(dst, uint64(len(text)))
		dst = append(dst, text...)
	}
	return dst
}

// decodeKey reads the values back from a GroupKey.
func decodeKey(key []byte, n int) ([]GroupValue, error) {
	values := make([]GroupValue, 0, n)
	for len(key) > 0 {
		t := key[0]
		key = key[1:]
		switch t {
		case keyMissing:
			values = append(values, GroupValue{Missing: true})
		case keyNumber:
			if len(key) < 8 {
				return nil, errBadKey
			}
			values = append(values, GroupValue{Number: true, Num: math.Float64frombits(binary.LittleEndian.Uint64(key))})
			key = key[8:]
		case keyText:
			l, w := binary.Uvarint(key)
			if w <= 0 || uint64(len(key)-w) < l {
				return nil, errBadKey
			}
			values = append(values, GroupValue{Text: string(key[w : w+int(l)])})
			key = key[w+int(l):]
		default:
			return nil, errBadKey
		}
	}
	if len(values) != n {
		return nil, errBadKey
	}
	return values, nil
}

var errBadKey = errors.New("malformed group key")

// encodeKey is GroupKey's encoding of values already decoded, for groups
// read back from JSON.
func encodeKey(values []GroupValue) string {
	var dst []byte
	for _, v := range values {
		switch {
		case v.Missing:
			dst = appendKeyValue(dst, keyMissing, 0, nil)
		case v.Number:
			dst = appendKeyValue(dst, keyNumber, v.Num, nil)
		default:
			dst = appendKeyValue(dst, keyText, 0, []byte(v.Text))
		}
	}
	return string(dst)
}

// group returns the group of key, made when it is new.
func (s *Stats) group(key []byte) (*Group, error) {
	if g := s.groups[string(key)]; g != nil {
		return g, nil
	}
	values, err := decodeKey(key, len(s.groupBy))
	if err != nil {
		return nil, err
	}
	return s.addGroup(string(key), values)
}

func (s *Stats) addGroup(key string, values []GroupValue) (*Group, error) {
	if len(s.groups) >= MaxGroups {
		return nil, fmt.Errorf("%w: more than %d groups by %s", ErrTooManyGroups, MaxGroups, strings.Join(s.names, ","))
	}
	g := &Group{Values: values, key: key, at: make(map[int32]int32)}
	s.groups[key] = g
	return g, nil
}

// sp returns the group's counts of a position, which it adds when the
// group has none yet: the pointer holds until the next position is added.
func (g *Group) sp(sp int) (*Counts, bool) {
	if i, ok := g.at[int32(sp)]; ok {
		return &g.cnt[i], false
	}
	g.at[int32(sp)] = int32(len(g.cnt))
	g.cnt = append(g.cnt, Counts{})
	g.sps = append(g.sps, int16(sp))
	return &g.cnt[len(g.cnt)-1], true
}

func (g *Group) pair(p Pair) (*Counts, bool) {
	if g.dfrc == nil {
		g.dfrc = make(map[Pair]*Counts)
	}
	c := g.dfrc[p]
	if c != nil {
		return c, false
	}
	c = new(Counts)
	g.dfrc[p] = c
	return c, true
}

// Groups returns the groups in the order of their values, field by field:
// numbers by value, the words of speed and kind in their order (bullet
// before blitz), other text byte by byte, missing values last. Ungrouped
// Stats have none.
func (s *Stats) Groups() []*Group {
	list := make([]*Group, 0, len(s.groups))
	for _, g := range s.groups {
		list = append(list, g)
	}
	slices.SortFunc(list, func(a, b *Group) int {
		for i := range a.Values {
			va, vb := a.Values[i], b.Values[i]
			// Fields of a closed set of values (speed, kind) go in the
			// set's order: bullet before blitz.
			if order := s.groupBy[i].Values(); len(order) > 0 && !va.Missing && !vb.Missing {
				if c := cmp.Compare(slices.Index(order, va.Text), slices.Index(order, vb.Text)); c != 0 {
					return c
				}
			}
			if c := va.compare(vb); c != 0 {
				return c
			}
		}
		return 0
	})
	return list
}

// Games returns the number of games counted in the group.
func (g *Group) Games() int64 {
	var n int64
	for i := range g.cnt {
		n += g.cnt[i].Games
	}
	for _, c := range g.dfrc {
		n += c.Games
	}
	return n
}
