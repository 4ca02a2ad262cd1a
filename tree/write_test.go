package tree

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// TestAppendJSONFixed holds appendJSONFixed to strconv's shortest digits
// of the rounded value, which it stands for, on named cases and on random
// numbers of every size a figure may have.
func TestAppendJSONFixed(t *testing.T) {
	tests := []struct {
		name string
		x    float64
		prec int
		want string
	}{
		{"score", 0.8333333, 4, "0.8333"},
		{"trailing zeros dropped", 0.5, 4, "0.5"},
		{"zero", 0, 4, "0"},
		{"one", 1, 4, "1"},
		{"rounded up to one", 0.99996, 4, "1"},
		{"rounded down to zero", 0.00004, 4, "0"},
		{"rating", 1618.34, 1, "1618.3"},
		{"whole rating", 2100, 1, "2100"},
		{"year", 2020.666666, 2, "2020.67"},
		{"negative", -123.45678, 1, "-123.5"},
		{"negative rounded to zero", -0.00001, 1, "-0"},
		{"negative zero", math.Copysign(0, -1), 2, "-0"},
		{"NaN", math.NaN(), 4, "null"},
		{"too large for the fast way", 1.23456789e15, 2, "1234567890000000"},
		{"infinite", math.Inf(1), 1, "+Inf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendJSONFixed(nil, tt.x, tt.prec)); got != tt.want {
				t.Errorf("appendJSONFixed(%v, %d) = %q, want %q", tt.x, tt.prec, got, tt.want)
			}
		})
	}
	t.Run("random", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		for range 200000 {
			// Magnitudes from 1e-6 to past the fast way's bound, and
			// values on a grid of halves, where rounding ties.
			x := math.Pow(10, rng.Float64()*17-6)
			if rng.IntN(4) == 0 {
				x = float64(rng.IntN(2000000)) / 2 / pow10[rng.IntN(len(pow10))]
			}
			if rng.IntN(2) == 0 {
				x = -x
			}
			prec := rng.IntN(len(pow10))
			want := string(appendJSONNumber(nil, rounded(x, prec)))
			if got := string(appendJSONFixed(nil, x, prec)); got != want {
				t.Fatalf("appendJSONFixed(%v, %d) = %q, want %q", x, prec, got, want)
			}
		}
	})
}

// TestAppendFixedIsStrconv holds appendFixed to strconv's fixed format on
// random numbers, ties included, which it must equal digit for digit
// wherever it does not hand over to strconv. strconv rounds the exact
// binary value half to even and appendFixed the product x·10^prec half
// away from zero, so the two may differ on a tie's last digit; the test
// skips the values whose product is within a rounding of a tie. A
// negative number that rounds to zero is written without its sign.
func TestAppendFixedIsStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		x := math.Pow(10, rng.Float64()*14-4)
		if rng.IntN(2) == 0 {
			x = -x
		}
		prec := rng.IntN(len(pow10))
		scaled := math.Abs(x) * pow10[prec]
		if frac := scaled - math.Floor(scaled); math.Abs(frac-0.5) < 1e-6 {
			continue
		}
		want := strconv.FormatFloat(x, 'f', prec, 64)
		if strings.Trim(want, "-0.") == "" {
			want = strings.TrimPrefix(want, "-")
		}
		if got := string(appendFixed(nil, x, prec)); got != want {
			t.Fatalf("appendFixed(%v, %d) = %q, want %q", x, prec, got, want)
		}
	}
}

func TestPlainLine(t *testing.T) {
	tests := []struct {
		name  string
		moves string
		want  bool
	}{
		{"no moves", "", true},
		{"moves this package wrote", "1. e4 e5 2. Nf3", true},
		{"black's move first", "1... e5", true},
		{"leading blank", " 1. e4", false},
		{"not a number first", "e4", false},
		{"comma", "1. e4, e5", false},
		{"quote", `1. e4 "e5"`, false},
		{"backslash", `1. e4 \. e5`, false},
		{"angle bracket", "1. e4 <e5>", false},
		{"ampersand", "1. e4 & e5", false},
		{"line feed", "1. e4\ne5", false},
		{"not ASCII", "1. e4 \u2028e5", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plainLine(tt.moves); got != tt.want {
				t.Errorf("plainLine(%q) = %v, want %v", tt.moves, got, tt.want)
			}
		})
	}
}

