package replay_test

import (
	"fmt"
	"strings"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/replay"
	"github.com/frctool/frctool/startpos"
)

func ExampleReplayer_Play() {
	const games = `[White "Alpha"]
[Black "Beta"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. f4 f5 2. Rf3 (2. O-O O-O) Rf6 3. O-O O-O *

[White "Gamma"]
[Black "Delta"]

1. e4 e5 2. Ke3 *
`
	r := pgn.NewReader(strings.NewReader(games))
	r.Name = "games.pgn"
	replayer := replay.New(replay.Options{Variations: true})
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		if _, err := replayer.SetUp(g, startpos.Classify(g).Start); err != nil {
			fmt.Println(err)
			continue
		}
		res := replayer.Play(g)
		for _, p := range res.Problems {
			fmt.Println(p)
		}
		fmt.Printf("game %d: %d plies, %d in the main line\n", g.Index, res.Plies, res.MainPlies)
		if res.Final != nil {
			fmt.Println("final position:", res.Final.FEN(fen.Shredder))
		}
	}
	// Output:
	// games.pgn:5: game 1 (Alpha - Beta), move 2.: illegal move 'O-O': the way is blocked by the rook on f1
	// game 1: 6 plies, 6 in the main line
	// final position: bbqnnrk1/ppppp1pp/5r2/5p2/5P2/5R2/PPPPP1PP/BBQNNRK1 w - - 4 4
	// games.pgn:10: game 2 (Gamma - Delta), move 2.: illegal move 'Ke3': no king can move to e3
	// game 2: 2 plies, 2 in the main line
}
