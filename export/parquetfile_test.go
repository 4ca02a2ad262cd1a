package export

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// chunkOf returns the metadata of column name in every row group.
func chunksOf(t *testing.T, f *parquet.File, name string) []format.ColumnMetaData {
	t.Helper()
	var mds []format.ColumnMetaData
	for _, rg := range f.Metadata().RowGroups {
		for _, c := range rg.Columns {
			if strings.Join(c.MetaData.PathInSchema, ".") == name {
				mds = append(mds, c.MetaData)
			}
		}
	}
	if len(mds) != len(f.Metadata().RowGroups) {
		t.Fatalf("column %s is in %d of %d row groups", name, len(mds), len(f.Metadata().RowGroups))
	}
	return mds
}

// TestDictionaries holds that a string column is written with a
// dictionary while it has few distinct values, and without one, for the
// rest of the file, once a row group has too many; the values read back
// the same either way.
func TestDictionaries(t *testing.T) {
	defer func(n int, b int64) { maxDictValues, rowGroupBytes = n, b }(maxDictValues, rowGroupBytes)
	// Row groups of about 50 rows, dictionaries of at most 20 values.
	maxDictValues, rowGroupBytes = 20, 2500
	var in strings.Builder
	const games = 300
	for i := range games {
		// event takes 3 values, white one a game.
		fmt.Fprintf(&in, "[Event \"e%d\"]\n[White \"w%d\"]\n[Result \"*\"]\n\n*\n\n", i%3, i)
	}
	out, _ := exportBytes(t, []byte(in.String()), Parquet, Options{Columns: []string{"index", "event", "white", "round"}}, pipeline.Options{Jobs: 2})
	f, err := parquet.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.RowGroups()); n < 4 {
		t.Errorf("%d row groups, want several", n)
	}
	rows := readParquet(t, out)
	if len(rows) != games {
		t.Fatalf("%d rows, want %d", len(rows), games)
	}
	for i, r := range rows {
		want := map[string]string{"index": strconv.Itoa(i + 1), "event": fmt.Sprintf("e%d", i%3), "white": fmt.Sprintf("w%d", i), "round": null}
		for k, v := range want {
			if r[k] != v {
				t.Fatalf("row %d: %s = %q, want %q", i+1, k, r[k], v)
			}
		}
	}
	tests := []struct {
		column string
		dict   bool
	}{
		{"event", true},
		{"white", false},
		{"round", false}, // all null: nothing to put in a dictionary
	}
	for _, tc := range tests {
		t.Run(tc.column, func(t *testing.T) {
			for i, md := range chunksOf(t, f, tc.column) {
				dict := slices.Contains(md.Encoding, format.RLEDictionary)
				if dict != tc.dict || (md.DictionaryPageOffset != 0) != tc.dict {
					t.Errorf("row group %d: encodings %v, dictionary page at %d; want a dictionary: %v", i, md.Encoding, md.DictionaryPageOffset, tc.dict)
				}
			}
		})
	}
}

// TestStatistics holds the column chunks' statistics: the null count
// always, the least and greatest value of numbers, dates and dictionary
// strings.
func TestStatistics(t *testing.T) {
	var in strings.Builder
	for i := range 250 {
		date := ""
		if i%2 == 0 {
			date = fmt.Sprintf("[Date \"2024.01.%02d\"]\n", i%28+1)
		}
		fmt.Fprintf(&in, "[Event \"e%d\"]\n%s[WhiteElo \"%d\"]\n[TimeControl \"%d+0\"]\n[Result \"*\"]\n\n*\n\n", i%4, date, 1000+i, 60+i)
	}
	out, _ := exportBytes(t, []byte(in.String()), Parquet, Options{Columns: []string{"index", "event", "date", "white_elo", "base_seconds", "white"}}, pipeline.Options{Jobs: 1})
	f, err := parquet.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	i64 := func(n int64) string { return strconv.FormatInt(n, 10) }
	le := binary.LittleEndian
	tests := []struct {
		column           string
		nulls            int64
		min, max         string
		decode           func([]byte) string
		withoutMinAndMax bool
	}{
		{column: "index", min: "1", max: "250", decode: func(b []byte) string { return i64(int64(le.Uint64(b))) }},
		{column: "event", min: "e0", max: "e3", decode: func(b []byte) string { return string(b) }},
		{column: "date", nulls: 125, min: "19723", max: "19749", decode: func(b []byte) string { return i64(int64(int32(le.Uint32(b)))) }},
		{column: "white_elo", min: "1000", max: "1249", decode: func(b []byte) string { return i64(int64(int32(le.Uint32(b)))) }},
		{column: "base_seconds", min: "60", max: "309", decode: func(b []byte) string {
			return strconv.FormatFloat(math.Float64frombits(le.Uint64(b)), 'f', -1, 64)
		}},
		{column: "white", nulls: 250, withoutMinAndMax: true},
	}
	for _, tc := range tests {
		t.Run(tc.column, func(t *testing.T) {
			md := chunksOf(t, f, tc.column)[0]
			s := md.Statistics
			if s.NullCount != tc.nulls {
				t.Errorf("null count %d, want %d", s.NullCount, tc.nulls)
			}
			if tc.withoutMinAndMax {
				if s.MinValue != nil || s.MaxValue != nil {
					t.Errorf("min %v, max %v, want none", s.MinValue, s.MaxValue)
				}
				return
			}
			if got := tc.decode(s.MinValue); got != tc.min {
				t.Errorf("min %s, want %s", got, tc.min)
			}
			if got := tc.decode(s.MaxValue); got != tc.max {
				t.Errorf("max %s, want %s", got, tc.max)
			}
		})
	}
	if n := len(f.Metadata().ColumnOrders); n != 6 {
		t.Errorf("%d column orders, want 6", n)
	}
}

