package pgn

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
)

// benchInput is about 8 MB of real games: the TCEC archives when ../shared
// is there, the project's fixtures otherwise.
func benchInput(b *testing.B) []byte {
	var files []string
	if root := sharedtest.Root(); root != "" {
		files, _ = filepath.Glob(filepath.Join(root, "realdata", "tcec", "*.pgn"))
	}
	if len(files) == 0 {
		files, _ = filepath.Glob("../testdata/*.pgn")
	}
	var one []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		one = append(one, data...)
		if !bytes.HasSuffix(one, []byte("\n\n")) {
			one = append(one, '\n', '\n')
		}
	}
	var all []byte
	for len(all) < 8<<20 {
		all = append(all, one...)
	}
	return all
}

func BenchmarkReaderNext(b *testing.B) {
	data := benchInput(b)
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
			g.Start()
			games++
		}
	}
	b.ReportMetric(float64(games)/float64(b.N), "games/op")
}

func BenchmarkReadBatch(b *testing.B) {
	data := benchInput(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var batch Batch
	for b.Loop() {
		r := NewReader(bytes.NewReader(data))
		for r.ReadBatch(&batch, BatchSize) == nil {
		}
	}
}
