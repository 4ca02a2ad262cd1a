package selector_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/selector"
)

// Keep the Chess960 games and set standard chess aside: every game goes to
// one of the two outputs, byte for byte.
func ExampleFilter() {
	const archive = `[Event "a"]
[FEN "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1"]

1. e4 *

[Event "b"]

1. d4 *
`
	sps, _ := numbering.ParseList("0-959", numbering.Scharnagl)
	sel := selector.New(selector.Criteria{SPs: sps, ExcludeStandard: true})
	var chess960, standard bytes.Buffer
	f := selector.NewFilter(sel, &chess960, &standard)
	if err := f.Run(context.Background(), pgn.NewReader(strings.NewReader(archive)), pipeline.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	if err := f.Close(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("selected %q\nrejected %q\n", chess960.String(), standard.String())
	fmt.Println(chess960.Len()+standard.Len() == len(archive))
	sum := f.Summary()
	fmt.Println(sum.Selected, "of", sum.Games)
	// Output:
	// selected "[Event \"a\"]\n[FEN \"nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1\"]\n\n1. e4 *\n\n"
	// rejected "[Event \"b\"]\n\n1. d4 *\n"
	// true
	// 1 of 2
}
