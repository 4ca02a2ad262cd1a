package annotate

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func annotateBytes(t testing.TB, in []byte, opts Options, jobs int) ([]byte, *Summary, []string) {
	t.Helper()
	var out bytes.Buffer
	var sum Summary
	var warnings []string
	r := pgn.NewReader(bytes.NewReader(in))
	r.Name = "in.pgn"
	run := pipeline.Options{Jobs: jobs, Warn: func(p *pgn.ParseError) { warnings = append(warnings, p.Error()) }}
	err := Run(context.Background(), r, &out, opts, run, &sum)
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), &sum, warnings
}

// stripTags deletes the lines of the two number tags, as a user would with
// grep -v, to compare an annotated archive with its input.
var numberTagLine = regexp.MustCompile(`(?m)^\[(Chess960|Chess960Fritz9) "[^"]*"\]\r?\n`)

func stripTags(b []byte) []byte { return numberTagLine.ReplaceAll(b, nil) }

func TestGolden(t *testing.T) {
	in, err := os.ReadFile("../testdata/dialects.pgn")
	if err != nil {
		t.Fatal(err)
	}
	out, sum, warnings := annotateBytes(t, in, Options{}, 1)
	golden := "../testdata/dialects.annotated.pgn"
	if *update {
		os.WriteFile(golden, out, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, want) {
		t.Errorf("annotated output differs from %s (go test ./annotate -update to accept)", golden)
	}
	wantSum := "16 games, 12 identified (11 distinct SPs), 1 DFRC, 2 other start positions, 1 unknown, 2 warnings"
	if sum.String() != wantSum {
		t.Errorf("summary %q, want %q", sum, wantSum)
	}
	wantWarnings := []string{
		`in.pgn:108: start position unknown: [FEN "?"]`,
		`in.pgn:190: game has no result (truncated?)`,
	}
	if strings.Join(warnings, "\n") != strings.Join(wantWarnings, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(wantWarnings, "\n"))
	}
}

// archives returns every PGN file the properties are checked on: the
// project's fixtures and, when present, the real archives in ../shared.
func archives(t *testing.T) []string {
	files, _ := filepath.Glob("../testdata/*.pgn")
	if root := sharedtest.Root(); root != "" {
		real, _ := filepath.Glob(filepath.Join(root, "realdata", "*", "*.pgn"))
		files = append(files, real...)
	} else {
		t.Log("no ../shared: checking the project's fixtures only")
	}
	if len(files) == 0 {
		t.Fatal("no PGN files found")
	}
	return files
}

func TestProperties(t *testing.T) {
	for _, file := range archives(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			in, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			once, sum, _ := annotateBytes(t, in, Options{}, 1)
			if !bytes.Equal(stripTags(once), stripTags(in)) {
				t.Error("deleting the number tags does not give back the input")
			}
			twice, _, _ := annotateBytes(t, once, Options{}, 1)
			if !bytes.Equal(once, twice) {
				t.Error("a second run changed the output")
			}
			parallel, psum, _ := annotateBytes(t, in, Options{}, 4)
			if !bytes.Equal(once, parallel) || *sum != *psum {
				t.Error("--jobs 4 gives other bytes or counts than --jobs 1")
			}
			if n := int64(bytes.Count(once, []byte("\n[Chess960 \""))); n < sum.Identified+sum.DFRC-1 {
				t.Errorf("%d tags written for %d identified games", n, sum.Identified+sum.DFRC)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	game := "[Event \"x\"]\n[Variant \"Standard\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. a4 *\n"
	shredder, xfen := fen.Shredder, fen.XFEN
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"defaults", Options{}, "[Event \"x\"]\n[Variant \"Standard\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n[Chess960 \"0\"]\n[Chess960Fritz9 \"81\"]\n\n1. a4 *\n"},
		{"no Fritz9", Options{NoFritz9: true}, "[Event \"x\"]\n[Variant \"Standard\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n[Chess960 \"0\"]\n\n1. a4 *\n"},
		{"tag names", Options{SPTag: "SP", Fritz9Tag: "F9"}, "[Event \"x\"]\n[Variant \"Standard\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n[SP \"0\"]\n[F9 \"81\"]\n\n1. a4 *\n"},
		{"variant", Options{Variant: true, NoFritz9: true}, "[Event \"x\"]\n[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n[Chess960 \"0\"]\n[SetUp \"1\"]\n\n1. a4 *\n"},
		{"castling shredder", Options{Castling: &shredder, NoFritz9: true}, "[Event \"x\"]\n[Variant \"Standard\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n[Chess960 \"0\"]\n\n1. a4 *\n"},
		{"castling xfen keeps X-FEN", Options{Castling: &xfen, NoFritz9: true}, "[Event \"x\"]\n[Variant \"Standard\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n[Chess960 \"0\"]\n\n1. a4 *\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, _ := annotateBytes(t, []byte(game), tt.opts, 1)
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
		})
	}
}

