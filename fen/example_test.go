package fen_test

import (
	"fmt"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/numbering"
)

func ExampleParse() {
	// An EPD line with Shredder castling letters in ascending order.
	p, err := fen.Parse(`rbbkrqnn/pppppppp/8/8/8/8/PPPPPPPP/RBBKRQNN w EAea - id "x";`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Castling.Files(true), p.Operations)
	fmt.Println(p.Format(fen.XFEN))
	fmt.Println(p.Format(fen.Shredder))
	// Output:
	// [0 4] id "x";
	// rbbkrqnn/pppppppp/8/8/8/8/PPPPPPPP/RBBKRQNN w KQkq - 0 1
	// rbbkrqnn/pppppppp/8/8/8/8/PPPPPPPP/RBBKRQNN w EAea - 0 1
}

func ExampleParse_error() {
	_, err := fen.Parse("rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	fmt.Println(err)
	// Output: fen: placement: rank 6 describes 9 squares
}

func ExamplePosition_Start() {
	p, _ := fen.Parse("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1")
	sp, ok := p.Start().SP()
	fmt.Println(sp, ok)

	p, _ = fen.Parse("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	s := p.Start()
	fmt.Println(s.White, s.Black, s.DFRC())

	p, _ = fen.Parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	fmt.Println(p.StartError())
	// Output:
	// 0 true
	// 518 0 true
	// rank 4 is not empty
}

func ExampleStartFEN() {
	r, _ := numbering.FromSP(0)
	fmt.Println(fen.StartFEN(r, fen.XFEN))
	fmt.Println(fen.StartFEN(r, fen.Shredder))
	// Output:
	// bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1
	// bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1
}

func ExampleRewriteCastling() {
	s, _ := fen.RewriteCastling("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq -  0 1;", fen.Shredder)
	fmt.Printf("%q\n", s)
	// Output: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w HAha -  0 1;"
}
