package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestRandomDraws(t *testing.T) {
	runCases(t, []runCase{
		{
			// The first draw is the plain one's; the second index falls past
			// 518 in the shorter list, and so on.
			name:   "exclude standard chess",
			args:   []string{"random", "--seed", "7", "--count", "3", "--exclude", "518"},
			stdout: "SP 879  Fritz9 240  QRKRNNBB\nSP 583  Fritz9 184  QRBNKRNB\nSP 778  Fritz9 219  QRKNBBRN\n",
		},
		{
			name:   "exclude ranges, repeated flag, csv",
			args:   []string{"random", "--seed", "7", "--count", "2", "--exclude", "0-99", "--exclude", "518,960", "--format", "csv"},
			stdout: "sp,fritz9,rank\n888,473,RBQKBRNN\n622,383,RNQKRBBN\n",
		},
		{
			name:   "all but one excluded",
			args:   []string{"random", "--count", "3", "--exclude", "1-959", "--format", "fen"},
			stdout: strings.Repeat("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\n", 3),
		},
		{
			name:   "unique",
			args:   []string{"random", "--seed", "7", "--count", "3", "--unique"},
			stdout: "SP 879  Fritz9 240  QRKRNNBB\nSP 583  Fritz9 184  QRBNKRNB\nSP 779  Fritz9 220  QRKNBRNB\n",
		},
		{
			name:   "unique takes the whole pool",
			args:   []string{"random", "--seed", "1", "--count", "2", "--unique", "--exclude", "2-959", "--format", "csv"},
			stdout: "sp,fritz9,rank\n1,82,BQNBNRKR\n0,81,BBQNNRKR\n",
		},
		{
			name:     "unique, more than the 960",
			args:     []string{"random", "--count", "961", "--unique"},
			stderr:   "frctool: --unique: too few positions to draw without repeats: 961 wanted, 960 allowed\nRun 'frctool random --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "unique, more than allowed",
			args:     []string{"random", "--count", "960", "--unique", "--exclude", "518"},
			errHas:   "frctool: --unique: too few positions to draw without repeats: 960 wanted, 959 allowed",
			exitCode: 2,
		},
		{
			name:     "exclude everything",
			args:     []string{"random", "--exclude", "0-959"},
			errHas:   "frctool: --exclude: no position left to draw from",
			exitCode: 2,
		},
		{
			name:     "exclude out of range",
			args:     []string{"random", "--exclude", "961"},
			errHas:   `frctool: --exclude: bad position list: "961"`,
			exitCode: 2,
		},
		{
			name:     "exclude not a list",
			args:     []string{"random", "--exclude", "5,,6"},
			errHas:   `frctool: --exclude: bad position list: "": empty item`,
			exitCode: 2,
		},
	})
}

