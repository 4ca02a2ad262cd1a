package main

import "testing"

func TestValidateCommand(t *testing.T) {
	const dir = "../../testdata/validate/"
	runCases(t, []runCase{
		{
			name:   "legal games",
			args:   []string{"validate", dir + "good.pgn"},
			stderr: "frctool: validate: 3 games checked, 0 failed, 12 plies replayed\n",
		},
		{
			name: "illegal castling fails",
			args: []string{"validate", "--jobs", "2", dir + "good.pgn", dir + "attacked.pgn"},
			stderr: "../../testdata/validate/attacked.pgn:9: game 1 (Alpha - Beta), move 1...: illegal move 'O-O': the king would pass through an attacked square f8\n" +
				"frctool: validate: 4 games checked, 1 failed, 12 plies replayed\n",
			exitCode: 1,
		},
		{
			name:     "quiet keeps the problems",
			args:     []string{"validate", "-q", dir + "wrongresult.pgn"},
			stderr:   "../../testdata/validate/wrongresult.pgn:4: game 1 (Alpha - Beta): wrong result: [Result \"1-0\"], but White is checkmated\n",
			exitCode: 1,
		},
		{
			name:   "unknown start is a warning",
			args:   []string{"validate", "-q", dir + "unknown.pgn"},
			stderr: "../../testdata/validate/unknown.pgn:6: game 1 (Alpha - Beta): not checked: start position unknown: [SetUp \"1\"] without a FEN tag\n",
		},
		{
			name:   "variations skipped by default",
			args:   []string{"validate", "-q", dir + "variation.pgn"},
			stderr: "",
		},
		{
			name:     "variations replayed",
			args:     []string{"validate", "-q", "--variations", dir + "variation.pgn"},
			errHas:   "variation.pgn:10: game 1 (Alpha - Beta), move 2...: illegal move 'O-O': black has no right to castle king-side\n",
			exitCode: 1,
		},
		{
			name:     "stdin",
			args:     []string{"validate"},
			stdin:    "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n",
			stderr:   "stdin:5: game 1 (A - B), move 2.: illegal move 'Ke3': no king can move to e3\nfrctool: validate: 1 game checked, 1 failed, 2 plies replayed\n",
			exitCode: 1,
		},
		{
			name:     "bad jobs",
			args:     []string{"validate", "--jobs", "-1"},
			stderr:   "frctool: --jobs must be 0 (all cores) or more, not -1\nRun 'frctool validate --help' for usage.\n",
			exitCode: 2,
		},
		{
			name:     "unknown flag",
			args:     []string{"validate", "--nope"},
			errHas:   "Run 'frctool validate --help' for usage.",
			exitCode: 2,
		},
	})
}
