package csvfield

import (
	"bytes"
	"encoding/csv"
	"math/rand/v2"
	"testing"
)

// TestAppendIsEncodingCSV holds Append to encoding/csv's Writer on named
// cases and on random fields made of the bytes that matter.
func TestAppendIsEncodingCSV(t *testing.T) {
	fields := []string{"", "plain", "a,b", `say "hi"`, "two\nlines", "cr\r", " leading blank", "\tleading tab",
		"trailing blank ", `\.`, `\.x`, "\u00a0non-breaking", "Müller", "\u3000ideographic space"}
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "a ,\"\r\n\t\\.\xc2\xa0é"
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
