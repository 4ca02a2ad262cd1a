package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/tree"
	"github.com/frctool/frctool/tree/page"
)

func treeCommand() *cli.Command {
	return &cli.Command{
		Name:      "tree",
		Usage:     "opening explorer: the moves played from each position, per start position",
		ArgsUsage: "[FILE...]",
		Description: `Reads PGN archives (plain, gzip, bzip2 or zstd) and builds the tree of the
moves played in the first --depth plies (default 12) of the selected games,
one tree per Chess960 start position, or only from the start given by --sp,
--fritz9, --rank or --fen. --moves starts the tree deeper: at the position
those moves (SAN, from that start) lead to, whichever order a game reached it
in, within the first plies of --moves plus --depth.

A node of the tree is a position (pieces, side to move, rooks that may castle,
an en passant file only when a capture is possible), not a move order:
transpositions meet, and a position's counts hold every game that reached it.
A game that reaches a position twice counts there once. Each row is a move
from a position:
  sp, ply, line, move, games, white_wins, draws, black_wins, score,
  score_low, score_high, draw_rate, avg_elo, performance, avg_year,
  last_played, uci, fen
line is the moves to the position (the first order the walk met it by, most
played moves first), fen the position. Rows go position by position, depth
first, moves by games (most first), equal counts in the order of their UCI
text. score is White's
(wins + draws/2) over finished games, score_low..score_high its 95% Wilson
interval; avg_elo is the mean rating of the player making the move, and
performance that player's: the opponents' mean rating + 400 x (wins -
losses) / games, over finished games against a rated opponent. Empty cells
have nothing to be derived from.

Without a start position, each Chess960 array (standard chess is SP 518) has
a tree; an array set up otherwise (no castling rights, as in TCEC's
no-castling events, or Black to move) has a tree apart under the same SP. DFRC
games and games from other FENs are skipped and counted in the summary.
With --fen, the games that start from that exact position are taken, DFRC and
other FENs included. A move that cannot be played ends its game's line at
the move before and is reported; only the plies the tree reads are checked.

--format defaults to table on a terminal and csv otherwise (with -o, to the
file's extension: .json, .html, else csv). A table on a terminal keeps to its
width (or COLUMNS): when all columns do not fit, it shows the line, the
move, the games and the score first, and says which columns it left out.
html is one self-contained page: a board and the table of moves beside it;
clicking a move plays it. json holds one tree per start position with the
raw sums; --merge reads such documents instead of PGN and adds them up,
giving what one run over all their games gives (write the parts without
--min-games, at one --depth).

--min-games leaves out moves fewer games played (keeps pages small).
--max-nodes bounds the positions held, about ` + strconv.Itoa(tree.NodeBytes) + ` bytes each: past it the
least-played positions with no move from them are dropped, down to half the
bound, and the summary says how many, since their counts are then partial.
The default, ` + strconv.Itoa(defaultMaxNodes) + `, keeps a run within the ` + strconv.Itoa(StreamBudget>>20) + ` MB that streaming
commands stay within, whatever the input; 0 lifts the bound, and memory then
grows with the positions, not with the games. --merge prunes the merged trees
to the bound too, holding one document beside them.` +
			examplesHead +
			"frctool tree --sp 518 --depth 8 --min-games 20 lichess.pgn.zst" + nextExample +
			"frctool tree --rank BBQNNRKR --moves '1. g3 g6' -o bbqnnrkr.html tcec.pgn" + nextExample +
			"frctool tree -q --format json -o part1.json part1.pgn.zst\n" +
			"   frctool tree --merge --format html -o tree.html part*.json",
		Flags: append([]cli.Flag{
			&cli.IntFlag{Name: "sp", Usage: "only the games from Chess960 start position `N` (Scharnagl 0..959, 960 for 0)", Value: -1, HideDefault: true},
			&cli.IntFlag{Name: "fritz9", Usage: "only the games from start position `N` in Fritz 9's numbers (1..960)", Value: -1, HideDefault: true},
			&cli.StringFlag{Name: "rank", Usage: "only the games from the start array with back rank `RANK`, e.g. RNBQKBNR"},
			&cli.StringFlag{Name: "fen", Usage: "only the games that start from `FEN` (any position, DFRC included)"},
			&cli.StringFlag{Name: "moves", Usage: "start the tree at the position after `MOVES` in SAN from the start, e.g. '1. e4 e5'"},
			&cli.IntFlag{Name: "depth", Usage: fmt.Sprintf("hold `D` plies below the tree's start (1..%d)", tree.MaxDepth), Value: tree.DefaultDepth},
			&cli.IntFlag{Name: "min-games", Usage: "leave out moves fewer than `K` games played", Value: 1},
			&cli.IntFlag{Name: "max-nodes", Usage: "hold at most `N` positions, dropping the least-played leaves past it (0: no bound)", Value: defaultMaxNodes},
			&cli.BoolFlag{Name: "merge", Usage: "the inputs are JSON outputs of earlier runs: add them up"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Usage: "`FORMAT` table, csv, json or html (default: table on a terminal, else csv)"},
			outputFlag(),
			quietFlag(),
			jobsFlag(),
		}, selectionFlags()...),
		Action: runTree,
	}
}

