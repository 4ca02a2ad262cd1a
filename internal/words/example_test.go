package words_test

import (
	"fmt"

	"github.com/frctool/frctool/internal/words"
)

func ExampleCount() {
	for _, n := range []int{0, 1, 2} {
		fmt.Println(words.Count(n, "game", "games") + ", " + words.Count(n, "ply", "plies"))
	}
	// Output:
	// 0 games, 0 plies
	// 1 game, 1 ply
	// 2 games, 2 plies
}
