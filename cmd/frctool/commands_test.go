package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/frctool/frctool/internal/stream"
	"github.com/urfave/cli/v3"
)

// runCase is one call of frctool through run, with its expected results.
type runCase struct {
	name     string
	args     []string // after "frctool"
	stdin    string
	stdout   string
	stderr   string // exact, unless errHas is set
	errHas   string // stderr must contain this instead
	exitCode int
}

func (tc runCase) check(t *testing.T) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), append([]string{"frctool"}, tc.args...), strings.NewReader(tc.stdin), &stdout, &stderr)
	if code != tc.exitCode {
		t.Errorf("exit status %d, want %d\nstderr: %s", code, tc.exitCode, stderr.String())
	}
	if got := stdout.String(); got != tc.stdout {
		t.Errorf("stdout:\n%s\nwant:\n%s", got, tc.stdout)
	}
	switch got := stderr.String(); {
	case tc.errHas != "":
		if !strings.Contains(got, tc.errHas) {
			t.Errorf("stderr %q does not contain %q", got, tc.errHas)
		}
	case got != tc.stderr:
		t.Errorf("stderr:\n%s\nwant:\n%s", got, tc.stderr)
	}
}

func runCases(t *testing.T, cases []runCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, tc.check)
	}
}

const (
	fenSP0      = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
	fenStandard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	fenDFRC     = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	fenGame     = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	fenBroken   = "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
)

func TestIdentify(t *testing.T) {
	runCases(t, []runCase{
		{
			name:   "arguments, text",
			args:   []string{"identify", "RNBQKBNR", fenSP0, "tsldklst"},
			stdout: "SP 518  Fritz9 359  RNBQKBNR\nSP 0  Fritz9 81  BBQNNRKR\nSP 518  Fritz9 359  RNBQKBNR\n",
		},
		{
			name:   "DFRC and a game in progress, text",
			args:   []string{"identify", fenDFRC, fenGame},
			stdout: "DFRC  White SP 518 RNBQKBNR  Black SP 0 BBQNNRKR\nnot a Chess960 start position: rank 4 is not empty  White SP 518 RNBQKBNR  Black SP 518 RNBQKBNR\n",
		},
		{
			name:     "bad argument keeps its empty row",
			args:     []string{"identify", "RNBQKBNR", "RNBQKBNRX", "BBQNNRKR"},
			stdout:   "SP 518  Fritz9 359  RNBQKBNR\n\nSP 0  Fritz9 81  BBQNNRKR\n",
			stderr:   "frctool: argument:2: back rank \"RNBQKBNRX\": a back rank has 8 squares (got 9)\n",
			exitCode: 1,
		},
		{
			name:     "stdin skips blank and comment lines and names the line",
			args:     []string{"identify"},
			stdin:    "# positions\n\n" + fenStandard + "\n  \n" + fenBroken + "\nRKRNNQBB\n",
			stdout:   "SP 518  Fritz9 359  RNBQKBNR\n\nSP 959  Fritz9 928  RKRNNQBB\n",
			errHas:   "frctool: stdin:5: fen: placement",
			exitCode: 1,
		},
		{
			name:  "csv golden",
			args:  []string{"identify", "--format", "csv"},
			stdin: "RNBQKBNR\n" + fenDFRC + "\n" + fenGame + "\nRNBQKBRR\n" + `x,"y` + "\n",
			stdout: `input,sp,fritz9,white_sp,black_sp,rank,error
RNBQKBNR,518,359,518,518,RNBQKBNR,
bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,,,518,0,RNBQKBNR,
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2,,,518,518,RNBQKBNR,not a Chess960 start position: rank 4 is not empty
RNBQKBRR,,,,,,"back rank ""RNBQKBRR"": a back rank holds 2 rooks, 2 knights, 2 bishops, 1 queen and 1 king (3 rooks, 1 knight)"
"x,""y",,,,,,"back rank ""x,\""y"": a back rank has 8 squares (got 4)"
`,
			errHas:   "frctool: stdin:5: back rank",
			exitCode: 1,
		},
		{
			name: "json golden",
			args: []string{"identify", "--format", "json", "BBQNNRKR", fenDFRC, "RNBQKBN"},
			stdout: `{"input":"BBQNNRKR","sp":0,"fritz9":81,"white_sp":0,"black_sp":0,"rank":"BBQNNRKR","error":null}
{"input":"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","sp":null,"fritz9":null,"white_sp":518,"black_sp":0,"rank":"RNBQKBNR","error":null}
{"input":"RNBQKBN","sp":null,"fritz9":null,"white_sp":null,"black_sp":null,"rank":null,"error":"back rank \"RNBQKBN\": a back rank has 8 squares (got 7)"}
`,
			stderr:   "frctool: argument:3: back rank \"RNBQKBN\": a back rank has 8 squares (got 7)\n",
			exitCode: 1,
		},
		{
			name:     "unknown format is a usage error",
			args:     []string{"identify", "--format", "xml", "RNBQKBNR"},
			stderr:   "frctool: --format \"xml\": want one of text, csv, json\nRun 'frctool identify --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "unknown flag is a usage error",
			args:     []string{"identify", "--sp", "RNBQKBNR"},
			stderr:   "frctool: unknown flag --sp\nRun 'frctool identify --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:   "empty stdin, csv: the header alone",
			args:   []string{"identify", "--format", "csv"},
			stdout: "input,sp,fritz9,white_sp,black_sp,rank,error\n",
		},
	})
}

