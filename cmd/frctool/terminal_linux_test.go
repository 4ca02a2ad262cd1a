package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/frctool/frctool/stats"
)

// onTerminal runs frctool with its standard output on a pseudo-terminal
// cols characters wide, and returns what the terminal showed, with the
// terminal's CRLF line ends back to LF.
func onTerminal(t *testing.T, cols int, args ...string) (shown, stderr string, code int) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: 40}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&out, ptmx) // ends with EIO once the terminal is closed
		close(read)
	}()
	var errs bytes.Buffer
	code = run(context.Background(), append([]string{"frctool"}, args...), strings.NewReader(""), tty, &errs)
	tty.Close()
	<-read
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), errs.String(), code
}

// TestStatsTableFitsTheTerminal: stats' table on a terminal keeps to its
// width and says which columns it left out; chosen columns, or a file,
// get what was asked for.
func TestStatsTableFitsTheTerminal(t *testing.T) {
	for _, tt := range []struct {
		name   string
		cols   int
		args   []string
		header string // the table's column names, as shown
		note   string // the line after the table; "" for none
	}{
		{"80 columns", 80, nil,
			"sp rank games white_score draw_rate score_low score_high",
			"(15 columns left out to fit the terminal: fritz9, white_wins, draws, black_wins, unfinished, avg_plies, avg_white_elo, avg_black_elo, rated_games, expected_score, score_vs_expected, vs_expected_low, vs_expected_high, p_value, significant; --columns chooses them)"},
		{"by Fritz9, 60 columns", 60, []string{"--by", "fritz9"},
			"fritz9 rank games white_score",
			"(18 columns left out to fit the terminal: sp, white_wins, draws, black_wins, unfinished, draw_rate, score_low, score_high, avg_plies, avg_white_elo, avg_black_elo, rated_games, expected_score, score_vs_expected, vs_expected_low, vs_expected_high, p_value, significant; --columns chooses them)"},
		{"wide enough", 400, nil, strings.Join(stats.Columns, " "), ""},
		{"COLUMNS wider than the terminal", 60, []string{"COLUMNS=400"}, strings.Join(stats.Columns, " "), ""},
		{"columns chosen", 40, []string{"--columns", "games,sp,white_score,p_value"}, "games sp white_score p_value", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if len(args) > 0 && strings.HasPrefix(args[0], "COLUMNS=") {
				t.Setenv("COLUMNS", strings.TrimPrefix(args[0], "COLUMNS="))
				args = args[1:]
			} else {
				t.Setenv("COLUMNS", "") // the test's own terminal's, if exported, is not this one's
			}
			shown, stderr, code := onTerminal(t, tt.cols, append([]string{"stats", "-q", statsFixture}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(shown, "\n"), "\n")
			if len(lines) < 4 {
				t.Fatalf("shown:\n%s", shown)
			}
			if got := strings.Join(strings.Fields(strings.ReplaceAll(lines[1], "│", " ")), " "); got != tt.header {
				t.Errorf("columns %q, want %q", got, tt.header)
			}
			note := ""
			if last := lines[len(lines)-1]; strings.HasPrefix(last, "(") {
				note, lines = last, lines[:len(lines)-1]
			}
			if note != tt.note {
				t.Errorf("note %q, want %q", note, tt.note)
			}
			if tt.cols < 400 && tt.note != "" {
				for _, line := range lines {
					if w := utf8.RuneCountInString(line); w > tt.cols {
						t.Errorf("a line of %d characters on a terminal of %d: %q", w, tt.cols, line)
					}
				}
			}
		})
	}
}

// TestTreeTableFitsTheTerminal: tree's table on a terminal keeps to its
// width and says which columns it left out; in a file it has them all.
func TestTreeTableFitsTheTerminal(t *testing.T) {
	t.Setenv("COLUMNS", "") // the width is the terminal's
	shown, stderr, code := onTerminal(t, 60, "tree", "-q", "--depth", "2", statsFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(shown, "\n"), "\n")
	if got, want := strings.Fields(lines[0]), []string{"sp", "ply", "line", "move", "games", "score", "score_low", "score_high"}; !slices.Equal(got, want) {
		t.Errorf("columns %q, want %q", got, want)
	}
	want := "(8 columns left out to fit the terminal: white_wins, draws, black_wins, draw_rate, avg_elo, performance, avg_year, last_played; --format csv writes them all)"
	if note := lines[len(lines)-1]; note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	for _, line := range lines[:len(lines)-1] {
		if w := utf8.RuneCountInString(line); w > 60 {
			t.Errorf("a line of %d characters on a terminal of 60: %q", w, line)
		}
	}
	out := filepath.Join(t.TempDir(), "tree.txt")
	if _, stderr, code := onTerminal(t, 60, "tree", "-q", "--depth", "2", "--format", "table", "-o", out, statsFixture); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); !strings.HasSuffix(strings.SplitN(string(b), "\n", 2)[0], "last_played") {
		t.Errorf("the file's table lacks columns:\n%s", b)
	}
}
