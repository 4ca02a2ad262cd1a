package startpos_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// Identify a start position from a back rank or from a FEN in any of the
// castling dialects; the castling field does not change the number.
func ExampleIdentify() {
	for _, s := range []string{
		"RNBQKBNR",
		"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", // X-FEN
		"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", // Shredder-FEN
		"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", // DFRC
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
	} {
		id, err := startpos.Identify(s)
		switch {
		case err != nil:
			fmt.Println(err)
		case id.NotStart != nil:
			fmt.Println(id.NotStart)
		case id.DFRC():
			fmt.Printf("DFRC: white SP %d, black SP %d\n", id.White, id.Black)
		default:
			sp, _ := id.SP()
			f9, _ := id.Fritz9()
			fmt.Printf("SP %d, Fritz9 %d\n", sp, f9)
		}
	}
	// Output:
	// SP 518, Fritz9 359
	// SP 0, Fritz9 81
	// SP 0, Fritz9 81
	// DFRC: white SP 518, black SP 959
	// not a Chess960 start position: rank 4 is not empty
}

// Every command decides what a game's start is with Classify, from its
// FEN, SetUp and Variant tags: a game without a FEN tag is standard chess.
func ExampleClassify() {
	const archive = `[Event "a"]
[Variant "Chess960"]
[FEN "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1"]

1. e4 *

[Event "b"]

1. e4 *

[Event "c"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/4K3/8 w - - 0 60"]

*
`
	r := pgn.NewReader(strings.NewReader(archive))
	var tally startpos.Tally
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		c := startpos.Classify(g)
		tally.Add(&c, len(g.Problems)+len(c.Problems))
		sp, ok := c.Start.SP()
		fmt.Println(c.Start.Kind, sp, ok)
	}
	fmt.Println(&tally)
	// Output:
	// chess960 345 true
	// chess960 518 true
	// other -1 false
	// 3 games, 2 identified (2 distinct SPs), 0 DFRC, 1 other start position, 0 unknown, 0 warnings
}
