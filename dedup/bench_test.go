package dedup

import (
	"bytes"
	"context"
	"hash/maphash"
	"io"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

// Computing a key allocates nothing: the moves are normalised into a
// fixed buffer and hashed as they come.
func TestKeyAllocations(t *testing.T) {
	archive := archivegen.Bytes(archivegen.Options{Seed: 3, Shape: archivegen.Lichess, Dialects: true}, 64<<10)
	var games []pgn.Game
	r := pgn.NewReader(bytes.NewReader(archive))
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		games = append(games, *g)
	}
	seeds := [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	for _, prefix := range []bool{false, true} {
		k := newKeyer(MovesPlayersDate, prefix, &seeds)
		items := make([]pipeline.Item[gameKey], len(games))
		for i := range games {
			items[i] = pipeline.Item[gameKey]{Game: &games[i], Class: startpos.Classify(&games[i]), Selected: true}
		}
		out := make([]byte, 0, 1<<20)
		allocs := testing.AllocsPerRun(5, func() {
			out = out[:0]
			for i := range items {
				out = k.compute(&items[i], out)
			}
		})
		if allocs != 0 {
			t.Errorf("prefix %v: %v allocations for %d games", prefix, allocs, len(games))
		}
	}
}

func BenchmarkRun(b *testing.B) {
	archive := archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Lichess}, 8<<20)
	for _, bc := range []struct {
		name string
		opts Options
	}{
		{"moves+players", Options{Key: MovesPlayers}},
		{"prefix", Options{Key: MovesPlayers, Prefix: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(archive)))
			for b.Loop() {
				d := New(io.Discard, io.Discard, bc.opts)
				ctx := context.Background()
				if bc.opts.Prefix {
					if err := d.Index(ctx, pgn.NewReader(bytes.NewReader(archive)), pipeline.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				if err := d.Run(ctx, pgn.NewReader(bytes.NewReader(archive)), pipeline.Options{}); err != nil {
					b.Fatal(err)
				}
				d.Close()
			}
		})
	}
}