// Mistakes on the command line are worded the same way whoever finds them,
// frctool or the flag parser: the flag as typed, then what is wrong, and
// the name probably meant.
func TestUsageErrorWording(t *testing.T) {
	runCases(t, []runCase{
		{
			name:     "a mistyped flag is named with the one meant",
			args:     []string{"identify", "--fromat", "csv", "RNBQKBNR"},
			stderr:   "frctool: unknown flag --fromat; did you mean --format?\nRun 'frctool identify --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "a mistyped command is named with the one meant",
			args:     []string{"idnetify", "RNBQKBNR"},
			stderr:   "frctool: unknown command \"idnetify\"; did you mean identify?\nRun 'frctool --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "help asked about a mistyped command",
			args:     []string{"idnetify", "--help"},
			stderr:   "frctool: unknown command \"idnetify\"; did you mean identify?\nRun 'frctool --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "the help command asked about an unknown one",
			args:     []string{"help", "draw"},
			stderr:   "frctool: unknown command \"draw\"\nRun 'frctool --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "a value that is not a number",
			args:     []string{"random", "--count", "abc"},
			stderr:   "frctool: --count \"abc\": want a whole number\nRun 'frctool random --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "a number out of range",
			args:     []string{"random", "--seed", "99999999999999999999999"},
			stderr:   "frctool: --seed \"99999999999999999999999\": out of range\nRun 'frctool random --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "a negative number for an unsigned flag",
			args:     []string{"random", "--seed=-3"},
			stderr:   "frctool: --seed \"-3\": want a whole number, 0 or more\nRun 'frctool random --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "a fraction where a number is wanted",
			args:     []string{"stats", "--fdr", "five"},
			stderr:   "frctool: --fdr \"five\": want a number\nRun 'frctool stats --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "a boolean flag given a word",
			args:     []string{"random", "--unique=maybe"},
			stderr:   "frctool: --unique \"maybe\": want true or false\nRun 'frctool random --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "a short flag's value",
			args:     []string{"stats", "-j", "x"},
			stderr:   "frctool: -j \"x\": want a whole number\nRun 'frctool stats --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "an unknown command like none",
			args:     []string{"xyz"},
			stderr:   "frctool: unknown command \"xyz\"\nRun 'frctool --help' for usage.\n",
			exitCode: 2,
		},
	})
}

// TestIdentifyJSONTypes decodes the JSON rows: numbers must be numbers and
// absent values null, not strings.
func TestIdentifyJSONTypes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"frctool", "identify", "--format", "json", fenStandard, fenDFRC}, nil, &stdout, &stderr)
	for i, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var row map[string]any
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		for _, k := range []string{"input", "sp", "fritz9", "white_sp", "black_sp", "rank", "error"} {
			if _, ok := row[k]; !ok {
				t.Errorf("row %d has no %q", i, k)
			}
		}
		if _, ok := row["white_sp"].(float64); !ok {
			t.Errorf("row %d: white_sp %#v is not a number", i, row["white_sp"])
		}
	}
}

