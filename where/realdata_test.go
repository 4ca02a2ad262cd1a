package where

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// TestRealData runs expressions over the real archives of the shared
// folder and checks them against what is known otherwise: the kinds
// agree with startpos.Tally, every clock found there can be read, and an
// expression and its negation split the games between them.
func TestRealData(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedtest.Path(t, "realdata"), "*", "*.pgn"))
	if len(files) == 0 {
		t.Skip("no PGN files in the shared folder")
	}
	parse := func(s string) *Expr {
		e, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	kinds := map[startpos.Kind]*Expr{
		startpos.Chess960: parse("kind = chess960 and exists(sp) and exists(fritz9)"),
		startpos.DFRC:     parse("kind = dfrc and not exists(sp) and exists(white_sp) and exists(black_sp)"),
		startpos.Other:    parse("kind = other and not exists(white_sp)"),
		startpos.Unknown:  parse("kind = unknown"),
	}
	unreadClock := parse("exists(TimeControl) and not exists(speed)")
	some := parse(`elo >= 2500 or plies < 40 or date >= "2020" or Event ~ "(?i)tcec"`)
	negated := parse("not (" + some.String() + ")")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r := pgn.NewReader(f)
			var tally startpos.Tally
			got := map[startpos.Kind]int64{}
			for {
				g, err := r.Next()
				if err != nil {
					break
				}
				c := startpos.Classify(g)
				tally.Add(&c, 0)
				if !c.Counted {
					continue
				}
				for k, e := range kinds {
					if e.Match(g, &c) {
						got[k]++
					}
				}
				if unreadClock.Match(g, &c) {
					tc, _ := g.Tag("TimeControl")
					t.Errorf("game %d: TimeControl %q not read", g.Index, tc)
				}
				if some.Match(g, &c) == negated.Match(g, &c) {
					t.Errorf("game %d: an expression and its negation agree", g.Index)
				}
			}
			want := map[startpos.Kind]int64{startpos.Chess960: tally.Identified, startpos.DFRC: tally.DFRC, startpos.Other: tally.Other, startpos.Unknown: tally.Unknown}
			for k, n := range want {
				if got[k] != n {
					t.Errorf("%s: %d games selected, the tally counts %d", k, got[k], n)
				}
			}
		})
	}
}
