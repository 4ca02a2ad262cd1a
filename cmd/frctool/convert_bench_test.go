package main

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"testing"
)

// fritz9Lines returns n lines of Fritz9 numbers, 1..960 over and over.
func fritz9Lines(n int) []byte {
	var b []byte
	for i := range n {
		b = strconv.AppendInt(b, int64(1+i%960), 10)
		b = append(b, '\n')
	}
	return b
}

// BenchmarkConvertFritz9ToSP measures the bulk conversion the way a script
// uses it: the whole command over 96,000 stdin lines per operation.
func BenchmarkConvertFritz9ToSP(b *testing.B) {
	const lines = 96000
	input := fritz9Lines(lines)
	args := []string{"frctool", "convert", "--from", "fritz9", "--to", "scharnagl"}
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	for b.Loop() {
		if code := run(context.Background(), args, bytes.NewReader(input), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// TestConvertAllocatesPerCommandNotPerLine checks that a hundred times the
// lines costs hardly more allocations: what the command allocates is setup,
// plus one goroutine and channel per 64 KiB read from stdin.
func TestConvertAllocatesPerCommandNotPerLine(t *testing.T) {
	args := []string{"frctool", "convert", "--from", "fritz9", "--to", "scharnagl"}
	allocs := func(lines int) float64 {
		input := fritz9Lines(lines)
		return testing.AllocsPerRun(5, func() {
			run(context.Background(), args, bytes.NewReader(input), io.Discard, io.Discard)
		})
	}
	small, large := allocs(960), allocs(96000)
	if large > small+100 { // per line would be 95,040 more
		t.Errorf("%v allocations for 960 lines, %v for 96000: the conversion allocates per line", small, large)
	}
}
