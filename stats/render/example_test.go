package render_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/stats"
	"github.com/frctool/frctool/stats/render"
)

// Cut a table to 50 characters, as for a narrow terminal, and say what
// was left out.
func ExampleFitColumns() {
	const archive = "[Result \"1-0\"]\n\n1. e4 1-0\n\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n"
	var s stats.Stats
	if err := stats.Run(context.Background(), pgn.NewReader(strings.NewReader(archive)), &s, pipeline.Options{Jobs: 1}); err != nil {
		fmt.Println(err)
		return
	}
	rep := &stats.Report{Stats: &s}
	left := render.FitColumns(rep, 50)
	if err := render.WriteTable(os.Stdout, rep); err != nil {
		fmt.Println(err)
	}
	fmt.Println(len(left), "columns left out, the first:", left[0])
	// Output:
	// ┌─────┬──────────┬───────┬─────────────┐
	// │  sp │ rank     │ games │ white_score │
	// ├─────┼──────────┼───────┼─────────────┤
	// │ 518 │ RNBQKBNR │     2 │      0.7500 │
	// └─────┴──────────┴───────┴─────────────┘
	// 18 columns left out, the first: fritz9
}
