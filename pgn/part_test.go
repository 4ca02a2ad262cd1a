package pgn

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/frctool/frctool/internal/sharedtest"
)

// describeGame writes down everything a Reader says of a game but its
// bytes, for comparing two ways of reading.
func describeGame(g *Game) string {
	s := fmt.Sprintf("bytes %d line %d index %d offset %d partial %v continued %v incomplete %v movetext %d tags %d",
		len(g.Raw), g.Line, g.Index, g.Offset, g.Partial, g.Continued, g.TagsIncomplete, g.MovetextLine(), len(g.Tags))
	for _, tag := range g.Tags {
		s += fmt.Sprintf(" %s=%q@%d:%d-%d", tag.Name, tag.Value, tag.Line, tag.Start, tag.End)
	}
	for _, p := range g.Problems {
		s += " [" + p.Error() + "]"
	}
	return s
}

// readInParts reads input as the job runner does with several workers:
// parts read ahead of the one being scanned, every other one scanned as
// soon as it is read (as a worker scans its part before the part before it
// is confirmed), and where a cut is not confirmed, Resume with the parts
// read ahead and one batch read in order before going on in parts. It
// returns each game described, the games' bytes joined and the number of
// resumes.
func readInParts(t *testing.T, input string, wrap func(io.Reader) io.Reader, size, maxGame int) (games []string, all string, resumes int) {
	t.Helper()
	r := NewReader(wrap(strings.NewReader(input)))
	r.Name = "t.pgn"
	r.MaxGameSize = maxGame
	var joined bytes.Buffer
	take := func(b *Batch) {
		for i := range b.Games {
			games = append(games, describeGame(&b.Games[i]))
			joined.Write(b.Games[i].Raw)
		}
	}
	type scan struct {
		scanned  bool
		n        int
		complete bool
	}
	var ahead []*Batch
	scans := map[*Batch]scan{}
	read := 0
	// Every other part makes its tags in memory of the test's, reused
	// from part to part, as a program scanning on several goroutines does.
	var mem TagMemory
	counted, eof := r.Games(), false
	for round := 0; ; round++ {
		if round > 2*len(input)+10 {
			t.Fatalf("no end after %d rounds: %q", round, input)
		}
		for len(ahead) < 3 && !eof {
			b := new(Batch)
			if err := r.ReadPart(b, size); err == io.EOF {
				eof = true
			} else if err != nil {
				t.Fatal(err)
			} else {
				ahead = append(ahead, b)
				if read++; read%2 == 0 {
					n, complete := b.ScanPart()
					scans[b] = scan{scanned: true, n: n, complete: complete}
				}
			}
		}
		if len(ahead) == 0 {
			break
		}
		b := ahead[0]
		ahead = ahead[1:]
		n, complete := scans[b].n, scans[b].complete
		if !scans[b].scanned {
			if round%2 == 1 {
				b.TagMemory = &mem
			}
			n, complete = b.ScanPart()
		}
		delete(scans, b)
		b.CountFrom(counted)
		b.Build()
		take(b)
		counted += n
		if complete {
			continue
		}
		resumes++
		r.Resume(b, ahead...)
		ahead, eof = nil, false
		clear(scans)
		var seq Batch
		if err := r.ReadBatch(&seq, size); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		take(&seq)
		counted += len(seq.Games)
		if counted != r.Games() {
			t.Fatalf("%d games counted, the reader says %d", counted, r.Games())
		}
	}
	return games, joined.String(), resumes
}