func TestConvert(t *testing.T) {
	runCases(t, []runCase{
		{
			name:   "fritz9 to scharnagl, arguments",
			args:   []string{"convert", "--from", "fritz9", "--to", "scharnagl", "359", "81", "928", "518"},
			stdout: "518\n0\n959\n261\n",
		},
		{
			name:   "scharnagl 960 is 0",
			args:   []string{"convert", "--from", "scharnagl", "--to", "rank", "960", "0", "518"},
			stdout: "BBQNNRKR\nBBQNNRKR\nRNBQKBNR\n",
		},
		{
			name:   "rank to fen and shredder-fen",
			args:   []string{"convert", "--from", "rank", "--to", "shredder-fen", "BBQNNRKR", "tsldklst"},
			stdout: fenSP0 + "\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n",
		},
		{
			name:   "fen in any castling style to fritz9",
			args:   []string{"convert", "--from", "fen", "--to", "fritz9"},
			stdin:  fenSP0 + "\n" + fenStandard + "\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 3 7\n",
			stdout: "81\n359\n359\n",
		},
		{
			name:   "- reads standard input among the arguments, once",
			args:   []string{"convert", "--from", "fritz9", "--to", "scharnagl", "359", "-", "81", "-"},
			stdin:  "928\n1\n",
			stdout: "518\n959\n32\n0\n",
		},
		{
			name:     "a bad argument after - is numbered by its place",
			args:     []string{"convert", "--from", "fritz9", "--to", "scharnagl", "-", "x"},
			stdin:    "359\n",
			stdout:   "518\n\n",
			stderr:   "frctool: argument:2: \"x\" is not a Fritz9 number (1..960)\n",
			exitCode: 1,
		},
		{
			name:     "stdin with bad lines: rows stay aligned",
			args:     []string{"convert", "--from", "fritz9", "--to", "scharnagl"},
			stdin:    "# Fritz9 numbers\n359\n\n0\nabc\n81\n",
			stdout:   "518\n\n\n0\n",
			stderr:   "frctool: stdin:4: Fritz9 number 0: number out of range (1..960)\nfrctool: stdin:5: \"abc\" is not a Fritz9 number (1..960)\n",
			exitCode: 1,
		},
		{
			name:   "CRLF line ends and a byte order mark",
			args:   []string{"convert", "--from", "rank", "--to", "scharnagl"},
			stdin:  "\uFEFFRNBQKBNR\r\n\r\n# comment\r\nBBQNNRKR\r\n",
			stdout: "518\n0\n",
		},
		{
			name:     "a DFRC FEN has no single number",
			args:     []string{"convert", "--from", "fen", "--to", "scharnagl", fenDFRC, fenGame},
			stdout:   "\n\n",
			stderr:   "frctool: argument:1: a DFRC start position (White SP 518, Black SP 0) has no single number\nfrctool: argument:2: not a Chess960 start position: rank 4 is not empty\n",
			exitCode: 1,
		},
		{
			name:     "csv",
			args:     []string{"convert", "--from", "scharnagl", "--to", "fen", "--format", "csv", "518", "961"},
			stdout:   "input,output\n518," + fenStandard + "\n961,\n",
			stderr:   "frctool: argument:2: SP 961: number out of range (Scharnagl numbers are 0..959, or 960 for 0)\n",
			exitCode: 1,
		},
		{
			name:     "missing --from",
			args:     []string{"convert", "--to", "rank", "518"},
			stderr:   "frctool: --from is required: one of scharnagl, fritz9, rank, fen\nRun 'frctool convert --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "shredder-fen is output only",
			args:     []string{"convert", "--from", "shredder-fen", "--to", "rank"},
			errHas:   `--from "shredder-fen": want one of scharnagl, fritz9, rank, fen`,
			exitCode: 2,
		},
		{
			name:     "bad --format",
			args:     []string{"convert", "--from", "rank", "--to", "fen", "--format", "json"},
			errHas:   `--format "json": want one of text, csv`,
			exitCode: 2,
		},
	})
}

func TestTables(t *testing.T) {
	runCases(t, []runCase{
		{
			name: "bishop",
			args: []string{"tables", "bishop"},
			stdout: `Bishop's table (SP mod 16)
   abcdefgh
 0 BB------
 1 B--B----
 2 B----B--
 3 B------B
 4 -BB-----
 5 --BB----
 6 --B--B--
 7 --B----B
 8 -B--B---
 9 ---BB---
10 ----BB--
11 ----B--B
12 -B----B-
13 ---B--B-
14 -----BB-
15 ------BB
`,
		},
		{
			name:     "unknown table",
			args:     []string{"tables", "queen"},
			errHas:   `unknown table "queen"`,
			exitCode: 2,
		},
		{
			name:     "two tables",
			args:     []string{"tables", "king", "bishop"},
			errHas:   "one table at a time",
			exitCode: 2,
		},
	})

	// The long tables: their layout and a few entries the seed shows.
	for _, tc := range []struct {
		table string
		lines int // heading + rows
		has   []string
	}{
		{"king", 1 + 21, []string{"  0 QNNRKR   336 NRKQRN   672 QRKNNR\n", "320 NRQKRN   656 RNKRNQ\n", "512 RNQKNR"}},
		{"skeleton", 1 + 12, []string{"  0 QNN---   192 QN--N-   384 Q-NN--   576 Q-N--N   768 Q--N-N\n", "288 QN---N", "512 -NQ-N-"}},
		{"fritz9", 1 + 15, []string{"  1 NNQ---   241 NN-Q--   481 NN--Q-   721 NN---Q\n", "353 -NQ-N-", "945 ---QNN\n"}},
	} {
		t.Run(tc.table, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), []string{"frctool", "tables", tc.table}, nil, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			out := stdout.String()
			if n := strings.Count(out, "\n"); n != tc.lines {
				t.Errorf("%d lines, want %d:\n%s", n, tc.lines, out)
			}
			for _, s := range tc.has {
				if !strings.Contains(out, s) {
					t.Errorf("no %q in:\n%s", s, out)
				}
			}
		})
	}

	// With no argument: all four, separated by blank lines.
	var all bytes.Buffer
	run(context.Background(), []string{"frctool", "tables"}, nil, &all, &all)
	for _, heading := range []string{"King's table", "\n\nBishop's table", "\n\nScharnagl's NQ-skeleton table", "\n\nFritz9 NQ-skeleton table"} {
		if !strings.Contains(all.String(), heading) {
			t.Errorf("tables without argument: no %q", heading)
		}
	}
}

