package render

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/stats"
)

// The page is one file with everything inline, CSS and the chart as SVG,
// so that it can be mailed or archived and opened with no network. The
// back-rank diagrams are Unicode chess glyphs on CSS squares: no images
// and no web fonts. It is parsed on first use, not at start-up, which
// every command would pay for.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		// Column names may break after an underscore, keeping the table narrow.
		"breakable": func(s string) template.HTML {
			return template.HTML(strings.ReplaceAll(template.HTMLEscapeString(s), "_", "_<wbr>")) //nolint:gosec // escaped first
		},
		"games":  func(n int64) string { return words.Count(n, "game", "games") },
		"groups": func(n int) string { return words.Count(n, "group", "groups") },
	}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 2rem auto; max-width: 100rem; padding: 0 1rem; color: #1d2329; background: #fbfbfa; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; }
p.note { color: #5b6670; margin-top: 0; font-size: .9rem; }
dl.totals { display: grid; grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); gap: .6rem; margin: 1.2rem 0; }
dl.totals div { background: #fff; border: 1px solid #dde2e6; border-radius: 6px; padding: .5rem .8rem; }
dl.totals dt { font-size: .75rem; color: #5b6670; text-transform: uppercase; letter-spacing: .04em; }
dl.totals dd { margin: 0; font-size: 1.35rem; font-variant-numeric: tabular-nums; }
figure { margin: 1rem 0; background: #fff; border: 1px solid #dde2e6; border-radius: 6px; padding: .5rem; }
figure svg { width: 100%; height: auto; display: block; }
figcaption { font-size: .85rem; color: #5b6670; padding: .3rem .5rem; }
table { border-collapse: collapse; font-size: .85rem; font-variant-numeric: tabular-nums; background: #fff; }
th, td { padding: .2rem .45rem; border-bottom: 1px solid #e6e9ec; text-align: right; white-space: nowrap; }
th { position: sticky; top: 0; background: #eef1f4; font-weight: 600; white-space: normal; vertical-align: bottom; }
td.rank, th.rank { text-align: left; }
.scroll { overflow-x: auto; }
tbody tr:hover { background: #f3f7fb; }
tbody tr.sig { background: #fff4d6; }
p.pick { margin: 1.2rem 0; }
p.pick select { font-size: 1rem; padding: .2rem; }
h2.group { border-top: 2px solid #dde2e6; padding-top: 1rem; }
.board { display: inline-flex; border: 1px solid #6b5a45; vertical-align: middle; }
.board + .board { margin-left: .35rem; }
.board span { width: 1.3em; height: 1.3em; line-height: 1.3em; text-align: center; font-size: 1.05rem; font-family: "DejaVu Sans", "Segoe UI Symbol", "Noto Sans Symbols 2", serif; color: #111; }
.board span.l { background: #f0d9b5; }
.board span.d { background: #b58863; }
.letters { font-family: ui-monospace, "DejaVu Sans Mono", monospace; color: #5b6670; margin-left: .4rem; font-size: .8rem; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="note">White's score is (wins + draws/2) over finished games; its 95% interval is Wilson's score interval. Unfinished games (<code>*</code> or no result) count in games only. Written by frctool stats.</p>
<dl class="totals">
{{range .Totals}}<div><dt>{{.Name}}</dt><dd>{{.Value}}</dd></div>
{{end}}</dl>
<p class="note">p_value tests whether a position's games score differently from the other games of its table{{if .GroupBy}} and group{{end}} (Welch's z on White's score, or on the score minus the Elo expectation when at least 90% of the games are rated); significant marks the rows that stay so after the Benjamini-Hochberg correction over all rows at a false discovery rate of {{.FDR}}. Significant rows are shaded.</p>
{{if .Left}}<p class="note left">{{.Left}}</p>
{{end}}{{if .GroupBy}}<p class="pick"><label for="group">{{.GroupBy}}:</label> <select id="group"><option value="">all {{groups .Shown}}{{if .Left}} shown{{end}}</option>{{range $i, $g := .Groups}}<option value="g{{$i}}">{{$g.Title}} ({{games $g.Games}})</option>{{end}}</select></p>{{end}}
{{range $i, $g := .Groups}}<section class="group" id="g{{$i}}">
{{if $g.Title}}<h2 class="group">{{$g.Title}}</h2>{{end}}
{{if $g.Chart}}<figure>{{$g.Chart}}<figcaption>Each mark is one start position with at least one finished game, with its interval, sorted by White's score; the dashed line is the score over all games{{if $g.Title}} of the group{{end}}.</figcaption></figure>{{end}}
<h2>Start positions ({{template "count" $g.Main}})</h2>
{{template "table" $g.Main}}
{{if $.WithDFRC}}<h2>DFRC pairs, White's back rank : Black's ({{template "count" $g.Pairs}})</h2>
{{template "table" $g.Pairs}}{{end}}
</section>
{{end}}
{{if .GroupBy}}<script>
// Show only the group picked; with no script every group shows.
(function () {
  var pick = document.getElementById("group");
  function show() {
    var sections = document.querySelectorAll("section.group");
    for (var i = 0; i < sections.length; i++) {
      sections[i].hidden = pick.value !== "" && sections[i].id !== pick.value;
    }
  }
  pick.addEventListener("change", show);
  show();
})();
</script>{{end}}
</body>
</html>
{{define "count"}}{{if lt (len .Rows) .Total}}the first {{len .Rows}} of {{.Total}}{{else}}{{.Total}}{{end}}{{end}}{{define "table"}}<div class="scroll"><table>
<thead><tr>{{range .Columns}}<th{{if eq . "rank"}} class="rank"{{end}}>{{breakable .}}</th>{{end}}</tr></thead>
<tbody>
{{range $r := .Rows}}<tr{{if $r.Significant}} class="sig"{{end}}>{{range $i, $c := $r.Cells}}{{if eq $i $.RankColumn}}<td class="rank">{{$r.Board}}</td>{{else}}<td>{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</tbody>
</table></div>{{end}}
`))
})

// htmlRow is a table row as the page shows it.
type htmlRow struct {
	Cells       []string
	Board       template.HTML // the back-rank diagram(s) and the letters
	Significant bool
}

type htmlTable struct {
	Columns    []string
	RankColumn int // the cell drawn as a diagram
	Rows       []htmlRow
	Total      int // the table's rows, of which Rows are the first
}

// htmlGroup is a group's part of the page: the whole page for ungrouped
// statistics.
type htmlGroup struct {
	Title       string
	Games       int64
	Chart       template.HTML
	Main, Pairs htmlTable

	main, pairs           []stats.Row
	shownMain, shownPairs int // how many of main and pairs the page shows
}

// MaxPageRows bounds the rows of the page's tables, all together: each
// takes about a kilobyte of the page, and the page is for reading in a
// browser. The groups of the most games come first; a page of one large
// table shows its first rows.
const MaxPageRows = 25_000

// pageGroups returns the groups the page shows, in their order: those of
// the most games whose rows fit within budget, or the first rows of the
// group of the most games when even its rows do not.
func pageGroups(groups []htmlGroup, budget int) []htmlGroup {
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(groups[b].Games, groups[a].Games) })
	var keep []int
	for _, i := range order {
		g := &groups[i]
		n := len(g.main) + len(g.pairs)
		if n > budget {
			if len(keep) == 0 { // the largest group alone is too large
				g.shownMain = min(len(g.main), budget)
				g.shownPairs = budget - g.shownMain
				keep = append(keep, i)
			}
			break
		}
		g.shownMain, g.shownPairs = len(g.main), len(g.pairs)
		budget -= n
		keep = append(keep, i)
	}
	slices.Sort(keep)
	shown := make([]htmlGroup, 0, len(keep))
	for _, i := range keep {
		shown = append(shown, groups[i])
	}
	return shown
}

type htmlPage struct {
	Title    string
	Totals   []struct{ Name, Value string }
	GroupBy  string
	Groups   []htmlGroup
	Shown    int    // the groups shown
	Left     string // what the page leaves out, when it does
	WithDFRC bool
	FDR      string
}

// WriteHTML writes one self-contained page: the totals, the chart inline
// as SVG, and the table with each row's back rank drawn as a diagram.
// Grouped statistics get a part per group, each with its chart (for the
// MaxPanels groups with the most games) and tables, and a menu that shows
// one group or all.
func WriteHTML(w io.Writer, rep *stats.Report, title string) error {
	if err := rep.Check(); err != nil {
		return err
	}
	s := rep.Stats
	overall := s.Overall()
	t := &s.Totals
	header := append(s.GroupBy(), stats.Columns...) // every column: the page's own layout
	table := func() htmlTable {
		return htmlTable{Columns: header, RankColumn: len(header) - len(stats.Columns) + 2}
	}
	page := htmlPage{
		Title:    title,
		GroupBy:  strings.Join(s.GroupBy(), ", "),
		WithDFRC: rep.WithDFRC,
		FDR:      strconv.FormatFloat(fdr(rep.Options)*100, 'f', -1, 64) + "%",
	}
	add := func(name string, v any) {
		page.Totals = append(page.Totals, struct{ Name, Value string }{name, fmt.Sprint(v)})
	}
	add("games read", t.Games)
	if s.Selected != t.Games {
		add("selected", s.Selected)
	}
	add("identified", t.Identified)
	add("start positions", s.Positions())
	add("DFRC games", t.DFRC)
	add("other positions", t.Other)
	add("unknown start", t.Unknown)
	add("warnings", t.Warnings)
	if !math.IsNaN(overall.WhiteScore) {
		add("White's score", fmt.Sprintf("%.3f", overall.WhiteScore))
		add("draw rate", fmt.Sprintf("%.3f", overall.DrawRate))
	}
	rows := rep.Rows()
	if sig, tested := stats.Significance(rows); tested > 0 {
		add("positions differing from the mean", fmt.Sprintf("%d of %d", sig, tested))
	}
	if title == "" {
		page.Title = "Chess960 statistics per start position"
	}
	// The report's rows serve the tables and the charts, which leave out
	// the positions never played.
	panels := allPanels(s, rows)
	charted := make(map[string]panel)
	for _, pn := range chartPanels(slices.Clone(panels)) {
		charted[pn.title] = pn
	}
	byTitle := make(map[string]panel)
	for _, pn := range panels {
		byTitle[pn.title] = pn
	}
	pairs := make(map[string][]stats.Row)
	if rep.WithDFRC {
		for _, run := range byGroup(rep.DFRCRows()) {
			pairs[groupTitle(s.GroupBy(), run[0].Group)] = run
		}
	}
	titles := []string{""}
	if len(s.GroupBy()) > 0 {
		titles = titles[:0]
		for _, g := range s.Groups() {
			titles = append(titles, groupTitle(s.GroupBy(), g.Values))
		}
	}
	var groups []htmlGroup
	for _, title := range titles {
		pn, ok := byTitle[title]
		if !ok && len(pairs[title]) == 0 {
			continue // every row of the group was left out
		}
		g := htmlGroup{Title: title, Games: pn.overall.Games, Main: table(), Pairs: table(), main: pn.rows, pairs: pairs[title]}
		for _, r := range g.pairs {
			g.Games += r.Games
		}
		groups = append(groups, g)
	}
	page.Groups = pageGroups(groups, MaxPageRows)
	page.Shown = len(page.Groups)
	switch {
	case page.Shown < len(groups):
		page.Left = fmt.Sprintf("This page shows the %s with the most games, of %d, so that its tables stay within %d rows; every group is in the CSV and JSON tables.",
			words.Count(page.Shown, "group", "groups"), len(groups), MaxPageRows)
	case len(page.Groups) == 1 && page.Groups[0].shownMain+page.Groups[0].shownPairs < len(page.Groups[0].main)+len(page.Groups[0].pairs):
		page.Left = fmt.Sprintf("This page shows the first %d rows of the tables, of %d, so that it stays readable; every row is in the CSV and JSON tables.",
			MaxPageRows, len(page.Groups[0].main)+len(page.Groups[0].pairs))
	}
	for i := range page.Groups {
		g := &page.Groups[i]
		if pn, ok := charted[g.Title]; ok {
			var chart bytes.Buffer
			if err := drawPanels(&chart, []panel{pn}, "svg", rep.Options); err != nil {
				return err
			}
			svg := chart.Bytes()
			// Drop the XML declaration and comment: inline SVG starts at <svg.
			if i := bytes.Index(svg, []byte("<svg")); i >= 0 {
				svg = svg[i:]
			}
			// The SVG comes from gonum/plot, which escapes the text it draws.
			g.Chart = template.HTML(svg) //nolint:gosec
		}
		g.Main.Total, g.Pairs.Total = len(g.main), len(g.pairs)
		for _, r := range g.main[:g.shownMain] {
			g.Main.Rows = append(g.Main.Rows, htmlRowOf(&r))
		}
		for _, r := range g.pairs[:g.shownPairs] {
			g.Pairs.Rows = append(g.Pairs.Rows, htmlRowOf(&r))
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := pageTemplate().Execute(bw, page); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	return bw.Flush()
}

// fdr is the rate the options flag rows at.
func fdr(o stats.Options) float64 {
	if o.FDR > 0 {
		return o.FDR
	}
	return stats.DefaultFDR
}

func htmlRowOf(r *stats.Row) htmlRow {
	h := htmlRow{Cells: r.Cells(), Significant: r.Significant}
	var b bytes.Buffer
	board(&b, r.Rank, false)
	letters := r.Rank.String()
	if r.DFRC {
		board(&b, r.BlackRank, true)
		letters += ":" + r.BlackRank.Black()
	}
	fmt.Fprintf(&b, `<span class="letters">%s</span>`, template.HTMLEscapeString(letters))
	h.Board = template.HTML(b.String()) //nolint:gosec // built from fixed strings and escaped text
	return h
}

// glyphs holds the white and black chess symbols of the pieces of
// glyphLetters, each followed by U+FE0E, which asks for the text form
// rather than an emoji. An array, not a map, so that the compiler lays it
// out and start-up builds nothing.
const glyphLetters = "KQRBN"

var glyphs = [len(glyphLetters)][2]string{
	{"\u2654\ufe0e", "\u265a\ufe0e"},
	{"\u2655\ufe0e", "\u265b\ufe0e"},
	{"\u2656\ufe0e", "\u265c\ufe0e"},
	{"\u2657\ufe0e", "\u265d\ufe0e"},
	{"\u2658\ufe0e", "\u265e\ufe0e"},
}

// glyph returns the symbol of piece letter p for side (0 White, 1 Black),
// or "" for a letter that is no piece.
func glyph(p byte, side int) string {
	if i := strings.IndexByte(glyphLetters, p); i >= 0 {
		return glyphs[i][side]
	}
	return ""
}

// board writes a back rank as eight squares, a to h. White's first rank
// starts on a dark square (a1), Black's on a light one (a8).
func board(b *bytes.Buffer, rank numbering.Rank, black bool) {
	side, firstDark := 0, true
	if black {
		side, firstDark = 1, false
	}
	fmt.Fprintf(b, `<span class="board" title="%s">`, rank.String())
	for i, p := range rank {
		class := "l"
		if (i%2 == 0) == firstDark {
			class = "d"
		}
		fmt.Fprintf(b, `<span class="%s">%s</span>`, class, glyph(p, side))
	}
	b.WriteString(`</span>`)
}
