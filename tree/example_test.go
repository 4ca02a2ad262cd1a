package tree_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/tree"
)

func Example() {
	const games = `[White "A"]
[Black "B"]
[Result "1-0"]
[WhiteElo "2100"]
[BlackElo "1900"]

1. Nf3 d5 2. d4 1-0

[White "C"]
[Black "D"]
[Result "1/2-1/2"]

1. d4 d5 2. Nf3 1/2-1/2
`
	f, err := tree.NewForest(tree.Options{Depth: 4})
	if err != nil {
		panic(err)
	}
	if err := tree.Run(context.Background(), pgn.NewReader(strings.NewReader(games)), f, pipeline.Options{}); err != nil {
		panic(err)
	}
	for _, t := range f.Trees() {
		for _, n := range t.Nodes(tree.WalkOptions{}) {
			for _, m := range n.Moves {
				fmt.Printf("SP %d %-10s %-4s games %d, score %.2f, leads to node %d\n", t.Root().SP, n.Line, m.SAN, m.Games, m.Score, m.To)
			}
		}
	}
	// The two games meet after two moves: one position, node 3.
	fmt.Println(f)
	// Output:
	// SP 518            d4   games 1, score 0.50, leads to node 1
	// SP 518            Nf3  games 1, score 1.00, leads to node 4
	// SP 518 1. d4      d5   games 1, score 0.50, leads to node 2
	// SP 518 1. d4 d5   Nf3  games 1, score 0.50, leads to node 3
	// SP 518 1. Nf3     d5   games 1, score 1.00, leads to node 5
	// SP 518 1. Nf3 d5  d4   games 1, score 1.00, leads to node 3
	// 2 games in 1 tree (6 positions)
}

func ExampleForest_WriteTable() {
	f, err := tree.NewForest(tree.Options{Depth: 2})
	if err != nil {
		panic(err)
	}
	games := "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. e4 c5 0-1\n"
	if err := tree.Run(context.Background(), pgn.NewReader(strings.NewReader(games)), f, pipeline.Options{}); err != nil {
		panic(err)
	}
	if err := f.WriteTable(os.Stdout, tree.WalkOptions{}); err != nil {
		panic(err)
	}
	// Output:
	//  sp  ply  line   move  games  white_wins  draws  black_wins   score  score_low  score_high  draw_rate  avg_elo  performance  avg_year  last_played
	// 518    0         e4        2           1      0           1  0.5000     0.0945      0.9055     0.0000
	// 518    1  1. e4  c5        1           0      0           1  0.0000     0.0000      0.7935     0.0000
	//                  e5        1           1      0           0  1.0000     0.2065      1.0000     0.0000
}

// A table for a terminal 60 characters wide keeps the columns read first.
func ExampleForest_WriteTableWithin() {
	f, err := tree.NewForest(tree.Options{Depth: 2})
	if err != nil {
		panic(err)
	}
	games := "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. e4 c5 0-1\n"
	if err := tree.Run(context.Background(), pgn.NewReader(strings.NewReader(games)), f, pipeline.Options{}); err != nil {
		panic(err)
	}
	left, err := f.WriteTableWithin(os.Stdout, tree.WalkOptions{}, 60)
	if err != nil {
		panic(err)
	}
	fmt.Println("left out:", strings.Join(left, ", "))
	// Output:
	//  sp  ply  line   move  games   score  score_low  score_high
	// 518    0         e4        2  0.5000     0.0945      0.9055
	// 518    1  1. e4  c5        1  0.0000     0.0000      0.7935
	//                  e5        1  1.0000     0.2065      1.0000
	// left out: white_wins, draws, black_wins, draw_rate, avg_elo, performance, avg_year, last_played
}