func TestRandom(t *testing.T) {
	runCases(t, []runCase{
		{
			// The draw for a seed is fixed by math/rand/v2's PCG, whose
			// output the Go project keeps stable.
			name:   "seeded text",
			args:   []string{"random", "--seed", "7", "--count", "3"},
			stdout: "SP 879  Fritz9 240  QRKRNNBB\nSP 582  Fritz9 183  QRBNKBRN\nSP 778  Fritz9 219  QRKNBBRN\n",
		},
		{
			name:   "seeded csv",
			args:   []string{"random", "--seed", "7", "--count", "2", "--format", "csv"},
			stdout: "sp,fritz9,rank\n879,240,QRKRNNBB\n582,183,QRBNKBRN\n",
		},
		{
			name:   "seeded fen",
			args:   []string{"random", "--seed", "7", "--format", "fen"},
			stdout: "qrkrnnbb/pppppppp/8/8/8/8/PPPPPPPP/QRKRNNBB w KQkq - 0 1\n",
		},
		{
			name:     "count 0",
			args:     []string{"random", "--count", "0"},
			errHas:   "--count 0: want 1 or more",
			exitCode: 2,
		},
		{
			name:     "seed not a number",
			args:     []string{"random", "--seed", "abc"},
			errHas:   `--seed "abc": want a whole number, 0 or more`,
			exitCode: 2,
		},
	})
}

// TestRandomUniform draws many positions from crypto/rand and checks that
// all 960 occur with plausible frequencies.
func TestRandomUniform(t *testing.T) {
	const draws = 96000 // 100 per position on average
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"frctool", "random", "--count", "96000", "--format", "csv"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	counts := map[string]int{}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")[1:]
	for _, l := range lines {
		sp, _, _ := strings.Cut(l, ",")
		counts[sp]++
	}
	if len(lines) != draws || len(counts) != 960 {
		t.Fatalf("%d draws over %d positions, want %d over 960", len(lines), len(counts), draws)
	}
	// Each count is binomial with mean 100 and sd about 10: 50 and 150 are
	// five standard deviations away.
	for sp, n := range counts {
		if n < 50 || n > 150 {
			t.Errorf("SP %s drawn %d times in %d, expected about 100", sp, n, draws)
		}
	}
}

func TestShow(t *testing.T) {
	const diagram518 = `SP 518  Fritz9 359  RNBQKBNR

8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜
7 ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟
6 · · · · · · · ·
5 · · · · · · · ·
4 · · · · · · · ·
3 · · · · · · · ·
2 ♙ ♙ ♙ ♙ ♙ ♙ ♙ ♙
1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖
  a b c d e f g h

X-FEN:        rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
Shredder-FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1
`
	runCases(t, []runCase{
		{name: "number", args: []string{"show", "518"}, stdout: diagram518},
		{name: "German rank", args: []string{"show", "TSLDKLST"}, stdout: diagram518},
		{name: "FEN", args: []string{"show", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1"}, stdout: diagram518},
		{
			name: "DFRC",
			args: []string{"show", fenDFRC},
			stdout: `DFRC  White SP 518 RNBQKBNR  Black SP 0 BBQNNRKR

8 ♝ ♝ ♛ ♞ ♞ ♜ ♚ ♜
7 ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟
6 · · · · · · · ·
5 · · · · · · · ·
4 · · · · · · · ·
3 · · · · · · · ·
2 ♙ ♙ ♙ ♙ ♙ ♙ ♙ ♙
1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖
  a b c d e f g h

X-FEN:        bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
Shredder-FEN: bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhf - 0 1
`,
		},
		{name: "960 is SP 0", args: []string{"show", "960"}, stdout: showOf(t, "0")},
		{name: "out of range", args: []string{"show", "961"}, errHas: "SP 961: number out of range", exitCode: 1},
		{name: "negative", args: []string{"show", "--", "-1"}, errHas: "frctool: SP -1: number out of range", exitCode: 1},
		{name: "a plus sign", args: []string{"show", "+518"}, stdout: diagram518},
		{name: "game in progress", args: []string{"show", fenGame}, errHas: "not a Chess960 start position", exitCode: 1},
		{name: "no argument", args: []string{"show"}, errHas: "want one start position", exitCode: 2},
		{name: "two arguments", args: []string{"show", "1", "2"}, errHas: "got 2 arguments", exitCode: 2},
	})
}

// showOf returns show's output for arg.
func showOf(t *testing.T, arg string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"frctool", "show", arg}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("show %s: exit %d: %s", arg, code, stderr.String())
	}
	return stdout.String()
}

