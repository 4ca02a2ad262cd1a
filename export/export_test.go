package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/internal/csvfield"
	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

// null is how the read-back rows spell a null value.
const null = "<null>"

// exportBytes exports in with the options and returns the output.
func exportBytes(t testing.TB, in []byte, f Format, opts Options, run pipeline.Options) ([]byte, *Writer) {
	t.Helper()
	var out bytes.Buffer
	w, err := NewWriter(&out, f, opts)
	if err != nil {
		t.Fatal(err)
	}
	r := pgn.NewReader(bytes.NewReader(in))
	r.Name = "in.pgn"
	if err := w.Run(context.Background(), r, "in.pgn", run); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), w
}

// readBack reads an export's rows in any format into text: numbers in
// decimal, dates in ISO, maps as name=value lines, null as null (CSV has
// no null: an empty field reads as null).
func readBack(t testing.TB, b []byte, f Format) []map[string]string {
	t.Helper()
	switch f {
	case CSV:
		recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var rows []map[string]string
		for _, rec := range recs[1:] {
			row := map[string]string{}
			for i, v := range rec {
				if v == "" {
					v = null
				}
				row[recs[0][i]] = v
			}
			rows = append(rows, row)
		}
		return rows
	case JSONL:
		var rows []map[string]string
		for line := range bytes.Lines(b) {
			d := json.NewDecoder(bytes.NewReader(line))
			d.UseNumber()
			var obj map[string]any
			if err := d.Decode(&obj); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			row := map[string]string{}
			for k, v := range obj {
				switch v := v.(type) {
				case nil:
					row[k] = null
				case map[string]any:
					var lines []string
					for name, val := range v {
						lines = append(lines, name+"="+val.(string))
					}
					slices.Sort(lines)
					row[k] = strings.Join(lines, "\n")
				default:
					row[k] = fmt.Sprint(v)
				}
			}
			rows = append(rows, row)
		}
		return rows
	}
	return readParquet(t, b)
}

