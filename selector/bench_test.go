package selector

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
)

// tcecArchive returns the real TCEC archives concatenated, about 5 MB.
func tcecArchive(b *testing.B) []byte {
	dir := sharedtest.Path(b, "realdata", "tcec")
	files, err := filepath.Glob(filepath.Join(dir, "*.pgn"))
	if err != nil {
		b.Fatal(err)
	}
	var all []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, data...)
	}
	return all
}

func BenchmarkFilter(b *testing.B) {
	input := tcecArchive(b)
	sel := New(Criteria{SPs: rangeOf(0, 500)})
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		f := NewFilter(sel, io.Discard, io.Discard)
		if err := f.Run(context.Background(), pgn.NewReader(bytes.NewReader(input)), 2, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSplit(b *testing.B) {
	input := tcecArchive(b)
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		s, err := NewSplitter(SplitOptions{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Run(context.Background(), pgn.NewReader(bytes.NewReader(input)), 2, nil); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
