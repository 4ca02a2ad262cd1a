package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/selector"
)

func splitCommand() *cli.Command {
	return &cli.Command{
		Name:      "split",
		Usage:     "write each game to one file per start position",
		ArgsUsage: "[FILE...]",
		Description: `Reads PGN archives (plain, gzip, bzip2 or zstd) and appends every game, byte
for byte, to the file of its start position in DIR: sp-518.pgn for SP 518 with
--by sp, fritz9-359.pgn for the same position with --by fritz9. Games whose two
back ranks differ go to dfrc.pgn; games from mid-game FENs, unknown starts and
text with no tags go to other.pgn. A game without a FEN tag is standard chess.
Each file keeps the input's order, and the files together hold every input
game exactly once (bytes between games go with the game before them).

DIR is created when missing. A DIR that already holds files is refused, so that
a second run cannot mix its games into the first's, unless --append is given:
then games are appended to the files there. --pattern ending in .gz or .zst
compresses every file (dfrc.pgn.gz, other.pgn.gz too). At most 72 files are
open at once (64 being written, 8 being created), fewer under a lower open-file
limit: files are closed and reopened for appending as needed, so every game is
written whatever the limit. When an input cannot be read to its end, the game
cut short by the error goes to incomplete.pgn in DIR, with a warning. A run
stopped by a signal, or whose writing fails, puts DIR back as it was (the files
it appended to cut back, those it created and the directory it made removed),
so that it can simply be run again. The summary line gives the games read and
the files written.

` + selectionHelp + `

Only the selected games are written; the summary line counts the others.` +
			examplesHead +
			"frctool split --by sp -o by-sp tcec.pgn" + nextExample +
			"frctool split --by fritz9 -o by-fritz9 --pattern 'f9_%d.pgn.gz' archive.pgn.zst" + nextExample +
			"frctool split --by sp -o by-sp --append more-games.pgn" + nextExample +
			"frctool split --speed blitz --since 2024 -o blitz-2024 lichess.pgn.zst",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "by", Usage: "number the files by `SCHEME`: sp (Scharnagl, 0..959) or fritz9 (1..960)", Value: "sp"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the files into `DIR`", Value: ".", Validator: aName("folder name")},
			&cli.StringFlag{Name: "pattern", Usage: "file name `FORMAT` with one integer verb (default sp-%03d.pgn, fritz9-%03d.pgn with --by fritz9)", Validator: aName("file name format")},
			&cli.BoolFlag{Name: "append", Usage: "allow a DIR that already holds files, and append to them"},
			quietFlag(),
			jobsFlag(),
		}, selectionFlags()...),
		Action: runSplit,
	}
}

func runSplit(ctx context.Context, cmd *cli.Command) error {
	by, err := numbering.ParseScheme(cmd.String("by"))
	if err != nil {
		return usagef(cmd, "--by: %v", err)
	}
	boundMemory()
	a, err := newArchives(cmd)
	if err != nil {
		return err
	}
	if cmd.Bool("append") {
		// Without --append a directory holding the input is not empty,
		// and refused below.
		if err := a.checkOutputDir(cmd, cmd.String("output")); err != nil {
			return err
		}
	}
	// Checked before the directory is made, which a misspelt input would
	// otherwise leave behind, empty.
	if err := a.checkInputs(); err != nil {
		return err
	}
	s, err := selector.NewSplitter(selector.SplitOptions{
		Dir:     cmd.String("output"),
		By:      by,
		Pattern: cmd.String("pattern"),
		Append:  cmd.Bool("append"),
	})
	if err != nil {
		switch {
		case errors.Is(err, selector.ErrPattern):
			if strings.ContainsAny(cmd.String("pattern"), `/\`) {
				return usagef(cmd, "--pattern: %v (give the directory with -o)", err)
			}
			return usagef(cmd, "--pattern: %v", err)
		case errors.Is(err, selector.ErrNotEmpty):
			return fmt.Errorf("%w; give a new or empty directory, or --append to add to its files", err)
		}
		return err
	}
	opts := a.options()
	opts.Flush = s.Flush // a live feed's games reach their files as they come
	err = a.each(ctx, func(_ *stream.Input, r *pgn.Reader) error {
		return s.Run(ctx, r, opts)
	})
	err = s.End(err)
	var rollback *selector.RollbackError
	if errors.As(err, &rollback) {
		// Put back as it was, so that the run can simply be made again.
		if rollback.Restore == nil && errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted; %s left as it was", rollback.Dir)
		}
		return err
	}
	sum := s.Summary()
	left := ""
	if a.where != nil {
		left = fmt.Sprintf(", %d not selected and not written", sum.Unselected)
	}
	a.summary("split: %s read, %s written (%s with a number, %d DFRC, %d other)%s, %s",
		words.Count(sum.Games, "game", "games"), words.Count(s.Files(), "file", "files"), words.Count(sum.Selected, "game", "games"),
		sum.ByClass[selector.DFRC], sum.ByClass[selector.Other], left, words.Count(sum.Warnings, "warning", "warnings"))
	return err
}