// readParquet reads every row of a Parquet file as text, by the schema's
// leaf columns and their logical types.
func readParquet(t testing.TB, b []byte) []map[string]string {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	paths := f.Schema().Columns()
	leaves := map[int]parquet.Type{}
	for i, p := range paths {
		leaf, _ := f.Schema().Lookup(p...)
		leaves[i] = leaf.Node.Type()
	}
	var out []map[string]string
	for _, rg := range f.RowGroups() {
		rows := rg.Rows()
		buf := make([]parquet.Row, 64)
		for {
			n, err := rows.ReadRows(buf)
			for _, r := range buf[:n] {
				row := map[string]string{}
				keys := map[string][]string{}
				for _, v := range r {
					col := v.Column()
					name := paths[col][0]
					if len(paths[col]) > 1 { // the map's key and value
						if !v.IsNull() {
							keys[name] = append(keys[name], string(v.ByteArray()))
						}
						continue
					}
					if v.IsNull() {
						row[name] = null
						continue
					}
					lt := leaves[col].LogicalType()
					switch {
					case lt != nil && lt.String() == "DATE":
						row[name] = time.Unix(int64(v.Int32())*86400, 0).UTC().Format(time.DateOnly)
					case v.Kind() == parquet.ByteArray:
						row[name] = string(v.ByteArray())
					default:
						row[name] = v.String()
					}
				}
				for name, kv := range keys {
					// Keys come first, then the values, in one list.
					half := len(kv) / 2
					var lines []string
					for i := range half {
						lines = append(lines, kv[i]+"="+kv[half+i])
					}
					slices.Sort(lines)
					row[name] = strings.Join(lines, "\n")
				}
				out = append(out, row)
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
	}
	return out
}

var formats = []Format{CSV, JSONL, Parquet}

// dialectsTruth works out, without package startpos, the start of each
// game of testdata/dialects.pgn from its FEN tag: a board whose second
// and seventh ranks are pawns and whose middle is empty is a start
// array, identified by its back ranks through the numbering tables.
func dialectsTruth(t *testing.T, in []byte) []map[string]string {
	t.Helper()
	games, err := pgn.NewReader(bytes.NewReader(in)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var truth []map[string]string
	for _, g := range games {
		want := map[string]string{"index": strconv.Itoa(g.Index), "kind": "other", "sp": null, "white_sp": null, "black_sp": null}
		for _, tag := range []string{"Round", "White", "Black", "Result"} {
			// Latin-1 names are TestHandFixture's.
			if v, ok := g.Tag(tag); ok && utf8.Valid(v) {
				want[strings.ToLower(tag)] = string(v)
			}
		}
		board := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
		if v, ok := g.Tag("FEN"); ok {
			board, _, _ = strings.Cut(string(v), " ")
		}
		ranks := strings.Split(board, "/")
		if board == "?" {
			want["kind"] = "unknown"
		} else if len(ranks) == 8 && ranks[1] == "pppppppp" && ranks[6] == "PPPPPPPP" && ranks[2]+ranks[3]+ranks[4]+ranks[5] == "8888" {
			w, err1 := numbering.ParseRank(ranks[7])
			b, err2 := numbering.ParseRank(strings.ToUpper(ranks[0]))
			if err1 == nil && err2 == nil {
				want["white_sp"], want["black_sp"] = strconv.Itoa(w.SP()), strconv.Itoa(b.SP())
				want["white_rank"], want["black_rank"] = string(w[:]), string(b[:])
				if w == b {
					want["kind"], want["sp"] = "chess960", strconv.Itoa(w.SP())
				} else {
					want["kind"] = "dfrc"
				}
			}
		}
		truth = append(truth, want)
	}
	return truth
}

func TestDialects(t *testing.T) {
	in, err := os.ReadFile("../testdata/dialects.pgn")
	if err != nil {
		t.Fatal(err)
	}
	truth := dialectsTruth(t, in)
	if len(truth) != 16 {
		t.Fatalf("%d games in the fixture, want 16", len(truth))
	}
	for _, f := range formats {
		t.Run(f.String(), func(t *testing.T) {
			out, w := exportBytes(t, in, f, Options{}, pipeline.Options{Jobs: 1})
			rows := readBack(t, out, f)
			if len(rows) != len(truth) || w.Rows() != int64(len(truth)) {
				t.Fatalf("%d rows (Rows %d), want %d", len(rows), w.Rows(), len(truth))
			}
			for i, want := range truth {
				for k, v := range want {
					if got := rows[i][k]; got != v {
						t.Errorf("game %d: %s = %q, want %q", i+1, k, got, v)
					}
				}
				// offset and line point at the game's first tag.
				off, _ := strconv.Atoi(rows[i]["offset"])
				line, _ := strconv.Atoi(rows[i]["line"])
				if !bytes.HasPrefix(in[off:], []byte("[")) || bytes.Count(in[:off], []byte("\n"))+1 != line {
					t.Errorf("game %d: offset %d, line %d do not point at its first tag", i+1, off, line)
				}
			}
		})
	}
}

func TestHandFixture(t *testing.T) {
	in, err := os.ReadFile("testdata/hand.pgn")
	if err != nil {
		t.Fatal(err)
	}
	// What each game's row holds, written by hand from the fixture.
	want := []map[string]string{
		{"index": "1", "kind": "chess960", "sp": "518", "fritz9": "359", "white_rank": "RNBQKBNR", "fen": null,
			"event": "Rated Blitz game", "round": "-", "white": `O"Brien, Pat`, "black": " Lead, Space", "result": "1-0",
			"date": "2024-05-17", "white_elo": "2150", "black_elo": null, "white_title": "FM", "time_control": "180+2",
			"base_seconds": "180", "increment_seconds": "2", "speed": "blitz", "utc_date": "2024-05-17", "utc_time": "12:34:56",
			"eco": "C50", "opening": "Italian Game", "termination": "Normal", "plies": "8", "error": null,
			"white_fide_id": "12345", "valid": "true", "moves": "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1h1 g8f6",
			"final_fen": "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 6 5", "replay_error": null},
		{"index": "2", "kind": "dfrc", "sp": null, "fritz9": null, "white_sp": "518", "black_sp": "0", "white_rank": "RNBQKBNR", "black_rank": "BBQNNRKR",
			"event": `Correspondence, "DFRC"`, "white": "Müller", "black": "Zoë", "date": null, "date_text": "2024.??.??",
			"white_elo": "1990", "black_elo": "2001", "time_control": "-", "base_seconds": "0", "increment_seconds": "0", "speed": "correspondence",
			"plies": "3", "valid": "true", "moves": "d2d4 d7d5 g1f3"},
		{"index": "3", "kind": "unknown", "sp": null, "fen": "?", "valid": null, "moves": null, "final_fen": null,
			"error": `in.pgn:40: start position unknown: [FEN "?"]`},
		{"index": "4", "kind": "chess960", "sp": "342", "valid": "false", "moves": null, "final_fen": null,
			"replay_error": "in.pgn:51: game 4 (C - D), move 2.: illegal move 'Ra3': no rook can move to a3"},
		{"index": "5", "kind": "chess960", "sp": "517", "white_rank": "RNBBQKNR", "speed": "blitz", "base_seconds": "300",
			"valid": "true", "moves": "g1f3 g8f6 f1h1 f8h8"},
		{"index": "6", "kind": "other", "sp": null, "white_sp": null, "white_rank": null, "valid": "true", "moves": "f1b5 a7a6"},
	}
	opts := Options{Tags: []string{"WhiteFideId"}, Replay: true, Moves: 10}
	for _, f := range formats {
		t.Run(f.String(), func(t *testing.T) {
			o := opts
			if f != Parquet {
				// date_text is Parquet's by default; the others may ask for it.
				cols, _ := Columns(f, opts)
				for _, c := range cols {
					o.Columns = append(o.Columns, c.Name)
				}
				o.Columns = append(o.Columns, "date_text")
			}
			out, _ := exportBytes(t, in, f, o, pipeline.Options{Jobs: 1})
			rows := readBack(t, out, f)
			if len(rows) != len(want) {
				t.Fatalf("%d rows, want %d", len(rows), len(want))
			}
			for i := range want {
				for k, v := range want[i] {
					if got, ok := rows[i][k]; !ok || got != v {
						t.Errorf("game %d: %s = %q, want %q", i+1, k, got, v)
					}
				}
			}
		})
	}
}

// TestUnreadable holds that what cannot be read is a row of its own,
// kind unknown and its reason in error, and that what is not a game has
// none.
func TestUnreadable(t *testing.T) {
	big := "[Event \"big\"]\n[Result \"*\"]\n\n1. e4 {" + strings.Repeat("x", 3000) + "} *\n\n"
	tests := []struct {
		name    string
		in      string
		maxGame int
		want    []map[string]string
	}{
		{"text without tags", "1. e4 e5 *\n\n[Event \"e\"]\n[Result \"*\"]\n\n*\n",
			0, []map[string]string{
				{"index": "1", "kind": "unknown", "error": noTags, "line": "1"},
				{"index": "2", "kind": "chess960", "sp": "518", "error": null},
			}},
		{"blank text is no game", "\n\n   \n", 0, nil},
		{"FEN that is no position", "[Event \"f\"]\n[FEN \"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n*\n",
			0, []map[string]string{{"index": "1", "kind": "unknown", "sp": null}}},
		{"game too large: one row, its parts none", big + "[Event \"next\"]\n\n*\n",
			1024, []map[string]string{
				{"index": "1", "kind": "chess960", "event": "big"},
				{"kind": "chess960", "event": "next"},
			}},
		{"no result", "[Event \"t\"]\n\n1. e4", 0, []map[string]string{
			{"index": "1", "kind": "chess960", "error": "in.pgn:3: game has no result (truncated?)"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			w, err := NewWriter(&out, JSONL, Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := pgn.NewReader(strings.NewReader(tc.in))
			r.Name, r.MaxGameSize = "in.pgn", tc.maxGame
			if err := w.Run(context.Background(), r, "in.pgn", pipeline.Options{Jobs: 1}); err != nil {
				t.Fatal(err)
			}
			rows := readBack(t, out.Bytes(), JSONL)
			if len(rows) != len(tc.want) {
				t.Fatalf("%d rows, want %d:\n%s", len(rows), len(tc.want), out.String())
			}
			for i := range tc.want {
				for k, v := range tc.want[i] {
					if got := rows[i][k]; got != v {
						t.Errorf("row %d: %s = %q, want %q", i+1, k, got, v)
					}
				}
				if rows[i]["kind"] == "unknown" && rows[i]["error"] == null {
					t.Errorf("row %d: kind unknown without an error", i+1)
				}
			}
			if w.Tally().Games != int64(len(tc.want)) {
				t.Errorf("tally %d games, want %d", w.Tally().Games, len(tc.want))
			}
		})
	}
}

func TestCSVQuoting(t *testing.T) {
	tests := []struct{ name, field string }{
		{"plain", "Carlsen, Magnus"[9:]},
		{"comma", "Carlsen, Magnus"},
		{"quote", `O"Brien`},
		{"newline", "two\nlines"},
		{"carriage return", "a\rb"},
		{"leading space", " x"},
		{"leading tab", "\tx"},
		{"trailing space", "x "},
		{"backslash dot", `\.`},
		{"empty", ""},
		{"utf8", "Zoë"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want bytes.Buffer
			cw := csv.NewWriter(&want)
			cw.Write([]string{tc.field, "x"})
			cw.Flush()
			got := append(csvfield.Append(nil, []byte(tc.field)), ",x\n"...)
			if string(got) != want.String() {
				t.Errorf("%q, encoding/csv writes %q", got, want.String())
			}
			rec, err := csv.NewReader(bytes.NewReader(got)).Read()
			if err != nil || rec[0] != strings.ReplaceAll(tc.field, "\r", "\r") {
				t.Errorf("read back %q, %v", rec, err)
			}
		})
	}
}

func TestText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"utf8 unchanged", "Zoë", "Zoë"},
		{"latin1 read as latin1", "M\xfcller", "Müller"},
		{"mixed", "Zo\xc3\xab M\xfcller", "Zoë Müller"},
		{"truncated sequence", "a\xc3", "aÃ"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var scratch []byte
			if got := string(utf8Text(&scratch, []byte(tc.in))); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
			if got := string(appendJSONString(nil, []byte("a\"\\\n\x01"))); got != `"a\"\\\n\u0001"` {
				t.Errorf("JSON string %s", got)
			}
		})
	}
}