func TestRandomTable(t *testing.T) {
	runCases(t, []runCase{
		{
			// The rounds take the positions --count 3 gives for the seed.
			name:   "rounds",
			args:   []string{"random", "--seed", "7", "--rounds", "3"},
			stdout: "Round 1  SP 879  Fritz9 240  QRKRNNBB\nRound 2  SP 582  Fritz9 183  QRBNKBRN\nRound 3  SP 778  Fritz9 219  QRKNBBRN\n",
		},
		{
			name: "rounds and boards share a round's position",
			args: []string{"random", "--seed", "7", "--rounds", "2", "--boards", "2", "--format", "csv"},
			stdout: "round,board,sp,fritz9,rank,fen\n" +
				"1,1,879,240,QRKRNNBB,qrkrnnbb/pppppppp/8/8/8/8/PPPPPPPP/QRKRNNBB w KQkq - 0 1\n" +
				"1,2,879,240,QRKRNNBB,qrkrnnbb/pppppppp/8/8/8/8/PPPPPPPP/QRKRNNBB w KQkq - 0 1\n" +
				"2,1,582,183,QRBNKBRN,qrbnkbrn/pppppppp/8/8/8/8/PPPPPPPP/QRBNKBRN w KQkq - 0 1\n" +
				"2,2,582,183,QRBNKBRN,qrbnkbrn/pppppppp/8/8/8/8/PPPPPPPP/QRBNKBRN w KQkq - 0 1\n",
		},
		{
			// Only two positions are allowed, but a hundred games need them.
			name:     "unique per board, too few allowed",
			args:     []string{"random", "--rounds", "10", "--boards", "10", "--per-board", "--unique", "--exclude", "2-959"},
			errHas:   "frctool: --unique: too few positions to draw without repeats: 100 wanted, 2 allowed",
			exitCode: 2,
		},
		{
			name: "per board, unique, whole pool",
			args: []string{"random", "--seed", "1", "--rounds", "2", "--boards", "2", "--per-board", "--unique", "--exclude", "4-959"},
			stdout: "Round 1  Board 1  SP 1  Fritz9 82  BQNBNRKR\n" +
				"Round 1  Board 2  SP 2  Fritz9 83  BQNNRBKR\n" +
				"Round 2  Board 1  SP 3  Fritz9 84  BQNNRKRB\n" +
				"Round 2  Board 2  SP 0  Fritz9 81  BBQNNRKR\n",
		},
		{
			name: "round and board numbers right-aligned",
			args: []string{"random", "--seed", "7", "--rounds", "10", "--boards", "12", "--exclude", "1-959"},
			stdout: func() string {
				var b strings.Builder
				for r := 1; r <= 10; r++ {
					for board := 1; board <= 12; board++ {
						fmt.Fprintf(&b, "Round %2d  Board %2d  SP 0  Fritz9 81  BBQNNRKR\n", r, board)
					}
				}
				return b.String()
			}(),
		},
		{
			name:     "count and rounds",
			args:     []string{"random", "--rounds", "2", "--count", "2"},
			errHas:   "frctool: --count and --rounds: give one",
			exitCode: 2,
		},
		{
			name:     "boards without rounds",
			args:     []string{"random", "--boards", "3"},
			errHas:   "frctool: --boards and --per-board shape a --rounds table: add --rounds",
			exitCode: 2,
		},
		{
			name:     "per board without rounds",
			args:     []string{"random", "--per-board"},
			errHas:   "add --rounds",
			exitCode: 2,
		},
		{
			name:     "table as fen",
			args:     []string{"random", "--rounds", "2", "--format", "fen"},
			errHas:   "frctool: --format fen lists bare positions",
			exitCode: 2,
		},
		{
			name:     "no rounds",
			args:     []string{"random", "--rounds", "0"},
			errHas:   "frctool: --rounds 0: want 1 or more",
			exitCode: 2,
		},
		{
			name:     "no boards",
			args:     []string{"random", "--rounds", "2", "--boards", "-1"},
			errHas:   "frctool: --boards -1: want 1 or more",
			exitCode: 2,
		},
		{
			name:     "too many games",
			args:     []string{"random", "--rounds", "100000", "--boards", "100000", "--per-board"},
			errHas:   "frctool: --rounds 100000 --boards 100000: bad event size",
			exitCode: 2,
		},
	})
}

// TestRandomHelp checks that --help shows an example of each way to use the
// command.
func TestRandomHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"frctool", "random", "--help"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{
		"frctool random --count 5",
		"--exclude 518",
		"--unique --exclude 518,534",
		"frctool random --rounds 9",
		"--boards 20 --per-board --unique --format csv",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("--help has no example %q", want)
		}
	}
}

// TestRandomExcludedAndUnique draws from crypto/rand, as arbiters do, and
// checks what no seed can show: excluded positions never come, and positions
// drawn without repeats never repeat, whether listed or in a table.
func TestRandomExcludedAndUnique(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		excluded func(sp string) bool
		rows     int
		unique   bool
	}{
		{
			name:     "many draws without 518 and 0-99",
			args:     []string{"--count", "20000", "--exclude", "518,0-99"},
			excluded: func(sp string) bool { return sp == "518" || len(sp) <= 2 },
			rows:     20000,
		},
		{
			name:     "unique over the 959 without 518",
			args:     []string{"--count", "959", "--unique", "--exclude", "518"},
			excluded: func(sp string) bool { return sp == "518" },
			rows:     959,
			unique:   true,
		},
		{
			name:     "unique table per board",
			args:     []string{"--rounds", "11", "--boards", "80", "--per-board", "--unique", "--exclude", "518"},
			excluded: func(sp string) bool { return sp == "518" },
			rows:     880,
			unique:   true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 5 {
				var stdout, stderr bytes.Buffer
				args := append([]string{"frctool", "random", "--format", "csv"}, tc.args...)
				if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
					t.Fatalf("exit %d: %s", code, stderr.String())
				}
				lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")[1:]
				if len(lines) != tc.rows {
					t.Fatalf("%d rows, want %d", len(lines), tc.rows)
				}
				seen := map[string]bool{}
				for _, l := range lines {
					fields := strings.Split(l, ",")
					sp := fields[0]
					if len(fields) == 6 { // a table: round,board,sp,...
						sp = fields[2]
					}
					if tc.excluded(sp) {
						t.Fatalf("excluded SP %s drawn: %s", sp, l)
					}
					if tc.unique && seen[sp] {
						t.Fatalf("SP %s drawn twice", sp)
					}
					seen[sp] = true
				}
			}
		})
	}
}
