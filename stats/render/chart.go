package render

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ChartFormat returns the image format for a chart file's name: "svg" or
// "png", from its extension, looking through a compression extension as
// FormatOf does.
func ChartFormat(name string) (string, error) {
	bare := name
	if stream.ByExtension(name) != stream.None {
		bare = strings.TrimSuffix(name, filepath.Ext(name))
	}
	switch ext := strings.ToLower(filepath.Ext(bare)); ext {
	case ".svg", ".png":
		return ext[1:], nil
	}
	return "", fmt.Errorf("%s: a chart is written as .svg or .png", name)
}

// labelledTicks is the largest number of positions whose numbers are
// written under the x axis; beyond it they would overlap.
const labelledTicks = 40

// Chart draws White's score per start position with its 95% interval as an
// error bar, positions sorted by score from left to right, and the score
// over all games as a horizontal line. Positions with no finished game
// have no score and are left out. Rows come from opts as for Rows, apart
// from the order; format is "svg" or "png". Grouped Stats get one panel
// per group, one above the other, at most MaxPanels: those of the groups
// with the most games, in the groups' order.
func Chart(w io.Writer, s *stats.Stats, format string, opts stats.Options) error {
	return ReportChart(w, &stats.Report{Stats: s, Options: opts}, format)
}

// ReportChart draws the chart of Chart from the report's rows, which a
// report written in other formats too has made already: a table of
// hundreds of thousands of rows is then not made twice.
func ReportChart(w io.Writer, rep *stats.Report, format string) error {
	if err := rep.Check(); err != nil {
		return err
	}
	return drawPanels(w, chartPanels(allPanels(rep.Stats, rep.Rows())), format, rep.Options)
}

// chartPanels returns the panels a chart draws: the MaxPanels of the most
// games among those with games, each with its rows that have games.
func chartPanels(panels []panel) []panel {
	panels = slices.DeleteFunc(panels, func(p panel) bool {
		return !slices.ContainsFunc(p.rows, func(r stats.Row) bool { return r.Games > 0 })
	})
	panels = mostPlayed(panels, MaxPanels)
	for i := range panels {
		panels[i].rows = played(panels[i].rows)
	}
	return panels
}

// MaxPanels is the most groups a chart draws, one panel each.
const MaxPanels = 24

// played returns the rows with games: the chart leaves out the positions
// never played that Options.All adds. The rows are copied only when some
// are left out.
func played(rows []stats.Row) []stats.Row {
	n := 0
	for i := range rows {
		if rows[i].Games > 0 {
			n++
		}
	}
	if n == len(rows) {
		return rows
	}
	kept := make([]stats.Row, 0, n)
	for i := range rows {
		if rows[i].Games > 0 {
			kept = append(kept, rows[i])
		}
	}
	return kept
}

// A panel is one chart: a table's rows and the pooled score they are
// compared with.
type panel struct {
	title   string // the group, or "" for ungrouped Stats
	rows    []stats.Row
	overall stats.Row
}

// allPanels returns one panel for ungrouped Stats, else one per group
// with rows, from rows, s's rows made without Options.All: a chart shows
// only the positions played.
func allPanels(s *stats.Stats, rows []stats.Row) []panel {
	if len(s.GroupBy()) == 0 {
		return []panel{{rows: rows, overall: s.Overall()}}
	}
	names := s.GroupBy()
	groups := s.Groups() // in the order of the rows' runs
	var panels []panel
	k := 0
	for _, run := range byGroup(rows) {
		for !sameGroup(groups[k].Values, run[0].Group) {
			k++ // a group whose rows were all left out
		}
		panels = append(panels, panel{title: groupTitle(names, run[0].Group), rows: run, overall: groups[k].Overall()})
	}
	return panels
}

// mostPlayed keeps the n panels of the most games, in their order.
func mostPlayed(panels []panel, n int) []panel {
	if len(panels) <= n {
		return panels
	}
	order := make([]int, len(panels))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(panels[b].overall.Games, panels[a].overall.Games) })
	keep := order[:n]
	slices.Sort(keep)
	kept := make([]panel, 0, n)
	for _, i := range keep {
		kept = append(kept, panels[i])
	}
	return kept
}

// byGroup cuts rows, which Rows gives group after group, into one run per
// group.
func byGroup(rows []stats.Row) [][]stats.Row {
	var runs [][]stats.Row
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && sameGroup(rows[i].Group, rows[j].Group) {
			j++
		}
		runs = append(runs, rows[i:j])
		i = j
	}
	return runs
}

func sameGroup(a, b []stats.GroupValue) bool { return slices.Equal(a, b) }

// groupTitle names a group: "speed = blitz, elo_band = 1800".
func groupTitle(names []string, values []stats.GroupValue) string {
	parts := make([]string, len(values))
	for i, v := range values {
		text := v.String()
		if v.Missing {
			text = "(none)"
		}
		parts[i] = names[i] + " = " + text
	}
	return strings.Join(parts, ", ")
}