func TestParquetSchema(t *testing.T) {
	in, err := os.ReadFile("testdata/hand.pgn")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := exportBytes(t, in, Parquet, Options{Columns: []string{"index", "kind", "sp", "white_elo", "base_seconds", "date", "valid", "tags", "white"}, AllTags: true, Replay: true}, pipeline.Options{Jobs: 1})
	f, err := parquet.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	type elem struct {
		name     string
		physical string // "" for a group
		logical  string
		rep      format.FieldRepetitionType
	}
	want := []elem{
		{"game", "", "", format.Required},
		{"index", "INT64", "INT(64,true)", format.Required},
		{"kind", "BYTE_ARRAY", "STRING", format.Required},
		{"sp", "INT32", "INT(32,true)", format.Optional},
		{"white_elo", "INT32", "INT(32,true)", format.Optional},
		{"base_seconds", "DOUBLE", "", format.Optional},
		{"date", "INT32", "DATE", format.Optional},
		{"valid", "BOOLEAN", "", format.Optional},
		{"tags", "", "MAP", format.Required},
		{"key_value", "", "", format.Repeated},
		{"key", "BYTE_ARRAY", "STRING", format.Required},
		{"value", "BYTE_ARRAY", "STRING", format.Required},
		{"white", "BYTE_ARRAY", "STRING", format.Optional},
	}
	got := f.Metadata().Schema
	if len(got) != len(want) {
		t.Fatalf("%d schema elements, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		e := got[i]
		physical, logical := "", ""
		if typ, ok := e.Type.Get(); ok {
			physical = typ.String()
		}
		logical = e.LogicalType.String()
		rep := format.Required
		if r, ok := e.RepetitionType.Get(); ok {
			rep = r
		}
		if i == 0 {
			rep = format.Required // the root has none
		}
		if e.Name != w.name || physical != w.physical || !strings.HasPrefix(logical, w.logical) || (w.logical == "" && logical != "") || rep != w.rep {
			t.Errorf("element %d: %s %s %s %v, want %+v", i, e.Name, physical, logical, rep, w)
		}
	}
	if codec := f.Metadata().RowGroups[0].Columns[0].MetaData.Codec; codec != format.Zstd {
		t.Errorf("compressed with %v, want ZSTD", codec)
	}
	rows := readParquet(t, out)
	if rows[0]["tags"] == "" || !strings.Contains(rows[0]["tags"], "WhiteFideId=12345") || !strings.Contains(rows[1]["tags"], "White=Müller") {
		t.Errorf("tags map: %q, %q", rows[0]["tags"], rows[1]["tags"])
	}
}

// TestRowGroups holds that rows are written in groups of RowGroupSize as
// they fill, not kept to the end.
func TestRowGroups(t *testing.T) {
	game := []byte("[Event \"e\"]\n[Result \"*\"]\n\n*\n\n")
	in := bytes.Repeat(game, RowGroupSize+10)
	out, _ := exportBytes(t, in, Parquet, Options{Columns: []string{"index", "kind"}}, pipeline.Options{Jobs: 2})
	f, err := parquet.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for _, rg := range f.RowGroups() {
		sizes = append(sizes, rg.NumRows())
	}
	if !slices.Equal(sizes, []int64{RowGroupSize, 10}) {
		t.Errorf("row groups of %v rows, want [%d 10]", sizes, RowGroupSize)
	}
}

// TestRowGroupBytes holds that long rows end a row group early, so that
// its memory stays bounded.
func TestRowGroupBytes(t *testing.T) {
	defer func(n int64) { rowGroupBytes = n }(rowGroupBytes)
	rowGroupBytes = 16 << 10
	// Enough games for several of the runner's batches.
	game := []byte("[White \"" + strings.Repeat("w", 1000) + "\"]\n[Result \"*\"]\n\n*\n\n")
	in := bytes.Repeat(game, 2000)
	out, w := exportBytes(t, in, Parquet, Options{Columns: []string{"index", "white"}}, pipeline.Options{Jobs: 1})
	f, err := parquet.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	groups := f.RowGroups()
	if len(groups) < 2 || f.NumRows() != 2000 || w.Rows() != 2000 {
		t.Errorf("%d row groups, %d rows; want several groups, 2000 rows", len(groups), f.NumRows())
	}
	rows := readParquet(t, out)
	for i, r := range rows {
		if r["index"] != strconv.Itoa(i+1) {
			t.Fatalf("row %d has index %s", i+1, r["index"])
		}
	}
}

func TestJobsSameBytes(t *testing.T) {
	in, err := os.ReadFile("../testdata/dialects.pgn")
	if err != nil {
		t.Fatal(err)
	}
	hand, err := os.ReadFile("testdata/hand.pgn")
	if err != nil {
		t.Fatal(err)
	}
	// Enough input for several batches, so that two workers share it.
	many := bytes.Repeat(append(append([]byte{}, in...), hand...), 120)
	opts := Options{Tags: []string{"Variant"}, Replay: true, Moves: 4}
	for _, f := range formats {
		t.Run(f.String(), func(t *testing.T) {
			one, w1 := exportBytes(t, many, f, opts, pipeline.Options{Jobs: 1})
			two, w2 := exportBytes(t, many, f, opts, pipeline.Options{Jobs: 2})
			if !bytes.Equal(one, two) {
				t.Error("jobs 1 and jobs 2 give different bytes")
			}
			if w1.Rows() != 22*120 || w2.Rows() != w1.Rows() {
				t.Errorf("rows %d and %d, want %d", w1.Rows(), w2.Rows(), 22*120)
			}
		})
	}
}

func TestColumns(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		opts   Options
		want   []string // the first and last columns, or nil when an error is wanted
		err    error
	}{
		{"csv default", CSV, Options{}, []string{"file", "error"}, nil},
		{"parquet adds date_text", Parquet, Options{}, []string{"file", "error"}, nil},
		{"tags, replay and moves added in order", JSONL, Options{Tags: []string{"WhiteFideId"}, AllTags: true, Replay: true, Moves: 3}, []string{"file", "moves"}, nil},
		{"chosen", CSV, Options{Columns: []string{"sp", "white"}}, []string{"sp", "white"}, nil},
		{"unknown column", CSV, Options{Columns: []string{"sp", "spp"}}, nil, ErrUnknownColumn},
		{"twice", CSV, Options{Columns: []string{"sp", "sp"}}, nil, ErrColumn},
		{"map in csv", CSV, Options{AllTags: true}, nil, ErrColumn},
		{"moves without a count", JSONL, Options{Columns: []string{"moves"}}, nil, ErrColumn},
		{"tag that is a column", CSV, Options{Tags: []string{"Event"}}, nil, ErrColumn},
		{"two tags one name", CSV, Options{Tags: []string{"WhiteFideId", "WhiteFideID"}}, nil, ErrColumn},
		{"not a tag name", CSV, Options{Tags: []string{"a b"}}, nil, ErrColumn},
		{"tag column chosen", CSV, Options{Tags: []string{"PlyCount"}, Columns: []string{"ply_count", "index"}}, []string{"ply_count", "index"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cols, err := Columns(tc.format, tc.opts)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cols[0].Name != tc.want[0] || cols[len(cols)-1].Name != tc.want[1] {
				t.Errorf("columns %s .. %s, want %s .. %s", cols[0].Name, cols[len(cols)-1].Name, tc.want[0], tc.want[1])
			}
			hasDateText := slices.ContainsFunc(cols, func(c Column) bool { return c.Name == "date_text" })
			if tc.opts.Columns == nil && hasDateText != (tc.format == Parquet) {
				t.Errorf("date_text present: %v in %s", hasDateText, tc.format)
			}
		})
	}
	_, err := Columns(CSV, Options{Columns: []string{"nope"}})
	if err == nil || !strings.Contains(err.Error(), "white_elo") {
		t.Errorf("the unknown column's error does not list the columns: %v", err)
	}
}

