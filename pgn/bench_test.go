package pgn

import (
	"bytes"
	"io"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
)

func BenchmarkReaderNext(b *testing.B) {
	data := sharedtest.Games(b, 8<<20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	games := 0
	for b.Loop() {
		r := NewReader(bytes.NewReader(data))
		r.ReuseGame = true
		for {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			_ = g.Tags
			games++
		}
	}
	b.ReportMetric(float64(games)/float64(b.N), "games/op")
}

func BenchmarkReadBatch(b *testing.B) {
	data := sharedtest.Games(b, 8<<20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var batch Batch
	for b.Loop() {
		r := NewReader(bytes.NewReader(data))
		for r.ReadBatch(&batch, 256<<10) == nil {
		}
	}
}
