package main

import (
	"context"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/selector"
)

// The names of filter's selection flags.
const (
	spFlag     = "sp"
	fritz9Flag = "fritz9"
	rankFlag   = "rank"
)

func filterCommand() *cli.Command {
	return &cli.Command{
		Name:      "filter",
		Usage:     "select games by start position (SP, Fritz9 number, back rank, DFRC, other) and by tags",
		ArgsUsage: "[FILE...]",
		Description: `Reads PGN archives (plain, gzip, bzip2 or zstd) and writes the games whose
start position matches to stdout or -o FILE, byte for byte as they were.

--sp, --fritz9 and --rank together name one set of wanted positions; --dfrc and
--other add the games whose back ranks differ and the games that do not start
from a Chess960 array (mid-game FENs, unknown starts, text with no tags). A
game matches when it is in any of them; with none of them every game matches.
--exclude-standard then drops SP 518, and --invert takes the complement of the
whole selection. A DFRC game has no single SP: it never matches --sp, --fritz9
or --rank, even when one side has that back rank; select it with --dfrc. A game
without a FEN tag is standard chess (SP 518).

` + selectionHelp + `

A game is selected when it matches both the position flags and the tags;
--invert takes the complement of that.

--rejects FILE receives every other game, so that the output followed by the
rejects is the input, game for game and byte for byte. Bytes between games go
with the game before them; blank text before the first game goes with the first
game. The summary line gives the games read and selected.` +
			examplesHead +
			"frctool filter --sp 518 tcec.pgn > standard.pgn" + nextExample +
			"frctool filter --exclude-standard --rejects standard.pgn.gz archive.pgn.zst -o chess960.pgn" + nextExample +
			"frctool filter --fritz9 1-100 --rank tsldklst --rank BBQNNRKR games.pgn" + nextExample +
			"frctool filter --dfrc --other --invert games.pgn   # only games with one SP" + nextExample +
			"frctool filter --exclude-standard --where 'WhiteElo >= 2400 and Event ~ \"(?i)freestyle\"' games.pgn",
		Flags: append([]cli.Flag{
			outputFlag(),
			// Slice flags are made anew for every command: they keep
			// their values between runs of one process.
			&cli.StringSliceFlag{Name: spFlag, Usage: "select Scharnagl numbers `LIST` such as 0-15,518,900-959 (960 means 0); repeatable"},
			&cli.StringSliceFlag{Name: fritz9Flag, Usage: "select Fritz9 numbers `LIST` (1..960); repeatable"},
			&cli.StringSliceFlag{Name: rankFlag, Usage: "select the back rank `RNBQKBNR` (any case, English or German letters: TSLDKLST); repeatable"},
			&cli.BoolFlag{Name: "exclude-standard", Usage: "leave out standard chess, SP 518"},
			&cli.BoolFlag{Name: "dfrc", Usage: "select games whose two back ranks differ (double Fischer random)"},
			&cli.BoolFlag{Name: "other", Usage: "select games that do not start from a Chess960 array (mid-game FENs, unknown starts)"},
			&cli.BoolFlag{Name: "invert", Aliases: []string{"v"}, Usage: "select the games the other flags do not select"},
			&cli.StringFlag{Name: "rejects", Usage: "write the games not selected to `FILE` (.gz, .bz2, .zst compress)", Validator: aName("file name")},
			quietFlag(),
			jobsFlag(),
		}, selectionFlags()...),
		Action: runFilter,
	}
}

// criteria reads the selection flags.
func criteria(cmd *cli.Command) (selector.Criteria, error) {
	c := selector.Criteria{
		ExcludeStandard: cmd.Bool("exclude-standard"),
		DFRC:            cmd.Bool("dfrc"),
		Other:           cmd.Bool("other"),
		Invert:          cmd.Bool("invert"),
	}
	for _, f := range []struct {
		name   string
		scheme numbering.Scheme
	}{{spFlag, numbering.Scharnagl}, {fritz9Flag, numbering.Fritz9}} {
		list := cmd.StringSlice(f.name)
		if len(list) == 0 {
			continue
		}
		sps, err := numbering.ParseList(strings.Join(list, ","), f.scheme)
		if err != nil {
			return c, usagef(cmd, "--%s: %v", f.name, err)
		}
		c.SPs = append(c.SPs, sps...)
	}
	if ranks := cmd.StringSlice(rankFlag); len(ranks) > 0 {
		sps, err := numbering.ParseRanks(ranks...)
		if err != nil {
			return c, usagef(cmd, "--rank: %v", err)
		}
		c.SPs = append(c.SPs, sps...)
	}
	return c, nil
}

func runFilter(ctx context.Context, cmd *cli.Command) error {
	c, err := criteria(cmd)
	if err != nil {
		return err
	}
	boundMemory()
	a, err := newArchives(cmd)
	if err != nil {
		return err
	}
	if cmd.String("rejects") == "-" {
		return usagef(cmd, "--rejects needs a FILE; the selected games go to stdout")
	}
	outs, err := a.openOutputs(cmd, cmd.String("output"), cmd.String("rejects"))
	if err != nil {
		return err
	}
	out, rejects := outs[0], outs[1]
	var rw io.Writer // a nil *stream.Output would not be a nil io.Writer
	if rejects != nil {
		rw = rejects
	}
	f := selector.NewFilter(selector.New(c), out, rw)
	err = a.each(ctx, func(_ *stream.Input, r *pgn.Reader) error {
		return f.Run(ctx, r, a.options())
	})
	if err == nil {
		err = f.Close()
	}
	// Both outputs appear, or neither: a failed run leaves no half of the
	// input behind under either name.
	err = commitAll(ctx, err, out, rejects)
	sum := f.Summary()
	a.summary("filter: %s read, %d selected, %d rejected, %s", words.Count(sum.Games, "game", "games"), sum.Selected, sum.Games-sum.Selected, words.Count(sum.Warnings, "warning", "warnings"))
	return err
}
