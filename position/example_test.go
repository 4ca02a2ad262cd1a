package position_test

import (
	"errors"
	"fmt"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/position"
)

func Example() {
	// Castling rights per rook, Shredder-FEN style: the rooks on b and g.
	b, err := position.ParseFEN("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1")
	if err != nil {
		panic(err)
	}
	for _, text := range []string{"O-O", "e8b8", "O-O-O"} {
		m, err := b.Play(text)
		if err != nil {
			fmt.Println(err, errors.Is(err, position.ErrIllegalMove))
			continue
		}
		king, rook := m.CastlingSquares()
		fmt.Println(text, "=", m, "king to", king, "rook to", rook)
	}
	fmt.Println(b.FEN(fen.XFEN))
	// Output:
	// O-O = e1g1 king to g1 rook to f1
	// e8b8 = e8b8 king to c8 rook to d8
	// illegal move 'O-O-O': white has no right to castle queen-side true
	// 2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2
}

func ExampleBoard_ParseMove() {
	b := position.New()
	for _, text := range []string{"Nf3", "g1f3", "Ng1-f3", "e2e4", "e4!?", "Nd2", "e5", "O-O"} {
		m, err := b.ParseMove(text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(text, "=", b.SAN(m))
	}
	// Output:
	// Nf3 = Nf3
	// g1f3 = Nf3
	// Ng1-f3 = Nf3
	// e2e4 = e4
	// e4!? = e4
	// illegal move 'Nd2': d2 is occupied by white's own pawn
	// illegal move 'e5': no pawn can move to e5
	// illegal move 'O-O': the way is blocked by the bishop on f1
}

// Replaying many games from one start: the start is set up once, and each
// game's board is set to it by a copy.
func ExampleBoard_SetBoard() {
	start, err := position.Start(0) // BBQNNRKR
	if err != nil {
		panic(err)
	}
	var b position.Board
	for _, game := range [][]string{{"g3", "g6", "Nd3"}, {"f4", "Nd6"}} {
		b.SetBoard(start)
		for _, san := range game {
			if _, err := b.Play(san); err != nil {
				panic(err)
			}
		}
		fmt.Println(b.FEN(fen.Shredder))
	}
	fmt.Println(start.FEN(fen.Shredder))
	// Output:
	// bbqnnrkr/pppppp1p/6p1/8/8/3N2P1/PPPPPP1P/BBQN1RKR b HFhf - 1 2
	// bbqn1rkr/pppppppp/3n4/8/5P2/8/PPPPP1PP/BBQNNRKR w HFhf - 1 2
	// bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1
}
