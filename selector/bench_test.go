package selector

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
)

func BenchmarkFilter(b *testing.B) {
	input := sharedtest.Games(b, 5<<20)
	sel := New(Criteria{SPs: rangeOf(0, 500)})
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		f := NewFilter(sel, io.Discard, io.Discard)
		if err := f.Run(context.Background(), pgn.NewReader(bytes.NewReader(input)), RunOptions{Jobs: 2}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSplit(b *testing.B) {
	input := sharedtest.Games(b, 5<<20)
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		s, err := NewSplitter(SplitOptions{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Run(context.Background(), pgn.NewReader(bytes.NewReader(input)), RunOptions{Jobs: 2}); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