// TestLinesNeedingQuotes reads back a JSON document whose tree is said
// to be reached by moves that CSV must quote and JSON escape, and holds
// the lines written to what encoding/csv and encoding/json read back.
func TestLinesNeedingQuotes(t *testing.T) {
	f, _ := build(t, readFixture(t), Options{Depth: 2}, 1)
	var doc bytes.Buffer
	if err := f.WriteJSON(&doc, WalkOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, moves string
	}{
		{"comma and quote", `1. e4, "e5"`},
		{"leading blank", " 1. e4"},
		{"angle brackets and ampersand", "<1. e4 & e5>"},
		{"not ASCII and a line separator", "1. e4 \u00e9\u2028"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			moves, _ := json.Marshal(tt.moves)
			edited := bytes.Replace(doc.Bytes(), []byte(`"moves":"",`), []byte(`"moves":`+string(moves)+`,`), 1)
			g, err := NewForest(Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := g.ReadJSON(bytes.NewReader(edited)); err != nil {
				t.Fatal(err)
			}
			var csvOut, jsonOut bytes.Buffer
			if err := g.WriteCSV(&csvOut, WalkOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := g.WriteJSON(&jsonOut, WalkOptions{}); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&csvOut).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, r := range rows[1:] {
				lines = append(lines, r[2])
			}
			if i := slices.IndexFunc(lines, func(l string) bool { return l != tt.moves }); lines[0] != tt.moves || i < 0 || !strings.HasPrefix(lines[i], tt.moves+" ") {
				t.Errorf("CSV lines %q, want %q and lines after it", lines, tt.moves)
			}
			var back struct {
				Trees []struct {
					Nodes []struct{ Line string }
				}
			}
			if err := json.Unmarshal(jsonOut.Bytes(), &back); err != nil {
				t.Fatal(err)
			}
			if nodes := back.Trees[0].Nodes; len(nodes) < 2 || nodes[0].Line != tt.moves || !strings.HasPrefix(nodes[1].Line, tt.moves+" ") {
				t.Errorf("JSON lines %+v, want %q and lines after it", nodes, tt.moves)
			}
			if bytes.Contains(jsonOut.Bytes(), []byte("<")) || bytes.Contains(jsonOut.Bytes(), []byte("\u2028")) {
				t.Errorf("JSON holds < or U+2028 unescaped")
			}
		})
	}
}

// TestTableCellsAreCSVCells holds the table and the CSV together: they
// write a move's figures each with code of its own, kept apart for the
// CSV's speed, so every figure cell of every table row must read as the
// CSV row's does. The games are random, so that figures go missing
// (no ratings, no finished game) as well as being there.
func TestTableCellsAreCSVCells(t *testing.T) {
	data := archivegen.Bytes(archivegen.Options{Seed: 7, Shape: archivegen.Lichess}, 256<<10)
	data = append(data, readFixture(t)...)
	f, _ := build(t, data, Options{Depth: 3}, 2)
	var csvOut, table bytes.Buffer
	if err := f.WriteCSV(&csvOut, WalkOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteTable(&table, WalkOptions{}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(table.String(), "\n"), "\n")
	if len(lines) != len(rows) || len(rows) < 100 {
		t.Fatalf("%d table lines and %d CSV rows, want as many, and more than 100", len(lines), len(rows))
	}
	// The figure columns, games to last_played, are right-aligned under
	// their headers, the last one running to the end of the line.
	header := lines[0]
	first := slices.Index(Columns, "games")
	var ends []int
	for _, name := range Columns[first:tableColumns] {
		ends = append(ends, strings.Index(header, " "+name+" ")+1+len(name))
	}
	ends[len(ends)-1] = -1
	empty := 0
	for i := 1; i < len(lines); i++ {
		line := lines[i]
		// A row whose last cells are empty ends before them.
		at := func(i int) int {
			if i < 0 || i > len(line) {
				return len(line)
			}
			return i
		}
		from := strings.LastIndex(line[:at(ends[0]-len("games"))], "  ") + 2
		for k, end := range ends {
			end = at(end)
			got := strings.TrimSpace(line[min(from, end):end])
			if want := rows[i][first+k]; got != want {
				t.Fatalf("row %d, %s: table %q, CSV %q", i, Columns[first+k], got, want)
			}
			if got == "" {
				empty++
			}
			from = end
		}
	}
	if empty == 0 {
		t.Errorf("no figure was missing in %d rows: the test does not see empty cells", len(rows)-1)
	}
}

// TestOneGameCells holds the CSV cells written for a move one finished
// game played, taken ready-made, to those worked out: whatever the game's
// ratings, year and date, they follow from its result alone; other
// counts are worked out.
func TestOneGameCells(t *testing.T) {
	tests := []struct {
		name string
		c    Counts
		want int // oneGameCells' index, -1 for none
	}{
		{"White won, rated, dated", Counts{Results: Results{Games: 1, WhiteWins: 1}, EloGames: 1, EloSum: 2412, OppGames: 1, OppEloSum: 2380, OppNet: 1, YearGames: 1, YearSum: 2024, Last: 20240517}, 0},
		{"a draw, unrated", Counts{Results: Results{Games: 1, Draws: 1}}, 1},
		{"Black won, an unrated opponent", Counts{Results: Results{Games: 1, BlackWins: 1}, EloGames: 1, EloSum: 1500, YearGames: 1, YearSum: 1999}, 2},
		{"unfinished", Counts{Results: Results{Games: 1}, EloGames: 1, EloSum: 2000}, -1},
		{"two games", Counts{Results: Results{Games: 2, WhiteWins: 1, Draws: 1}}, -1},
		{"two games one won", Counts{Results: Results{Games: 2, WhiteWins: 1}}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := oneGame(&tt.c)
			if k != tt.want {
				t.Fatalf("oneGame = %d, want %d", k, tt.want)
			}
			fig := figuresOf(&tt.c)
			worked := string(appendCountCells(nil, &tt.c, &fig))
			if k >= 0 && string(oneGameCells[k]) != worked {
				t.Errorf("cells %q, worked out %q", oneGameCells[k], worked)
			}
			// The whole row, beside one written from figuresOf alone.
			m := moveView{san: []byte("Nf3"), uci: []byte("g1f3"), c: tt.c}
			row := string(appendCSVRow(nil, []byte("518,0,,"), []byte("FEN"), &m))
			want := "518,0,,Nf3," + worked + string(appendFixed(nil, fig.elo, 0)) + "," + string(appendFixed(nil, fig.perf, 0)) + "," +
				string(appendFixed(nil, fig.year, 1)) + "," + formatDate(tt.c.Last) + ",g1f3,FEN\n"
			if row != want {
				t.Errorf("row\n %q\nwant\n %q", row, want)
			}
		})
	}
}