func TestShowSVG(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sp0.svg")
	if err := os.WriteFile(file, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"frctool", "show", "--svg", file, "BBQNNRKR"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("<?xml")) || !bytes.Contains(data, []byte("<svg")) || !bytes.HasSuffix(bytes.TrimSpace(data), []byte("</svg>")) {
		t.Errorf("%s is not a complete SVG document: %.80q...", file, data)
	}
	// 32 pieces are drawn, each as an embedded SVG image of its own.
	if n := bytes.Count(data, []byte("viewBox=")); n != 32 {
		t.Errorf("%d pieces drawn, want 32", n)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want the SVG alone (no temporary file left)", len(entries))
	}
	if !strings.HasPrefix(stdout.String(), "SP 0  Fritz9 81  BBQNNRKR\n") {
		t.Errorf("stdout starts %q", stdout.String())
	}

	// An unwritable destination fails with status 1.
	stdout.Reset()
	stderr.Reset()
	code := run(context.Background(), []string{"frctool", "show", "--svg", filepath.Join(dir, "no", "such", "dir.svg"), "518"}, nil, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "frctool: --svg:") {
		t.Errorf("exit %d, stderr %q; want 1 and an --svg error", code, stderr.String())
	}
}

// TestHelpShowsExample checks the contract that every command's --help
// shows an example.
func TestHelpShowsExample(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.Name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), []string{"frctool", c.Name, "--help"}, nil, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if !strings.Contains(stdout.String(), "Example") || !strings.Contains(stdout.String(), "frctool "+c.Name) {
				t.Errorf("--help shows no example:\n%s", stdout.String())
			}
		})
	}
}

// TestHelpDescriptionsAreWrapped holds every command's description, as
// --help prints it, to lines of at most 80 columns: the help is read in
// terminals. Examples may be longer.
func TestHelpDescriptionsAreWrapped(t *testing.T) {
	const columns = 80
	for _, c := range commands() {
		t.Run(c.Name, func(t *testing.T) {
			text, _, _ := strings.Cut(c.Description, "\n\nExample")
			for i, line := range strings.Split(text, "\n") {
				if n := utf8.RuneCountInString(line); n > columns {
					t.Errorf("line %d has %d columns: %q", i+1, n, line)
				}
			}
		})
	}
}

// TestHelpShowsNoSentinel: a number flag whose --help shows a default
// shows one a user could pass. tree's --sp and --fritz9 showed
// "(default: -1)", which they refuse, and random's --seed "(default: 0)",
// where leaving it out draws from crypto/rand rather than seed 0.
func TestHelpShowsNoSentinel(t *testing.T) {
	for _, c := range commands() {
		for _, f := range c.Flags {
			var shown bool
			var value int64
			switch f := f.(type) {
			case *cli.IntFlag:
				shown, value = !f.HideDefault, int64(f.Value)
			case *cli.Uint64Flag:
				shown = !f.HideDefault
				if f.Name == "seed" && shown {
					t.Errorf("%s --%s shows a default, but without it the draw is not from a seed", c.Name, f.Name)
				}
			}
			if shown && value < 0 {
				t.Errorf("%s --%s shows the default %d, which it refuses", c.Name, f.Names()[0], value)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"frctool", "--version"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if got, want := stdout.String(), "frctool version "+versionString()+"\n"; got != want || versionString() == "" {
		t.Errorf("--version printed %q, want %q", got, want)
	}
}

// TestShellCompletion: the README's completion scripts are printed for
// each shell, and the completions they ask for list the commands and each
// command's flags.
func TestShellCompletion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string // lines or parts of the output
	}{
		{[]string{"completion", "bash"}, []string{"complete -o bashdefault -o default -F __frctool_bash_autocomplete frctool"}},
		{[]string{"completion", "zsh"}, []string{"compdef", "frctool"}},
		{[]string{"completion", "fish"}, []string{"complete -c frctool"}},
		{[]string{"--generate-shell-completion"}, []string{"annotate:tag every game", "stats:count results", "validate:replay every game"}},
		{[]string{"stats", "-", "--generate-shell-completion"}, []string{"--group-by:", "--fdr:", "--merge:"}},
		{[]string{"filter", "--wh", "--generate-shell-completion"}, []string{"--where:"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			// The library completes the root command from os.Args, as in
			// the process a shell starts.
			args := append([]string{"frctool"}, tc.args...)
			defer func(a []string) { os.Args = a }(os.Args)
			os.Args = args
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("the output lacks %q:\n%s", w, stdout.String())
				}
			}
		})
	}
}

