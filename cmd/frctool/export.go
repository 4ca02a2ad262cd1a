package main

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/export"
	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/pgn"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write one typed row per game to CSV, JSON Lines or Parquet",
		ArgsUsage: "[FILE...]",
		Description: `Reads PGN archives (plain, gzip, bzip2 or zstd) and writes one row per game,
in input order, for a database or a data frame. The default columns:
  file, index, offset, line        where the game is: its number in the file
                                   and the byte offset and line of its first tag
  kind, sp, fritz9, white_sp, black_sp, white_rank, black_rank, fen
                                   its start (kind: chess960, dfrc, other,
                                   unknown); fen is the FEN tag as written
  event, site, round, white, black, result, date (ISO, null unless complete;
  Parquet adds date_text, the tag as written), white_elo, black_elo,
  white_title, black_title, time_control, base_seconds, increment_seconds,
  speed, utc_date, utc_time, eco, opening, termination, plies
  error                            the game's first problem: a game that
                                   cannot be read is kept, with kind unknown
--tags LIST adds tags as text columns named in snake_case (WhiteFideId:
white_fide_id); --tags all adds one column tags holding every tag (a JSON
object, a Parquet map; not in CSV). --replay adds valid (as frctool validate
judges the moves and result; empty when the game cannot be checked),
final_fen and replay_error; --moves N adds moves, the first N plies in UCI
with castling as king takes rook (e1h1), empty when the main line cannot be
played. --columns LIST chooses and orders the columns from all of these.

The format is --format, else -o's extension (.csv, .jsonl, .parquet; .csv.gz
and .jsonl.zst compress), else csv. Parquet has typed, nullable columns (DATE,
int32, int64, double, bool, map), dictionaries and zstd compression inside,
and row groups of up to 100000 rows; it is not written to a terminal.

` + selectionHelp +
			examplesHead +
			"frctool export lichess.pgn.zst -o games.parquet" + nextExample +
			"frctool export --speed blitz --min-elo 2000 --replay archive.pgn -o blitz.jsonl.zst" + nextExample +
			"frctool export --columns sp,white,black,result --tags WhiteFideId games.pgn > games.csv",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Usage: "`FORMAT` csv, jsonl or parquet (default: from -o's extension, else csv)"},
			outputFlag(),
			&cli.StringFlag{Name: "columns", Usage: "write the columns `LIST` (comma-separated), in that order", Validator: aList("column names")},
			&cli.StringFlag{Name: "tags", Usage: "add the tags `LIST` (comma-separated) as columns, or all tags as one map column with all", Validator: aList("tag names")},
			&cli.BoolFlag{Name: "replay", Usage: "replay the games: add valid, final_fen and replay_error"},
			&cli.IntFlag{Name: "moves", Usage: "add the first `N` plies of each game in UCI (replays the games)"},
			quietFlag(),
			jobsFlag(),
		}, selectionFlags()...),
		Action: runExport,
	}
}

func runExport(ctx context.Context, cmd *cli.Command) error {
	output := cmd.String("output")
	format := export.CSV
	if f := cmd.String("format"); f != "" {
		var err error
		if format, err = export.ParseFormat(f); err != nil {
			return usagef(cmd, "--format: %v", err)
		}
	} else if output != "-" && output != "" {
		f, _, ok := export.FormatOf(output)
		if !ok {
			return usagef(cmd, "-o %s: the name does not end in .csv, .jsonl or .parquet; give --format", output)
		}
		format = f
	}
	if format == export.Parquet {
		if _, compressed, _ := export.FormatOf(output); compressed {
			return usagef(cmd, "-o %s: Parquet compresses its columns itself (zstd); name the file .parquet", output)
		}
		if output == "-" || output == "" {
			if isTerminal(cmd.Root().Writer) {
				return usagef(cmd, "Parquet is binary: give -o FILE or redirect standard output")
			}
		}
	}
	opts := export.Options{Replay: cmd.Bool("replay"), Moves: int(cmd.Int("moves"))}
	if opts.Moves < 0 {
		return usagef(cmd, "--moves must be 0 or more, not %d", opts.Moves)
	}
	if s := cmd.String("columns"); s != "" {
		opts.Columns = splitList(s)
	}
	if tags := cmd.String("tags"); strings.EqualFold(strings.TrimSpace(tags), "all") {
		opts.AllTags = true
	} else {
		opts.Tags = splitList(tags)
	}
	// The columns are checked before any input is opened.
	switch {
	case opts.AllTags && format == export.CSV:
		return usagef(cmd, "--tags all: CSV cannot hold a map of tags; name the tags, or use --format jsonl or parquet")
	case slices.Contains(opts.Columns, "moves") && opts.Moves == 0:
		return usagef(cmd, "--columns moves: give --moves N, the number of plies to write")
	}
	if _, err := export.Columns(format, opts); err != nil {
		if errors.Is(err, export.ErrUnknownColumn) {
			return usagef(cmd, "--columns: %v", err)
		}
		return usagef(cmd, "--columns or --tags: %v", err)
	}

	boundMemory()
	a, err := newArchives(cmd)
	if err != nil {
		return err
	}
	outs, err := a.openOutputs(cmd, output)
	if err != nil {
		return err
	}
	out := outs[0]
	w, err := export.NewWriter(out, format, opts)
	if err != nil {
		out.Abort()
		return err
	}
	err = a.each(ctx, func(in *stream.Input, r *pgn.Reader) error {
		return w.Run(ctx, r, in.Name, a.options())
	})
	if err == nil {
		err = w.Close()
	}
	err = writeAll(ctx, out, err)
	a.summary("export: %s; %s", w.Tally(), words.Count(w.Rows(), "row", "rows"))
	return err
}
