package tree

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
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

// fixed formats x with prec decimals, or "" for NaN.
func fixed(x float64, prec int) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

// cells returns a move's row as the text of Columns.
func cells(t *Tree, n *Node, m *Move) []string {
	sp := ""
	if t.root.SP >= 0 {
		sp = strconv.Itoa(t.root.SP)
	}
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	return []string{
		sp, strconv.Itoa(n.Ply), n.Line, m.SAN, i(m.Games), i(m.WhiteWins), i(m.Draws), i(m.BlackWins),
		fixed(m.Score, 4), fixed(m.ScoreLow, 4), fixed(m.ScoreHigh, 4), fixed(m.DrawRate, 4),
		fixed(m.AvgElo, 0), fixed(m.Performance, 0), fixed(m.AvgYear, 1), m.LastPlayed, m.UCI, n.FEN,
	}
}

// each calls fn for every move of every position of every tree, in the
// order of Trees and Tree.Nodes.
func (f *Forest) each(opts WalkOptions, fn func(t *Tree, n *Node, m *Move) error) error {
	for _, t := range f.Trees() {
		nodes := t.Nodes(opts)
		for i := range nodes {
			for k := range nodes[i].Moves {
				if err := fn(t, &nodes[i], &nodes[i].Moves[k]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// WriteCSV writes one row per move of every position, with a header row
// of Columns. Empty cells have nothing to be derived from.
func (f *Forest) WriteCSV(w io.Writer, opts WalkOptions) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Columns); err != nil {
		return fmt.Errorf("writing CSV: %w", err)
	}
	err := f.each(opts, func(t *Tree, n *Node, m *Move) error { return cw.Write(cells(t, n, m)) })
	if err == nil {
		cw.Flush()
		err = cw.Error()
	}
	if err != nil {
		return fmt.Errorf("writing CSV: %w", err)
	}
	return nil
}

// tableColumns are the columns WriteTable shows: those of Columns but the
// UCI move and the FEN, which make rows too wide to read.
const tableColumns = 16

// WriteTable writes the rows as aligned columns for a terminal: numbers
// right-aligned, and sp, ply and line only on the first row of each
// position.
func (f *Forest) WriteTable(w io.Writer, opts WalkOptions) error {
	var rows [][]string
	var last *Node
	err := f.each(opts, func(t *Tree, n *Node, m *Move) error {
		c := cells(t, n, m)[:tableColumns]
		if n == last {
			c[0], c[1], c[2] = "", "", ""
		}
		last = n
		rows = append(rows, c)
		return nil
	})
	if err != nil {
		return err
	}
	width := make([]int, tableColumns)
	head := Columns[:tableColumns]
	for i, h := range head {
		width[i] = len(h)
	}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	bw := bufio.NewWriter(w)
	left := func(i int) bool { return i == 2 || i == 3 || i == 15 }
	line := func(r []string) {
		var sb strings.Builder
		for i, c := range r {
			if i > 0 {
				sb.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if left(i) {
				if i == len(r)-1 {
					pad = ""
				}
				sb.WriteString(c + pad)
			} else {
				sb.WriteString(pad + c)
			}
		}
		bw.WriteString(strings.TrimRight(sb.String(), " ") + "\n")
	}
	line(head)
	for _, r := range rows {
		line(r)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the table: %w", err)
	}
	return nil
}
