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

// Read an archive in parts, as a program with several workers does: each
// part is scanned where it lies (here one after the other, in a real
// program on the workers), numbered once the part before is counted, and
// where a cut turns out wrong, the rest is given back to the Reader and
// read in order. Here the input arrives in two pieces, as from a pipe; the
// first ends with what looks like the start of a game but is inside the
// second game's comment, so the cut guessed there is wrong.
func ExampleReader_ReadPart() {
	first := "[Event \"one\"]\n\n1. e4 *\n\n" +
		"[Event \"two\"]\n\n1. d4 {a comment that runs on\n\n[Event \"not a game\"]\n"
	second := "} *\n\n[Event \"three\"]\n\n1. c4 *\n"
	r := pgn.NewReader(io.MultiReader(strings.NewReader(first), strings.NewReader(second)))
	var b pgn.Batch
	games := r.Games()
	for {
		if err := r.ReadPart(&b, 16); err == io.EOF {
			break
		} else if err != nil {
			fmt.Println(err)
			return
		}
		n, confirmed := b.ScanPart()
		b.CountFrom(games)
		games += n
		for _, g := range b.Games {
			event, _ := g.Tag("Event")
			fmt.Printf("game %d at line %d: %s\n", g.Index, g.Line, event)
		}
		if confirmed {
			continue
		}
		r.Resume(&b)
		if err := r.ReadBatch(&b, 16); err == nil {
			for _, g := range b.Games {
				event, _ := g.Tag("Event")
				fmt.Printf("game %d at line %d: %s (read in order)\n", g.Index, g.Line, event)
			}
			games = r.Games()
		}
	}
	// Output:
	// game 1 at line 1: one
	// game 2 at line 5: two (read in order)
	// game 3 at line 12: three
}

// The moves of a game, each with the input line it stands on: ResetGame
// scans them with the line ending the Reader found for the file.
func ExampleMovetextScanner_ResetGame() {
	const archive = "[Event \"Blitz\"]\n[Result \"1-0\"]\n\n1. e4 {best by test} e5\n2. Nf3 1-0\n"
	g, err := pgn.NewReader(strings.NewReader(archive)).Next()
	if err != nil {
		fmt.Println(err)
		return
	}
	var s pgn.MovetextScanner
	s.ResetGame(g)
	for s.Next() {
		if t := s.Token(); t.Kind == pgn.TokenMove {
			fmt.Printf("line %d: %s\n", t.Line, t.Text)
		}
	}
	fmt.Println(g.CountPlies(), "plies")
	// Output:
	// line 4: e4
	// line 4: e5
	// line 5: Nf3
	// 3 plies
}