func TestVariantLeavesStandardChessAlone(t *testing.T) {
	game := "[Event \"x\"]\n\n1. e4 *\n"
	out, _, _ := annotateBytes(t, []byte(game), Options{Variant: true, NoFritz9: true}, 1)
	if want := "[Event \"x\"]\n[Chess960 \"518\"]\n\n1. e4 *\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// TestEditable: binary bytes make a game's movetext uneditable only when
// they are in it; in the tags alone (which annotate may rewrite) they do
// not, or a second run would replay a game the first did not.
func TestEditable(t *testing.T) {
	for _, tc := range []struct {
		name, game string
		want       bool
	}{
		{"clean", "[Event \"x\"]\n\n1. e4 *\n", true},
		{"NUL in a tag", "[Event \"\x00\"]\n\n1. e4 *\n", true},
		{"NUL in a tag, no moves", "[Event \"\x00\"]", true},
		{"NUL in the moves", "[Event \"x\"]\n\n1. e4\x00 *\n", false},
		{"NUL in a tag and in the moves", "[Event \"\x00\"]\n\n1. e4 {\x00} *\n", false},
		{"NUL in a tag on the moves' line", "[Event \"\x00\"] 1. e4 *\n", true},
		{"NUL in a tag and in the moves, on one line", "[Event \"\x00\"] 1. e4 \x00 *\n", false},
		{"control byte in the moves", "[Event \"x\"]\n\n1. e4 \x01 *\n", false},
		{"control byte in the moves, NUL in a tag", "[Event \"\x00\"]\n\n1. e4 \x01 *\n", false},
		{"comment left open", "[Event \"x\"]\n\n1. e4 {never closed\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := pgn.NewReader(strings.NewReader(tc.game)).Next()
			if err != nil {
				t.Fatal(err)
			}
			if got := editable(g); got != tc.want {
				t.Errorf("editable = %v, want %v (problems %v)", got, tc.want, g.Problems)
			}
		})
	}
}

func TestOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
		want string // the error, "" for none
	}{
		{"defaults", Options{}, ""},
		{"names of one's own", Options{SPTag: "SP", Fritz9Tag: "Fritz9_No"}, ""},
		{"one name, no Fritz9 tag", Options{SPTag: "N", Fritz9Tag: "N", NoFritz9: true}, ""},
		{"a blank", Options{SPTag: "Chess 960"}, `bad tag name: the SP tag "Chess 960": letters, digits and _ only`},
		{"a quote", Options{Fritz9Tag: `F"9`}, `bad tag name: the Fritz9 tag "F\"9": letters, digits and _ only`},
		{"the FEN", Options{SPTag: "FEN"}, `bad tag name: the SP tag "FEN" would replace the game's own [FEN]`},
		{"the result", Options{Fritz9Tag: "Result"}, `bad tag name: the Fritz9 tag "Result" would replace the game's own [Result]`},
		{"the variant", Options{SPTag: "Variant"}, `bad tag name: the SP tag "Variant" would replace the game's own [Variant]`},
		{"the ply count", Options{SPTag: "PlyCount"}, `bad tag name: the SP tag "PlyCount" would replace the game's own [PlyCount]`},
		{"one name for both", Options{SPTag: "N", Fritz9Tag: "N"}, `bad tag name: the SP and Fritz9 tags are both "N"`},
		{"the other's default", Options{SPTag: DefaultFritz9Tag}, `bad tag name: the SP and Fritz9 tags are both "Chess960Fritz9"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opts.Check()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Check() = %v, want nil", err)
			case tc.want != "" && (err == nil || err.Error() != tc.want || !errors.Is(err, ErrTagName)):
				t.Errorf("Check() = %v, want %q wrapping ErrTagName", err, tc.want)
			}
		})
	}
}

// TestRunChecksOptions: Run refuses a tag it would destroy before it reads
// or writes anything.
func TestRunChecksOptions(t *testing.T) {
	var out bytes.Buffer
	err := Run(context.Background(), pgn.NewReader(strings.NewReader("[FEN \"x\"]\n\n*\n")), &out, Options{SPTag: "FEN"}, pipeline.Options{}, nil)
	if !errors.Is(err, ErrTagName) || out.Len() != 0 {
		t.Errorf("Run: %v, %d bytes written; want ErrTagName and nothing", err, out.Len())
	}
}

// TestAppendAllocatesNothing annotates games of every kind of start, the
// DFRC pairs among them met before, and checks what each gets and that
// Append allocates nothing for them.
func TestAppendAllocatesNothing(t *testing.T) {
	games := []struct {
		name, fen, want string // want: the number tags Append writes
	}{
		{"Chess960", "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1", "[Chess960 \"3\"]\n[Chess960Fritz9 \"84\"]\n"},
		{"standard, no FEN", "", "[Chess960 \"518\"]\n[Chess960Fritz9 \"359\"]\n"},
		{"DFRC", "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "[Chess960 \"518:3\"]\n[Chess960Fritz9 \"359:84\"]\n"},
		{"another DFRC pair", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1", "[Chess960 \"3:518\"]\n[Chess960Fritz9 \"84:359\"]\n"},
		{"other, a stale tag", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", ""},
	}
	a := New(Options{})
	var gs []*pgn.Game
	var classes []*startpos.Class
	for _, c := range games {
		text := "[Event \"e\"]\n"
		if c.fen != "" {
			text += "[FEN \"" + c.fen + "\"]\n"
		}
		if c.want == "" {
			text += "[Chess960 \"7\"]\n"
		}
		text += "\n1. e4 *\n\n"
		g, err := pgn.NewReader(strings.NewReader(text)).Next()
		if err != nil {
			t.Fatal(err)
		}
		class := startpos.Classify(g)
		out, _ := a.Append(nil, g, &class)
		if got := string(stripTags(out)); got != strings.ReplaceAll(text, "[Chess960 \"7\"]\n", "") {
			t.Errorf("%s: %q, want the input less its number tags", c.name, out)
		}
		if got := string(out); c.want == "" && strings.Contains(got, "[Chess960") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want the number tags %q", c.name, out, c.want)
		}
		gs, classes = append(gs, g), append(classes, &class)
	}
	dst := make([]byte, 0, 4096)
	allocs := testing.AllocsPerRun(20, func() {
		for i, g := range gs {
			dst, _ = a.Append(dst[:0], g, classes[i])
		}
	})
	if allocs > 0 {
		t.Errorf("%v allocations a run over %d games, want none", allocs, len(gs))
	}
}

// TestDFRCTextsBounded asks for the texts of more DFRC pairs than an
// Annotator keeps: each is right, and the pairs kept stay within
// maxDFRCTexts.
func TestDFRCTextsBounded(t *testing.T) {
	a := New(Options{})
	for w := range 70 {
		for b := range 70 {
			if w == b {
				continue
			}
			st := startpos.Start{Kind: startpos.DFRC, White: w, Black: b, FEN: -1}
			fw, fb, _ := st.Fritz9()
			got := a.dfrcTexts(st)
			if want := fmt.Sprintf("%d:%d", w, b); got.sp != want {
				t.Fatalf("%d:%d: SP text %q, want %q", w, b, got.sp, want)
			}
			if want := fmt.Sprintf("%d:%d", fw, fb); got.fritz9 != want {
				t.Fatalf("%d:%d: Fritz9 text %q, want %q", w, b, got.fritz9, want)
			}
		}
	}
	if len(a.dfrc) != maxDFRCTexts {
		t.Errorf("%d pairs kept, want %d", len(a.dfrc), maxDFRCTexts)
	}
}
