package tree

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/frctool/frctool/internal/csvfield"
	"github.com/frctool/frctool/pipeline"
)

// Columns are the columns of WriteCSV and WriteTable, one row per move of
// a position. sp is the tree's Scharnagl number (empty for a start that
// is no Chess960 array), ply and line say where the position is (line
// leads to it, move is played from it), and fen is the position itself.
var Columns = []string{
	"sp", "ply", "line", "move", "games", "white_wins", "draws", "black_wins",
	"score", "score_low", "score_high", "draw_rate", "avg_elo", "performance",
	"avg_year", "last_played", "uci", "fen",
}

// pow10 are the scales of appendFixed's precisions.
var pow10 = [...]float64{1, 10, 100, 1000, 10000}

// appendFixed appends x with prec decimals (at most 4), nothing for NaN.
// Rows have a dozen figures each, and rounding to an integer and writing
// its digits costs a fraction of strconv's general formatting; numbers
// too large for that go to strconv.
func appendFixed(dst []byte, x float64, prec int) []byte {
	if math.IsNaN(x) {
		return dst
	}
	if prec >= len(pow10) || math.Abs(x) >= 1e12 {
		return strconv.AppendFloat(dst, x, 'f', prec, 64)
	}
	n := int64(math.Round(x * pow10[prec]))
	// A score or a rate, a rating and a mean year are most of a row's
	// figures, and have as many digits every time.
	switch {
	case prec == 4 && n >= 0 && n < 1e4:
		hi, lo := 2*(n/100), 2*(n%100)
		return append(dst, '0', '.', digitPairs[hi], digitPairs[hi+1], digitPairs[lo], digitPairs[lo+1])
	case prec == 0 && n >= 1e3 && n < 1e4:
		hi, lo := 2*(n/100), 2*(n%100)
		return append(dst, digitPairs[hi], digitPairs[hi+1], digitPairs[lo], digitPairs[lo+1])
	case prec == 1 && n >= 1e4 && n < 1e5:
		hi, lo := 2*(n/1000), 2*(n/10%100)
		return append(dst, digitPairs[hi], digitPairs[hi+1], digitPairs[lo], digitPairs[lo+1], '.', byte('0'+n%10))
	}
	u := uint64(n)
	if n < 0 {
		u = uint64(-n)
	}
	// The digits are written from the last, the point placed on the way.
	var buf [24]byte
	i := len(buf)
	for range prec {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
	}
	if prec > 0 {
		i--
		buf[i] = '.'
	}
	i = putInt(buf[:], i, u, n < 0)
	return append(dst, buf[i:]...)
}