// TestPositionsFixture runs the README's first command on the shipped
// fixture: every line is readable, so it must exit 0 with one row per line.
func TestPositionsFixture(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("..", "..", "testdata", "positions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	items := 0
	for _, l := range strings.Split(string(in), "\n") {
		if l = strings.TrimSpace(l); l != "" && l[0] != '#' {
			items++
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"frctool", "identify", "--format", "csv"}, bytes.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if rows := strings.Count(stdout.String(), "\n"); rows != items+1 {
		t.Errorf("%d rows for %d positions plus the header", rows, items)
	}
}

// TestInterruptWhileWaitingForInput: Ctrl-C ends run's context; a command
// blocked reading standard input must then stop instead of waiting on, and
// say it was interrupted.
func TestInterruptWhileWaitingForInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"identify", []string{"identify"}, "frctool: interrupted\n"},
		{"stats", []string{"stats", "-q"}, "frctool: interrupted; stdout left unchanged\n"},
		{"validate", []string{"validate", "-q"}, "frctool: interrupted\n"},
		{"filter", []string{"filter", "-q", "--sp", "518"}, "frctool: interrupted; stdout left unchanged\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, pw := io.Pipe() // nothing is ever written: Read blocks
			defer pw.Close()
			ctx, cancel := context.WithCancel(context.Background())
			var stdout, stderr bytes.Buffer
			done := make(chan int)
			go func() {
				done <- run(ctx, append([]string{"frctool"}, tt.args...), pr, &stdout, &stderr)
			}()
			cancel()
			select {
			case code := <-done:
				if code != 1 || stderr.String() != tt.want {
					t.Errorf("exit %d, stderr %q; want 1, %q", code, stderr.String(), tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still waits for input after its context ended", tt.name)
			}
		})
	}
}

// A line over maxLine bytes gets its row, empty but for the error, and
// the lines after it are read and numbered as ever; a line of maxLine
// bytes is read.
func TestOverlongLines(t *testing.T) {
	long := strings.Repeat("x", maxLine+1)
	limit := strings.Repeat("x", maxLine)
	tooLong := "line longer than 1048576 bytes, not read"
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		stdout string
		stderr string
	}{
		{"identify, between two lines", []string{"identify", "--format", "csv"}, "RNBQKBNR\n" + long + "\nBBQNNRKR\n",
			"input,sp,fritz9,white_sp,black_sp,rank,error\nRNBQKBNR,518,359,518,518,RNBQKBNR,\n,,,,,,\"" + tooLong + "\"\nBBQNNRKR,0,81,0,0,BBQNNRKR,\n",
			"frctool: stdin:2: " + tooLong + "\n"},
		{"identify, the last line without a newline", []string{"identify", "--format", "csv"}, "RNBQKBNR\n" + long,
			"input,sp,fritz9,white_sp,black_sp,rank,error\nRNBQKBNR,518,359,518,518,RNBQKBNR,\n,,,,,,\"" + tooLong + "\"\n",
			"frctool: stdin:2: " + tooLong + "\n"},
		{"convert, with CRLF", []string{"convert", "--from", "rank", "--to", "scharnagl", "--format", "csv"}, long + "\r\nBBQNNRKR\r\n",
			"input,output\n,\nBBQNNRKR,0\n", "frctool: stdin:1: " + tooLong + "\n"},
		{"convert, text", []string{"convert", "--from", "rank", "--to", "scharnagl"}, long + "\nBBQNNRKR",
			"\n0\n", "frctool: stdin:1: " + tooLong + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := frctool(t, tc.stdin, tc.args...)
			if code != 1 || stdout != tc.stdout || stderr != tc.stderr {
				t.Errorf("exit %d\nstdout %.300q\nstderr %.300q\nwant 1\nstdout %.300q\nstderr %.300q", code, stdout, stderr, tc.stdout, tc.stderr)
			}
		})
	}
	t.Run("a line of the most bytes is read", func(t *testing.T) {
		_, stderr, code := frctool(t, limit+"\n", "identify", "--format", "csv")
		if code != 1 || strings.Contains(stderr, tooLong) || !strings.Contains(stderr, "a back rank has 8 squares") {
			t.Errorf("exit %d, stderr %.200q; want the line read, and refused as a back rank", code, stderr)
		}
	})
}