func TestSnakeCase(t *testing.T) {
	tests := []struct{ tag, want string }{
		{"WhiteFideId", "white_fide_id"},
		{"UTCDate", "utc_date"},
		{"ECO", "eco"},
		{"PlyCount", "ply_count"},
		{"WhiteRatingDiff", "white_rating_diff"},
		{"Black2Elo", "black2_elo"},
		{"FEN", "fen"},
		{"Board-Number", "board_number"},
	}
	for _, tc := range tests {
		t.Run(tc.tag, func(t *testing.T) {
			if got := SnakeCase(tc.tag); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
}

func TestFormatOf(t *testing.T) {
	tests := []struct {
		name             string
		format           Format
		compressed, isOK bool
	}{
		{"games.csv", CSV, false, true},
		{"games.CSV.gz", CSV, true, true},
		{"dir.x/games.jsonl.zst", JSONL, true, true},
		{"games.parquet", Parquet, false, true},
		{"games.parquet.zst", Parquet, true, true},
		{"games.txt", 0, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, c, ok := FormatOf(tc.name)
			if f != tc.format || c != tc.compressed || ok != tc.isOK {
				t.Errorf("%v %v %v, want %v %v %v", f, c, ok, tc.format, tc.compressed, tc.isOK)
			}
		})
	}
}

// TestRealData exports the real archives and holds the rows to the games
// startpos.Classify counts, one row each with its SP.
func TestRealData(t *testing.T) {
	root := sharedtest.Path(t, "realdata")
	files, _ := filepath.Glob(filepath.Join(root, "*", "*.pgn"))
	if len(files) == 0 {
		t.Skip("no PGN files in the real data")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			in, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			games, err := pgn.NewReader(bytes.NewReader(in)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			var tally startpos.Tally
			var sps []string
			for i := range games {
				c := startpos.Classify(&games[i])
				tally.Add(&c, 0)
				if !c.Counted {
					continue
				}
				sp := null
				if n, ok := c.Start.SP(); ok {
					sp = strconv.Itoa(n)
				}
				sps = append(sps, sp)
			}
			out, w := exportBytes(t, in, Parquet, Options{}, pipeline.Options{Jobs: 2})
			rows := readParquet(t, out)
			if int64(len(rows)) != tally.Games || w.Rows() != tally.Games {
				t.Fatalf("%d rows, Rows %d, want %d games", len(rows), w.Rows(), tally.Games)
			}
			for i, row := range rows {
				if row["sp"] != sps[i] {
					t.Errorf("game %d: sp %s, startpos.Classify says %s", i+1, row["sp"], sps[i])
				}
			}
		})
	}
}

// BenchmarkRun exports generated archives of the two shapes frctool
// meets at the ends: lichess's short games with clock comments, and
// header-only games, where the per-row work shows most.
func BenchmarkRun(b *testing.B) {
	for _, shape := range []archivegen.Shape{archivegen.Lichess, archivegen.Headers} {
		in := archivegen.Bytes(archivegen.Options{Shape: shape, Seed: 1}, 16<<20)
		for _, f := range formats {
			b.Run(fmt.Sprintf("%v/%s", shape, f), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					w, err := NewWriter(io.Discard, f, Options{})
					if err != nil {
						b.Fatal(err)
					}
					if err := w.Run(context.Background(), pgn.NewReader(bytes.NewReader(in)), "in.pgn", pipeline.Options{Jobs: 1}); err != nil {
						b.Fatal(err)
					}
					if err := w.Close(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestFixedSlot holds the switch that finds a default tag's slot to the
// table of those tags.
func TestFixedSlot(t *testing.T) {
	for i, name := range fixedTags {
		if got := fixedSlot([]byte(name)); got != i {
			t.Errorf("%s: slot %d, want %d", name, got, i)
		}
	}
	for _, name := range []string{"", "event", "Whiteelo", "Variant", "EventDate"} {
		if got := fixedSlot([]byte(name)); got != -1 {
			t.Errorf("%q: slot %d, want none", name, got)
		}
	}
}

// TestLatin1Tags holds that a game whose tag section is not UTF-8 has
// its values written as UTF-8 all the same, in every format and in the
// map of all tags, while the games around it keep theirs as they are.
func TestLatin1Tags(t *testing.T) {
	in := "[Event \"Zoë's\"]\n[White \"Zoë\"]\n[Result \"*\"]\n\n*\n\n" +
		"[Event \"Open \xe0 Paris\"]\n[White \"M\xfcller\"]\n[Black \"Zoë\"]\n[Result \"*\"]\n\n*\n\n" +
		"[Event \"Zoë's\"]\n[White \"Ana\"]\n[Result \"*\"]\n\n*\n\n"
	want := []map[string]string{
		{"event": "Zoë's", "white": "Zoë", "black": null},
		{"event": "Open à Paris", "white": "Müller", "black": "Zoë"},
		{"event": "Zoë's", "white": "Ana", "black": null},
	}
	for _, f := range formats {
		t.Run(f.String(), func(t *testing.T) {
			opts := Options{Columns: []string{"event", "white", "black"}}
			if f != CSV {
				opts.Columns = append(opts.Columns, "tags")
				opts.AllTags = true
			}
			out, _ := exportBytes(t, []byte(in), f, opts, pipeline.Options{Jobs: 1})
			if f != Parquet && !utf8.Valid(out) {
				t.Errorf("the output is not UTF-8")
			}
			rows := readBack(t, out, f)
			if len(rows) != len(want) {
				t.Fatalf("%d rows, want %d", len(rows), len(want))
			}
			for i, w := range want {
				for k, v := range w {
					if rows[i][k] != v {
						t.Errorf("row %d: %s = %q, want %q", i+1, k, rows[i][k], v)
					}
				}
				if f != CSV && !strings.Contains(rows[i]["tags"], "White="+w["white"]) {
					t.Errorf("row %d: tags %q lack White=%s", i+1, rows[i]["tags"], w["white"])
				}
			}
		})
	}
}

// TestCSVOneColumn checks that a CSV of one column has a line for every
// game, also where the value is null or empty: a blank line would be
// skipped by encoding/csv (and pandas and DuckDB), and its row lost.
func TestCSVOneColumn(t *testing.T) {
	in := []byte("[Event \"\"]\n[WhiteElo \"2400\"]\n\n1. e4 *\n\n" + // an empty Event
		"[Event \"x\"]\n\n1. e4 *\n\n" + // no WhiteElo
		"[Event \"y\"]\n[WhiteElo \"?\"]\n\n1. e4 *\n\n")
	for _, tt := range []struct {
		column string
		want   string
	}{
		{"event", "event\n\"\"\nx\ny\n"},
		{"white_elo", "white_elo\n2400\n\"\"\n\"\"\n"},
	} {
		t.Run(tt.column, func(t *testing.T) {
			out, _ := exportBytes(t, in, CSV, Options{Columns: []string{tt.column}}, pipeline.Options{Jobs: 1})
			if string(out) != tt.want {
				t.Errorf("got %q, want %q", out, tt.want)
			}
			recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
			if err != nil || len(recs) != 4 {
				t.Errorf("read back %d records (%v), want the header and 3 rows", len(recs), err)
			}
		})
	}
}
