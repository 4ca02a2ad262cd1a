package dedup_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/frctool/frctool/dedup"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// The same game twice, once with a comment and another move-number style:
// the second copy goes to the duplicates (discarded here).
func Example() {
	archive := `[White "Alpha"]
[Black "Beta"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[White "alpha"]
[Black "Beta"]
[Result "1-0"]

1.e4 {the king's pawn} 1...e5 2.Qh5 Nc6 3.Bc4 Nf6?? 4.Qxf7# 1-0
`
	d := dedup.New(os.Stdout, nil, dedup.Options{Key: dedup.MovesPlayers})
	if err := d.Run(context.Background(), pgn.NewReader(strings.NewReader(archive)), pipeline.Options{}); err != nil {
		fmt.Println(err)
	}
	d.Close()
	s := d.Summary()
	fmt.Printf("games %d, unique %d, duplicates %d\n", s.Games, s.Unique, s.Duplicates)
	// Output:
	// [White "Alpha"]
	// [Black "Beta"]
	// [Result "1-0"]
	//
	// 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
	//
	// games 2, unique 1, duplicates 1
}
