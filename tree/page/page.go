// Package page writes opening trees (package tree) as one self-contained
// HTML page to browse them in a web browser: a board, the moves played
// from its position beside it with their games, results, score and
// ratings, and a move path with back and forward buttons. Clicking a move
// plays it on the board and shows the moves from the position it leads
// to. A menu picks the start position when there are several trees.
//
// The page loads nothing from the network and works when opened from a
// file: the board, the pieces (Unicode chess glyphs drawn as SVG text),
// the script and the styles are all in it, the trees as a JSON document
// of package tree. The position shown is kept in the URL's fragment
// ("#t=2&m=e2e4,e7e5"), so that a link or a bookmark opens it again.
package page

import (
	_ "embed"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/frctool/frctool/tree"
)

//go:embed page.html
var pageHTML string

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

// Options say what the page shows.
type Options struct {
	// Title heads the page and names its tab.
	Title string
	// Walk says which moves the trees show; moves fewer games played than
	// MinGames are left out, which keeps a page of a large archive small.
	Walk tree.WalkOptions
}

// Write writes the page of the forest's trees to w. The trees' document
// is written into the page as it is made, never held whole: a page of a
// million positions is hundreds of megabytes.
func Write(w io.Writer, f *tree.Forest, opts Options) error {
	title := opts.Title
	if title == "" {
		title = "Opening tree"
	}
	r := strings.NewReplacer(
		"{{title}}", html.EscapeString(title),
		"{{css}}", pageCSS,
		"{{js}}", pageJS,
	)
	before, after, _ := strings.Cut(pageHTML, "{{data}}")
	if _, err := r.WriteString(w, before); err != nil {
		return fmt.Errorf("writing the page: %w", err)
	}
	// The JSON encoder writes <, > and & as \u003c..., so the document
	// cannot close the script element that holds it. Its last newline is
	// left out, as the element's text has none.
	data := &trimLastNewline{w: w}
	if err := f.WriteJSON(data, opts.Walk); err != nil {
		return err
	}
	if _, err := r.WriteString(w, after); err != nil {
		return fmt.Errorf("writing the page: %w", err)
	}
	return nil
}

// trimLastNewline writes what is written to it to w, except a newline at
// the end of it all: a newline is held back until more follows.
type trimLastNewline struct {
	w       io.Writer
	pending bool
}

func (t *trimLastNewline) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if t.pending {
		if _, err := t.w.Write([]byte{'\n'}); err != nil {
			return 0, err
		}
		t.pending = false
	}
	n := len(p)
	if p[n-1] == '\n' {
		p, t.pending = p[:n-1], true
	}
	if _, err := t.w.Write(p); err != nil {
		return 0, err
	}
	return n, nil
}
