package stats

import (
	"bytes"
	"testing"
)

// FuzzReadJSON checks what ReadJSON promises whatever the document (a
// --merge input is a user's file): it never panics, and a document it
// takes is one the counts write again and read back to the same rows.
// The seed corpus is in testdata/fuzz/FuzzReadJSON; go test replays it.
func FuzzReadJSON(f *testing.F) {
	s, _ := count(f, readFixture(f), 1)
	var doc bytes.Buffer
	if err := (&Report{Stats: s, WithDFRC: true}).WriteJSON(&doc); err != nil {
		f.Fatal(err)
	}
	f.Add(doc.Bytes())
	f.Add([]byte(`{"format":"frctool-stats/1","totals":{"games":3},"rows":[{"sp":7,"games":3,"white_wins":3,"sum_plies":90}]}`))
	f.Add([]byte(`{"format":"frctool-stats/1","totals":{"games":2},"rows":[{"sp":7,"games":2,"draws":2,"sum_plies":9,"ply_games":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Stats
		if _, err := s.ReadJSON(bytes.NewReader(data)); err != nil {
			return
		}
		write := func(s *Stats) []byte {
			var b bytes.Buffer
			if err := (&Report{Stats: s, WithDFRC: true}).WriteJSON(&b); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}
		again := write(&s)
		var back Stats
		if _, err := back.ReadJSON(bytes.NewReader(again)); err != nil {
			t.Fatalf("a document written from one read is refused: %v\n%s", err, again)
		}
		if got := write(&back); !bytes.Equal(got, again) {
			t.Fatalf("read back, the document differs:\n%s\nwant\n%s", got, again)
		}
	})
}