// drawPanels draws the panels one above the other.
func drawPanels(w io.Writer, panels []panel, format string, opts stats.Options) error {
	plots := make([][]*plot.Plot, len(panels))
	for i := range panels {
		p, err := plotScores(&panels[i], opts)
		if err != nil {
			return err
		}
		plots[i] = []*plot.Plot{p}
	}
	height := 5 * vg.Inch
	if len(panels) > 1 {
		height = vg.Length(len(panels)) * 3.5 * vg.Inch
	}
	c, err := draw.NewFormattedCanvas(10*vg.Inch, height, format)
	if err != nil {
		return fmt.Errorf("drawing the chart: %w", err)
	}
	if len(plots) > 0 {
		dc := draw.New(c)
		canvases := plot.Align(plots, draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(12)}, dc)
		for i := range plots {
			plots[i][0].Draw(canvases[i][0])
		}
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("writing the chart: %w", err)
	}
	return nil
}

// scored returns the rows that have a score, from worst to best for White.
func scored(rows []stats.Row) []stats.Row {
	rows = slices.DeleteFunc(slices.Clone(rows), func(r stats.Row) bool { return r.WhiteWins+r.Draws+r.BlackWins == 0 })
	slices.SortStableFunc(rows, func(a, b stats.Row) int { return cmp.Compare(a.WhiteScore, b.WhiteScore) })
	return rows
}

// errBars is the rows' scores with their intervals, for plotter.YErrorBars.
type errBars []stats.Row

func (e errBars) Len() int                { return len(e) }
func (e errBars) XY(i int) (x, y float64) { return float64(i + 1), e[i].WhiteScore }
func (e errBars) YError(i int) (low, high float64) {
	return e[i].WhiteScore - e[i].ScoreLow, e[i].ScoreHigh - e[i].WhiteScore
}

var (
	markColour = color.RGBA{R: 0x1f, G: 0x5f, B: 0xa8, A: 0xff}
	barColour  = color.RGBA{R: 0x8a, G: 0xa9, B: 0xcf, A: 0xff}
	meanColour = color.RGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff}
)

func plotScores(pn *panel, opts stats.Options) (*plot.Plot, error) {
	rows := scored(pn.rows)
	n := len(rows)
	overall := pn.overall

	p := plot.New()
	p.Title.Text = "White's score per start position, with 95% Wilson intervals"
	if pn.title != "" {
		p.Title.Text = pn.title + ": " + p.Title.Text
	}
	keyName := "Scharnagl SP"
	if opts.By == numbering.Fritz9 {
		keyName = "Fritz9 number"
	}
	p.X.Label.Text = fmt.Sprintf("%d start positions, sorted by White's score", n)
	if n <= labelledTicks {
		p.X.Label.Text += " (" + keyName + ")"
	}
	p.Y.Label.Text = "White's score (wins + draws/2) / finished games"
	// Headroom above 1 holds the legend, which would otherwise sit on the
	// intervals of the worst positions, drawn top left.
	p.Y.Min, p.Y.Max = 0, 1.13
	p.Y.Tick.Marker = plot.ConstantTicks(yTicks())
	p.X.Min, p.X.Max = 0, float64(n)+1
	p.Add(plotter.NewGrid())

	// Marks shrink as positions get many, so that 960 of them stay apart.
	radius, width := vg.Points(3.5), vg.Points(1.2)
	switch {
	case n > 400:
		radius, width = vg.Points(1.1), vg.Points(0.35)
	case n > 100:
		radius, width = vg.Points(1.6), vg.Points(0.5)
	case n > labelledTicks:
		radius, width = vg.Points(2.2), vg.Points(0.8)
	}
	if n > 0 {
		bars, err := plotter.NewYErrorBars(errBars(rows))
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		bars.LineStyle.Color = barColour
		bars.LineStyle.Width = width
		bars.CapWidth = 2 * radius
		p.Add(bars)

		pts := make(plotter.XYs, n)
		for i := range rows {
			pts[i].X, pts[i].Y = errBars(rows).XY(i)
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: markColour, Radius: radius, Shape: draw.CircleGlyph{}}
		p.Add(sc)
		p.Legend.Add("White's score", sc)
	}
	if n <= labelledTicks {
		ticks := make([]plot.Tick, n)
		for i := range rows {
			key := rows[i].SP
			if opts.By == numbering.Fritz9 {
				key = rows[i].Fritz9
			}
			ticks[i] = plot.Tick{Value: float64(i + 1), Label: fmt.Sprint(key)}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		if n > 15 {
			p.X.Tick.Label.Rotation = 1.5708 // quarter turn: numbers stay apart
			p.X.Tick.Label.XAlign = draw.XRight
			p.X.Tick.Label.YAlign = draw.YCenter
		}
	} else {
		p.X.Tick.Marker = plot.ConstantTicks(nil)
	}
	if n > 0 {
		mean := overall.WhiteScore
		line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: mean}, {X: float64(n) + 1, Y: mean}})
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		line.LineStyle = draw.LineStyle{Color: meanColour, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
		p.Add(line)
		finished := overall.WhiteWins + overall.Draws + overall.BlackWins
		p.Legend.Add(fmt.Sprintf("all %s: %.3f", words.Count(finished, "finished game", "finished games"), mean), line)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	return p, nil
}

func yTicks() []plot.Tick {
	var t []plot.Tick
	for i := 0; i <= 10; i++ {
		v := float64(i) / 10
		label := ""
		if i%2 == 0 {
			label = fmt.Sprintf("%.1f", v)
		}
		t = append(t, plot.Tick{Value: v, Label: label})
	}
	return t
}
