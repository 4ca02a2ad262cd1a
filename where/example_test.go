package where_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
	"github.com/frctool/frctool/where"
)

func Example() {
	archive := `[Event "a"]
[WhiteElo "2100"]
[BlackElo "1950"]
[TimeControl "180+2"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. e4 e5 1-0

[Event "b"]
[WhiteElo "2400"]
[BlackElo "?"]
[TimeControl "600+0"]

1. d4 d5 1/2-1/2
`
	e, err := where.Parse(`WhiteElo >= 2000 and speed = blitz and sp != 518`)
	if err != nil {
		fmt.Println(err)
		return
	}
	games, _ := pgn.NewReader(strings.NewReader(archive)).ReadAll()
	for i := range games {
		g := &games[i]
		c := startpos.Classify(g)
		event, _ := g.Tag("Event")
		fmt.Printf("%s: %v\n", event, e.Match(g, &c))
	}
	fmt.Println(e.Names())
	// Output:
	// a: true
	// b: false
	// [WhiteElo speed sp]
}

func ExampleSyntaxError_Caret() {
	_, err := where.Parse(`elo >= 2000 and speeed = blitz`)
	var se *where.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Caret())
		fmt.Println(se.Col, errors.Is(err, fields.ErrUnknownField))
	}
	// Output:
	// elo >= 2000 and speeed = blitz
	//                 ^
	// 17 true
}

func ExampleAnd() {
	user, _ := where.Parse(`kind = dfrc or Event ~ "(?i)freestyle"`)
	since, _ := where.Since("2024-05")
	speeds, _ := where.Speeds("blitz,rapid")
	var options []*where.Expr
	for _, text := range []string{where.MinElo(2000), speeds, since, where.NoBots()} {
		e, _ := where.Parse(text)
		options = append(options, e)
	}
	fmt.Println(where.And(append([]*where.Expr{user}, options...)...))
	// Output:
	// (kind = dfrc or Event ~ "(?i)freestyle") and min_elo >= 2000 and (speed = blitz or speed = rapid) and date >= "2024.05" and not bot
}