// TestTextCommandsOutput checks -o on the commands that write lines of
// text: the file holds what standard output would, compressed by its
// extension; rows that could not be made are kept with the exit status 1,
// and a usage error leaves no file.
func TestTextCommandsOutput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		ext   string
		code  int
	}{
		{"identify", []string{"identify", "--format", "csv"}, "RNBQKBNR\nBBQNNRKR\n", ".csv", 0},
		{"identify, a row that fails", []string{"identify", "--format", "json"}, "RNBQKBNR\nXXX\n", ".jsonl", 1},
		{"convert, gzip", []string{"convert", "--from", "scharnagl", "--to", "rank"}, "0\n518\n959\n", ".txt.gz", 0},
		{"random", []string{"random", "--seed", "7", "--rounds", "3", "--boards", "2", "--per-board", "--format", "csv"}, "", ".csv", 0},
		{"random, a usage error", []string{"random", "--count", "2000", "--unique"}, "", ".txt", 2},
		{"tables", []string{"tables"}, "", ".txt", 0},
		{"show", []string{"show", "BBQNNRKR"}, "", ".txt.zst", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, _, code := frctool(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Fatalf("to stdout: exit %d, want %d", code, tc.code)
			}
			name := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+tc.ext)
			stdout, _, code := frctool(t, tc.stdin, append(tc.args, "-o", name)...)
			if code != tc.code || stdout != "" {
				t.Errorf("to %s: exit %d, stdout %q; want %d and nothing", name, code, stdout, tc.code)
			}
			if tc.code == 2 {
				if _, err := os.Stat(name); err == nil {
					t.Errorf("a usage error left %s", name)
				}
				return
			}
			in, err := stream.Open(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(in)
			in.Close()
			if string(got) != want {
				t.Errorf("%s holds %q, want %q", name, got, want)
			}
		})
	}
}

// TestTreeMovesNamedByFlag: a line of moves that cannot be played is
// named by the flag that gave it.
func TestTreeMovesNamedByFlag(t *testing.T) {
	runCases(t, []runCase{{
		name:     "an illegal move",
		args:     []string{"tree", "--rank", "BBQNNRKR", "--moves", "1. e9", statsFixture},
		stderr:   "frctool: --moves: move 1. invalid move 'e9': not a move in SAN, long algebraic or UCI notation\nRun 'frctool tree --help' for usage.\n",
		exitCode: 2,
	}})
}

// TestShowSVGOnStdout: --svg - alone puts the SVG, and nothing else, on
// standard output.
func TestShowSVGOnStdout(t *testing.T) {
	stdout, stderr, code := frctool(t, "", "show", "--svg", "-", "518")
	if code != 0 || !strings.HasPrefix(stdout, "<?xml") || !strings.HasSuffix(strings.TrimSpace(stdout), "</svg>") || stderr != "" {
		t.Errorf("exit %d, stderr %q, stdout starting %.40q; want 0 and an SVG document alone", code, stderr, stdout)
	}
}

// TestShowTwoOutputs: show's text and its SVG cannot be one file.
func TestShowTwoOutputs(t *testing.T) {
	name := filepath.Join(t.TempDir(), "same.txt")
	runCases(t, []runCase{{
		name:     "the same file twice",
		args:     []string{"show", "-o", name, "--svg", name, "518"},
		stderr:   "frctool: " + name + " is named as two outputs\nRun 'frctool show --help' for usage.\n",
		exitCode: 2,
	}})
	if _, err := os.Stat(name); err == nil {
		t.Errorf("%s was written", name)
	}
}

// TestTwoOutputsOnStdout: stats' table and page cannot both go to
// standard output, where they would run into each other.
func TestTwoOutputsOnStdout(t *testing.T) {
	runCases(t, []runCase{
		{
			name:     "the table and the page",
			args:     []string{"stats", "-q", "--html", "-", statsFixture},
			stderr:   "frctool: two outputs go to standard output; give all but one a FILE\nRun 'frctool stats --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "filter's rejects keep their own words",
			args:     []string{"filter", "-q", "--rejects", "-", statsFixture},
			stderr:   "frctool: --rejects needs a FILE; the selected games go to stdout\nRun 'frctool filter --help' for usage.\n",
			exitCode: 2,
		},
	})
}

// runPiped runs frctool with stdin and a pipe for its standard output, for
// a test that reads the output while it still writes the input; wait
// returns the exit status and stderr once the run has ended.
func runPiped(stdin io.Reader, args ...string) (stdout io.Reader, wait func() (int, string)) {
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := run(context.Background(), append([]string{"frctool"}, args...), stdin, outW, &stderr)
		outW.Close()
		done <- code
	}()
	return outR, func() (int, string) { code := <-done; return code, stderr.String() }
}