// TestFormatDate holds dates written from YYYYMMDD numbers to PGN's
// form, beside fmt's, unknown months and days as "??".
func TestFormatDate(t *testing.T) {
	tests := []struct {
		name string
		d    int32
		want string
	}{
		{"none", 0, ""},
		{"a whole date", 20240517, "2024.05.17"},
		{"no day", 20240500, "2024.05.??"},
		{"no month or day", 19990000, "1999.??.??"},
		{"an early year", 7010203, "0701.02.03"},
		{"the last day of a year", 20251231, "2025.12.31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatDate(tt.d); got != tt.want {
				t.Errorf("formatDate(%d) = %q, want %q", tt.d, got, tt.want)
			}
		})
	}
	// Every date of two years, beside fmt.
	for y := int32(1999); y <= 2000; y++ {
		for m := int32(0); m <= 12; m++ {
			for d := int32(0); d <= 31; d++ {
				want := fmt.Sprintf("%04d.", y)
				if m > 0 {
					want += fmt.Sprintf("%02d.", m)
				} else {
					want += "??."
				}
				if d > 0 {
					want += fmt.Sprintf("%02d", d)
				} else {
					want += "??"
				}
				if got := formatDate(y*10000 + m*100 + d); got != want {
					t.Fatalf("formatDate(%d) = %q, want %q", y*10000+m*100+d, got, want)
				}
			}
		}
	}
}

// TestRenderReusesBuffers checks that trees with nothing to write (here
// the trees of header-only games, which hold a root and no moves) hand
// their output buffer on to the next tree: each used to take a new one of
// pieceSize and more, 190 MB of garbage for 8 MB of such games.
func TestRenderReusesBuffers(t *testing.T) {
	f, err := NewForest(Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Headers}, 256<<10)
	if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(in)), f, pipeline.Options{}); err != nil {
		t.Fatal(err)
	}
	trees := len(f.Trees())
	// At most two trees a core are under way, each with a few pieces
	// waiting to be written, and a few buffers wait to be used again.
	most := (8*runtime.GOMAXPROCS(0) + 16) * (pieceSize + pieceSize/2)
	if trees*(pieceSize+pieceSize/2) < 2*most {
		t.Fatalf("%d trees: too few to tell a buffer a tree from buffers reused", trees)
	}
	for _, format := range []struct {
		name  string
		write func() error
	}{
		{"csv", func() error { return f.WriteCSV(io.Discard, WalkOptions{}) }},
		{"json", func() error { return f.WriteJSON(io.Discard, WalkOptions{}) }},
	} {
		t.Run(format.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if err := format.write(); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			if got := int(after.TotalAlloc - before.TotalAlloc); got > most {
				t.Errorf("writing %d trees allocated %d bytes, want at most %d", trees, got, most)
			}
		})
	}
}

