package render

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/frctool/frctool/internal/browsertest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/stats"
)

// groupedGames writes games of three speeds and of a game without a
// clock, SP 518 for most, so that every group has rows.
func groupedGames() string {
	var b strings.Builder
	for i, tc := range []string{"60+0", "180+2", "600+5", ""} {
		for g := range 3 + i {
			if tc != "" {
				fmt.Fprintf(&b, "[TimeControl %q]\n", tc)
			}
			fmt.Fprintf(&b, "[Result \"%s\"]\n\n1. e4 %[1]s\n\n", [...]string{"1-0", "0-1", "1/2-1/2"}[g%3])
		}
	}
	return b.String()
}

// groupsShown is what the page shows of its groups.
type groupsShown struct {
	Options []string `json:"options"`
	Visible []string `json:"visible"` // the headings of the groups shown
	Rows    int      `json:"rows"`    // the table rows shown
}

const readGroups = `(() => ({
	options: [...document.querySelectorAll("#group option")].map(o => o.textContent),
	visible: [...document.querySelectorAll("section.group")].filter(s => !s.hidden && s.offsetParent !== null).map(s => s.querySelector("h2.group").textContent),
	rows: [...document.querySelectorAll("section.group")].filter(s => !s.hidden).reduce((n, s) => n + s.querySelectorAll("tbody tr").length, 0),
}))()`

// TestGroupedPageInBrowser opens a grouped statistics page from a file in
// headless Chromium and picks groups from its menu: all groups show at
// first, one when picked, all again with the first entry.
func TestGroupedPageInBrowser(t *testing.T) {
	ctx := browsertest.Open(t, 1200, 900)
	var s stats.Stats
	if err := s.SetGroupBy([]string{"speed"}); err != nil {
		t.Fatal(err)
	}
	if err := stats.Run(context.Background(), pgn.NewReader(strings.NewReader(groupedGames())), &s, pipeline.Options{Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, &stats.Report{Stats: &s}, "Grouped"); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "stats.html")
	if err := os.WriteFile(name, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+name), chromedp.WaitVisible(chromedp.CSS("#group"))); err != nil {
		t.Fatal(err)
	}
	pick := func(value string) {
		t.Helper()
		js := fmt.Sprintf(`(() => { const s = document.getElementById("group"); s.value = %q; s.dispatchEvent(new Event("change")); return null; })()`, value)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](js)); err != nil {
			t.Fatal(err)
		}
	}
	all := []string{"speed = bullet", "speed = blitz", "speed = rapid", "speed = (none)"}
	for _, step := range []struct {
		name    string
		value   string // "" for no pick
		visible []string
		rows    int
	}{
		{"at first", "", all, 4},
		{"rapid", "g2", all[2:3], 1},
		{"no clock", "g3", all[3:], 1},
		{"all again", "", all, 4},
	} {
		if step.name != "at first" {
			pick(step.value)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[groupsShown](readGroups))
		if err != nil {
			t.Fatal(err)
		}
		wantOptions := []string{"all 4 groups", "speed = bullet (3 games)", "speed = blitz (4 games)", "speed = rapid (5 games)", "speed = (none) (6 games)"}
		if !slices.Equal(got.Options, wantOptions) || !slices.Equal(got.Visible, step.visible) || got.Rows != step.rows {
			t.Errorf("%s: the page shows %+v\nwant options %q, groups %q, %d rows", step.name, got, wantOptions, step.visible, step.rows)
		}
	}
}