// identify and convert answer each line of standard input when it comes,
// as a user typing at a terminal, or a program that writes a position and
// waits for its row, expects; and they read compressed input as the
// archive commands do.
func TestLinesAnsweredAsTheyCome(t *testing.T) {
	for _, tt := range []struct {
		name   string
		args   []string
		header string   // the row before any input, if any
		lines  []string // written one at a time, each after the row before
		rows   []string
	}{
		{"identify", []string{"identify", "--format", "csv"}, "input,sp,fritz9,white_sp,black_sp,rank,error",
			[]string{"RNBQKBNR\n", "# a comment, no row\n\nBBQNNRKR\n"},
			[]string{"RNBQKBNR,518,359,518,518,RNBQKBNR,", "BBQNNRKR,0,81,0,0,BBQNNRKR,"}},
		{"convert", []string{"convert", "--from", "scharnagl", "--to", "rank"}, "",
			[]string{"0\n", "518\n", "959\n"},
			[]string{"BBQNNRKR", "RNBQKBNR", "RKRNNQBB"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			inR, inW := io.Pipe()
			outR, wait := runPiped(inR, tt.args...)
			rows := bufio.NewScanner(outR)
			got := make(chan string)
			go func() {
				for rows.Scan() {
					got <- rows.Text()
				}
				close(got)
			}()
			next := func() string {
				select {
				case row := <-got:
					return row
				case <-time.After(10 * time.Second):
					t.Fatal("no row before more input came")
				}
				return ""
			}
			if tt.header != "" {
				if row := next(); row != tt.header {
					t.Errorf("header %q, want %q", row, tt.header)
				}
			}
			for i, line := range tt.lines {
				io.WriteString(inW, line)
				if row := next(); row != tt.rows[i] {
					t.Errorf("after %q: row %q, want %q", line, row, tt.rows[i])
				}
			}
			inW.Close()
			if row, more := <-got; more {
				t.Errorf("a row more: %q", row)
			}
			if code, stderr := wait(); code != 0 {
				t.Errorf("exit %d: %s", code, stderr)
			}
		})
	}
	t.Run("compressed", func(t *testing.T) {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		io.WriteString(zw, "RNBQKBNR\n")
		zw.Close()
		stdout, stderr, code := frctool(t, z.String(), "identify", "--format", "csv")
		if want := "input,sp,fritz9,white_sp,black_sp,rank,error\nRNBQKBNR,518,359,518,518,RNBQKBNR,\n"; code != 0 || stdout != want {
			t.Errorf("exit %d, stdout %q, stderr %q; want 0, %q", code, stdout, stderr, want)
		}
	})
}

// TestLiveFeed: the archive commands pass on each game of a live feed (a
// pipe whose writer pauses between games) once the next game has begun,
// not when their batch is full or the input ends; what they write in the
// end is what they write for the whole input at once.
func TestLiveFeed(t *testing.T) {
	game := func(event string) string {
		return "[Event \"" + event + "\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n"
	}
	g1, g2, g3 := game("one"), game("two"), game("three")
	for _, tt := range []struct {
		name  string
		args  []string
		first string // written for g1, before g3 comes
	}{
		{"filter", []string{"filter", "-q", "--sp", "518"}, g1},
		{"filter, one job", []string{"filter", "-q", "-j", "1", "--sp", "518"}, g1},
		{"annotate", []string{"annotate", "-q"}, "[Event \"one\"]\n[Result \"1-0\"]\n[Chess960 \"518\"]\n[Chess960Fritz9 \"359\"]\n\n1. e4 1-0\n\n"},
		{"export", []string{"export", "-q", "--columns", "event,sp"}, "event,sp\none,518\n"},
		{"dedup", []string{"dedup", "-q"}, g1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			inR, inW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer inR.Close()
			outR, wait := runPiped(inR, tt.args...)
			got := make(chan []byte, 16)
			go func() {
				for {
					buf := make([]byte, 4096)
					n, err := outR.Read(buf)
					if n > 0 {
						got <- buf[:n]
					}
					if err != nil {
						close(got)
						return
					}
				}
			}()
			io.WriteString(inW, g1+g2)
			var out []byte
			for len(out) < len(tt.first) {
				select {
				case b := <-got:
					out = append(out, b...)
				case <-time.After(10 * time.Second):
					t.Fatalf("after 10 s, %q written of the first game; want %q", out, tt.first)
				}
			}
			if string(out) != tt.first {
				t.Errorf("first written %q, want %q", out, tt.first)
			}
			io.WriteString(inW, g3)
			inW.Close()
			for b := range got {
				out = append(out, b...)
			}
			if code, stderr := wait(); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			whole, _, _ := frctool(t, g1+g2+g3, tt.args...)
			if string(out) != whole {
				t.Errorf("wrote %q, for the whole input at once %q", out, whole)
			}
		})
	}
}
