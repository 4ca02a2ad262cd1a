package pgn_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/frctool/frctool/pgn"
)

// Read the games of an archive one at a time, as archive/tar hands out
// entries, and look at their tags. Writing every game's Raw bytes in order
// gives back the input exactly.
func ExampleReader() {
	const archive = `[Event "Mainz rapid"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]

1. e4 e5 2. Bc4 1-0

[Event "Mainz rapid"]
[White "Gamma"]
[Black "Delta"]
[Result "*"]

1. d4 {unfinished
`
	r := pgn.NewReader(strings.NewReader(archive))
	r.Name = "mainz.pgn"
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		white, _ := g.Tag("White")
		black, _ := g.Tag("Black")
		marker, _ := pgn.Termination(g.Movetext())
		fmt.Printf("game %d at line %d: %s - %s, ends %q\n", g.Index, g.Line, white, black, marker)
		for _, p := range g.Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// game 1 at line 1: Alpha - Beta, ends "1-0"
	// game 2 at line 8: Gamma - Delta, ends ""
	// mainz.pgn:13: unterminated comment: '{' never closed before the end of the input
}

// Change one tag and copy every other byte through unchanged.
func ExampleGame_AppendEdited() {
	r := pgn.NewReader(strings.NewReader("[Event \"x\"]\r\n[Result \"*\"]\r\n\r\n1. e4 *\r\n"))
	g, _ := r.Next()
	out := g.AppendEdited(nil, pgn.Edit{Name: "Round", Value: "3", After: "Event"}, pgn.Edit{Name: "Result", Value: "1-0"})
	fmt.Printf("%q\n", out)
	// Output:
	// "[Event \"x\"]\r\n[Round \"3\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 *\r\n"
}
