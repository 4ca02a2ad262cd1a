package position

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frctool/frctool/internal/sharedtest"
)

// The long perft run takes minutes, so it is opt-in:
//
//	go test ./position/ -run Perft -perft.long            (depth 5)
//	go test ./position/ -run Perft -perft.long -perft.depth=6
//
// FRCTOOL_PERFT_LONG=1 (or =6) does the same without flags.
var (
	perftLong  = flag.Bool("perft.long", false, "run perft to depth -perft.depth on every position")
	perftDepth = flag.Int("perft.depth", 5, "maximum depth of the long perft run")
)

func longPerftDepth() int {
	if *perftLong {
		return *perftDepth
	}
	if v := os.Getenv("FRCTOOL_PERFT_LONG"); v != "" {
		if d, err := strconv.Atoi(v); err == nil && d > 1 {
			return d
		}
		return *perftDepth
	}
	return 0
}

type perftCase struct {
	name   string
	fen    string
	counts []uint64 // counts[d-1] is perft(d)
}

// The standard-chess positions of the chessprogramming wiki's "Perft
// Results" page, with their published counts.
var standardPerft = []perftCase{
	{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		[]uint64{20, 400, 8902, 197281, 4865609, 119060324}},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		[]uint64{48, 2039, 97862, 4085603, 193690690}},
	{"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		[]uint64{14, 191, 2812, 43238, 674624, 11030083}},
	{"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292}},
	{"position 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292}},
	{"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		[]uint64{44, 1486, 62379, 2103487, 89941194}},
	{"position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		[]uint64{46, 2079, 89890, 3894594, 164075551}},
}

// normalNodes bounds the work of one position in the normal test run.
const normalNodes = 5_000_000

func TestPerftStandard(t *testing.T) {
	long := longPerftDepth()
	for _, tc := range standardPerft {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range tc.counts {
				if want > normalNodes && d+1 > long {
					break
				}
				if got := b.Perft(d + 1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
			if b.FEN(0) != mustParse(t, tc.fen).FEN(0) || len(b.history) != 0 {
				t.Errorf("perft left the board changed: %s", b.FEN(0))
			}
		})
	}
}

func mustParse(t testing.TB, s string) *Board {
	t.Helper()
	b, err := ParseFEN(s)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", s, err)
	}
	return b
}

// readPerftFile reads python-chess's perft format: blocks of "id NAME",
// "epd RECORD" and "perft DEPTH COUNT" lines, '#' comments, blank lines
// between blocks.
func readPerftFile(t testing.TB, path string) []perftCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "", "#":
		case "id":
			cases = append(cases, perftCase{name: val})
		case "epd":
			cases[len(cases)-1].fen = val
		case "perft":
			ds, cs, _ := strings.Cut(val, " ")
			d, err1 := strconv.Atoi(ds)
			c, err2 := strconv.ParseUint(cs, 10, 64)
			pc := &cases[len(cases)-1]
			if err1 != nil || err2 != nil || d != len(pc.counts)+1 {
				t.Fatalf("%s:%d: bad perft line %q", path, n, line)
			}
			pc.counts = append(pc.counts, c)
		default:
			if !strings.HasPrefix(key, "#") {
				t.Fatalf("%s:%d: unknown line %q", path, n, line)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestPerftChess960 checks every position of the Chess960 perft suite to
// depth 3, or to the long depth in parallel on every core.
func TestPerftChess960(t *testing.T) {
	cases := readPerftFile(t, sharedtest.Path(t, "realdata", "perft", "chess960.perft"))
	if len(cases) != 960 {
		t.Fatalf("read %d positions, want 960", len(cases))
	}
	depth := 3
	if d := longPerftDepth(); d > depth {
		depth = d
	}
	start := time.Now()
	var (
		mu    sync.Mutex
		nodes uint64
		wg    sync.WaitGroup
		work  = make(chan perftCase)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tc := range work {
				if err := checkPerft(tc, depth); err != nil {
					t.Error(err)
				}
				mu.Lock()
				nodes += tc.counts[min(depth, len(tc.counts))-1]
				mu.Unlock()
			}
		}()
	}
	for _, tc := range cases {
		work <- tc
	}
	close(work)
	wg.Wait()
	el := time.Since(start)
	t.Logf("960 positions to depth %d: %d leaf nodes in %v (%.1f M nodes/s)",
		depth, nodes, el.Round(time.Millisecond), float64(nodes)/el.Seconds()/1e6)
}

func checkPerft(tc perftCase, depth int) error {
	b, err := ParseFEN(tc.fen)
	if err != nil {
		return fmt.Errorf("id %s: %v", tc.name, err)
	}
	for d := 1; d <= depth && d <= len(tc.counts); d++ {
		if got := b.Perft(d); got != tc.counts[d-1] {
			return fmt.Errorf("id %s (%s): perft(%d) = %d, want %d\n%s", tc.name, tc.fen, d, got, tc.counts[d-1], divide(b, d))
		}
	}
	return nil
}

// divide lists perft(depth-1) per root move, the usual way to find a
// generator bug by comparing with another program.
func divide(b *Board, depth int) string {
	var sb strings.Builder
	for _, m := range b.LegalMoves() {
		b.Push(m)
		fmt.Fprintf(&sb, "  %v %d\n", m, b.Perft(depth-1))
		b.Pop()
	}
	return sb.String()
}
