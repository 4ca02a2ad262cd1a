package stats

import (
	"bytes"
	"context"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// FuzzMergeEqualsOneRun cuts an archive in two at a game and counts each
// part, with a group field or without; the parts written as JSON and
// merged must give what one run over the archive gives, byte for byte in
// CSV and in JSON.
func FuzzMergeEqualsOneRun(f *testing.F) {
	f.Add([]byte("[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n[Event \"M\xfcnchen\"]\n[WhiteElo \"2400\"]\n[BlackElo \"2300\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n"), uint8(1), uint8(1))
	f.Add([]byte("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]\n[Result \"1/2-1/2\"]\n\n1. e4 1/2-1/2\n"), uint8(0), uint8(2))
	fields := []string{"", "Event", "elo_band", "year"}
	f.Fuzz(func(t *testing.T, data []byte, cut, field uint8) {
		if sharedtest.LoneCR(data) {
			t.Skip()
		}
		games, err := pgn.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		if len(games) > 0 {
			k = int(cut) % (len(games) + 1)
		}
		var at int
		for _, g := range games[:k] {
			at += len(g.Raw)
		}
		var groupBy []string
		if name := fields[int(field)%len(fields)]; name != "" {
			groupBy = []string{name}
		}
		countOf := func(b []byte) *Stats {
			var s Stats
			if err := s.SetGroupBy(groupBy); err != nil {
				t.Fatal(err)
			}
			if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(b)), &s, pipeline.Options{Jobs: 2}); err != nil {
				t.Fatal(err)
			}
			return &s
		}
		whole := countOf(data)
		var merged Stats
		for _, part := range [][]byte{data[:at], data[at:]} {
			var doc bytes.Buffer
			if err := (&Report{Stats: countOf(part), WithDFRC: true}).WriteJSON(&doc); err != nil {
				t.Fatal(err)
			}
			if _, err := merged.ReadJSON(&doc); err != nil {
				t.Fatal(err)
			}
		}
		for _, write := range []writer{(*Report).WriteCSV, (*Report).WriteJSON} {
			var a, b bytes.Buffer
			if err := write(&Report{Stats: whole, WithDFRC: true}, &a); err != nil {
				t.Fatal(err)
			}
			if err := write(&Report{Stats: &merged, WithDFRC: true}, &b); err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Fatalf("cut at game %d of %d:\none run:\n%s\nmerged:\n%s", k, len(games), a.String(), b.String())
			}
		}
	})
}
