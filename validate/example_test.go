package validate_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
	"github.com/frctool/frctool/validate"
)

// Validate an archive: every problem comes to Warn in input order, and the
// summary counts what was replayed.
func ExampleRun() {
	const archive = `[Event "ok"]
[Variant "Chess960"]
[FEN "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1"]
[Result "*"]

1. e4 e5 2. Nb3 Nb6 *

[Event "wrong"]
[Variant "Chess960"]
[FEN "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1"]
[Result "*"]

1. O-O *
`
	r := pgn.NewReader(strings.NewReader(archive))
	r.Name = "games.pgn"
	var sum validate.Summary
	err := validate.Run(context.Background(), r, validate.Options{}, pipeline.Options{
		Warn: func(p *pgn.ParseError) { fmt.Println(p) },
	}, &sum)
	fmt.Println(&sum, err)
	// Output:
	// games.pgn:13: game 2 (? - ?), move 1.: illegal move 'O-O': the way is blocked by the bishop on d1
	// 2 games checked, 1 failed, 4 plies replayed <nil>
}

// Check one game at a time, with a Validator of one's own, and look at
// the final position.
func ExampleValidator_Check() {
	r := pgn.NewReader(strings.NewReader("[Event \"e\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"))
	v := validate.New(validate.Options{})
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
		res := v.Check(g, &c)
		fmt.Println(res.Checked, res.Failed, res.MainPlies, res.Final.FEN(fen.XFEN))
	}
	// Output:
	// true false 7 r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4
}
