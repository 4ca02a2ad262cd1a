package page_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/tree"
	"github.com/frctool/frctool/tree/page"
)

// Write the explorer page of a small archive. The page is one file that
// loads nothing from the network: save it and open it in a browser.
func ExampleWrite() {
	games := "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. e4 c5 0-1\n"
	f, err := tree.NewForest(tree.Options{Depth: 2})
	if err != nil {
		panic(err)
	}
	if err := tree.Run(context.Background(), pgn.NewReader(strings.NewReader(games)), f, pipeline.Options{}); err != nil {
		panic(err)
	}
	var out bytes.Buffer
	if err := page.Write(&out, f, page.Options{Title: "Two games"}); err != nil {
		panic(err)
	}
	html := out.String()
	fmt.Println(strings.HasPrefix(html, "<!DOCTYPE html>"))
	fmt.Println(strings.Contains(html, "<title>Two games</title>"))
	fmt.Println(strings.Contains(html, `src="http`), strings.Contains(html, `href="http`))
	// Output:
	// true
	// true
	// false false
}
