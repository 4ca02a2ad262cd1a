package stats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
)

// TestWriteJSONAsOneValue checks the document written a row at a time
// against the same document encoded as one value by encoding/json, the
// way it was written before: byte for byte, grouped or not, with and
// without DFRC pairs, and with group values that JSON escapes.
func TestWriteJSONAsOneValue(t *testing.T) {
	lichess := archivegen.Bytes(archivegen.Options{Seed: 3, Shape: archivegen.Lichess}, 200<<10)
	var odd strings.Builder
	for i, event := range []string{`<Cup & "Open">`, "Caf\u00e9 \u2028", ""} {
		fmt.Fprintf(&odd, "[Event %q]\n[FEN \"nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n\n1-0\n\n", event)
		if i == 2 { // a DFRC pair
			odd.WriteString("[FEN \"nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]\n[Result \"0-1\"]\n\n0-1\n\n")
		}
	}
	tests := []struct {
		name     string
		stats    *Stats
		opts     Options
		withDFRC bool
	}{
		{"empty", new(Stats), Options{}, true},
		{"fixture", mustCount(t, readFixture(t)), Options{}, true},
		{"fixture without DFRC", mustCount(t, readFixture(t)), Options{Sort: SortScore}, false},
		{"fixture, all 960", mustCount(t, readFixture(t)), Options{All: true}, true},
		{"grouped", countWhere(t, lichess, "", []string{"speed", "elo_band"}, 1), Options{Sort: SortGames}, true},
		{"grouped by a tag JSON escapes", countWhere(t, []byte(odd.String()), "", []string{"Event"}, 1), Options{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &Report{Stats: tt.stats, Options: tt.opts, WithDFRC: tt.withDFRC}
			var got bytes.Buffer
			if err := rep.WriteJSON(&got); err != nil {
				t.Fatal(err)
			}
			if want := oneValue(t, rep); got.String() != want {
				t.Errorf("the document differs from one value:\n%s\nwant\n%s", got.String(), want)
			}
			if !json.Valid(got.Bytes()) {
				t.Errorf("not valid JSON")
			}
		})
	}
}

func mustCount(t *testing.T, data []byte) *Stats {
	s, _ := count(t, data, 1)
	return s
}

