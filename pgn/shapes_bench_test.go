package pgn_test

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

// shapeSize is the input of each benchmark: large enough to leave the
// reader's start-up out of the figures, small enough for short runs.
const shapeSize = 8 << 20

// archiveShapes are the inputs the reader is measured on: generated
// lichess games (about 1 KB each, a clock comment after every move),
// generated header-only games (about 150 bytes), and the real TCEC
// archives (about 30 KB a game, long engine comments) where they are
// available.
var archiveShapes = []struct {
	name string
	data func(b *testing.B) []byte
}{
	{"lichess", func(*testing.B) []byte {
		return archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Lichess}, shapeSize)
	}},
	{"headers", func(*testing.B) []byte {
		return archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Headers}, shapeSize)
	}},
	{"tcec", tcecGames},
}

// tcecGames returns the TCEC archives of the shared folder, repeated to
// shapeSize, or skips the benchmark without them.
func tcecGames(b *testing.B) []byte { return sharedtest.TCEC(b, shapeSize) }

// measure runs read over data for as long as the benchmark asks, and
// reports MB/s, games/s and allocations per game; read returns the games
// it read.
func measure(b *testing.B, data []byte, read func(r *pgn.Reader) int) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	games := 0
	for b.Loop() {
		games += read(pgn.NewReader(bytes.NewReader(data)))
	}
	runtime.ReadMemStats(&after)
	if games == 0 {
		b.Fatal("no games read")
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(games), "allocs/game")
}

func BenchmarkShapesReaderNext(b *testing.B) {
	for _, shape := range archiveShapes {
		b.Run(shape.name, func(b *testing.B) {
			measure(b, shape.data(b), func(r *pgn.Reader) int {
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
			})
		})
	}
}

func BenchmarkShapesReadBatch(b *testing.B) {
	benchmarkBatches(b, func(r *pgn.Reader, batch *pgn.Batch, _ int) (int, error) {
		err := r.ReadBatch(batch, pipeline.BatchSize)
		return len(batch.Games), err
	})
}

// BenchmarkShapesReadPart reads in parts and scans them, on one goroutine:
// the work a run shares out over its workers, which ReadBatch does on the
// goroutine that reads.
func BenchmarkShapesReadPart(b *testing.B) {
	benchmarkBatches(b, func(r *pgn.Reader, batch *pgn.Batch, before int) (int, error) {
		if err := r.ReadPart(batch, pipeline.BatchSize); err != nil {
			return 0, err
		}
		games, complete := batch.ScanPart()
		if !complete {
			b.Fatalf("a cut in a generated archive was not confirmed")
		}
		batch.CountFrom(before)
		return games, nil
	})
}

// BenchmarkShapesRunNothing runs a job that does nothing but count the
// games on pipeline.Run: the reading, the scan, the making and classifying
// of every game and the runner, on as many cores as -cpu gives, with no
// command's work. It is the floor under every archive command.
func BenchmarkShapesRunNothing(b *testing.B) {
	for _, shape := range archiveShapes {
		b.Run(shape.name, func(b *testing.B) {
			measure(b, shape.data(b), func(r *pgn.Reader) int {
				games := 0
				job := pipeline.Job[struct{}]{Emit: func(*pipeline.Item[struct{}]) error { games++; return nil }}
				var tally startpos.Tally
				if err := pipeline.Run(context.Background(), r, pipeline.Options{}, job, &tally); err != nil {
					b.Fatal(err)
				}
				return games
			})
		})
	}
}

// benchmarkBatches measures reading each shape a batch at a time with
// read, which is given the games before the batch and returns its games.
func benchmarkBatches(b *testing.B, read func(r *pgn.Reader, batch *pgn.Batch, before int) (int, error)) {
	for _, shape := range archiveShapes {
		b.Run(shape.name, func(b *testing.B) {
			var batch pgn.Batch
			measure(b, shape.data(b), func(r *pgn.Reader) int {
				n := 0
				for {
					games, err := read(r, &batch, n)
					if err == io.EOF {
						return n
					} else if err != nil {
						b.Fatal(err)
					}
					n += games
				}
			})
		})
	}
}
