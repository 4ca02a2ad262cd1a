package annotate_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/frctool/frctool/annotate"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

func ExampleAnnotator_Append() {
	const games = `[Event "Freestyle"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. f4 f5 2. Rf3 Rf6 3. O-O O-O *
`
	a := annotate.New(annotate.Options{PlyCount: true, FinalFEN: true})
	r := pgn.NewReader(strings.NewReader(games))
	var out []byte
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		c := startpos.Classify(g)
		var res annotate.Result
		out, res = a.Append(out, g, &c)
		fmt.Println("replayed:", res.Replayed)
	}
	fmt.Print(string(out))
	// Output:
	// replayed: true
	// [Event "Freestyle"]
	// [FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]
	// [Chess960 "0"]
	// [Chess960Fritz9 "81"]
	// [PlyCount "6"]
	//
	// 1. f4 f5 2. Rf3 Rf6 3. O-O O-O
	// { "bbqnnrk1/ppppp1pp/5r2/5p2/5P2/5R2/PPPPP1PP/BBQNNRK1 w - - 4 4" } *
}

func ExampleRun() {
	const games = `[Event "one"]
[FEN "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"]

1. e4 *

[Event "two"]
[FEN "?"]

1. e4 *
`
	r := pgn.NewReader(strings.NewReader(games))
	r.Name = "games.pgn"
	var sum annotate.Summary
	opts := annotate.Options{NoFritz9: true}
	run := pipeline.Options{
		Jobs: 2,
		Warn: func(p *pgn.ParseError) { fmt.Println("warning:", p) },
	}
	if err := annotate.Run(context.Background(), r, os.Stdout, opts, run, &sum); err != nil {
		fmt.Println(err)
	}
	fmt.Println(&sum)
	// Output:
	// warning: games.pgn:7: start position unknown: [FEN "?"]
	// [Event "one"]
	// [FEN "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"]
	// [Chess960 "959"]
	//
	// 1. e4 *
	//
	// [Event "two"]
	// [FEN "?"]
	//
	// 1. e4 *
	// 2 games, 1 identified (1 distinct SP), 0 DFRC, 0 other start positions, 1 unknown, 1 warning
}