// oneValue encodes the report's document as one value, indented by
// encoding/json.
func oneValue(t *testing.T, rep *Report) string {
	names := rep.Stats.GroupBy()
	rows := rep.Rows()
	sig, tested := Significance(rows)
	doc := struct {
		Rows []jsonRow `json:"rows"`
		DFRC []jsonRow `json:"dfrc,omitempty"`
		jsonDocEnd
	}{Rows: []jsonRow{}}
	doc.jsonDocEnd = jsonDocEnd{
		Totals: jsonTotals{Tally: rep.Stats.Totals, Positions: rep.Stats.Positions(), Selected: &rep.Stats.Selected,
			Tested: tested, Significant: sig, FDR: rep.Options.fdr()},
		Format: jsonFormat, MinGames: rep.Options.MinGames, DFRCTable: rep.WithDFRC, GroupBy: names,
	}
	for i := range rows {
		doc.Rows = append(doc.Rows, toJSON(&rows[i], names))
	}
	if rep.WithDFRC {
		dfrc := rep.DFRCRows()
		for i := range dfrc {
			doc.DFRC = append(doc.DFRC, toJSON(&dfrc[i], names))
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// failingWriter fails after n bytes.
type failingWriter struct{ n int }

var errWrite = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		n := w.n
		w.n = 0
		return n, errWrite
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWriteJSONError checks that a failed write is returned, wherever in
// the document it happens.
func TestWriteJSONError(t *testing.T) {
	s := countWhere(t, archivegen.Bytes(archivegen.Options{Seed: 3, Shape: archivegen.Lichess}, 400<<10), "", []string{"speed"}, 1)
	var whole bytes.Buffer
	if err := (&Report{Stats: s}).WriteJSON(&whole); err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{0, 10, whole.Len() / 2, whole.Len() - 1} {
		if err := (&Report{Stats: s}).WriteJSON(&failingWriter{n: at}); !errors.Is(err, errWrite) {
			t.Errorf("writing fails after %d of %d bytes: %v, want %v", at, whole.Len(), err, errWrite)
		}
	}
}

// endlessRows is a document whose rows never end: row i is of sp i%960,
// and of a group of its own (Event "g<i>") when grouped.
type endlessRows struct {
	grouped bool
	i       int
	pending []byte
}

func (r *endlessRows) Read(p []byte) (int, error) {
	for len(r.pending) < len(p) {
		if r.i == 0 {
			r.pending = append(r.pending, `{"format":"frctool-stats/1","rows":[`...)
		} else {
			r.pending = append(r.pending, ',')
		}
		if r.grouped {
			r.pending = fmt.Appendf(r.pending, `{"Event":"g%d",`, r.i)
		} else {
			r.pending = append(r.pending, '{')
		}
		r.pending = fmt.Appendf(r.pending, `"sp":%d,"games":1,"draws":1,"sum_plies":40}`, r.i%960)
		r.i++
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// TestReadJSONEndless reads documents that never end: a merge holds one
// row at a time, so it stops at the first row it cannot take instead of
// holding the document.
func TestReadJSONEndless(t *testing.T) {
	tests := []struct {
		name    string
		grouped bool
		want    error
		wantMsg string
	}{
		{"a position again", false, ErrDuplicated, "sp 0, in rows 1 and 961"},
		{"groups without end", true, ErrTooManyGroups, fmt.Sprintf("row %d (sp %d): too many groups", MaxGroups+1, MaxGroups%960)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Stats
			_, err := s.ReadJSON(&endlessRows{grouped: tt.grouped})
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("ReadJSON = %v, want %v naming %q", err, tt.want, tt.wantMsg)
			}
		})
	}
}

// TestReadJSONKeyOrder reads documents whose keys come in another order
// than WriteJSON's, and documents whose grouping is inconsistent.
func TestReadJSONKeyOrder(t *testing.T) {
	const row = `{"Event":"a","sp":5,"games":1,"draws":1,"sum_plies":40}`
	const other = `{"Event":"b","sp":5,"games":2,"white_wins":2,"sum_plies":40}`
	tests := []struct {
		name    string
		doc     string
		groups  int   // groups read, when it is taken
		want    error // when it is refused
		wantMsg string
	}{
		{"group_by after the rows", `{"rows":[` + row + `,` + other + `],"format":"frctool-stats/1","group_by":["Event"]}`, 2, nil, ""},
		{"group_by before the rows", `{"group_by":["Event"],"format":"frctool-stats/1","rows":[` + row + `,` + other + `]}`, 2, nil, ""},
		{"format last", `{"group_by":["Event"],"rows":[` + row + `],"totals":{"games":1},"format":"frctool-stats/1"}`, 1, nil, ""},
		{"no rows", `{"group_by":["Event"],"format":"frctool-stats/1"}`, 0, nil, ""},
		{"rows null", `{"rows":null,"format":"frctool-stats/1"}`, 0, nil, ""},
		{"unknown keys skipped", `{"x":{"y":[1,{"z":null}]},"format":"frctool-stats/1","rows":[{"sp":5,"games":0,"sum_plies":0,"later":[1,2]}]}`, 0, nil, ""},
		{"grouped rows, no group_by", `{"rows":[` + row + `],"format":"frctool-stats/1"}`, 0, ErrNotStats, "group_by is nothing, and the rows are grouped by Event"},
		{"group_by disagrees", `{"rows":[` + row + `],"format":"frctool-stats/1","group_by":["Site"]}`, 0, ErrNotStats, "group_by is Site, and the rows are grouped by Event"},
		{"a row without the group value", `{"group_by":["Event"],"format":"frctool-stats/1","rows":[{"sp":5,"games":1,"draws":1,"sum_plies":40}]}`, 0, ErrNotStats, "no value of the group field Event"},
		// Keys that name nothing the rows are read for are passed over, and
		// a key given twice counts once, as when encoding/json reads a struct.
		{"a row with another group value", `{"group_by":["Event"],"format":"frctool-stats/1","rows":[{"Event":"a","Site":"b","sp":5,"games":1,"draws":1,"sum_plies":40}]}`, 1, nil, ""},
		{"a row's key twice", `{"format":"frctool-stats/1","rows":[{"sp":5,"sp":6,"games":0,"sum_plies":0}]}`, 0, nil, ""},
		{"a group value in ungrouped rows", `{"format":"frctool-stats/1","rows":[{"sp":5,"games":1,"draws":1,"sum_plies":40},` + row + `]}`, 0, ErrDuplicated, "sp 5, in rows 1 and 2"},
		{"a group field in other capitals", `{"format":"frctool-stats/1","group_by":["Rank"],"rows":[{"Rank":"r1","sp":5,"rank":"BBQNNRKR","games":1,"draws":1,"sum_plies":40}]}`, 1, nil, ""},
		{"a key twice", `{"format":"frctool-stats/1","rows":[],"rows":[]}`, 0, ErrNotStats, `the key "rows" is there twice`},
		{"a row without sp", `{"format":"frctool-stats/1","rows":[{"games":0,"sum_plies":0}]}`, 0, ErrNotStats, "a row has no sp"},
		{"a count not whole", `{"format":"frctool-stats/1","rows":[{"sp":5,"games":1.5,"sum_plies":0}]}`, 0, ErrNotStats, "games is number 1.5, not a whole number"},
		{"a count an object", `{"format":"frctool-stats/1","rows":[{"sp":5,"games":{},"sum_plies":0}]}`, 0, ErrNotStats, "games is object, not a whole number"},
		{"a count out of range", `{"format":"frctool-stats/1","rows":[{"sp":5,"games":99999999999999999999,"sum_plies":0}]}`, 0, ErrNotStats, "games is number 99999999999999999999, not a whole number"},
		{"sum_plies a string", `{"format":"frctool-stats/1","rows":[{"sp":5,"games":0,"sum_plies":"0"}]}`, 0, ErrNotStats, "sum_plies is string, not a whole number"},
		{"a group value an array", `{"format":"frctool-stats/1","group_by":["Event"],"rows":[{"sp":5,"Event":[],"games":0,"sum_plies":0}]}`, 0, ErrNotStats, "Event is neither a number, a string nor null"},
		{"rows an object", `{"format":"frctool-stats/1","rows":{}}`, 0, ErrNotStats, "the rows are not an array"},
		{"totals below 0", `{"format":"frctool-stats/1","rows":[],"totals":{"games":-5,"identified":-7}}`, 0, ErrNotStats, "totals: impossible totals: games -5, identified -7"},
		{"totals of more kinds than games", `{"format":"frctool-stats/1","rows":[],"totals":{"games":1,"identified":1,"unknown":1}}`, 0, ErrNotStats, "totals: impossible totals: games 1, identified 1, dfrc 0, other 0, unknown 1"},
		{"more games selected than read", `{"format":"frctool-stats/1","rows":[],"totals":{"games":1,"identified":1,"selected":2}}`, 0, ErrNotStats, "totals: 2 games selected of 1"},
		{"totals of an older document, kinds left out", `{"format":"frctool-stats/1","rows":[],"totals":{"games":3,"identified":1}}`, 0, nil, ""},
		{"not an object", `[]`, 0, ErrNotStats, "want {, found ["},
		{"empty", ``, 0, ErrNotStats, "empty input"},
		{"sp of many digits", `{"format":"frctool-stats/1","rows":[{"sp":` + strings.Repeat("9", 100) + `,"games":0,"sum_plies":0}]}`, 0, ErrNotStats, "row 1 has sp " + strings.Repeat("9", 64) + "... (100 digits)"},
		{"a long key twice", `{"format":"frctool-stats/1","` + strings.Repeat("k", 100) + `":1,"` + strings.Repeat("k", 100) + `":1}`, 0, ErrNotStats, `the key "` + strings.Repeat("k", 64) + `"... (100 bytes) is there twice`},
		{"blank", "\n \n", 0, ErrNotStats, "empty input"},
		{"cut in the rows", `{"format":"frctool-stats/1","rows":[`, 0, ErrNotStats, "unexpected EOF"},
		{"cut in a row", `{"format":"frctool-stats/1","rows":[{"sp":5,"ga`, 0, ErrNotStats, "unexpected EOF"},
		{"cut after the rows", `{"format":"frctool-stats/1","rows":[]`, 0, ErrNotStats, "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Stats
			_, err := s.ReadJSON(strings.NewReader(tt.doc))
			if tt.want != nil {
				if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.wantMsg) {
					t.Errorf("ReadJSON = %v, want %v naming %q", err, tt.want, tt.wantMsg)
				}
				if n := strings.Count(err.Error(), ErrNotStats.Error()); n > 1 {
					t.Errorf("%v says what it is %d times", err, n)
				}
				if s.Totals != (Stats{}).Totals || len(s.groups) != 0 {
					t.Errorf("a refused document changed the counts")
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadJSON = %v", err)
			}
			if len(s.groups) != tt.groups {
				t.Errorf("%d groups, want %d", len(s.groups), tt.groups)
			}
		})
	}
}

// TestReadJSONGroupFieldLikeAColumn reads a document grouped by a tag whose
// name is a column's in other capitals: encoding/json matches names
// regardless of case, and the column's value must not become the group's.
func TestReadJSONGroupFieldLikeAColumn(t *testing.T) {
	for _, doc := range []string{
		`{"format":"frctool-stats/1","group_by":["Rank"],"rows":[{"Rank":"r1","sp":5,"rank":"BBQNNRKR","games":1,"draws":1,"sum_plies":40}]}`,
		`{"format":"frctool-stats/1","rows":[{"Rank":"r1","sp":5,"rank":"BBQNNRKR","games":1,"draws":1,"sum_plies":40}],"group_by":["Rank"]}`,
		`{"format":"frctool-stats/1","group_by":["Draw_Rate"],"rows":[{"Draw_Rate":"r1","sp":5,"draw_rate":1,"games":1,"draws":1,"sum_plies":40}]}`,
	} {
		var s Stats
		if _, err := s.ReadJSON(strings.NewReader(doc)); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if g := s.Groups(); len(g) != 1 || g[0].Values[0].Text != "r1" || g[0].Games() != 1 {
			t.Errorf("%s: groups %+v, want one of r1 with a game", doc, g)
		}
	}
}