// defaultMaxNodes is --max-nodes' default: the positions that fit in the
// memory budget beside the rest of a run. Of StreamBudget, the batches in
// flight, a decompressor's window and the reader take up to about 200 MB
// on a hostile input; a million positions take about 86 MB.
const defaultMaxNodes = 1_000_000

// treeFormats are the output formats of tree.
var treeFormats = []string{"table", "csv", "json", "html"}

func runTree(ctx context.Context, cmd *cli.Command) error {
	opts, err := treeOptions(cmd)
	if err != nil {
		return err
	}
	walk := tree.WalkOptions{MinGames: int64(cmd.Int("min-games"))}
	if walk.MinGames < 1 {
		return usagef(cmd, "--min-games must be 1 or more, not %d", walk.MinGames)
	}
	format, err := treeFormat(cmd)
	if err != nil {
		return err
	}
	merge := cmd.Bool("merge")
	if merge {
		if opts.Start != nil {
			return usagef(cmd, "--merge adds up the documents' trees as they are; a start position (--sp, --fritz9, --rank, --fen, --moves) cannot be chosen")
		}
		for _, name := range []string{whereFlag, "min-elo", "speed", "min-plies", "since", "until", "no-bots"} {
			if cmd.IsSet(name) {
				return usagef(cmd, "--merge adds up documents whose games were selected when they were written; --%s cannot select here", name)
			}
		}
		if !cmd.IsSet("depth") {
			opts.Depth = 0 // the documents' own
		}
	}
	a, err := newArchives(cmd)
	if err != nil {
		return err
	}
	output := cmd.String("output")
	f, err := tree.NewForest(opts)
	if errors.Is(err, tree.ErrMoves) { // "moves: move 1. ...", the flag's
		return usagef(cmd, "--%v", err)
	}
	if err != nil {
		return usagef(cmd, "%v", err)
	}
	if opts.MaxNodes > 0 && opts.MaxNodes <= defaultMaxNodes {
		// The trees fit in the budget, so the collector may be held to
		// it like a streaming command's; past the default bound it would
		// only collect in vain.
		boundMemory()
	}
	outs, err := a.openOutputs(cmd, output)
	if err != nil {
		return err
	}
	out := outs[0]
	if merge {
		err = mergeTrees(ctx, a, f)
		if err == nil && cmd.IsSet("depth") && f.Depth() != int(cmd.Int("depth")) {
			err = fmt.Errorf("%w: the documents hold %d plies, not --depth %d", tree.ErrDepth, f.Depth(), cmd.Int("depth"))
		}
	} else {
		err = a.each(ctx, func(_ *stream.Input, r *pgn.Reader) error {
			return tree.Run(ctx, r, f, a.options())
		})
	}
	if err != nil {
		return writeAll(ctx, out, err)
	}
	var leftOut []string
	switch format {
	case "json":
		err = f.WriteJSON(out, walk)
	case "csv":
		err = f.WriteCSV(out, walk)
	case "html":
		err = page.Write(out, f, page.Options{Title: treeTitle(a, opts), Walk: walk})
	default:
		width := 0 // a table on a terminal keeps to its width
		if isStdout(output) {
			width = terminalWidth(cmd.Root().Writer)
		}
		leftOut, err = f.WriteTableWithin(out, walk, width)
	}
	if err := writeAll(ctx, out, err); err != nil {
		return err
	}
	noteLeftOut(cmd.Root().Writer, leftOut, "--format csv writes them all")
	a.summary("tree: %s; %s", &f.Totals, f)
	return nil
}

