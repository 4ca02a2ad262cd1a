package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// BenchmarkRunSmallInput runs a job that does nothing over an input of
// one game, as a command does for each file of a folder of single-game
// files: what a run costs beside its games, in time and in memory
// allocated (B/op), which the collector must then reclaim.
//
//	go test ./pipeline -run '^$' -bench RunSmallInput -benchmem
func BenchmarkRunSmallInput(b *testing.B) {
	const game = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n"
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs %d", jobs), func(b *testing.B) {
			job := Job[struct{}]{Emit: func(*Item[struct{}]) error { return nil }}
			b.ReportAllocs()
			for b.Loop() {
				var tally startpos.Tally
				if err := Run(context.Background(), pgn.NewReader(strings.NewReader(game)), Options{Jobs: jobs}, job, &tally); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
