package tree

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// FuzzReadJSON checks what ReadJSON promises whatever the document: it
// never panics, and a document it takes is one the forest writes again
// and reads back to the same rows, also merged into itself. Documents
// are users' files (--merge), so they may list positions in any order,
// or positions no move reaches, which the trees then hold by their keys.
// The seed corpus is in testdata/fuzz/FuzzReadJSON; go test replays it.
func FuzzReadJSON(f *testing.F) {
	small, _ := build(f, readFixture(f), Options{Depth: 4}, 1)
	var doc bytes.Buffer
	if err := small.WriteJSON(&doc, WalkOptions{}); err != nil {
		f.Fatal(err)
	}
	f.Add(doc.Bytes())
	// The same, each tree's positions after the ones their moves reach.
	var d map[string]any
	if err := json.Unmarshal(doc.Bytes(), &d); err != nil {
		f.Fatal(err)
	}
	for _, tr := range d["trees"].([]any) {
		slices.Reverse(tr.(map[string]any)["nodes"].([]any))
	}
	turned, _ := json.Marshal(d)
	f.Add(turned)
	f.Add([]byte(`{"format":"frctool-tree/1","depth":2,"trees":[{"sp":518,"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","nodes":[{"fen":"4k3/p7/8/8/8/8/7P/4K3 b - - 0 1","games":1,"white_wins":1,"moves":[{"uci":"a7a6","games":1,"white_wins":1}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows := func(f *Forest) string {
			var b strings.Builder
			if err := f.WriteCSV(&b, WalkOptions{}); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		f, err := NewForest(Options{})
		if err != nil {
			t.Fatal(err)
		}
		if f.ReadJSON(bytes.NewReader(data)) != nil {
			return
		}
		want := rows(f)
		var again bytes.Buffer
		if err := f.WriteJSON(&again, WalkOptions{}); err != nil {
			t.Fatal(err)
		}
		back, err := NewForest(Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := back.ReadJSON(bytes.NewReader(again.Bytes())); err != nil {
			t.Fatalf("a document written from one read is refused: %v", err)
		}
		if got := rows(back); got != want {
			t.Fatalf("rows read back differ:\n%s\nwant\n%s", got, want)
		}
		// Merged into itself, the trees keep their positions. (Positions
		// no move reaches are not written, so back may hold fewer than f.)
		n := back.Len()
		if err := back.ReadJSON(bytes.NewReader(again.Bytes())); err != nil {
			t.Fatalf("merging a document into its own trees: %v", err)
		}
		if back.Len() != n || n > f.Len() {
			t.Fatalf("%d positions after merging into itself, %d before, %d read first", back.Len(), n, f.Len())
		}
		rows(back)
	})
}
