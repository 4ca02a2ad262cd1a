package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/stats"
	"github.com/frctool/frctool/stats/render"
)

func statsCommand() *cli.Command {
	return &cli.Command{
		Name:      "stats",
		Usage:     "count results per start position, by groups, against ratings, with tests corrected for many positions",
		ArgsUsage: "[FILE...]",
		Description: `Reads PGN archives (plain, gzip, bzip2 or zstd) and writes one row per
Chess960 start position that occurs (--all: all 960), keyed by Scharnagl SP:
  sp, fritz9, rank, games, white_wins, draws, black_wins, unfinished,
  white_score, draw_rate, score_low, score_high, avg_plies, avg_white_elo,
  avg_black_elo, rated_games, expected_score, score_vs_expected,
  vs_expected_low, vs_expected_high, p_value, significant
white_score is (white_wins + draws/2) / finished games and draw_rate is
draws / finished games (finished: 1-0, 0-1, 1/2-1/2). score_low..score_high is
the 95% Wilson score interval of white_score: it stays within 0..1, is not
empty at 0 or 1, and spans most of 0..1 for a single game. Empty cells (null
in JSON) have nothing to be derived from: no finished game, no rating.

Rated games are the finished games with both ratings. expected_score is the
mean of White's Elo expectation 1 / (1 + 10^(-(WhiteElo - BlackElo)/400)) over
them, score_vs_expected White's mean score minus it, with its 95% interval
vs_expected_low..vs_expected_high: above 0, the position helped White more than
the ratings predict. p_value tests whether a position's games score differently
from the other games of its group (Welch's z test on White's score, or on the
score minus the expectation when at least 90% of the group's finished games are
rated; positions with fewer than 10 such games on either side are not tested).
significant is true when the row stays significant after the Benjamini-Hochberg
correction over all rows at the false discovery rate --fdr (5%), and the summary
line says how many do: "N of M positions differ from the mean at FDR 5%".

--group-by FIELD[,FIELD] gives each group of games with equal values of the
fields its own rows, with the fields as the first columns: a tag as spelled in
the PGN (Event, TimeControl) or a derived field (speed, year, elo_band: the
mean rating rounded down to a multiple of 200, ...); games without a value form
a group of their own. Sorting, --min-games and the tests work within each
group; the chart draws a panel per group and the page has a group menu. A
count keeps at most 10,000 groups and 400,000 rows (the positions of every
group, and DFRC pairs with --dfrc); the page shows the groups with the most
games, up to 25,000 rows, and the other formats every row.

The Result tag gives the result when it holds 1-0, 0-1, 1/2-1/2 or *; the
movetext's closing marker is used only when the tag is missing or holds
anything else, and a disagreement is reported as a warning. * and missing
results count as unfinished. avg_plies uses the PlyCount tag when it is a
number from 0 to 10000, else counts the main-line moves (comments, variations,
NAGs and move numbers are not moves). Elo averages are over games with an Elo
from 1 to 4000 only; other numbers (not "?", "-" or "0") are warned about. DFRC
games (different back ranks) are counted in the totals, and, with --dfrc, in a
second table keyed white_sp:black_sp.

--format defaults to table when standard output is a terminal and to csv
otherwise (with -o, to the file's extension: .csv, .json, .md, else csv;
a compression extension after it, as in .json.zst, is looked through).
--columns LIST chooses and orders the columns of the table, CSV and Markdown
after the group-by fields; JSON and the page keep them all. A table on a
terminal too narrow for all of them (its width, or COLUMNS) shows those that
fit, the key, rank, games and White's score first, and says which it left out.
json is one document, {"rows": [...], "totals": {...}}, whose rows also carry
the raw sums; --merge reads such documents instead of PGN and adds them up,
giving exactly what one run over all their games gives. That is how a huge
archive is split over cores or machines: count each part with --format json,
then merge the parts. Grouped documents merge group by group, and a
document is read a row at a time, so merging takes the memory of the counts,
not of the documents.

` + selectionHelp + `

Only the selected games enter the rows; the summary line counts every game
read and the games selected.` +
			examplesHead +
			"frctool stats tcec.pgn.zst" + nextExample +
			"frctool stats --sort score --min-games 20 --chart score.svg --html stats.html archive.pgn" + nextExample +
			"frctool stats --by fritz9 --format markdown --dfrc games/*.pgn > stats.md" + nextExample +
			"frctool stats --columns sp,rank,games,white_score,p_value --sort score archive.pgn" + nextExample +
			"frctool stats --speed blitz,rapid --min-elo 2000 --group-by speed --sort vs-expected lichess.pgn.zst" + nextExample +
			"ls parts/*.pgn.zst | parallel frctool stats -q --dfrc --format json {} -o {.}.json\n" +
			"   frctool stats --merge --dfrc parts/*.json --sort games",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Usage: "`FORMAT` table, csv, json or markdown (default: table on a terminal, else csv)"},
			&cli.StringFlag{Name: "columns", Usage: "write the columns `LIST` (comma-separated), in that order, after the group-by fields", Validator: aList("column names")},
			&cli.StringFlag{Name: "sort", Usage: "order rows (within each group) by `KEY`: sp (the number, ascending), games, score, draws or vs-expected (largest first)", Value: "sp"},
			&cli.StringFlag{Name: "group-by", Usage: "one table per value of `FIELD[,FIELD]`: a tag (Event, TimeControl) or a derived field (speed, year, elo_band, ...)", Validator: aList("fields")},
			&cli.FloatFlag{Name: "fdr", Usage: "flag rows as significant at false discovery rate `Q` (Benjamini-Hochberg)", Value: stats.DefaultFDR},
			&cli.StringFlag{Name: "by", Usage: "key and sort rows by `NUMBERING` sp (Scharnagl) or fritz9", Value: "sp"},
			&cli.IntFlag{Name: "min-games", Usage: "leave out positions with fewer than `N` games", Value: 0},
			&cli.BoolFlag{Name: "all", Usage: "write all 960 positions, zero counts included"},
			&cli.BoolFlag{Name: "dfrc", Usage: "add a table of DFRC games keyed white_sp:black_sp"},
			&cli.BoolFlag{Name: "merge", Usage: "the inputs are JSON outputs of earlier runs: add them up"},
			&cli.StringFlag{Name: "chart", Usage: "also draw White's score per position to `FILE`.svg or .png", Validator: aName("file name")},
			&cli.StringFlag{Name: "html", Usage: "also write a self-contained page with the totals, chart and table to `FILE`", Validator: aName("file name")},
			outputFlag(),
			quietFlag(),
			jobsFlag(),
		}, selectionFlags()...),
		Action: runStats,
	}
}

