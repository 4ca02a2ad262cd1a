package stats_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/stats"
)

// Count three games, two from SP 518 and one from SP 0, and write the
// table as CSV with the summary line.
func Example() {
	const archive = `[Result "1-0"]
[WhiteElo "2700"]

1. e4 e5 2. Nf3 1-0

[Result "1/2-1/2"]
[WhiteElo "2500"]

1. d4 d5 1/2-1/2

[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]
[Result "0-1"]

1. g3 g6 0-1
`
	var s stats.Stats
	r := pgn.NewReader(strings.NewReader(archive))
	if err := stats.Run(context.Background(), r, &s, pipeline.Options{Jobs: 1}); err != nil {
		fmt.Println(err)
		return
	}
	rep := stats.Report{Stats: &s, Options: stats.Options{Sort: stats.SortGames}}
	if err := rep.WriteCSV(os.Stdout); err != nil {
		fmt.Println(err)
	}
	fmt.Println(&s.Totals)
	// Output:
	// sp,fritz9,rank,games,white_wins,draws,black_wins,unfinished,white_score,draw_rate,score_low,score_high,avg_plies,avg_white_elo,avg_black_elo,rated_games,expected_score,score_vs_expected,vs_expected_low,vs_expected_high,p_value,significant
	// 518,359,RNBQKBNR,2,1,1,0,0,0.7500,0.5000,0.1979,0.9733,2.5,2600.0,,0,,,,,,
	// 0,81,BBQNNRKR,1,0,0,1,0,0.0000,0.0000,0.0000,0.7935,2.0,,,0,,,,,,
	// 3 games, 3 identified (2 distinct SPs), 0 DFRC, 0 other start positions, 0 unknown, 0 warnings
}

// Write a few columns only, in an order of one's own.
func ExampleReport_Columns() {
	const archive = `[Result "1-0"]

1. e4 1-0

[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]
[Result "1/2-1/2"]

1. g3 1/2-1/2
`
	var s stats.Stats
	r := pgn.NewReader(strings.NewReader(archive))
	if err := stats.Run(context.Background(), r, &s, pipeline.Options{Jobs: 1}); err != nil {
		fmt.Println(err)
		return
	}
	rep := stats.Report{Stats: &s, Columns: []string{"rank", "games", "white_score"}}
	if err := rep.WriteCSV(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// rank,games,white_score
	// BBQNNRKR,1,0.5000
	// RNBQKBNR,1,1.0000
}