// putInt writes the digits of u, with a '-' before them when neg, into
// buf to end before i, and returns where they start: the whole part of
// the figures written from their last digit.
func putInt(buf []byte, i int, u uint64, neg bool) int {
	for {
		i--
		buf[i] = byte('0' + u%10)
		if u /= 10; u == 0 {
			break
		}
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return i
}

// digitPairs are the numbers 00 to 99, two digits each.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// appendCount appends n, which is most often a single digit.
func appendCount(dst []byte, n int64) []byte {
	if uint64(n) < 10 {
		return append(dst, byte('0'+n))
	}
	return strconv.AppendInt(dst, n, 10)
}

// pieceSize is the size a tree's output is written in: a buffer full
// is handed to the writer, so that a tree of millions of positions is
// never held written whole.
const pieceSize = 128 << 10

// errStopped ends a tree's rendering once writing has failed.
var errStopped = errors.New("writing stopped")

// pieces is how fn hands the output of a tree over: full returns whether
// the buffer is large enough to hand over, and flush hands it over and
// returns an empty one.
type pieces struct {
	out  chan []byte
	free chan []byte
	quit chan struct{}
}

func (p *pieces) full(b []byte) bool { return len(b) >= pieceSize }

func (p *pieces) flush(b []byte) ([]byte, error) {
	if err := p.send(b); err != nil {
		return b[:0], err
	}
	return p.buffer(), nil
}

// send hands b over to be written.
func (p *pieces) send(b []byte) error {
	select {
	case p.out <- b:
		return nil
	case <-p.quit:
		return errStopped
	}
}

// buffer returns an empty buffer, one the writer is done with if there
// is one.
func (p *pieces) buffer() []byte {
	select {
	case b := <-p.free:
		return b[:0]
	default:
		// A piece ends past pieceSize by at most a position's rows.
		return make([]byte, 0, pieceSize+pieceSize/2)
	}
}

// render writes the trees in the order of Trees, each turned into bytes
// by fn, a piece at a time, through bw to w. Trees are rendered on every
// core at once, since working out positions and moves in SAN costs more
// than reading the games did; at most two trees per core are under way,
// each with a few pieces waiting to be written, so memory stays bounded
// however large the trees. A panic in fn comes out of render on the
// calling goroutine, as a *pipeline.PanicError, once the others stop.
func (f *Forest) render(bw *bufio.Writer, w io.Writer, fn func(i int, t *Tree, m *walkMemory, dst []byte, p *pieces) ([]byte, error)) error {
	trees := f.Trees()
	workers := min(runtime.GOMAXPROCS(0), max(len(trees), 1))
	type result struct {
		pieces
		err error
	}
	free := make(chan []byte, 12*workers+2)
	quit := make(chan struct{})
	results := make([]result, len(trees))
	for i := range results {
		results[i].pieces = pieces{out: make(chan []byte, 4), free: free, quit: quit}
	}
	slots := make(chan struct{}, 2*workers) // trees under way
	todo := make(chan int)
	var wg sync.WaitGroup
	go func() {
		defer close(todo)
		for i := range trees {
			select {
			case slots <- struct{}{}:
			case <-quit:
				return
			}
			select {
			case todo <- i:
			case <-quit:
				return
			}
		}
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r *result
			// A panic here would end the program before the caller
			// could remove its temporary files: it becomes the tree's
			// error, and render panics with it once the workers stop.
			defer func() {
				if v := recover(); v != nil && r != nil {
					r.err = pipeline.PanicErrorOf(v)
					close(r.out)
				}
			}()
			var m walkMemory
			for i := range todo {
				r = &results[i]
				buf, err := fn(i, trees[i], &m, r.buffer(), &r.pieces)
				if r.err = err; err == nil && len(buf) > 0 {
					r.err = r.send(buf)
				} else {
					// Nothing to write (a tree of no rows, or a tree
					// whose last piece was just handed over): the buffer
					// serves the next tree, not the garbage collector.
					select {
					case free <- buf[:0]:
					default:
					}
				}
				close(r.out)
				r = nil
			}
		}()
	}
	var err error
	for i := range results {
		r := &results[i]
		for b := range r.out {
			if err == nil && len(b) > 0 {
				err = writePiece(bw, w, b)
			}
			select {
			case free <- b:
			default:
			}
		}
		if err == nil && r.err != nil {
			err = r.err
		}
		if err != nil {
			break
		}
		<-slots
	}
	close(quit)
	wg.Wait()
	if p, ok := err.(*pipeline.PanicError); ok {
		panic(p)
	}
	return err
}

// writePiece writes b through bw to w: a full piece goes to w as it is,
// since copying it into bw first would copy every byte of a large tree
// once more, while small trees' pieces are gathered in bw.
func writePiece(bw *bufio.Writer, w io.Writer, b []byte) error {
	if len(b) < pieceSize {
		_, err := bw.Write(b)
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(b)
	return err
}

// WriteCSV writes one row per move of every position, with a header row
// of Columns. Empty cells have nothing to be derived from.
func (f *Forest) WriteCSV(w io.Writer, opts WalkOptions) error {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(f)
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.WriteString(strings.Join(Columns, ",") + "\n")
	err := f.render(bw, w, func(_ int, t *Tree, m *walkMemory, dst []byte, p *pieces) ([]byte, error) {
		// The cells a position's rows share are written once, into head.
		var head []byte
		if t.root.SP >= 0 {
			head = strconv.AppendInt(head, int64(t.root.SP), 10)
		}
		head = append(head, ',')
		sp := len(head)
		plain := plainLine(t.root.Moves)
		err := t.walkIn(m, nil, opts, func(v *view) error {
			head = appendCount(head[:sp], int64(v.ply))
			head = append(head, ',')
			if plain {
				head = append(head, v.line...)
			} else {
				head = csvfield.Append(head, v.line)
			}
			head = append(head, ',')
			for k := range v.moves {
				dst = appendCSVRow(dst, head, v.fen, &v.moves[k])
			}
			var err error
			if p.full(dst) {
				dst, err = p.flush(dst)
			}
			return err
		})
		return dst, err
	})
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return fmt.Errorf("writing CSV: %w", err)
	}
	return nil
}

