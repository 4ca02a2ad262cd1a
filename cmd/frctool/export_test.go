package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
)

const exportFixture = "../../testdata/dialects.pgn"

func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		out  string // the -o file to read, "" for stdout
		// check reads the output: the header or first object's keys and
		// the number of rows.
		format  string
		columns string
		rows    int
	}{
		{"csv to stdout by default", []string{"export", exportFixture}, "", "csv", "file,index,offset,line,kind,sp", 16},
		{"format from -o: jsonl", []string{"export", "-o", filepath.Join(dir, "a.jsonl"), exportFixture}, "a.jsonl", "jsonl", "file,index,offset,line,kind,sp", 16},
		{"csv.gz compressed", []string{"export", "-o", filepath.Join(dir, "a.csv.gz"), exportFixture}, "a.csv.gz", "csv", "file,index", 16},
		{"jsonl.zst compressed", []string{"export", "-o", filepath.Join(dir, "a.jsonl.zst"), exportFixture}, "a.jsonl.zst", "jsonl", "file,index", 16},
		{"parquet from -o", []string{"export", "-o", filepath.Join(dir, "a.parquet"), exportFixture}, "a.parquet", "parquet", "file,index,offset,line,kind,sp", 16},
		{"--format beats the name", []string{"export", "--format", "jsonl", "-o", filepath.Join(dir, "b.csv"), exportFixture}, "b.csv", "jsonl", "file,index", 16},
		{"columns chosen", []string{"export", "--columns", "sp, white,result", exportFixture}, "", "csv", "sp,white,result", 16},
		{"tags and moves", []string{"export", "--format", "jsonl", "--columns", "index,variant,moves", "--tags", "Variant", "--moves", "2", exportFixture}, "", "jsonl", "index,variant,moves", 16},
		{"all tags in parquet", []string{"export", "--tags", "all", "--replay", "-o", filepath.Join(dir, "t.parquet"), exportFixture}, "t.parquet", "parquet", "file,index", 16},
		{"where selects", []string{"export", "--where", "kind = dfrc", exportFixture}, "", "csv", "file,index", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := frctool(t, "", tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stderr, "frctool: export: 16 games") {
				t.Errorf("summary: %q", stderr)
			}
			data := []byte(stdout)
			if tc.out != "" {
				var err error
				if data, err = os.ReadFile(filepath.Join(dir, tc.out)); err != nil {
					t.Fatal(err)
				}
				data = exportDecompress(t, tc.out, data)
			}
			cols, rows := exportOutline(t, data, tc.format)
			if !strings.HasPrefix(strings.Join(cols, ","), tc.columns) || rows != tc.rows {
				t.Errorf("columns %v, %d rows; want %s..., %d rows", cols, rows, tc.columns, tc.rows)
			}
		})
	}
}

// exportDecompress undoes the compression a name asks for.
func exportDecompress(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	var r io.Reader
	switch {
	case strings.HasSuffix(name, ".gz"):
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case strings.HasSuffix(name, ".zst"):
		zr, err := zstd.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		r = zr
	default:
		return data
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// exportOutline returns an export's column names and number of rows.
func exportOutline(t *testing.T, data []byte, format string) ([]string, int) {
	t.Helper()
	switch format {
	case "csv":
		recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return recs[0], len(recs) - 1
	case "jsonl":
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		// The keys of the first object, in their order.
		d := json.NewDecoder(strings.NewReader(lines[0]))
		var keys []string
		d.Token()
		for d.More() {
			k, _ := d.Token()
			keys = append(keys, k.(string))
			var v json.RawMessage
			d.Decode(&v)
		}
		return keys, len(lines)
	}
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, field := range f.Schema().Fields() {
		names = append(names, field.Name())
	}
	return names, int(f.NumRows())
}

func TestExportUsage(t *testing.T) {
	dir := t.TempDir()
	runCases(t, []runCase{
		{name: "unknown column lists the columns", args: []string{"export", "--columns", "sp,nope", exportFixture},
			errHas: `--columns: unknown column "nope"; the columns are file, index`, exitCode: 2},
		{name: "all tags not in csv", args: []string{"export", "--tags", "all", exportFixture},
			errHas: "--tags all: CSV cannot hold a map", exitCode: 2},
		{name: "moves column without --moves", args: []string{"export", "--columns", "index,moves", exportFixture},
			errHas: "give --moves N", exitCode: 2},
		{name: "tag already a column", args: []string{"export", "--tags", "Event", exportFixture},
			errHas: "the tag Event is the column event: choose that column instead", exitCode: 2},
		{name: "unknown format", args: []string{"export", "--format", "xml", exportFixture},
			errHas: "--format: unknown format", exitCode: 2},
		{name: "unknown extension", args: []string{"export", "-o", filepath.Join(dir, "x.txt"), exportFixture},
			errHas: "give --format", exitCode: 2},
		{name: "parquet is not compressed again", args: []string{"export", "-o", filepath.Join(dir, "x.parquet.zst"), exportFixture},
			errHas: "name the file .parquet", exitCode: 2},
		{name: "negative moves", args: []string{"export", "--moves", "-1", exportFixture},
			errHas: "--moves must be 0 or more", exitCode: 2},
		{name: "output is the input", args: []string{"export", "-o", exportFixture, "--format", "csv", exportFixture},
			errHas: "is both an input and an output", exitCode: 2},
	})
	if _, err := os.Stat(filepath.Join(dir, "x.parquet.zst")); err == nil {
		t.Error("a refused output was created")
	}
}

// TestExportJobs holds that the rows and their bytes do not depend on the
// number of jobs.
func TestExportJobs(t *testing.T) {
	in, err := os.ReadFile(exportFixture)
	if err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(t.TempDir(), "big.pgn")
	if err := os.WriteFile(big, bytes.Repeat(in, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"csv", "jsonl", "parquet"} {
		t.Run(format, func(t *testing.T) {
			one, stderr, code := frctool(t, "", "export", "-q", "-j", "1", "--replay", "--format", format, big)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			two, _, _ := frctool(t, "", "export", "-q", "-j", "2", "--replay", "--format", format, big)
			if one != two || len(one) == 0 {
				t.Errorf("jobs 1 and 2 differ (%d and %d bytes)", len(one), len(two))
			}
		})
	}
}

// TestExportDayTheMonthLacks: a Date tag naming a day its month does not
// have is no date: the typed column is empty, where it was the day after
// (2023.02.29 became 2023-03-01), and the text is kept as written.
func TestExportDayTheMonthLacks(t *testing.T) {
	const game = "[Event \"e\"]\n[Date \"2023.02.29\"]\n[Result \"*\"]\n\n*\n\n[Event \"f\"]\n[Date \"2024.02.29\"]\n[Result \"*\"]\n\n*\n"
	out, stderr, code := frctool(t, game, "export", "-q", "--columns", "event,date,date_text")
	if want := "event,date,date_text\ne,,2023.02.29\nf,2024-02-29,2024.02.29\n"; code != 0 || out != want {
		t.Errorf("exit %d (%s), output:\n%s\nwant:\n%s", code, stderr, out, want)
	}
}