// TestReadPartMatchesNext reads inputs in parts of many sizes and compares
// every game with Next's: bytes, numbers, lines, offsets, tags, problems.
// The inputs hold what a guessed cut can get wrong: a comment left open
// across a blank line and a tag, games with no blank line between them,
// games larger than MaxGameSize, lone-CR and CRLF line ends, a BOM, a NUL
// byte, and an input ending in an open comment.
func TestReadPartMatchesNext(t *testing.T) {
	var plain strings.Builder
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&plain, "[Event \"%d\"]\n[Note \"q\\\"%d\"]\n\n1. e4 {c} ; rest\n1-0\n\n", i, i)
	}
	base := plain.String()
	tricky := base +
		"[Event \"open\"]\n\n1. e4 {never closed\n\n[Event \"inside\"]\n\n1. d4 *\n\n" +
		base[:400] +
		"[Event \"closed later\"]\n\n1. e4 {a\n\n[Event \"x\"]\nb} 1-0\n\n" +
		"[Event \"glued\"]\n1. e4 1-0\n[Event \"next\"]\n1. d4 0-1\n" +
		"\n[Event \"big\"]\n\n" + strings.Repeat("1. e4 {long comment} ", 60) + "*\n\n" +
		"\xef\xbb\xbf[Event \"bom\"]\n\n1. c4 *\n\n" +
		"1. e4 e5 *\n\n" + "[Event \"nul\"]\n\n1. e4\x00 e5 *\n\n" + base[:300] + "[Event \"last\"]\n\n1. e4 {open at the end\n"
	inputs := []struct{ name, input string }{
		{"plain", base},
		{"tricky", tricky},
		{"tricky CRLF", strings.ReplaceAll(tricky, "\n", "\r\n")},
		{"tricky lone CR", strings.ReplaceAll(tricky, "\n", "\r")},
		{"empty", ""},
		{"blank", "\n\n\n"},
		{"one game", "[Event \"a\"]\n\n1. e4 *\n"},
	}
	for _, in := range inputs {
		for _, size := range []int{1, 50, 333, 1000, 1 << 16} {
			for _, maxGame := range []int{0, 700} {
				var want []string
				for _, g := range readAll(t, in.input, iotest.OneByteReader, maxGame) {
					want = append(want, describeGame(g))
				}
				for _, rd := range readers {
					name := fmt.Sprintf("%s/size %d/max %d/%s", in.name, size, maxGame, rd.name)
					t.Run(name, func(t *testing.T) {
						got, all, _ := readInParts(t, in.input, rd.wrap, size, maxGame)
						if all != in.input {
							t.Fatalf("the games' bytes differ from the input")
						}
						if len(got) != len(want) {
							for i := range min(len(got), len(want)) {
								if got[i] != want[i] {
									t.Logf("first difference, game %d:\n got %s\nwant %s", i+1, got[i], want[i])
									break
								}
							}
							t.Fatalf("%d games, Next gave %d", len(got), len(want))
						}
						for i := range want {
							if got[i] != want[i] {
								t.Fatalf("game %d:\n got %s\nwant %s", i+1, got[i], want[i])
							}
						}
					})
				}
			}
		}
	}
}

// TestReadPartConfirmsPlainCuts holds the point of reading in parts: on an
// ordinary archive every cut is confirmed, so nothing is read twice.
func TestReadPartConfirmsPlainCuts(t *testing.T) {
	game := "[Event \"%d\"]\n[Site \"s\"]\n\n1. e4 {[%%clk 0:03:00]} 1... e5 {[%%clk 0:03:00]} 1-0\n\n"
	tests := []struct{ name, game string }{
		{"blank line between games", game},
		{"no blank line between games", strings.TrimSuffix(game, "\n")},
		{"CRLF", strings.ReplaceAll(game, "\n", "\r\n")},
		{"header only", "[Event \"%d\"]\n[Site \"s\"]\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			for i := 0; i < 500; i++ {
				fmt.Fprintf(&b, tc.game, i)
			}
			games, _, resumes := readInParts(t, b.String(), func(r io.Reader) io.Reader { return r }, 4096, 0)
			if len(games) != 500 || resumes != 0 {
				t.Fatalf("%d games with %d resumes, want 500 with none", len(games), resumes)
			}
		})
	}
}

