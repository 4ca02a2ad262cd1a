package selector

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/where"
)

func BenchmarkFilter(b *testing.B) {
	input := sharedtest.Games(b, 5<<20)
	sel := New(Criteria{SPs: rangeOf(0, 500)})
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		f := NewFilter(sel, io.Discard, io.Discard)
		if err := f.Run(context.Background(), pgn.NewReader(bytes.NewReader(input)), pipeline.Options{Jobs: 2}); err != nil {
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
		if err := s.Run(context.Background(), pgn.NewReader(bytes.NewReader(input)), pipeline.Options{Jobs: 2}); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFilterWhere measures what a selection by tags adds to a filter
// of short games, which writes every game either way: no selection, an
// expression over two derived fields, and the shortcuts' four conditions.
func BenchmarkFilterWhere(b *testing.B) {
	input := archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Lichess}, 8<<20)
	for _, bc := range []struct{ name, expr string }{
		{"none", ""},
		{"where", "speed = blitz and min_elo >= 1500"},
		{"shortcuts", `speed = blitz and min_elo >= 1500 and not bot and date >= "2015"`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var sel *where.Expr
			if bc.expr != "" {
				var err error
				if sel, err = where.Parse(bc.expr); err != nil {
					b.Fatal(err)
				}
			}
			all := New(Criteria{})
			b.SetBytes(int64(len(input)))
			b.ReportAllocs()
			for b.Loop() {
				f := NewFilter(all, io.Discard, io.Discard)
				if err := f.Run(context.Background(), pgn.NewReader(bytes.NewReader(input)), pipeline.Options{Jobs: 1, Where: sel}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
