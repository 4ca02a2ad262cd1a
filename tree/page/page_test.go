package page

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/frctool/frctool/internal/browsertest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/tree"
)

// fixtureForest builds the trees of package tree's fixture.
func fixtureForest(t *testing.T) *tree.Forest {
	t.Helper()
	data, err := os.ReadFile("../testdata/small.pgn")
	if err != nil {
		t.Fatal(err)
	}
	f, err := tree.NewForest(tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), f, pipeline.Options{Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestWrite(t *testing.T) {
	f := fixtureForest(t)
	tests := []struct {
		name  string
		opts  Options
		want  []string
		avoid []string
	}{
		{
			name: "title escaped",
			opts: Options{Title: `Games <b>&</b> "more"`},
			want: []string{"<title>Games &lt;b&gt;&amp;&lt;/b&gt; &#34;more&#34;</title>", `"sp":443`, `"sp":518`},
		},
		{
			name:  "no network",
			opts:  Options{},
			want:  []string{"<title>Opening tree</title>", `<script id="tree-data" type="application/json">{"format":"frctool-tree/1"`},
			avoid: []string{"https://", "<link", " src=", "@import", "{{"},
		},
		{
			name:  "moves left out",
			opts:  Options{Walk: tree.WalkOptions{MinGames: 2}},
			want:  []string{`"min_games":2`, `"move":"e4"`},
			avoid: []string{`"move":"Nb3"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, f, tt.opts); err != nil {
				t.Fatal(err)
			}
			page := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, a := range tt.avoid {
				if strings.Contains(page, a) {
					t.Errorf("page has %q", a)
				}
			}
		})
	}
}

// shown is what the page shows, as the test reads it.
type shown struct {
	Path  string     `json:"path"`
	Rows  [][]string `json:"rows"`
	Hash  string     `json:"hash"`
	E5    string     `json:"e5"`
	Marks int        `json:"marks"`
}

const readPage = `(() => ({
	path: document.getElementById("path").textContent,
	rows: [...document.querySelectorAll("#moves tbody tr")].map(r => [r.cells[0].textContent, r.cells[1].textContent, r.cells[3].textContent]),
	hash: location.hash,
	e5: (document.querySelector('#board text[data-square="e5"]') || {}).textContent || "",
	marks: document.querySelectorAll("#board rect.mark").length,
}))()`

// TestPageInBrowser opens the page of the fixture's trees from a file in
// headless Chromium, plays three moves by clicking them, goes back and
// forward, picks the other tree, and reads the table and the path each
// time. FRCTOOL_PAGE_PNG, if set, names a file to keep a screenshot in.
func TestPageInBrowser(t *testing.T) {
	ctx := browsertest.Open(t, 1200, 720)
	dir := t.TempDir()
	name := filepath.Join(dir, "tree.html")
	var buf bytes.Buffer
	if err := Write(&buf, fixtureForest(t), Options{Title: "Opening tree: small.pgn"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+name), chromedp.WaitVisible(chromedp.CSS("#moves tbody tr"))); err != nil {
		t.Fatal(err)
	}
	read := func() shown {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[shown](readPage))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	click := func(sel string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
	}
	move := func(uci string) string { return `#moves tbody tr[data-uci="` + uci + `"] a` }

	// The first tree is SP 443's (trees go by SP), at its start.
	steps := []struct {
		name   string
		action func()
		want   shown
	}{
		{"the start", func() {}, shown{Path: "start", Hash: "#t=0", Rows: [][]string{{"e4", "4 (80%)", "83.3%"}, {"Nb3", "1 (20%)", ""}, {"O-O", "1 (20%)", "0.0%"}}}},
		{"1. e4", func() { click(move("e2e4")) }, shown{Path: "start 1. e4", Hash: "#t=0&m=e2e4", Marks: 2, Rows: [][]string{{"O-O", "4 (100%)", "83.3%"}}}},
		{"1... O-O", func() { click(move("f8g8")) }, shown{Path: "start 1. e4 O-O", Hash: "#t=0&m=e2e4,f8g8", Marks: 2, Rows: [][]string{{"O-O", "2 (50%)", "100.0%"}, {"e5", "1 (25%)", "50.0%"}}}},
		{"2. e5", func() { click(move("e4e5")) }, shown{Path: "start 1. e4 O-O 2. e5", Hash: "#t=0&m=e2e4,f8g8,e4e5", E5: "\u265F\uFE0E", Marks: 2, Rows: [][]string{{"d5", "1 (100%)", "50.0%"}}}},
		{"back", func() { click("#back") }, shown{Path: "start 1. e4 O-O 2. e5", Hash: "#t=0&m=e2e4,f8g8", Marks: 2, Rows: [][]string{{"O-O", "2 (50%)", "100.0%"}, {"e5", "1 (25%)", "50.0%"}}}},
		{"forward", func() { click("#forward") }, shown{Path: "start 1. e4 O-O 2. e5", Hash: "#t=0&m=e2e4,f8g8,e4e5", E5: "\u265F\uFE0E", Marks: 2, Rows: [][]string{{"d5", "1 (100%)", "50.0%"}}}},
		{"the path's first move", func() { click(`#path a[data-ply="1"]`) }, shown{Path: "start 1. e4 O-O 2. e5", Hash: "#t=0&m=e2e4", Marks: 2, Rows: [][]string{{"O-O", "4 (100%)", "83.3%"}}}},
		{"the other tree", func() {
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`(() => { const s = document.getElementById("tree"); s.value = "1"; s.dispatchEvent(new Event("change")); return null; })()`)); err != nil {
				t.Fatal(err)
			}
		}, shown{Path: "start", Hash: "#t=1", Rows: [][]string{{"e4", "1 (100%)", "100.0%"}}}},
	}
	for _, st := range steps {
		st.action()
		got := read()
		if got.Path != st.want.Path || got.Hash != st.want.Hash || got.E5 != st.want.E5 || got.Marks != st.want.Marks || !equalRows(got.Rows, st.want.Rows) {
			t.Errorf("%s: page shows %+v, want %+v", st.name, got, st.want)
		}
	}

	// Reloading keeps the position, from the fragment.
	click(move("e2e4"))
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#moves tbody tr"))); err != nil {
		t.Fatal(err)
	}
	if got := read(); got.Hash != "#t=1&m=e2e4" || got.Path != "start 1. e4" {
		t.Errorf("after a reload: %+v", got)
	}

	// Back at SP 443 after 1. e4 O-O, the picture the README shows.
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+name+"#t=0&m=e2e4,f8g8"), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#moves tbody tr"))); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatal("the screenshot is no PNG")
	}
	if keep := os.Getenv("FRCTOOL_PAGE_PNG"); keep != "" {
		if err := os.WriteFile(keep, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func equalRows(a, b [][]string) bool {
	return slices.EqualFunc(a, b, func(x, y []string) bool { return slices.Equal(x, y) })
}

// TestTrimLastNewline checks the writer that leaves out the document's
// last newline, however the document is cut into writes.
func TestTrimLastNewline(t *testing.T) {
	for _, doc := range []string{"", "\n", "{}\n", "{\n}\n", "a\n\n", "no newline", "\n\nx"} {
		want := strings.TrimSuffix(doc, "\n")
		for cut := 0; cut <= len(doc); cut++ {
			var b bytes.Buffer
			w := &trimLastNewline{w: &b}
			for _, part := range []string{doc[:cut], doc[cut:]} {
				if n, err := w.Write([]byte(part)); n != len(part) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", part, n, err)
				}
			}
			if b.String() != want {
				t.Errorf("%q written as %q and %q: %q, want %q", doc, doc[:cut], doc[cut:], b.String(), want)
			}
		}
	}
}
