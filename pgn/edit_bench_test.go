package pgn

import (
	"strings"
	"testing"
)

// BenchmarkAppendEdited edits a lichess-like game's tags as annotate does:
// two number tags set, or inserted after the FEN, or two stale ones removed: on lines of their own,
// or on one line, which is read back.
func BenchmarkAppendEdited(b *testing.B) {
	const game = "[Event \"Rated Chess960 game\"]\n[Site \"https://lichess.org/abcdefgh\"]\n[Date \"2024.05.17\"]\n" +
		"[White \"Alice\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n[WhiteElo \"1800\"]\n[BlackElo \"1750\"]\n" +
		"[Variant \"Chess960\"]\n[TimeControl \"180+0\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n" +
		"[Chess960 \"5\"]\n[Chess960Fritz9 \"7\"]\n\n1. Kb2 { [%clk 0:03:00] } 1-0\n\n"
	g, err := NewReader(strings.NewReader(game)).Next()
	if err != nil {
		b.Fatal(err)
	}
	oneLine, err := NewReader(strings.NewReader(strings.Replace(game, "\"5\"]\n[", "\"5\"] [", 1))).Next()
	if err != nil {
		b.Fatal(err)
	}
	plain, err := NewReader(strings.NewReader(strings.Replace(game, "[Chess960 \"5\"]\n[Chess960Fritz9 \"7\"]\n", "", 1))).Next()
	if err != nil {
		b.Fatal(err)
	}
	remove := []Edit{{Name: "Chess960", Remove: true}, {Name: "Chess960Fritz9", Remove: true}}
	for _, c := range []struct {
		name  string
		g     *Game
		edits []Edit
	}{
		{"set", g, []Edit{{Name: "Chess960", Value: "518"}, {Name: "Chess960Fritz9", Value: "359"}}},
		{"insert", plain, []Edit{{Name: "Chess960", Value: "518", After: "FEN"}, {Name: "Chess960Fritz9", Value: "359", After: "Chess960"}}},
		{"remove", g, remove},
		{"remove absent", g, []Edit{{Name: "SP", Remove: true}, {Name: "Fritz9", Remove: true}}},
		{"remove from one line", oneLine, remove},
	} {
		b.Run(c.name, func(b *testing.B) {
			var dst []byte
			b.ReportAllocs()
			b.SetBytes(int64(len(game)))
			for b.Loop() {
				dst = c.g.AppendEdited(dst[:0], c.edits...)
			}
		})
	}
}