// FuzzReadPart checks that reading in parts, with cuts confirmed or
// resumed, gives the games Next gives, whatever the input. Its seeds are
// the ones of FuzzReader, with their corpus.
func FuzzReadPart(f *testing.F) {
	sharedtest.SeedFixtures(f, "*.pgn")
	corpus, _ := filepath.Glob("testdata/fuzz/FuzzReader/*")
	for _, file := range corpus {
		b, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		lines := strings.SplitN(string(b), "\n", 3)
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "[]byte(") {
			continue
		}
		if s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")")); err == nil {
			f.Add([]byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		input := string(data)
		for _, tc := range []struct{ size, maxGame int }{{1, 0}, {64, 0}, {4096, 0}, {64, 100}, {4096, 100}} {
			size := tc.size
			var want []string
			for _, g := range readAll(t, input, iotest.OneByteReader, tc.maxGame) {
				want = append(want, describeGame(g))
			}
			// Half reads, and a live feed that pauses every 23 bytes,
			// where every read may hand out games early.
			for _, wrap := range []func(io.Reader) io.Reader{iotest.HalfReader, pausing(23)} {
				got, all, _ := readInParts(t, input, wrap, size, tc.maxGame)
				if all != input {
					t.Fatalf("size %d: the games' bytes differ from the input", size)
				}
				if len(got) != len(want) {
					t.Fatalf("size %d: %d games, Next gave %d", size, len(got), len(want))
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("size %d, game %d:\n got %s\nwant %s", size, i+1, got[i], want[i])
					}
				}
			}
		}
	})
}

// TestScanPartReusesGames checks that ScanPart, which fills each Game of a
// batch field by field where the batch held other games before, leaves
// nothing of them: the games of a part scanned into a used batch equal,
// field for field, those of the same part scanned into a new one.
func TestScanPartReusesGames(t *testing.T) {
	before := strings.Repeat("\r[Event \"x\"]\r[Bad\r\r1. e4 {c} 0-1\r\r", 40) + // lone CR, problems, markers
		"[Event \"y\"]\r[FEN \"?\"]\r\r1. e4\r\r" // no marker
	after := "[Event \"n\"]\n\n1. e4\n\n" + // no marker, where the used batch's game had one
		strings.Repeat("[Event \"a\"]\n[Site \"b\"]\n\n1. d4 *\n\n[White \"c\"]\n\n*\n\n", 40)
	scan := func(b *Batch, input string) []Game {
		r := NewReader(strings.NewReader(input))
		r.Name = "t.pgn"
		if err := r.ReadPart(b, 1<<20); err != nil {
			t.Fatal(err)
		}
		if _, complete := b.ScanPart(); !complete {
			t.Fatalf("the part of %q was not confirmed", input[:20])
		}
		return b.Games
	}
	used := new(Batch)
	scan(used, before)
	got := scan(used, after)
	want := scan(new(Batch), after)
	if len(got) != len(want) {
		t.Fatalf("%d games in a used batch, %d in a new one", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		// A used batch keeps the memory of its problem lists: empty, not nil.
		if len(g.Problems) == 0 && len(w.Problems) == 0 {
			g.Problems, w.Problems = nil, nil
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("game %d in a used batch:\n%+v\nin a new one:\n%+v", i+1, g, w)
		}
	}
}

// FuzzReadPartOnce is FuzzReadPart for one way of reading at a time, the
// part size, the largest game and the reads chosen by the fuzzer, so that
// it runs fast enough to explore: parts confirmed or resumed must give
// the games Next gives.
func FuzzReadPartOnce(f *testing.F) {
	f.Add([]byte("[Event \"a\"]\n\n1. e4 {c\n\n[Event \"b\"]\n\n} *\n\n[Event \"c\"]\n1. d4 *\n"), uint16(16), uint8(0))
	f.Add([]byte("[A \"1\"]\r\r1-0\r\r[B \"2\"]\r\r0-1\r"), uint16(5), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, size uint16, how uint8) {
		input := string(data)
		maxGame := []int{0, 64, 100}[how%3]
		wrap := []func(io.Reader) io.Reader{iotest.HalfReader, iotest.OneByteReader, iotest.DataErrReader, pausing(int(how%17) + 1)}[how/3%4]
		var want []string
		for _, g := range readAll(t, input, iotest.DataErrReader, maxGame) {
			want = append(want, describeGame(g))
		}
		got, all, _ := readInParts(t, input, wrap, int(size%4096)+1, maxGame)
		sameGames(t, got, want, all, input)
	})
}

// sameGames fails the test unless got, games read one way, are want, the
// games Next gives, and their bytes, all, are the input.
func sameGames(t *testing.T, got, want []string, all, input string) {
	t.Helper()
	if all != input {
		t.Fatalf("the games' bytes differ from the input")
	}
	if len(got) != len(want) {
		t.Fatalf("%d games, Next gave %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("game %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
}
