package export

import (
	"bytes"
	"flag"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/frctool/frctool/pipeline"
)

// FuzzFormatsAgree exports any archive as CSV, JSON Lines and Parquet (see
// formatsToCompare), with tags and the replay's columns: the formats must
// read back to the same rows (CSV, which has no null, with empty text for
// null), one worker must write the bytes of two, and the text formats must
// be UTF-8, whatever the archive's bytes.
func FuzzFormatsAgree(f *testing.F) {
	f.Add([]byte("[Event \"M\xfcnchen\"]\n[WhiteElo \"2400\"]\n[Date \"2024.05.??\"]\n\n1. e4 e5 2. Qh5 *\n\n[FEN \"?\"]\n\n1-0\n"))
	f.Add([]byte("[Event \"\"]\r\n[TimeControl \"180+2\"]\r\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\r\n\r\n1. O-O *"))
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := Options{Replay: true, Moves: 4, Tags: []string{"WhiteFideId", "Annotator"}}
		rows := map[Format][]map[string]string{}
		for _, format := range formatsToCompare() {
			one, _ := exportBytes(t, data, format, opts, pipeline.Options{Jobs: 1})
			two, _ := exportBytes(t, data, format, opts, pipeline.Options{Jobs: 2})
			if !bytes.Equal(one, two) {
				t.Fatalf("%v: one worker and two wrote different bytes", format)
			}
			if format != Parquet && !utf8.Valid(one) {
				t.Fatalf("%v: not UTF-8: %q", format, one)
			}
			rows[format] = readBack(t, one, format)
		}
		// The formats' columns differ a little by design (Parquet adds
		// date_text beside its DATE): the columns two have are compared.
		agree := func(a, b Format, same func(x, y string) bool) {
			if len(rows[a]) != len(rows[b]) {
				t.Fatalf("%d %v rows, %d %v rows", len(rows[a]), a, len(rows[b]), b)
			}
			for i := range rows[a] {
				for k, v := range rows[a][i] {
					if w, ok := rows[b][i][k]; ok && !same(v, w) {
						t.Fatalf("row %d, %s: %v %q, %v %q", i+1, k, a, v, b, w)
					}
				}
			}
		}
		if rows[Parquet] != nil {
			agree(JSONL, Parquet, func(x, y string) bool { return x == y })
		}
		agree(CSV, JSONL, func(x, y string) bool {
			return x == y || x == null && y == "" || sameNumber(x, y)
		})
	})
}

// sameNumber reports whether two texts are one number written two ways.
func sameNumber(a, b string) bool {
	var x, y float64
	_, errA := fmt.Sscan(a, &x)
	_, errB := fmt.Sscan(b, &y)
	return errA == nil && errB == nil && x == y
}

// formatsToCompare are CSV and JSON Lines, and Parquet too when the corpus
// runs as a test: fuzzing with Parquet ran about 45 inputs a second on
// one worker, against about 1,000 without it, too few to explore. (The
// engine's progress line may show 0/sec for long spells while it runs:
// it counts a worker's inputs only when the worker reports back.)
func formatsToCompare() []Format {
	if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" {
		return []Format{CSV, JSONL}
	}
	return []Format{CSV, JSONL, Parquet}
}
