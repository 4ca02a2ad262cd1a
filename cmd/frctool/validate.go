package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/validate"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "replay every game and report illegal moves and wrong results",
		ArgsUsage: "[FILE...]",
		Description: `Reads PGN archives (plain, gzip, bzip2 or zstd: detected from the data) and
replays the main line of every game from its start position (its FEN, else the
standard array) with the rules of chess and Chess960. Each illegal, ambiguous
or unreadable move, and each Result tag that contradicts a final checkmate or
stalemate or the result the moves end with, is reported as
   file:line: game N (White - Black), move 23...: illegal move 'O-O': reason
A null move (--, Z0) passes the turn in a variation, where annotators show
threats with one, and fails the game in its main line. A game whose start is
unknown is reported as not checkable, which is not a failure. Exits with status
1 when any game failed, 0 otherwise.` +
			examplesHead +
			"frctool validate tcec.pgn.zst" + nextExample +
			"frctool validate --variations --quiet games/*.pgn",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "variations", Usage: "replay the variations too, each from the position before its parent move"},
			quietFlag(),
			jobsFlag(),
		},
		Action: runValidate,
	}
}

func runValidate(ctx context.Context, cmd *cli.Command) error {
	boundMemory()
	a, err := newArchives(cmd)
	if err != nil {
		return err
	}
	run := a.options()
	opts := validate.Options{Variations: cmd.Bool("variations")}
	var sum validate.Summary
	err = a.each(ctx, func(_ *stream.Input, r *pgn.Reader) error {
		return validate.Run(ctx, r, opts, run, &sum)
	})
	a.summary("validate: %s", &sum)
	if err != nil {
		return err
	}
	if sum.Failed > 0 {
		// Every failure is already on stderr.
		return errReported
	}
	return nil
}