// plainLine reports whether every line of a tree whose root is reached
// by moves is plain text, which neither CSV nor JSON quotes or escapes:
// the moves of a walk are appended in SAN with move numbers, which is
// plain, and a line starts with moves or with the first number. Moves
// written by this package are plain too, but a JSON document read back
// may say anything.
func plainLine(moves string) bool {
	if moves != "" && (moves[0] < '0' || moves[0] > '9') {
		return false
	}
	for i := range len(moves) {
		if c := moves[i]; c < ' ' || c >= 0x7f || c == ',' || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// appendCSVRow appends the row of move m from a position whose first
// cells, up to its move, are head. The SAN, UCI and FEN a walk writes
// never need quotes.
func appendCSVRow(dst, head, fen []byte, m *moveView) []byte {
	c := &m.c
	dst = append(dst, head...)
	dst = append(dst, m.san...)
	dst = append(dst, ',')
	var fig figures
	if k := oneGame(c); k >= 0 {
		// Most moves of a large tree are one finished game's: their
		// counts and the figures from them are one of three.
		dst = append(dst, oneGameCells[k]...)
		fig.elo, fig.perf, fig.year = ratingFigures(c)
	} else {
		fig = figuresOf(c)
		dst = appendCountCells(dst, c, &fig)
	}
	dst = appendFixed(dst, fig.elo, 0)
	dst = append(dst, ',')
	dst = appendFixed(dst, fig.perf, 0)
	dst = append(dst, ',')
	dst = appendFixed(dst, fig.year, 1)
	dst = append(dst, ',')
	dst = appendDate(dst, c.Last)
	dst = append(dst, ',')
	dst = append(dst, m.uci...)
	dst = append(dst, ',')
	dst = append(dst, fen...)
	return append(dst, '\n')
}

// appendCountCells appends the cells from games to draw_rate, each
// followed by its comma.
func appendCountCells(dst []byte, c *Counts, fig *figures) []byte {
	dst = appendCount(dst, c.Games)
	dst = append(dst, ',')
	dst = appendCount(dst, c.WhiteWins)
	dst = append(dst, ',')
	dst = appendCount(dst, c.Draws)
	dst = append(dst, ',')
	dst = appendCount(dst, c.BlackWins)
	dst = append(dst, ',')
	dst = appendFixed(dst, fig.score, 4)
	dst = append(dst, ',')
	dst = appendFixed(dst, fig.low, 4)
	dst = append(dst, ',')
	dst = appendFixed(dst, fig.high, 4)
	dst = append(dst, ',')
	dst = appendFixed(dst, fig.drawRate, 4)
	return append(dst, ',')
}

// oneGame returns 0, 1 or 2 for the counts of one game White won, drew
// or Black won, and -1 for any other counts.
func oneGame(c *Counts) int {
	if c.Games != 1 {
		return -1
	}
	switch {
	case c.WhiteWins == 1 && c.Draws == 0 && c.BlackWins == 0:
		return 0
	case c.WhiteWins == 0 && c.Draws == 1 && c.BlackWins == 0:
		return 1
	case c.WhiteWins == 0 && c.Draws == 0 && c.BlackWins == 1:
		return 2
	}
	return -1
}

// oneGameCells are the cells appendCountCells writes for one game won by
// White, drawn and won by Black. They are written out rather than worked
// out at start-up; TestOneGameCells holds them to appendCountCells.
var oneGameCells = [3][]byte{
	[]byte("1,1,0,0,1.0000,0.2065,1.0000,0.0000,"),
	[]byte("1,0,1,0,0.5000,0.0546,0.9454,1.0000,"),
	[]byte("1,0,0,1,0.0000,0.0000,0.7935,0.0000,"),
}

// tableColumns are the columns WriteTable shows: those of Columns but the
// UCI move and the FEN, which make rows too wide to read.
const tableColumns = 16

// WriteTable writes the rows as aligned columns for a terminal: numbers
// right-aligned, and sp, ply and line only on the first row of each
// position. The forest is walked twice, first for the columns' widths,
// then to write the rows, so that a table takes no memory beyond a row's:
// held whole, the table of a tree of a million positions took more than
// the forest.
func (f *Forest) WriteTable(w io.Writer, opts WalkOptions) error {
	_, err := f.WriteTableWithin(w, opts, 0)
	return err
}

// WriteTableWithin writes the table as WriteTable does, in lines of at
// most width characters (0: any) when its columns allow: it keeps sp, ply,
// line, move, games and the score with its interval, then as many of the
// draw rate, the results, the ratings and the dates as fit, and returns
// the names of those it left out, in Columns' order.
func (f *Forest) WriteTableWithin(w io.Writer, opts WalkOptions, width int) (left []string, err error) {
	// Pointers into the store's chunks are used below (see newArena).
	defer runtime.KeepAlive(f)
	var widths [tableColumns]int
	var head [tableColumns][]byte
	for i, h := range Columns[:tableColumns] {
		head[i] = []byte(h)
		widths[i] = len(h)
	}
	if err := f.tableRows(opts, func(cells *[tableColumns][]byte) error {
		for i, c := range cells {
			widths[i] = max(widths[i], utf8.RuneCount(c))
		}
		return nil
	}); err != nil {
		return nil, err
	}
	var shown [tableColumns]bool
	used := -2 // two blanks between columns
	for i, unit := range tableFitOrder {
		w := 0
		for _, c := range unit {
			w += widths[c] + 2
		}
		if width > 0 && used+w > width && i >= 5 {
			break
		}
		used += w
		for _, c := range unit {
			shown[c] = true
		}
	}
	for i, on := range shown {
		if !on {
			left = append(left, Columns[i])
		}
	}
	bw := bufio.NewWriter(w)
	line := appendLine(nil, &widths, &shown, &head)
	bw.Write(line)
	if err := f.tableRows(opts, func(cells *[tableColumns][]byte) error {
		line = appendLine(line[:0], &widths, &shown, cells)
		_, err := bw.Write(line)
		return err
	}); err != nil {
		return left, fmt.Errorf("writing the table: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return left, fmt.Errorf("writing the table: %w", err)
	}
	return left, nil
}

// tableFitOrder is the order in which WriteTableWithin keeps the table's
// columns, by their index in Columns; columns read together, as an
// interval's two ends, are kept or left out together.
var tableFitOrder = [][]int{
	{0}, {1}, {2}, {3}, {4}, {8}, {9, 10}, // sp ply line move games score score_low score_high
	{11}, {5, 6, 7}, {12}, {13}, {15}, {14}, // draw_rate, the results, avg_elo performance last_played avg_year
}

// tableRows calls fn with the cells of each row of the table in turn; the
// cells hold until fn returns.
func (f *Forest) tableRows(opts WalkOptions, fn func(cells *[tableColumns][]byte) error) error {
	var m walkMemory
	var text []byte
	var ends [tableColumns]int
	var cells [tableColumns][]byte
	for _, t := range f.Trees() {
		var sp []byte
		if t.root.SP >= 0 {
			sp = strconv.AppendInt(nil, int64(t.root.SP), 10)
		}
		err := t.walkIn(&m, nil, opts, func(v *view) error {
			for k := range v.moves {
				m := &v.moves[k]
				c := &m.c
				fig := figuresOf(c)
				text = text[:0]
				i := 0
				cell := func(b []byte) {
					text = b
					ends[i] = len(text)
					i++
				}
				if k == 0 {
					cell(append(text, sp...))
					cell(appendCount(text, int64(v.ply)))
					cell(append(text, v.line...))
				} else {
					cell(text)
					cell(text)
					cell(text)
				}
				cell(append(text, m.san...))
				cell(appendCount(text, c.Games))
				cell(appendCount(text, c.WhiteWins))
				cell(appendCount(text, c.Draws))
				cell(appendCount(text, c.BlackWins))
				cell(appendFixed(text, fig.score, 4))
				cell(appendFixed(text, fig.low, 4))
				cell(appendFixed(text, fig.high, 4))
				cell(appendFixed(text, fig.drawRate, 4))
				cell(appendFixed(text, fig.elo, 0))
				cell(appendFixed(text, fig.perf, 0))
				cell(appendFixed(text, fig.year, 1))
				cell(appendDate(text, c.Last))
				from := 0
				for j, end := range ends {
					cells[j] = text[from:end]
					from = end
				}
				if err := fn(&cells); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// tableSpaces pad the cells of a table.
const tableSpaces = "                                                                "

// appendLine appends a row of the shown cells padded to the columns'
// widths, with no blanks at its end.
func appendLine(dst []byte, width *[tableColumns]int, shown *[tableColumns]bool, cells *[tableColumns][]byte) []byte {
	pad := func(n int) {
		for ; n > 0; n -= len(tableSpaces) {
			dst = append(dst, tableSpaces[:min(n, len(tableSpaces))]...)
		}
	}
	first := true
	for i, c := range cells {
		if !shown[i] {
			continue
		}
		if !first {
			dst = append(dst, ' ', ' ')
		}
		first = false
		n := width[i] - utf8.RuneCount(c)
		if i == 2 || i == 3 || i == 15 {
			dst = append(dst, c...)
			pad(n)
		} else {
			pad(n)
			dst = append(dst, c...)
		}
	}
	for len(dst) > 0 && dst[len(dst)-1] == ' ' {
		dst = dst[:len(dst)-1]
	}
	return append(dst, '\n')
}
