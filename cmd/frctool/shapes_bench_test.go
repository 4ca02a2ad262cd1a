package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
)

// shapeSize is the input of each command benchmark: large enough that the
// command's start-up is a small part of the figures, small enough for
// short runs.
const shapeSize = 8 << 20

// commandShapes are the archives the commands are measured on: generated
// lichess games (about 1 KB each, a clock comment after every move) and
// header-only games (about 150 bytes), the two ends of the game sizes
// frctool meets, where per-game costs show most; and the real TCEC
// archives (about 30 KB a game, mostly engine comments) where the shared
// folder has them.
var commandShapes = []struct {
	name string
	data func(b *testing.B) []byte
}{
	{"lichess", func(*testing.B) []byte {
		return archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Lichess}, shapeSize)
	}},
	{"headers", func(*testing.B) []byte {
		return archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Headers}, shapeSize)
	}},
	{"tcec", func(b *testing.B) []byte { return sharedtest.TCEC(b, shapeSize) }},
}

// archiveCommands are the commands that read PGN archives, with the
// arguments they are measured with. split writes its files into a folder
// of its own for every run, which DIR in its arguments stands for.
var archiveCommands = []struct {
	name string
	args []string
}{
	{"annotate", []string{"annotate", "-q"}},
	{"stats", []string{"stats", "-q"}},
	{"stats-grouped", []string{"stats", "-q", "--group-by", "speed,elo_band"}},
	{"filter", []string{"filter", "-q", "--sp", "0-500"}},
	{"split", []string{"split", "-q", "-o", "DIR"}},
	{"dedup", []string{"dedup", "-q"}},
	{"validate", []string{"validate", "-q"}},
	{"export-csv", []string{"export", "-q"}},
	{"export-parquet", []string{"export", "-q", "--format", "parquet"}},
	{"tree", []string{"tree", "-q"}},
}

// BenchmarkShapes runs every archive command whole, as a user does, on
// stdin with stdout and stderr discarded, on each shape, and reports MB/s,
// games/s and allocations per game. What a run allocates once, or once a
// start position (the command line, the output's buffers, stats' rows,
// split's files), is left out of allocs/game: it is the difference between
// a run on the input three times over and one on it twice over, per game.
// Not once and twice: a grouped stats table tests more of its rows when
// its games double, and each row tested writes a p-value, which read as an
// allocation a game.
//
//	go test ./cmd/frctool -run '^$' -bench Shapes
func BenchmarkShapes(b *testing.B) {
	for _, shape := range commandShapes {
		for _, c := range archiveCommands {
			b.Run(shape.name+"/"+c.name, func(b *testing.B) {
				data := shape.data(b)
				games := countGames(b, data)
				tmp := b.TempDir()
				runs := 0
				runOn := func(in []byte) {
					args := append([]string{"frctool"}, c.args...)
					dir := ""
					if i := slices.Index(args, "DIR"); i >= 0 {
						dir = filepath.Join(tmp, strconv.Itoa(runs))
						args[i] = dir
					}
					runs++
					if code := run(context.Background(), args, bytes.NewReader(in), io.Discard, io.Discard); code != 0 {
						b.Fatalf("%v: exit status %d", args, code)
					}
					if dir != "" {
						// Folders of 960 files each, left to pile up,
						// slowed the file system down run after run.
						b.StopTimer()
						if err := os.RemoveAll(dir); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
					}
				}
				runOn(data) // tables made on first use are made now
				twice := mallocs(func() { runOn(slices.Concat(data, data)) })
				thrice := mallocs(func() { runOn(slices.Concat(data, data, data)) })
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					runOn(data)
					n++
				}
				b.ReportMetric(float64(games*n)/b.Elapsed().Seconds(), "games/s")
				b.ReportMetric((float64(thrice)-float64(twice))/float64(games), "allocs/game")
			})
		}
	}
}

// allocations returns the heap allocations f made, and their bytes.
func allocations(f func()) (count, bytes uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}

// mallocs returns the number of heap allocations f made.
func mallocs(f func()) uint64 {
	n, _ := allocations(f)
	return n
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

// BenchmarkSmallFiles runs commands over a folder of 1,000 files of one
// lichess-like game each, as broadcasts and per-game downloads come: the
// cost of an input beside its games. It reports files/s and the memory
// allocated a file, which the collector must reclaim.
//
//	go test ./cmd/frctool -run '^$' -bench SmallFiles -benchmem
func BenchmarkSmallFiles(b *testing.B) {
	const files = 1000
	dir := b.TempDir()
	data := archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Lichess}, 4<<20)
	r := pgn.NewReader(bytes.NewReader(data))
	var names []string
	for len(names) < files {
		g, err := r.Next()
		if err != nil {
			b.Fatal(err)
		}
		name := filepath.Join(dir, "g"+strconv.Itoa(len(names))+".pgn")
		if err := os.WriteFile(name, g.Raw, 0o644); err != nil {
			b.Fatal(err)
		}
		names = append(names, name)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"stats", []string{"stats", "-q"}},
		{"filter", []string{"filter", "-q", "--sp", "0-500"}},
		{"annotate", []string{"annotate", "-q"}},
		{"validate", []string{"validate", "-q"}},
		{"dedup", []string{"dedup", "-q"}},
		{"export", []string{"export", "-q"}},
		{"export-parquet", []string{"export", "-q", "--format", "parquet"}},
		{"tree", []string{"tree", "-q"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			args := slices.Concat([]string{"frctool"}, c.args, names)
			var alloc uint64
			n := 0
			for b.Loop() {
				_, bytes := allocations(func() {
					if code := run(context.Background(), args, nil, io.Discard, io.Discard); code != 0 {
						b.Fatalf("%v: exit status %d", c.args, code)
					}
				})
				alloc += bytes
				n++
			}
			b.ReportMetric(float64(files*n)/b.Elapsed().Seconds(), "files/s")
			b.ReportMetric(float64(alloc)/float64(files*n), "B/file")
		})
	}
}