// TestEmptyParquet holds that an export of no games is a Parquet file
// of no rows, with its schema.
func TestEmptyParquet(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"no input", ""},
		{"only blank text", "\n\n  \n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, w := exportBytes(t, []byte(tc.in), Parquet, Options{}, pipeline.Options{Jobs: 1})
			f, err := parquet.OpenFile(bytes.NewReader(out), int64(len(out)))
			if err != nil {
				t.Fatal(err)
			}
			if f.NumRows() != 0 || w.Rows() != 0 || len(f.RowGroups()) != 0 {
				t.Errorf("%d rows, %d row groups", f.NumRows(), len(f.RowGroups()))
			}
			cols, _ := Columns(Parquet, Options{})
			if n := len(f.Schema().Fields()); n != len(cols) {
				t.Errorf("%d fields, want %d", n, len(cols))
			}
		})
	}
}

// TestDictionarySample holds that a column whose first values are
// nearly all distinct gives its dictionary up early, whatever the bounds,
// and that one whose values repeat keeps it.
func TestDictionarySample(t *testing.T) {
	var in strings.Builder
	const games = 2 * sampleValues
	for i := range games {
		fmt.Fprintf(&in, "[Event \"e%d\"]\n[White \"w%d\"]\n[PlyCount \"%d\"]\n[BlackElo \"%d\"]\n[Result \"*\"]\n\n*\n\n", i%7, i, i, 1000+i%50)
	}
	out, _ := exportBytes(t, []byte(in.String()), Parquet, Options{Columns: []string{"event", "white", "plies", "black_elo"}}, pipeline.Options{Jobs: 1})
	f, err := parquet.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		column string
		dict   bool
	}{
		{"event", true},
		{"white", false},
		{"plies", false},
		{"black_elo", true},
	}
	for _, tc := range tests {
		t.Run(tc.column, func(t *testing.T) {
			md := chunksOf(t, f, tc.column)[0]
			if dict := slices.Contains(md.Encoding, format.RLEDictionary); dict != tc.dict {
				t.Errorf("encodings %v; want a dictionary: %v", md.Encoding, tc.dict)
			}
		})
	}
	rows := readParquet(t, out)
	for _, i := range []int{0, sampleValues - 1, sampleValues, games - 1} {
		if r := rows[i]; r["white"] != fmt.Sprintf("w%d", i) || r["plies"] != strconv.Itoa(i) || r["black_elo"] != strconv.Itoa(1000+i%50) {
			t.Errorf("row %d: %v", i+1, r)
		}
	}
}

// TestDecodeCorrupt holds that a row whose binary form is misread is an
// error, not a crash: it would be a bug of the worker that wrote it.
func TestDecodeCorrupt(t *testing.T) {
	cols, err := Columns(Parquet, Options{Columns: []string{"index", "white", "sp"}})
	if err != nil {
		t.Fatal(err)
	}
	good := []byte{1, 7, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 'a', 'b', 0}
	tests := []struct {
		name string
		row  []byte
		ok   bool
	}{
		{"well formed", good, true},
		{"empty", nil, false},
		{"a column short", good[:len(good)-1], false},
		{"a string past the end", []byte{1, 7, 0, 0, 0, 0, 0, 0, 0, 1, 9, 0, 0, 0, 'a', 'b', 0}, false},
		{"bytes left over", append(append([]byte{}, good...), 0), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := newParquetWriter(io.Discard, cols)
			if err != nil {
				t.Fatal(err)
			}
			err = p.addRows([][]byte{tc.row})
			if tc.ok != (err == nil) || (err != nil && !errors.Is(err, errCorrupt)) {
				t.Errorf("error %v, want one: %v", err, !tc.ok)
			}
		})
	}
}