func runStats(ctx context.Context, cmd *cli.Command) error {
	var opts stats.Options
	var err error
	if opts.Sort, err = stats.ParseOrder(cmd.String("sort")); err != nil {
		return usagef(cmd, "--sort: %v", err)
	}
	if opts.By, err = numbering.ParseScheme(cmd.String("by")); err != nil {
		return usagef(cmd, "--by: %v", err)
	}
	if n := cmd.Int("min-games"); n < 0 {
		return usagef(cmd, "--min-games must be 0 or more, not %d", n)
	} else {
		opts.MinGames = int64(n)
	}
	opts.All = cmd.Bool("all")
	if q := cmd.Float("fdr"); !(q > 0 && q < 1) {
		return usagef(cmd, "--fdr must be between 0 and 1, not %v", q)
	} else {
		opts.FDR = q
	}
	var s stats.Stats
	groupBy := splitList(cmd.String("group-by"))
	if err := s.SetGroupBy(groupBy); err != nil {
		return usagef(cmd, "--group-by: %v", err)
	}
	format, err := statsFormat(cmd)
	if err != nil {
		return err
	}
	var columns []string
	if cmd.IsSet("columns") {
		if format == render.JSON {
			return usagef(cmd, "--columns: a JSON document keeps every column, which --merge needs; choose the columns of csv, markdown or table")
		}
		columns = splitList(cmd.String("columns"))
		if err := stats.CheckColumns(columns); err != nil {
			return usagef(cmd, "--columns: %v", err)
		}
	}
	// A table on a terminal is cut to the terminal's width, unless the
	// columns were chosen.
	fitTo := 0
	if format == render.Table && columns == nil && isStdout(cmd.String("output")) {
		fitTo = terminalWidth(cmd.Root().Writer)
	}
	chartName, htmlName := cmd.String("chart"), cmd.String("html")
	if chartName != "" {
		if _, err := render.ChartFormat(chartName); err != nil {
			return usagef(cmd, "--chart: %v", err)
		}
	}
	boundMemory()
	a, err := newArchives(cmd)
	if err != nil {
		return err
	}
	if cmd.Bool("merge") && a.where != nil {
		return usagef(cmd, "--merge adds up counts already made: select games when counting them, not when merging")
	}
	// The table, the chart and the page appear together at the end, or
	// none of them (commitAll).
	outs, err := a.openOutputs(cmd, cmd.String("output"), chartName, htmlName)
	if err != nil {
		return err
	}
	out, chartOut, htmlOut := outs[0], outs[1], outs[2]

	withDFRC := cmd.Bool("dfrc")
	s.SkipPairs = !withDFRC
	if cmd.Bool("merge") {
		err = mergeStats(ctx, a, &s, withDFRC, cmd.IsSet("group-by"))
	} else {
		err = a.each(ctx, func(in *stream.Input, r *pgn.Reader) error {
			return stats.Run(ctx, r, &s, a.options())
		})
	}
	switch {
	case errors.Is(err, stats.ErrTooManyRows) && len(s.GroupBy()) == 0: // a merge takes its documents' grouping
		err = fmt.Errorf("%w; count fewer games' DFRC pairs, or leave out --dfrc", err)
	case errors.Is(err, stats.ErrTooManyRows) || errors.Is(err, stats.ErrTooManyGroups):
		err = fmt.Errorf("%w; group by fewer or coarser fields (year rather than date), or write a row per game with frctool export and group those", err)
	}
	rep := &stats.Report{Stats: &s, Options: opts, WithDFRC: withDFRC, Columns: columns}
	if err == nil {
		if err = rep.Check(); err != nil {
			err = fmt.Errorf("%w; leave out --all, or group by fewer fields", err)
		}
	}
	var leftOut []string
	if err == nil && fitTo > 0 {
		leftOut = render.FitColumns(rep, fitTo)
	}
	if err == nil {
		err = render.Write(out, rep, format)
	}
	if err == nil && chartOut != nil {
		kind, _ := render.ChartFormat(chartName)
		err = render.ReportChart(chartOut, rep, kind)
	}
	if err == nil && htmlOut != nil {
		title := "Chess960 statistics per start position"
		if names := a.names; len(names) == 1 && names[0] != "-" {
			title += ": " + filepath.Base(names[0])
		}
		err = render.WriteHTML(htmlOut, rep, title)
	}
	if err := commitAll(ctx, err, outs...); err != nil {
		return err
	}
	noteLeftOut(cmd.Root().Writer, leftOut, "--columns chooses them")
	sig, tested := stats.Significance(rep.Rows())
	selected := ""
	if a.where != nil {
		selected = fmt.Sprintf(", %d selected", s.Selected)
	}
	verdict := ""
	if tested > 0 {
		differ := "differ"
		if sig == 1 {
			differ = "differs"
		}
		verdict = fmt.Sprintf("; %d of %s %s from the mean at FDR %s", sig, words.Count(tested, "position", "positions"), differ, percent(opts.FDR))
	}
	a.summary("stats: %s%s%s", &s.Totals, selected, verdict)
	return nil
}

