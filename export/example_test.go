package export_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/frctool/frctool/export"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// Export two games as JSON Lines, with a few columns and the first moves.
func Example() {
	games := `[Event "Blitz"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]
[WhiteElo "2105"]
[TimeControl "180+2"]
[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. g3 g6 2. Nd3 1-0

[Event "Casual"]
[White "Carol"]
[Black "Dave"]
[Result "*"]

1. e4 *
`
	opts := export.Options{Columns: []string{"index", "kind", "sp", "white", "white_elo", "speed", "moves"}, Moves: 3}
	w, err := export.NewWriter(os.Stdout, export.JSONL, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := pgn.NewReader(strings.NewReader(games))
	if err := w.Run(context.Background(), r, "games.pgn", pipeline.Options{}); err != nil {
		fmt.Println(err)
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"index":1,"kind":"chess960","sp":0,"white":"Alice","white_elo":2105,"speed":"blitz","moves":"g2g3 g7g6 e1d3"}
	// {"index":2,"kind":"chess960","sp":518,"white":"Carol","white_elo":null,"speed":null,"moves":"e2e4"}
}
