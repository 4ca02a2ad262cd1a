package draw_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/frctool/frctool/draw"
	"github.com/frctool/frctool/numbering"
)

// An event of three rounds on two boards that excludes standard chess and
// wants a new position for every round, all boards of a round playing it.
// The seed makes the draw repeatable; an arbiter would use crypto/rand.
func ExamplePool_Table() {
	pool, err := draw.NewPool(numbering.StandardSP)
	if err != nil {
		fmt.Println(err)
		return
	}
	rng := rand.New(rand.NewPCG(2026, 960))
	games, err := pool.Table(rng, draw.Event{Rounds: 3, Boards: 2}, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	for g := range games {
		r, _ := numbering.FromSP(g.SP)
		fmt.Printf("round %d board %d: SP %d %s\n", g.Round, g.Board, g.SP, r)
	}
	// Output:
	// round 1 board 1: SP 472 RBNNBKRQ
	// round 1 board 2: SP 472 RBNNBKRQ
	// round 2 board 1: SP 697 RQKBBNNR
	// round 2 board 2: SP 697 RQKBBNNR
	// round 3 board 1: SP 778 QRKNBBRN
	// round 3 board 2: SP 778 QRKNBBRN
}

// A draw without repeats that asks for more positions than are allowed fails
// before drawing any.
func ExamplePool_Draws() {
	pool, _ := draw.NewPool(0, 1, 2)
	_, err := pool.Draws(rand.New(rand.NewPCG(1, 960)), 960, true)
	fmt.Println(err)
	// Output: too few positions to draw without repeats: 960 wanted, 957 allowed
}