// percent writes a rate as a percentage without needless decimals: 5%,
// 0.1%.
func percent(q float64) string {
	return strconv.FormatFloat(q*100, 'f', -1, 64) + "%"
}

// statsFormat works out the output format: the --format flag, else the
// name of -o's file, else table for a terminal and csv for anything else,
// since a pipe or file wants something a program can read.
func statsFormat(cmd *cli.Command) (render.Format, error) {
	if f := cmd.String("format"); f != "" {
		format, err := render.ParseFormat(f)
		if err != nil {
			return 0, usagef(cmd, "--format: %v", err)
		}
		return format, nil
	}
	if o := cmd.String("output"); o != "-" && o != "" {
		return render.FormatOf(o), nil
	}
	if isTerminal(cmd.Root().Writer) {
		return render.Table, nil
	}
	return render.CSV, nil
}

// mergeStats adds up the JSON documents named by the arguments, opened
// one at a time as every command opens its inputs: one that cannot be
// opened is reported and the others are merged (exit status 1), and an
// interrupt stops the merge also while an input is idle. Without
// --group-by the documents' own grouping is kept. A document that is not
// one stats can merge stops the merge: adding up the others would give
// counts that look complete and are not.
func mergeStats(ctx context.Context, a *archives, s *stats.Stats, withDFRC, grouped bool) error {
	return a.each(ctx, func(in *stream.Input, _ *pgn.Reader) error {
		m, err := s.ReadJSON(in)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, stats.ErrNotStats):
			return fmt.Errorf("%s: %w; --merge reads what frctool stats --format json writes", in.Name, err)
		case errors.Is(err, stats.ErrFiltered):
			return fmt.Errorf("%s: %w; count it again without --min-games", in.Name, err)
		case errors.Is(err, stats.ErrGroupedOtherwise) && grouped:
			return fmt.Errorf("%s: %w; merge documents counted with the same --group-by, or leave --group-by out", in.Name, err)
		case errors.Is(err, stats.ErrGroupedOtherwise):
			return fmt.Errorf("%s: %w; merge documents counted with the same --group-by", in.Name, err)
		case err != nil:
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		if withDFRC && !m.DFRCTable {
			return fmt.Errorf("%s: %w (written without --dfrc); count it again with --dfrc", in.Name, stats.ErrNoDFRC)
		}
		return nil
	})
}
