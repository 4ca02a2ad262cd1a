package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frctool/frctool/fields"
)

const tagsFixture = "../../testdata/where/tags.pgn"

// TestSelectionFlags checks --where and every shortcut on filter against
// the games of testdata/where/tags.pgn chosen by hand from their tags:
//
//	g1 blitz (180+2), 2100/2050, 2024.05.17, PlyCount 40, SP 518
//	g2 bullet (60+0), 1500/1600, 2023.12.31, PlyCount 10, a bot
//	g3 rapid (600+5), unrated, 2024.??.??, 4 plies counted
//	g4 correspondence (-), 2400/2400, 2024.06.01, PlyCount 80, SP 0
//	g5 no tags but Event and Result
func TestSelectionFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // the selected games' Events, by their g numbers
	}{
		{"min-elo", []string{"--min-elo", "2000"}, "g1 g4"},
		{"speed list", []string{"--speed", "blitz,bullet"}, "g1 g2"},
		{"speed with blanks", []string{"--speed", "rapid, correspondence"}, "g3 g4"},
		{"min-plies from PlyCount and moves", []string{"--min-plies", "4"}, "g1 g2 g3 g4"},
		{"min-plies above counted moves", []string{"--min-plies", "20"}, "g1 g4"},
		{"since a year", []string{"--since", "2024"}, "g1 g3 g4"},
		{"until a month", []string{"--until", "2024.05"}, "g1 g2"},
		{"since and until", []string{"--since", "2024.05.17", "--until", "2024.05.31"}, "g1"},
		{"no bots", []string{"--no-bots"}, "g1 g3 g4 g5"},
		{"where a derived field", []string{"--where", "sp = 0"}, "g4"},
		{"where a tag as a number", []string{"--where", "WhiteElo < 2100"}, "g2"},
		{"where a regular expression", []string{"--where", `White ~ "^[A-C]"`}, "g1 g2"},
		{"where not and exists", []string{"--where", "exists(TimeControl) and not speed = blitz"}, "g2 g3 g4"},
		{"where a missing value", []string{"--where", "WhiteElo != 2100"}, "g2 g4"},
		{"shortcuts and where together", []string{"--min-elo", "2000", "--where", "kind = chess960 and sp != 518"}, "g4"},
		{"with a position flag", []string{"--sp", "518", "--no-bots"}, "g1 g3 g5"},
		{"inverted with a position flag", []string{"--sp", "518", "--speed", "blitz", "--invert"}, "g2 g3 g4 g5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rejects := filepath.Join(t.TempDir(), "rejects.pgn")
			stdout, stderr, code := frctool(t, "", append(append([]string{"filter"}, tc.args...), "--rejects", rejects, tagsFixture)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := gamesOf(eventsOf(stdout)); got != tc.want {
				t.Errorf("selected %q, want %q", got, tc.want)
			}
			rej, err := os.ReadFile(rejects)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(eventsOf(stdout)) + len(eventsOf(string(rej))); n != 5 {
				t.Errorf("%d games in the two outputs, want 5", n)
			}
		})
	}
}

// gamesOf shortens Events to their game numbers: "g1 g4".
func gamesOf(events []string) string {
	var ids []string
	for _, e := range events {
		ids = append(ids, strings.Fields(e)[0])
	}
	return strings.Join(ids, " ")
}

// TestSelectionZeroIsTheDefault: --min-elo 0 and --min-plies 0, the
// defaults --help shows, select every game as leaving them out does; as
// conditions they would drop unrated games and games of unknown length.
func TestSelectionZeroIsTheDefault(t *testing.T) {
	want, _, code := frctool(t, "", "filter", "-q", "--sp", "0-959", tagsFixture)
	if code != 0 || want == "" {
		t.Fatalf("filter without a selection: exit %d", code)
	}
	for _, args := range [][]string{{"--min-elo", "0"}, {"--min-plies", "0"}, {"--min-elo=0", "--min-plies=0"}} {
		got, stderr, code := frctool(t, "", append([]string{"filter", "-q", "--sp", "0-959", tagsFixture}, args...)...)
		if code != 0 || got != want {
			t.Errorf("%v: exit %d (%s), %d bytes out; want the %d bytes of no selection", args, code, stderr, len(got), len(want))
		}
	}
	// 1 is the least that selects: both players rated.
	got, _, _ := frctool(t, "", "filter", "-q", "--sp", "0-959", "--min-elo", "1", tagsFixture)
	if got == want {
		t.Error("--min-elo 1 selected the unrated games too")
	}
}

func TestSelectionErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"where cut short", []string{"filter", "--where", "WhiteElo >="},
			"frctool: --where: column 12: expected a value after WhiteElo >=, found the end\nWhiteElo >=\n           ^\n"},
		{"where an unknown field", []string{"stats", "--where", "elo > 2000 and sped = blitz"}, "unknown field"},
		{"an unknown speed", []string{"split", "-o", "x", "--speed", "blitz,warp"}, `frctool: --speed: unknown speed: "warp"`},
		{"a bad date", []string{"filter", "--since", "2024-13"}, "frctool: --since: not a date"},
		{"negative plies", []string{"filter", "--min-plies", "-1"}, "frctool: --min-plies must be 0 (any game) or more, not -1\n"},
		{"a negative rating", []string{"stats", "--min-elo", "-5"}, "frctool: --min-elo must be 0 (any game) or more, not -5\n"},
		{"a field that cannot group", []string{"stats", "--group-by", "speed,sp"}, "cannot group by this field"},
		{"fdr out of range", []string{"stats", "--fdr", "1.5"}, "--fdr must be between 0 and 1"},
		{"where on merge", []string{"stats", "--merge", "--min-elo", "2000", "x.json"}, "--merge adds up counts already made"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := frctool(t, "", append(tc.args, tagsFixture)...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, tc.want)
			}
		})
	}
}

// TestSelectionInSplitAndStats checks what split and stats do with the
// games not selected: split leaves them out, stats leaves them out of the
// rows, and both summary lines count them.
func TestSelectionInSplitAndStats(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	_, stderr, code := frctool(t, "", "split", "-o", dir, "--min-elo", "2000", tagsFixture)
	if code != 0 {
		t.Fatalf("split: exit %d: %s", code, stderr)
	}
	if want := "frctool: split: 5 games read, 2 files written (2 games with a number, 0 DFRC, 0 other), 3 not selected and not written, 0 warnings\n"; stderr != want {
		t.Errorf("split summary\n got %q\nwant %q", stderr, want)
	}
	for file, want := range map[string]string{"sp-518.pgn": "g1", "sp-000.pgn": "g4"} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if got := gamesOf(eventsOf(string(b))); got != want {
			t.Errorf("%s holds %q, want %q", file, got, want)
		}
	}

	stdout, stderr, code := frctool(t, "", "stats", "--format", "csv", "--no-bots", "--group-by", "speed", tagsFixture)
	if code != 0 {
		t.Fatalf("stats: exit %d: %s", code, stderr)
	}
	if want := "frctool: stats: 5 games, 5 identified (2 distinct SPs), 0 DFRC, 0 other start positions, 0 unknown, 0 warnings, 4 selected\n"; stderr != want {
		t.Errorf("stats summary\n got %q\nwant %q", stderr, want)
	}
	var keys []string
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n")[1:] {
		cells := strings.Split(line, ",")
		keys = append(keys, cells[0]+"/"+cells[1]+"/"+cells[4]) // speed, sp, games
	}
	if got, want := strings.Join(keys, " "), "blitz/518/1 rapid/518/1 correspondence/0/1 /518/1"; got != want {
		t.Errorf("stats rows (speed/sp/games) %q, want %q", got, want)
	}
}

// TestSelectionHelpNamesEveryField keeps the help's list of derived fields
// in step with package fields.
func TestSelectionHelpNamesEveryField(t *testing.T) {
	words := map[string]bool{}
	for _, w := range strings.Fields(selectionHelp) {
		words[strings.Trim(w, ".,;:()")] = true
	}
	for _, name := range fields.Names() {
		if !words[name] {
			t.Errorf("the selection help does not name the field %s", name)
		}
	}
}