// treeOptions reads the start position, the moves, the depth and the node
// bound.
func treeOptions(cmd *cli.Command) (tree.Options, error) {
	opts := tree.Options{Depth: int(cmd.Int("depth")), MaxNodes: int(cmd.Int("max-nodes")), Moves: cmd.String("moves")}
	if opts.Depth < 1 || opts.Depth > tree.MaxDepth {
		return opts, usagef(cmd, "--depth must be 1 to %d plies, not %d", tree.MaxDepth, opts.Depth)
	}
	if opts.MaxNodes < 0 {
		return opts, usagef(cmd, "--max-nodes must be 0 (no bound) or more, not %d", opts.MaxNodes)
	}
	var given []string
	for _, name := range []string{"sp", "fritz9", "rank", "fen"} {
		if cmd.IsSet(name) {
			given = append(given, "--"+name)
		}
	}
	if len(given) > 1 {
		return opts, usagef(cmd, "%s choose the start position: give one of them", strings.Join(given, " and "))
	}
	sp := -1
	switch {
	case cmd.IsSet("sp"):
		n, err := numbering.NormalizeSP(int(cmd.Int("sp")))
		if err != nil {
			return opts, usagef(cmd, "--sp: %v", err)
		}
		sp = n
	case cmd.IsSet("fritz9"):
		n, err := numbering.Fritz9ToSP(int(cmd.Int("fritz9")))
		if err != nil {
			return opts, usagef(cmd, "--fritz9: %v", err)
		}
		sp = n
	case cmd.IsSet("rank"):
		r, err := numbering.ParseRank(cmd.String("rank"))
		if err != nil {
			return opts, usagef(cmd, "--rank: %v", err)
		}
		sp = r.SP()
	case cmd.IsSet("fen"):
		p, err := fen.Parse(cmd.String("fen"))
		if err != nil {
			return opts, usagef(cmd, "--fen: %v", err)
		}
		opts.Start = &p
	}
	if sp >= 0 {
		r, _ := numbering.FromSP(sp)
		p := fen.StartPosition(r, r)
		opts.Start = &p
	}
	if opts.Start == nil && strings.TrimSpace(opts.Moves) != "" {
		return opts, usagef(cmd, "--moves are played from a start position: give --sp, --fritz9, --rank or --fen too")
	}
	return opts, nil
}

// treeFormat works out the output format: --format, else -o's extension
// (looking through a compression extension), else table for a terminal
// and csv for anything else.
func treeFormat(cmd *cli.Command) (string, error) {
	if f := cmd.String("format"); f != "" {
		for _, name := range treeFormats {
			if f == name {
				return f, nil
			}
		}
		return "", usagef(cmd, "--format: unknown format %s (want %s)", words.Quote(f), strings.Join(treeFormats, ", "))
	}
	if o := cmd.String("output"); o != "-" && o != "" {
		name := o
		if stream.ByExtension(name) != stream.None {
			name = strings.TrimSuffix(name, filepath.Ext(name))
		}
		switch strings.ToLower(filepath.Ext(name)) {
		case ".json":
			return "json", nil
		case ".html", ".htm":
			return "html", nil
		}
		return "csv", nil
	}
	if isTerminal(cmd.Root().Writer) {
		return "table", nil
	}
	return "csv", nil
}

// treeTitle names the page: the input when there is one, and the start.
func treeTitle(a *archives, opts tree.Options) string {
	title := "Opening tree"
	if names := a.names; len(names) == 1 && names[0] != "-" {
		title += ": " + filepath.Base(names[0])
	}
	if m := strings.TrimSpace(opts.Moves); m != "" {
		title += " after " + m
	}
	return title
}

// mergeTrees adds up the JSON documents named by the arguments, opened
// one at a time as every command opens its inputs (archives.each): one
// that cannot be opened is reported and the others are merged (exit
// status 1), and a stop signal ends the merge, also while an input is idle.
func mergeTrees(ctx context.Context, a *archives, f *tree.Forest) error {
	return a.each(ctx, func(in *stream.Input, _ *pgn.Reader) error {
		err := f.ReadJSON(in)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, tree.ErrNotTree):
			return fmt.Errorf("%s: %w; --merge reads what frctool tree --format json writes", in.Name, err)
		case errors.Is(err, tree.ErrFiltered):
			return fmt.Errorf("%s: %w; build it again without --min-games", in.Name, err)
		case errors.Is(err, tree.ErrDepth):
			return fmt.Errorf("%s: %w; build the parts with one --depth", in.Name, err)
		case err != nil:
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		return nil
	})
}