// stopWriter records its writes and fails the test on any made after
// stop.
type stopWriter struct {
	t       *testing.T
	mu      sync.Mutex
	n       int
	stopped bool
}

func (w *stopWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		w.t.Error("a write after Run returned")
	}
	w.n += len(b)
	return len(b), nil
}

// smallGroups makes row groups of 4 KB for the test, and returns 20,000
// games that make many of them.
func smallGroups(t *testing.T) []byte {
	old := rowGroupBytes
	t.Cleanup(func() { rowGroupBytes = old })
	rowGroupBytes = 4 << 10
	game := []byte("[Event \"e\"]\n[White \"" + strings.Repeat("w", 200) + "\"]\n[Result \"*\"]\n\n*\n\n")
	return bytes.Repeat(game, 20000)
}

// TestParquetCanceled holds that a Parquet export stopped half way does
// not write once Run has returned, though a row group was being written.
func TestParquetCanceled(t *testing.T) {
	in := smallGroups(t)
	for _, jobs := range []int{1, 2} {
		t.Run(fmt.Sprintf("jobs %d", jobs), func(t *testing.T) {
			out := &stopWriter{t: t}
			w, err := NewWriter(out, Parquet, Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			batches := 0
			progress := func(int) {
				if batches++; batches == 3 {
					cancel()
				}
			}
			err = w.Run(ctx, pgn.NewReader(bytes.NewReader(in)), "in.pgn", pipeline.Options{Jobs: jobs, Progress: progress})
			out.mu.Lock()
			out.stopped = true
			out.mu.Unlock()
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Run: %v, want context.Canceled", err)
			}
			if out.n == 0 {
				t.Error("no row group was written before the stop")
			}
			time.Sleep(50 * time.Millisecond)
		})
	}
}

// TestSchemaOfFile holds the schema the writer puts in a file to the one
// Schema describes, for the columns of several choices.
func TestSchemaOfFile(t *testing.T) {
	in, err := os.ReadFile("testdata/hand.pgn")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts Options
	}{
		{"default", Options{}},
		{"tags, all tags, replay, moves", Options{Tags: []string{"WhiteFideId", "Variant"}, AllTags: true, Replay: true, Moves: 3}},
		{"chosen columns", Options{Columns: []string{"valid", "tags", "date", "base_seconds", "index"}, AllTags: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, w := exportBytes(t, in, Parquet, tc.opts, pipeline.Options{Jobs: 1})
			f, err := parquet.OpenFile(bytes.NewReader(out), int64(len(out)))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := f.Schema().String(), Schema(w.Columns()).String(); got != want {
				t.Errorf("the file's schema:\n%s\nSchema:\n%s", got, want)
			}
		})
	}
}

// panicAfter passes on its first n bytes and panics on the write that
// would go past them.
type panicAfter struct{ n int }

func (w *panicAfter) Write(b []byte) (int, error) {
	if len(b) > w.n {
		panicWriting()
	}
	w.n -= len(b)
	return len(b), nil
}

// panicWriting panics: a function of its own, so that the stack names it.
func panicWriting() { panic("parquet output exploded") }

// TestParquetPanic holds that a panic while a row group is written, on the
// goroutine that writes it, comes out of Run on the calling goroutine as a
// pipeline.PanicError with the stack where it happened, rather than
// ending the program there.
func TestParquetPanic(t *testing.T) {
	in := smallGroups(t)
	for _, jobs := range []int{1, 2} {
		t.Run(fmt.Sprintf("jobs %d", jobs), func(t *testing.T) {
			w, err := NewWriter(&panicAfter{n: 64 << 10}, Parquet, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var v any
			func() {
				defer func() { v = recover() }()
				err = w.Run(context.Background(), pgn.NewReader(bytes.NewReader(in)), "in.pgn", pipeline.Options{Jobs: jobs})
				t.Fatalf("Run returned %v, want a panic", err)
			}()
			p, ok := v.(*pipeline.PanicError)
			if !ok {
				t.Fatalf("Run panicked with %T %v, want a *pipeline.PanicError", v, v)
			}
			if p.Value != "parquet output exploded" || !bytes.Contains(p.Stack, []byte("export.panicWriting(")) || !bytes.Contains(p.Stack, []byte("writeGroup(")) {
				t.Errorf("PanicError %v, stack:\n%s", p, p.Stack)
			}
		})
	}
}
