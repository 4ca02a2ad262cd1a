package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// frctool runs the command line through run and returns its results.
func frctool(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errs bytes.Buffer
	code = run(context.Background(), append([]string{"frctool"}, args...), strings.NewReader(stdin), &out, &errs)
	return out.String(), errs.String(), code
}

const mixedFixture = "../../testdata/filter/mixed.pgn"

func TestFilterCommand(t *testing.T) {
	mixed, err := os.ReadFile(mixedFixture)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args    []string
		events  []string // Event tags of the selected games, in order
		summary string
	}{
		{[]string{"--sp", "0"}, []string{"SP 0, Shredder castling", "SP 0 again, no result, unterminated comment"},
			"frctool: filter: 12 games read, 2 selected, 10 rejected, 5 warnings\n"},
		{[]string{"--fritz9", "359", "--rank", "RKRNNQBB"}, []string{"standard chess, no FEN", "SP 959, X-FEN", "SP 518 given as a FEN, CRLF"},
			"frctool: filter: 12 games read, 3 selected, 9 rejected, 5 warnings\n"},
		{[]string{"--rank", "tsldklst", "--rank", "rnbkqrnb"}, []string{"standard chess, no FEN", "SP 518 given as a FEN, CRLF", "SP 631, tags and no moves"}, ""},
		{[]string{"--sp", "0-600", "--exclude-standard"}, []string{"SP 0, Shredder castling", "SP 0 again, no result, unterminated comment"}, ""},
		{[]string{"--sp", "960,959"}, []string{"SP 0, Shredder castling", "SP 959, X-FEN", "SP 0 again, no result, unterminated comment"}, ""},
		{[]string{"--dfrc"}, []string{"DFRC: white SP 518, black SP 0"}, ""},
		{[]string{"--dfrc", "--sp", "518"}, []string{"standard chess, no FEN", "DFRC: white SP 518, black SP 0", "SP 518 given as a FEN, CRLF"}, ""},
		{[]string{"--other"}, []string{"", "mid-game FEN", "unknown: FEN ?", "unknown: Chess960 without FEN", "broken FEN"}, ""},
		{[]string{"--other", "--dfrc", "--invert"}, []string{"SP 0, Shredder castling", "standard chess, no FEN", "SP 959, X-FEN", "SP 518 given as a FEN, CRLF", "SP 0 again, no result, unterminated comment", "SP 631, tags and no moves"}, ""},
		{[]string{"--exclude-standard", "--invert"}, []string{"standard chess, no FEN", "SP 518 given as a FEN, CRLF"}, ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			rejects := filepath.Join(t.TempDir(), "rejects.pgn")
			stdout, stderr, code := frctool(t, "", append(append([]string{"filter"}, tc.args...), "--rejects", rejects, mixedFixture)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := eventsOf(stdout); strings.Join(got, "|") != strings.Join(tc.events, "|") {
				t.Errorf("selected %q\nwant %q", got, tc.events)
			}
			rej, err := os.ReadFile(rejects)
			if err != nil {
				t.Fatal(err)
			}
			if len(stdout)+len(rej) != len(mixed) || len(eventsOf(stdout))+len(eventsOf(string(rej))) != 12 {
				t.Errorf("selected %d + rejected %d bytes, input %d", len(stdout), len(rej), len(mixed))
			}
			if tc.summary != "" && !strings.HasSuffix(stderr, tc.summary) {
				t.Errorf("stderr ends %q, want %q", stderr, tc.summary)
			}
		})
	}
}

// eventsOf returns the Event values of the games of a PGN text, "" for a
// tagless text before the first game.
func eventsOf(pgnText string) []string {
	var evs []string
	for i, part := range strings.Split(strings.ReplaceAll(pgnText, "\r\n", "\n"), "[Event \"") {
		if i == 0 {
			if strings.TrimSpace(part) != "" {
				evs = append(evs, "")
			}
			continue
		}
		evs = append(evs, part[:strings.IndexByte(part, '"')])
	}
	return evs
}

func TestFilterCommandOutputs(t *testing.T) {
	mixed, err := os.ReadFile(mixedFixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, rej := filepath.Join(dir, "sel.pgn.gz"), filepath.Join(dir, "rej.pgn.zst")
	// stdin, compressed outputs, quiet.
	if _, stderr, code := frctool(t, string(mixed), "filter", "-q", "--sp", "0-959", "-o", out, "--rejects", rej); code != 0 || strings.Contains(stderr, "games read") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	sel, _, code1 := frctool(t, "", "filter", "-q", out)
	others, _, code2 := frctool(t, "", "filter", "-q", rej)
	if code1 != 0 || code2 != 0 || len(sel)+len(others) != len(mixed) || len(eventsOf(sel)) != 6 || len(eventsOf(others)) != 6 {
		t.Errorf("reading the outputs back: exit %d %d, %d+%d bytes, want %d", code1, code2, len(sel), len(others), len(mixed))
	}
}

func TestFilterCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		errHas string
	}{
		{[]string{"--sp", "0-15,5x"}, 2, `--sp: bad position list: "5x"`},
		{[]string{"--sp", "961"}, 2, `"961": SP 961: number out of range`},
		{[]string{"--fritz9", "0"}, 2, `--fritz9: bad position list: "0": Fritz9 number 0`},
		{[]string{"--rank", "RNBQKBNQ"}, 2, `--rank: back rank "RNBQKBNQ"`},
		{[]string{"--rejects", "-"}, 2, "--rejects needs a FILE"},
		{[]string{"no-such-file.pgn"}, 1, "no-such-file.pgn"},
	} {
		_, stderr, code := frctool(t, "", append([]string{"filter"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.errHas) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.errHas)
		}
	}
}

func TestFilterSplitHelp(t *testing.T) {
	for _, c := range []string{"filter", "split"} {
		stdout, _, code := frctool(t, "", c, "--help")
		if code != 0 || !strings.Contains(stdout, "Examples:") || !strings.Contains(stdout, "frctool "+c+" ") {
			t.Errorf("%s --help: exit %d\n%s", c, code, stdout)
		}
	}
	stdout, _, _ := frctool(t, "", "filter", "--help")
	for _, want := range []string{"--sp LIST", "--fritz9 LIST", "--rank RNBQKBNR", "--exclude-standard", "--dfrc", "--other", "--invert", "--rejects FILE", "never matches --sp"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("filter --help lacks %q", want)
		}
	}
}
