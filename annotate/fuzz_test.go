package annotate

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
)

// FuzzAnnotate checks, on any input, that annotating with every option
// never panics, keeps every game, and that a second run changes nothing:
// the tags, PlyCount and the final-position comment are each written once
// and then found again. Seeds are the project's PGN fixtures and
// testdata/fuzz/FuzzAnnotate.
//
//	go test ./annotate/ -run '^$' -fuzz FuzzAnnotate -fuzztime 60s
func FuzzAnnotate(f *testing.F) {
	sharedtest.SeedFixtures(f, "validate/*.pgn", "dialects.pgn")
	f.Add([]byte("[Event \"x\"]\n\n1. e4 e5 { \"8/8/8/8/8/8/8/K6k w - - 0 1\" }\n*"))
	f.Add([]byte("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\r\n\r\n1. f4 f5 2. Rf3 Rf6 3. O-O O-O 1/2-1/2 {x}"))
	opts := Options{PlyCount: true, FinalFEN: true, Variant: true}
	f.Fuzz(func(t *testing.T, in []byte) {
		once, sum, _ := annotateBytes(t, in, opts, 1)
		twice, sum2, _ := annotateBytes(t, once, opts, 1)
		if !bytes.Equal(once, twice) {
			t.Fatalf("a second run changed the output:\n%q\n%q", once, twice)
		}
		if sum.Games != sum2.Games {
			t.Fatalf("%d games in the first output, %d in the second", sum.Games, sum2.Games)
		}
	})
}

// FuzzAnnotateOnlyAdds checks the promise of annotate's default run on any
// input that holds no number tag yet: every game comes out, and deleting
// the number tags it added, each with the line break or blank that came
// with it, gives back the input byte for byte.
//
//	go test ./annotate/ -run '^$' -fuzz FuzzAnnotateOnlyAdds -fuzztime 60s
func FuzzAnnotateOnlyAdds(f *testing.F) {
	sharedtest.SeedFixtures(f, "validate/*.pgn", "dialects.pgn")
	f.Add([]byte("[Event \"x\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"] 1. e4 *"))
	f.Add([]byte("[Event \"x\"]\r\n[Site \"y\"]"))
	f.Fuzz(func(t *testing.T, in []byte) {
		if bytes.Contains(in, []byte("Chess960")) {
			return // a tag of an earlier run is rewritten, not added
		}
		out, sum, _ := annotateBytes(t, in, Options{}, 1)
		if got := removeAdded(out, lastLineEnding(in)); !bytes.Equal(got, in) {
			t.Fatalf("with the added tags deleted, the output is\n%q\nnot the input\n%q\n(output %q)", got, in, out)
		}
		_, sum2, _ := annotateBytes(t, out, Options{}, 1)
		if sum.Games != sum2.Games {
			t.Fatalf("%d games in the input, %d in the output %q", sum.Games, sum2.Games, out)
		}
	})
}

// addedLine matches a number tag as annotate adds it on a line of its
// own in a file of line feeds: after a line break, or first, with its
// line break after it; addedLineCR, in a file of lone CRs, where a line
// feed after the CR is not the tag's. addedInline matches one after a
// blank, on a line of tags or moves.
var (
	addedLine   = regexp.MustCompile(`(\A|\r\n|\n|\r)\[(?:Chess960|Chess960Fritz9) "[0-9:]+"\](?:\r\n|\n)`)
	addedLineCR = regexp.MustCompile(`(\A|\r\n|\n|\r)\[(?:Chess960|Chess960Fritz9) "[0-9:]+"\]\r`)
	addedInline = regexp.MustCompile(` \[(?:Chess960|Chess960Fritz9) "[0-9:]+"\]`)
)

// removeAdded deletes from b the number tags annotate added. One at the
// end of the last game, which has no line break, follows the line break
// eol, the game's, that annotate gave the line before it: a lone CR in a
// file of lone CRs, whose every game's line ending it is.
func removeAdded(b []byte, eol string) []byte {
	addedLine := addedLine
	if eol == "\r" {
		addedLine = addedLineCR
	}
	addedLast := regexp.MustCompile(regexp.QuoteMeta(eol) + `\[(?:Chess960|Chess960Fritz9) "[0-9:]+"\]\z`)
	for addedLast.Match(b) {
		b = addedLast.ReplaceAll(b, nil)
	}
	// Two tags on lines of their own share the line break between them:
	// the second is matched once the first is gone.
	for addedLine.Match(b) {
		b = addedLine.ReplaceAll(b, []byte("$1"))
	}
	return addedInline.ReplaceAll(b, nil)
}

// lastLineEnding returns the line ending of the last game in, as the
// Reader gives it.
func lastLineEnding(in []byte) string {
	r := pgn.NewReader(bytes.NewReader(in))
	eol := "\n"
	for {
		g, err := r.Next()
		if err != nil {
			return eol
		}
		eol = g.LineEnding()
	}
}
