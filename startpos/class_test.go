package startpos

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/frctool/frctool/pgn"
)

// TestClassify pins the one rule for what an item of the stream is, on
// the edge cases every command must agree on.
func TestClassify(t *testing.T) {
	manyTags := strings.Repeat("[Annotator \"x\"]\n", pgn.MaxTags+1)
	hugeTags := "[Event \"big\"]\n" + strings.Repeat("[Annotator \""+strings.Repeat("x", 1000)+"\"]\n", 100) + "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 *\n"
	hugeMoves := "[Event \"big\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 {" + strings.Repeat("long comment ", 20000) + "} *\n"
	tests := []struct {
		name  string
		input string
		max   int
		want  []string // one "counted kind sp" per item
	}{
		{"standard chess by default", "[Event \"x\"]\n\n1. e4 *\n", 0, []string{"true chess960 518"}},
		{"blank text is not a game", "[Event \"x\"]\n\n1. e4 *\n\n\n", 0, []string{"true chess960 518"}},
		{"text with no tags is a game of unknown start", "1. e4 e5 *\n\n[Event \"x\"]\n\n*\n", 0, []string{"true unknown -1", "true chess960 518"}},
		{"only blank lines", "\n\n \n", 0, []string{"false unknown -1"}},
		{"escape lines only", "% a tool wrote this\n", 0, []string{"true unknown -1"}},
		{"too many tags", manyTags + "\n*\n", 0, []string{"true unknown -1"}},
		{"tag section over the size limit", hugeTags, 64 << 10, []string{"true unknown -1", "false unknown -1"}},
		{"moves over the size limit: classified by its tags", hugeMoves, 64 << 10, []string{"true chess960 0", "false unknown -1", "false unknown -1", "false unknown -1"}},
		{"a bad FEN, then a game without problems", "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1\"]\n\n*\n\n[Event \"x\"]\n\n*\n", 0, []string{"true unknown -1", "true chess960 518"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := pgn.NewReader(strings.NewReader(tt.input))
			r.MaxGameSize = tt.max
			var got []string
			// ClassifyTo must leave nothing of the item before in a
			// Class it fills again.
			into := Class{Counted: true, Start: Start{Kind: DFRC, White: 1, Black: 2, FEN: 3}, Problems: []*pgn.ParseError{{Line: 7}}}
			for {
				g, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				c := Classify(g)
				if ClassifyTo(&into, g); !reflect.DeepEqual(into, c) {
					t.Errorf("ClassifyTo gives %+v, Classify %+v", into, c)
				}
				sp := c.Start.White
				got = append(got, fmt.Sprintf("%v %v %d", c.Counted, c.Start.Kind, sp))
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTallyCheck: the totals a document claims are refused when no run
// gives them, and taken when one does, or an older document leaves kinds
// out.
func TestTallyCheck(t *testing.T) {
	tests := []struct {
		name string
		t    Tally
		ok   bool
	}{
		{"a run's", Tally{Games: 10, Identified: 6, DFRC: 1, Other: 2, Unknown: 1, Warnings: 4}, true},
		{"none", Tally{}, true},
		{"kinds left out", Tally{Games: 10, Identified: 6}, true},
		{"games below 0", Tally{Games: -1}, false},
		{"a kind below 0", Tally{Games: 2, Identified: 3, Unknown: -1}, false},
		{"warnings below 0", Tally{Games: 1, Identified: 1, Warnings: -1}, false},
		{"kinds past the games", Tally{Games: 2, Identified: 2, Other: 1}, false},
		{"kinds that wrap around", Tally{Games: 1, Identified: math.MaxInt64, DFRC: math.MaxInt64, Other: 3}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.t.Check()
			if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrTally) {
				t.Errorf("Check = %v, want ok %v", err, tc.ok)
			}
		})
	}
}
