package fen

import "testing"

var (
	benchXFEN     = []byte("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	benchShredder = []byte("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1")
	sinkPosition  Position
	sinkStart     Start
)

func BenchmarkParse(b *testing.B) {
	for _, bm := range []struct {
		name string
		in   []byte
	}{{"XFEN", benchXFEN}, {"Shredder", benchShredder}} {
		b.Run(bm.name+"/bytes", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bm.in)))
			for b.Loop() {
				p, err := ParseBytes(bm.in)
				if err != nil {
					b.Fatal(err)
				}
				sinkPosition = p
			}
		})
		s := string(bm.in)
		b.Run(bm.name+"/string", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				p, err := Parse(s)
				if err != nil {
					b.Fatal(err)
				}
				sinkPosition = p
			}
		})
	}
}

func BenchmarkStart(b *testing.B) {
	for _, bm := range []struct {
		name string
		in   []byte
	}{{"array", benchShredder}, {"game", benchXFEN}} {
		p, err := ParseBytes(bm.in)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkStart = p.Start()
			}
		})
	}
}

func BenchmarkFormat(b *testing.B) {
	p, err := ParseBytes(benchShredder)
	if err != nil {
		b.Fatal(err)
	}
	for _, style := range []Style{XFEN, Shredder} {
		b.Run(style.String(), func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 128)
			for b.Loop() {
				buf = p.AppendFormat(buf[:0], style)
			}
		})
	}
}

// TestParseBytesStartAllocs holds the promise of the documentation: the hot
// path of reading a record and identifying it allocates nothing.
func TestParseBytesStartAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts in -short mode")
	}
	for _, in := range [][]byte{benchXFEN, benchShredder, []byte(stdPlacement + " w KQkq - 0 1;"), []byte("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9")} {
		allocs := testing.AllocsPerRun(100, func() {
			p, err := ParseBytes(in)
			if err != nil {
				t.Fatal(err)
			}
			sinkStart = p.Start()
		})
		if allocs != 0 {
			t.Errorf("ParseBytes + Start of %q: %v allocations, want 0", in, allocs)
		}
		s := string(in)
		if allocs := testing.AllocsPerRun(100, func() { sinkPosition, _ = Parse(s) }); allocs != 0 {
			t.Errorf("Parse of %q: %v allocations, want 0", s, allocs)
		}
	}
}
