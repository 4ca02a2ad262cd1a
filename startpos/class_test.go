package startpos

import (
	"fmt"
	"io"
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
