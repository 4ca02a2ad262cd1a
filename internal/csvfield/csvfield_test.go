package csvfield

import (
	"bytes"
	"encoding/csv"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAppendIsEncodingCSV holds Append to encoding/csv's Writer on named
// cases and on random fields made of the bytes that matter.
func TestAppendIsEncodingCSV(t *testing.T) {
	fields := []string{"", "plain", "a,b", `say "hi"`, "two\nlines", "cr\r", " leading blank", "\tleading tab",
		"trailing blank ", `\.`, `\.x`, "\u00a0non-breaking", "Müller", "\u3000ideographic space",
		"\vvertical tab", "\fform feed", "\u0085next line", "\x85lone byte", "\x00nul", "~tilde"}
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "a ,\"\r\n\t\v\f\\.\xc2\xa0\x85é"
	for range 5000 {
		b := make([]byte, rng.IntN(8))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		fields = append(fields, string(b))
	}
	for _, f := range fields {
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		if err := w.Write([]string{f}); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if got := string(Append(nil, []byte(f))) + "\n"; got != want.String() {
			t.Errorf("Append(%q) = %q, encoding/csv writes %q", f, got, want.String())
		}
	}
}

// BenchmarkAppend appends the cells of export's rows: numbers, names,
// dates, FENs and the odd field that needs quotes.
//
//	go test ./internal/csvfield -run '^$' -bench Append
func BenchmarkAppend(b *testing.B) {
	fields := [][]byte{[]byte("518"), []byte("Rated Chess960 game"), []byte("https://lichess.org/Es3kY6Gn"),
		[]byte("molobittal269"), []byte("2015.06.22"), []byte("bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1"),
		[]byte("1-0"), []byte("Müller"), []byte(`Kasparov, "Garry"`), []byte("600+5")}
	n := 0
	for _, f := range fields {
		n += len(f)
	}
	b.SetBytes(int64(n))
	var row []byte
	for b.Loop() {
		row = row[:0]
		for _, f := range fields {
			row = Append(row, f)
		}
	}
}

func TestEndRecord(t *testing.T) {
	for _, tt := range []struct {
		name  string
		dst   string
		start int
		want  string
	}{
		{"one empty field", "", 0, "\"\"\n"},
		{"one empty field after a record", "a,b\n", 4, "a,b\n\"\"\n"},
		{"one field", "x", 0, "x\n"},
		{"two empty fields", ",", 0, ",\n"},
		{"a quoted empty field", `""`, 0, "\"\"\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(EndRecord([]byte(tt.dst), tt.start))
			if got != tt.want {
				t.Errorf("EndRecord(%q, %d) = %q, want %q", tt.dst, tt.start, got, tt.want)
			}
			cr := csv.NewReader(strings.NewReader(got))
			cr.FieldsPerRecord = -1
			recs, err := cr.ReadAll()
			if err != nil || len(recs) != strings.Count(tt.want, "\n") {
				t.Errorf("read back %q (%v): a record lost", recs, err)
			}
		})
	}
}
