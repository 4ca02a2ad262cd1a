package pgn

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"

	"github.com/frctool/frctool/internal/sharedtest"
)

// FuzzReader checks the promises the Reader makes whatever the input: it
// never panics, the games together are the input byte for byte, the split
// does not depend on how the input arrives, and every tag span holds a
// tag. The seed corpus is in testdata/fuzz/FuzzReader; go test replays it.
func FuzzReader(f *testing.F) {
	sharedtest.SeedFixtures(f, "*.pgn")
	f.Add([]byte("[Event \"a\"]\n\n1. e4 {x\n\n[Event \"b\"]\n*\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// A game's line is counted here from the input alone: its lines
		// end as its first line end does, with a lone CR or with a LF.
		lineEnd := []byte{'\n'}
		if i := bytes.IndexAny(data, "\r\n"); i >= 0 && data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			lineEnd = []byte{'\r'}
		}
		split := func(r io.Reader, max int) [][]byte {
			rd := NewReader(r)
			rd.MaxGameSize = max
			var games [][]byte
			for {
				g, err := rd.Next()
				if err == io.EOF {
					return games
				}
				if err != nil {
					t.Fatal(err)
				}
				for _, tag := range g.Tags {
					if tag.Start < 0 || tag.End > len(g.Raw) || g.Raw[tag.Start] != '[' || g.Raw[tag.End-1] != ']' {
						t.Fatalf("tag span %d..%d is not a tag in %q", tag.Start, tag.End, g.Raw)
					}
					if want := 1 + bytes.Count(data[:int(g.Offset)+tag.Start], lineEnd); tag.Line != want {
						t.Fatalf("game %d: tag %s on line %d, want %d", len(games)+1, tag.Name, tag.Line, want)
					}
				}
				if want := 1 + bytes.Count(data[:g.Offset], lineEnd); g.Line != want {
					t.Fatalf("game %d at offset %d on line %d, want %d", len(games)+1, g.Offset, g.Line, want)
				}
				games = append(games, g.Raw)
			}
		}
		whole := split(bytes.NewReader(data), 0)
		if got := bytes.Join(whole, nil); !bytes.Equal(got, data) {
			t.Fatalf("games do not add up to the input")
		}
		bytewise := split(iotest.OneByteReader(bytes.NewReader(data)), 0)
		if len(bytewise) != len(whole) {
			t.Fatalf("%d games read whole, %d read byte by byte", len(whole), len(bytewise))
		}
		for i := range whole {
			if !bytes.Equal(whole[i], bytewise[i]) {
				t.Fatalf("game %d differs when read byte by byte", i+1)
			}
		}
		if got := bytes.Join(split(iotest.HalfReader(bytes.NewReader(data)), 64), nil); !bytes.Equal(got, data) {
			t.Fatalf("parts of large games do not add up to the input")
		}
	})
}
