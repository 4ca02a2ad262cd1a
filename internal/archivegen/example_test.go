package archivegen_test

import (
	"fmt"

	"github.com/frctool/frctool/internal/archivegen"
)

// A lichess game, and what the generator knows of it.
func ExampleGenerator_AppendGame() {
	g := archivegen.New(archivegen.Options{Seed: 2, Shape: archivegen.Lichess})
	game, rec := g.AppendGame(nil)
	fmt.Printf("%s", game)
	fmt.Println("SP", rec.SP, "plies", len(rec.Moves), "result", rec.Result)
	// Output:
	// [Event "Rated Chess960 game"]
	// [Site "https://lichess.org/EfEltrSF"]
	// [Date "2025.11.16"]
	// [Round "-"]
	// [White "velsa"]
	// [Black "knightchessdro325"]
	// [Result "1-0"]
	// [UTCDate "2025.11.16"]
	// [UTCTime "10:35:09"]
	// [WhiteElo "1536"]
	// [BlackElo "1667"]
	// [WhiteRatingDiff "+11"]
	// [BlackRatingDiff "-11"]
	// [Variant "Chess960"]
	// [TimeControl "60+0"]
	// [ECO "?"]
	// [Termination "Time forfeit"]
	// [FEN "qnbbnrkr/pppppppp/8/8/8/8/PPPPPPPP/QNBBNRKR w KQkq - 0 1"]
	// [SetUp "1"]
	//
	// 1. g4 { [%clk 0:01:00] } 1... d5 { [%clk 0:01:00] } 2. e4 { [%clk 0:00:56] }
	// 2... Bxg4 { [%clk 0:00:59] } 3. f3 { [%clk 0:00:54] } 3... Nf6
	// { [%clk 0:00:57] } 4. a4 { [%clk 0:00:51] } 4... Bh3 { [%clk 0:00:56] } 5. Qa3
	// { [%clk 0:00:50] } 5... Nxe4 { [%clk 0:00:55] } 6. Qc5 { [%clk 0:00:50] } 6...
	// f6 { [%clk 0:00:54] } 7. d4 { [%clk 0:00:49] } 7... Bc8 { [%clk 0:00:53] } 1-0
	//
	// SP 5 plies 14 result 1-0
}
