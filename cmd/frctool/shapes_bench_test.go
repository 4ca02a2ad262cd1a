package main

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/pgn"
)

// shapeSize is the input of each command benchmark: large enough that the
// command's start-up is a small part of the figures, small enough for
// short runs.
const shapeSize = 8 << 20

// commandShapes are the generated archives the commands are measured on:
// lichess games (about 1 KB each, a clock comment after every move) and
// header-only games (about 150 bytes), the two ends of the game sizes
// frctool meets, where per-game costs show most.
var commandShapes = []struct {
	name string
	opt  archivegen.Options
}{
	{"lichess", archivegen.Options{Seed: 1, Shape: archivegen.Lichess}},
	{"headers", archivegen.Options{Seed: 1, Shape: archivegen.Headers}},
}

// BenchmarkShapes runs whole commands, as a user does, on stdin with
// stdout and stderr discarded, and reports MB/s, games/s and allocations
// per game.
func BenchmarkShapes(b *testing.B) {
	commands := []struct {
		name string
		args []string
	}{
		{"annotate", []string{"annotate", "-q"}},
		{"stats", []string{"stats", "-q"}},
		{"filter", []string{"filter", "-q", "--sp", "0-500"}},
		{"validate", []string{"validate", "-q"}},
	}
	for _, shape := range commandShapes {
		for _, c := range commands {
			b.Run(shape.name+"/"+c.name, func(b *testing.B) {
				data := archivegen.Bytes(shape.opt, shapeSize)
				games := countGames(b, data)
				args := append([]string{"frctool"}, c.args...)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for b.Loop() {
					if code := run(context.Background(), args, bytes.NewReader(data), io.Discard, io.Discard); code != 0 {
						b.Fatalf("%v: exit status %d", args, code)
					}
				}
				runtime.ReadMemStats(&after)
				runs := float64(b.N)
				b.ReportMetric(float64(games)*runs/b.Elapsed().Seconds(), "games/s")
				b.ReportMetric(float64(after.Mallocs-before.Mallocs)/(float64(games)*runs), "allocs/game")
			})
		}
	}
}

func countGames(b *testing.B, data []byte) int {
	r := pgn.NewReader(bytes.NewReader(data))
	r.ReuseGame = true
	n := 0
	for {
		if _, err := r.Next(); err == io.EOF {
			return n
		} else if err != nil {
			b.Fatal(err)
		}
		n++
	}
}
