package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

// Count the games of each kind of start, the way every summary line does.
func Example() {
	// A bare move list before the first tags is a game of unknown start.
	const input = `1. d4 d5 *

[Event "SP 0"]
[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]
[Result "1-0"]

1. e4 1-0

[Event "standard chess"]
[Result "*"]

1. e4 e5 *

[Event "mid-game"]
[SetUp "1"]
[FEN "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]
[Result "*"]

2. Nf3 *
`
	counts := map[startpos.Kind]int{}
	job := pipeline.Job[struct{}]{
		Emit: func(it *pipeline.Item[struct{}]) error {
			if it.Class.Counted {
				counts[it.Class.Start.Kind]++
			}
			return nil
		},
	}
	var tally startpos.Tally
	r := pgn.NewReader(strings.NewReader(input))
	if err := pipeline.Run(context.Background(), r, pipeline.Options{Jobs: 2}, job, &tally); err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range []startpos.Kind{startpos.Chess960, startpos.DFRC, startpos.Other, startpos.Unknown} {
		fmt.Printf("%s: %d\n", k, counts[k])
	}
	fmt.Println(&tally)
	// Output:
	// chess960: 2
	// dfrc: 0
	// other: 1
	// unknown: 1
	// 4 games, 2 identified (2 distinct SPs), 0 DFRC, 1 other start position, 1 unknown, 0 warnings
}

// A job of one's own: each worker reads a tag of its games, and Emit adds
// up what the workers found, one game at a time in input order.
func ExampleRun() {
	const input = `[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]
[Result "1-0"]

1. e4 1-0

[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]
[Result "1/2-1/2"]

1. e4 e5 1/2-1/2

[Variant "Chess960"]
[Result "0-1"]

1. d4 0-1
`
	decisive := map[int]int{}
	job := pipeline.Job[bool]{
		NewWorker: func() func(it *pipeline.Item[bool], out []byte) []byte {
			return func(it *pipeline.Item[bool], out []byte) []byte {
				result, _ := it.Game.Tag("Result")
				it.Value = string(result) == "1-0" || string(result) == "0-1"
				return out
			}
		},
		Emit: func(it *pipeline.Item[bool]) error {
			if sp, ok := it.Class.Start.SP(); ok && it.Value {
				decisive[sp]++
			}
			return nil
		},
	}
	var tally startpos.Tally
	r := pgn.NewReader(strings.NewReader(input))
	if err := pipeline.Run(context.Background(), r, pipeline.Options{}, job, &tally); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("decisive games from SP 0:", decisive[0])
	fmt.Println("decisive games from SP 518:", decisive[518])
	// Output:
	// decisive games from SP 0: 1
	// decisive games from SP 518: 1
}

// A panic in a job's worker, whichever goroutine it ran on, comes out of
// Run on the caller's, where a program can report the game it happened
// on and clean up before it ends.
func ExamplePanicError() {
	const input = `[Event "first"]
[Result "*"]

*

[Event "second"]
[Result "*"]

*
`
	job := pipeline.Job[struct{}]{
		NewWorker: func() func(it *pipeline.Item[struct{}], out []byte) []byte {
			return func(it *pipeline.Item[struct{}], out []byte) []byte {
				if event, _ := it.Game.Tag("Event"); string(event) == "second" {
					var moves []string
					_ = moves[2] // a bug
				}
				return out
			}
		},
	}
	defer func() {
		if p, ok := recover().(*pipeline.PanicError); ok {
			fmt.Println(p)
			var re runtime.Error
			fmt.Println("a runtime error:", errors.As(p, &re))
		}
	}()
	var tally startpos.Tally
	r := pgn.NewReader(strings.NewReader(input))
	r.Name = "games.pgn"
	_ = pipeline.Run(context.Background(), r, pipeline.Options{Jobs: 2}, job, &tally)
	// Output:
	// games.pgn:6: game 2: panic: runtime error: index out of range [2] with length 0
	// a runtime error: true
}