// TestWriteTableWithin checks the table cut to a width: every line fits,
// the columns kept are the first units of tableFitOrder and the others are
// returned, and each line is the full table's with the columns left out
// cut away, where the columns' places are worked out here from the CSV's
// cells, which TestTableCellsAreCSVCells holds to the table's.
func TestWriteTableWithin(t *testing.T) {
	data := archivegen.Bytes(archivegen.Options{Seed: 7, Shape: archivegen.Lichess}, 64<<10)
	f, _ := build(t, data, Options{Depth: 3}, 2)
	var full, csvOut bytes.Buffer
	if err := f.WriteTable(&full, WalkOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteCSV(&csvOut, WalkOptions{}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var widths, starts [tableColumns]int
	for _, row := range rows {
		for i := range widths {
			widths[i] = max(widths[i], utf8.RuneCountInString(row[i]))
		}
	}
	for i := 1; i < tableColumns; i++ {
		starts[i] = starts[i-1] + widths[i-1] + 2
	}
	fullLines := strings.Split(strings.TrimSuffix(full.String(), "\n"), "\n")
	for _, tt := range []struct {
		name  string
		width int
		kept  int // units of tableFitOrder kept
	}{
		{"any width", 0, len(tableFitOrder)},
		{"wide enough", 400, len(tableFitOrder)},
		{"110 characters: the results too", 110, 9},
		{"100 characters", 100, 8},
		{"78 characters: the draw rate just fits", 78, 8},
		{"77 characters: the draw rate does not", 77, 7},
		{"too narrow for the first five", 10, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			left, err := f.WriteTableWithin(&b, WalkOptions{}, tt.width)
			if err != nil {
				t.Fatal(err)
			}
			var kept []int
			for _, u := range tableFitOrder[:tt.kept] {
				kept = append(kept, u...)
			}
			slices.Sort(kept)
			var wantLeft []string
			for i, name := range Columns[:tableColumns] {
				if !slices.Contains(kept, i) {
					wantLeft = append(wantLeft, name)
				}
			}
			if !slices.Equal(left, wantLeft) {
				t.Errorf("left out %q, want %q", left, wantLeft)
			}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if len(lines) != len(fullLines) {
				t.Fatalf("%d lines, the full table %d", len(lines), len(fullLines))
			}
			for i, line := range lines {
				if tt.width > 0 && tt.kept > 5 && utf8.RuneCountInString(line) > tt.width {
					t.Errorf("line %d is %d characters, over %d: %q", i, utf8.RuneCountInString(line), tt.width, line)
				}
				fullLine := []rune(fullLines[i])
				var parts []string
				for _, c := range kept {
					padded := append(fullLine, []rune(strings.Repeat(" ", starts[c]+widths[c]))...)
					parts = append(parts, string(padded[starts[c]:starts[c]+widths[c]]))
				}
				if want := strings.TrimRight(strings.Join(parts, "  "), " "); line != want {
					t.Errorf("line %d:\n got %q\nwant %q", i, line, want)
				}
			}
			if tt.kept == len(tableFitOrder) && b.String() != full.String() {
				t.Error("the table with every column differs from WriteTable's")
			}
		})
	}
}

// TestRenderPanics: a panic while a tree is written, on whichever core,
// comes out of render on the calling goroutine as a pipeline.PanicError
// with the stack where it happened, instead of ending the program there,
// and no writer is left behind.
func TestRenderPanics(t *testing.T) {
	f, _ := build(t, archivegen.Bytes(archivegen.Options{Seed: 1, Shape: archivegen.Headers}, 64<<10), Options{}, 0)
	trees := len(f.Trees())
	if trees < 20 {
		t.Fatalf("%d trees, too few", trees)
	}
	for _, at := range []int{0, 1, trees / 2, trees - 1} {
		t.Run(fmt.Sprint("tree ", at), func(t *testing.T) {
			before := runtime.NumGoroutine()
			var v any
			func() {
				defer func() { v = recover() }()
				err := f.render(bufio.NewWriter(io.Discard), io.Discard, func(i int, _ *Tree, _ *walkMemory, dst []byte, _ *pieces) ([]byte, error) {
					if i == at {
						panicInRender()
					}
					return append(dst, "row\n"...), nil
				})
				t.Fatalf("render returned %v, want a panic", err)
			}()
			p, ok := v.(*pipeline.PanicError)
			if !ok {
				t.Fatalf("render panicked with %T %v, want a *pipeline.PanicError", v, v)
			}
			if p.Value != "tree writer exploded" || !bytes.Contains(p.Stack, []byte("tree.panicInRender(")) {
				t.Errorf("PanicError %v, stack:\n%s", p, p.Stack)
			}
			for i := 0; runtime.NumGoroutine() > before; i++ {
				if i == 100 {
					t.Fatalf("%d goroutines after render, %d before", runtime.NumGoroutine(), before)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// panicInRender panics: a function of its own, so that the stack names it.
func panicInRender() { panic("tree writer exploded") }
