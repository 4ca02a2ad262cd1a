package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/dedup"
	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/pgn"
)

func dedupCommand() *cli.Command {
	return &cli.Command{
		Name:      "dedup",
		Usage:     "write each game once, leaving out its copies",
		ArgsUsage: "[FILE...]",
		Description: `Reads PGN archives (plain, gzip, bzip2 or zstd) as one stream and writes the
first occurrence of each game to stdout or -o FILE, byte for byte as it was.
--duplicates FILE receives the other occurrences, so that the output and the
duplicates together are the input, game for game. Bytes between games go with
the game before them.

Two games are one when their keys are equal. A key always holds the start
position (the SP, the two SPs of a DFRC game, or the FEN of any other start
without its move counters; no FEN is SP 518), the moves of the main line and
the result. Moves are compared as moves: comments, NAGs, variations, move
numbers, check marks and glyphs such as !? do not count, castling is the same
as O-O, 0-0 or o-o, and figurines are letters. A king taking its own rook is not
read as castling: that needs the position, and is left as written. --key adds
to the key:
  moves                 nothing more
  moves+players         the White and Black names, without regard to case
                        and blanks (the default)
  moves+players+date    the names and the Date tag
A game without moves is one with another only when all their tags are equal,
so that two unplayed rounds between the same players stay two games. A game
larger than the reader holds at once (4 MiB) is never compared and is kept.

--prefix also drops a game whose moves are a strict prefix of another's with
the same key otherwise (result aside), as a broadcast leaves behind: the longest
game is kept at its own place and the shorter ones are duplicates. This reads
every input twice: files are opened again (compressed ones decompressed again),
and standard input or a pipe is first copied, decompressed, to a temporary file
in $TMPDIR.

Games that --where and its shortcuts do not select are not compared: they are
written to the output as they are, so that nothing is lost.

Memory: 20 to 25 bytes per distinct game (a 128-bit hash in a table kept 64 to
80 % full; 21 to 27 with --prefix) past about 1.7 million of them, at most
32 MiB (34 MiB) below that, whatever the games' size. The summary line gives
the games read, written once, duplicates and prefix duplicates.

` + selectionHelp +
			examplesHead +
			"frctool dedup a.pgn b.pgn.gz -o merged.pgn --duplicates dups.pgn" + nextExample +
			"frctool dedup --key moves --prefix broadcast.pgn > final.pgn" + nextExample +
			"cat *.pgn | frctool dedup --where 'year >= 2020' -o recent-once.pgn.zst",
		Flags: append([]cli.Flag{
			outputFlag(),
			&cli.StringFlag{Name: "key", Value: dedup.MovesPlayers.String(), Usage: "compare the moves and `KEY`: moves (alone), moves+players or moves+players+date"},
			&cli.BoolFlag{Name: "prefix", Usage: "also drop games a longer game continues, keeping the longest (reads the inputs twice)"},
			&cli.StringFlag{Name: "duplicates", Usage: "write the duplicates to `FILE` (.gz, .bz2, .zst compress)", Validator: aName("file name")},
			quietFlag(),
			jobsFlag(),
		}, selectionFlags()...),
		Action: runDedup,
	}
}

func runDedup(ctx context.Context, cmd *cli.Command) error {
	key, err := dedup.ParseKey(cmd.String("key"))
	if err != nil {
		return usagef(cmd, "--key: %w", err)
	}
	if cmd.String("duplicates") == "-" {
		return usagef(cmd, "--duplicates needs a FILE; the games kept go to stdout")
	}
	a, err := newArchives(cmd)
	if err != nil {
		return err
	}
	outs, err := a.openOutputs(cmd, cmd.String("output"), cmd.String("duplicates"))
	if err != nil {
		return err
	}
	out, dups := outs[0], outs[1]
	var dw io.Writer // a nil *stream.Output would not be a nil io.Writer
	if dups != nil {
		dw = dups
	}
	opts := dedup.Options{Key: key, Prefix: cmd.Bool("prefix")}
	d := dedup.New(out, dw, opts)
	if opts.Prefix {
		err = dedupTwice(ctx, a, d)
	} else {
		err = a.each(ctx, func(_ *stream.Input, r *pgn.Reader) error {
			return d.Run(ctx, r, a.options())
		})
	}
	if err == nil {
		err = d.Close()
	}
	// Both outputs appear, or neither.
	err = commitAll(ctx, err, out, dups)
	sum := d.Summary()
	line := fmt.Sprintf("dedup: %s read, %d unique, %s, %s", words.Count(sum.Games, "game", "games"), sum.Unique,
		words.Count(sum.Duplicates, "duplicate", "duplicates"), words.Count(sum.PrefixDuplicates, "prefix duplicate", "prefix duplicates"))
	if sum.Passed > 0 {
		line += fmt.Sprintf(", %d not compared", sum.Passed)
	}
	a.summary("%s, %s", line, words.Count(sum.Warnings, "warning", "warnings"))
	return err
}

// dedupTwice runs d over the inputs twice, for --prefix: Index over each
// input, then Run over each again. Regular files are opened again;
// standard input, when it is a regular file, is read again from where it
// stood; anything else (a pipe, a FIFO) is copied to a temporary file on
// the first pass and read from there on the second.
func dedupTwice(ctx context.Context, a *archives, d *dedup.Deduper) error {
	names := a.names
	defer func() { a.names = names }()

	var stdinAt int64 = -1
	if f, ok := a.stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if at, err := f.Seek(0, io.SeekCurrent); err == nil {
				stdinAt = at
			}
		}
	}

	var again []string           // the second pass's names
	shown := map[string]string{} // a temporary file's input, by name
	defer func() {
		for tmp := range shown {
			os.Remove(tmp)
		}
	}()
	opts := a.options()
	opts.Progress = nil // the bar's rate counts the second pass
	err := a.each(ctx, func(in *stream.Input, r *pgn.Reader) error {
		name := a.names[len(again)+a.failedCount()]
		if in.Regular && (name != "-" || stdinAt >= 0) {
			again = append(again, name)
			return d.Index(ctx, r, opts)
		}
		tmp, err := os.CreateTemp("", "frctool-dedup-*.pgn")
		if err != nil {
			return fmt.Errorf("%s: copying to a temporary file for a second reading: %w", in.Name, err)
		}
		shown[tmp.Name()] = in.Name
		again = append(again, tmp.Name())
		w := bufio.NewWriterSize(tmp, 256<<10)
		tr := pgn.NewReader(io.TeeReader(in, w))
		tr.Name, tr.MaxGameSize = r.Name, r.MaxGameSize
		if err := d.Index(ctx, tr, opts); err != nil {
			tmp.Close()
			return err
		}
		err = w.Flush()
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: copying to a temporary file for a second reading: %w", in.Name, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if stdinAt >= 0 {
		if _, err := a.stdin.(*os.File).Seek(stdinAt, io.SeekStart); err != nil {
			return fmt.Errorf("standard input: reading again: %w", err)
		}
	}
	a.names = again
	return a.each(ctx, func(in *stream.Input, r *pgn.Reader) error {
		if orig, ok := shown[in.Name]; ok {
			r.Name = orig
		}
		return d.Run(ctx, r, a.options())
	})
}

// failedCount is the number of inputs that could not be opened so far.
func (a *archives) failedCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.failedInputs
}
