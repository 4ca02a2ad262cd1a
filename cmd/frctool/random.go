package main

import (
	"bufio"
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/draw"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/startpos"
)

func randomCommand() *cli.Command {
	return &cli.Command{
		Name:  "random",
		Usage: "draw Chess960 start positions at random, uniformly over the 960 or those allowed",
		Description: `Draws --count start positions, each of the 960 equally likely, as an
arbiter would for a round. --exclude leaves positions out of the draw (many
events exclude standard chess, SP 518), the rest staying equally likely, and
--unique draws no position twice.

--rounds R draws an event's table instead: one position per round that all
of its --boards B play, or with --per-board one per board of every round.
With --unique no position returns in another round (or, with --per-board, on
another board). The csv table has the columns round,board,sp,fritz9,rank,fen.

The draw comes from the operating system's secure random source
(crypto/rand); with --seed it comes from a PCG generator seeded with S
instead, so that the same seed repeats the same draw on every machine.` +
			examplesHead +
			"frctool random --count 5" + nextExample +
			"frctool random --seed 2026 --format fen" + nextExample +
			"frctool random --count 3 --exclude 518" + nextExample +
			"frctool random --count 8 --unique --exclude 518,534" + nextExample +
			"frctool random --rounds 9 --unique --exclude 518" + nextExample +
			"frctool random --rounds 7 --boards 20 --per-board --unique --format csv",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "count", Value: 1, Usage: "how many positions to draw"},
			&cli.Uint64Flag{Name: "seed", Usage: "draw reproducibly from seed `S` instead of crypto/rand", HideDefault: true},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, csv (sp,fritz9,rank; with --rounds round,board,sp,fritz9,rank,fen) or fen (X-FEN, not with --rounds)"},
			&cli.StringSliceFlag{Name: "exclude", Usage: "never draw the Scharnagl numbers `LIST`, such as 518 or 0-15,518 (960 means 0); repeatable"},
			&cli.BoolFlag{Name: "unique", Usage: "draw no position twice"},
			&cli.IntFlag{Name: "rounds", Usage: "draw a table of `R` rounds, one position per round"},
			&cli.IntFlag{Name: "boards", Value: 1, Usage: "boards `B` per round of the --rounds table"},
			&cli.BoolFlag{Name: "per-board", Usage: "draw a position for every board of every round of the --rounds table"},
			outputFlag(),
		},
		Action: runRandom,
	}
}

// pcgStream is the second PCG seed word, fixed so that --seed S alone
// determines the draw.
const pcgStream = 960

func runRandom(ctx context.Context, cmd *cli.Command) error {
	format, err := choice(cmd, "format", "text", "csv", "fen")
	if err != nil {
		return err
	}
	table := cmd.IsSet("rounds")
	event := draw.Event{Rounds: cmd.Int("rounds"), Boards: cmd.Int("boards"), PerBoard: cmd.Bool("per-board")}
	count := cmd.Int("count")
	switch {
	case table && cmd.IsSet("count"):
		return usagef(cmd, "--count and --rounds: give one, the number of positions or of rounds")
	case !table && (cmd.IsSet("boards") || event.PerBoard):
		return usagef(cmd, "--boards and --per-board shape a --rounds table: add --rounds")
	case table && format == "fen":
		return usagef(cmd, "--format fen lists bare positions: use --format csv, whose fen column has the table's FENs")
	case table && event.Rounds < 1:
		return usagef(cmd, "--rounds %d: want 1 or more", event.Rounds)
	case table && event.Boards < 1:
		return usagef(cmd, "--boards %d: want 1 or more", event.Boards)
	case !table && count < 1:
		return usagef(cmd, "--count %d: want 1 or more", count)
	}
	var exclude []int
	if list := cmd.StringSlice("exclude"); len(list) > 0 {
		if exclude, err = numbering.ParseList(strings.Join(list, ","), numbering.Scharnagl); err != nil {
			return usagef(cmd, "--exclude: %v", err)
		}
	}
	pool, err := draw.NewPool(exclude...)
	if err != nil {
		return usagef(cmd, "--exclude: %v", err)
	}
	var rng *rand.Rand // crypto/rand
	if cmd.IsSet("seed") {
		rng = rand.New(rand.NewPCG(cmd.Uint64("seed"), pcgStream))
	}
	unique := cmd.Bool("unique")

	o, out, err := textOutput(cmd)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	if table {
		err = writeTable(w, pool, rng, event, unique, format)
	} else {
		err = writeDraws(w, pool, rng, count, unique, format)
	}
	switch {
	case errors.Is(err, draw.ErrTooMany):
		err = usagef(cmd, "--unique: %v", err)
	case errors.Is(err, draw.ErrEvent):
		err = usagef(cmd, "--rounds %d --boards %d: %v", event.Rounds, event.Boards, err)
	case err == nil:
		err = w.Flush()
	}
	return finishTextOutput(ctx, o, err)
}

// writeDraws writes count positions drawn from pool, one a line.
func writeDraws(w *bufio.Writer, pool *draw.Pool, rng *rand.Rand, count int, unique bool, format string) error {
	sps, err := pool.Draws(rng, count, unique)
	if err != nil {
		return err
	}
	if format == "csv" {
		w.WriteString("sp,fritz9,rank\n")
	}
	var line []byte
	for sp := range sps {
		line = line[:0]
		switch format {
		case "text":
			line = appendNumbers(line, sp)
		case "csv":
			line = appendPositionCSV(line, sp)
		case "fen":
			line = startpos.FEN.Append(line, sp)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// writeTable writes an event's table, a line per game: text for people,
// with the round and board numbers aligned, or csv.
func writeTable(w *bufio.Writer, pool *draw.Pool, rng *rand.Rand, event draw.Event, unique bool, format string) error {
	games, err := pool.Table(rng, event, unique)
	if err != nil {
		return err
	}
	if format == "csv" {
		w.WriteString("round,board,sp,fritz9,rank,fen\n")
	}
	roundWidth, boardWidth := len(strconv.Itoa(event.Rounds)), len(strconv.Itoa(event.Boards))
	var line []byte
	for g := range games {
		line = line[:0]
		switch format {
		case "text":
			line = append(line, "Round "...)
			line = appendPadded(line, g.Round, roundWidth)
			// A table of one board leaves boards out, as an arbiter's
			// list of the rounds' positions would.
			if event.Boards > 1 {
				line = append(line, "  Board "...)
				line = appendPadded(line, g.Board, boardWidth)
			}
			line = append(line, "  "...)
			line = appendNumbers(line, g.SP)
		case "csv":
			line = strconv.AppendInt(line, int64(g.Round), 10)
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(g.Board), 10)
			line = append(line, ',')
			line = appendPositionCSV(line, g.SP)
			line = append(line, ',')
			line = startpos.FEN.Append(line, g.SP)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// appendPositionCSV writes the sp,fritz9,rank fields of a position.
func appendPositionCSV(dst []byte, sp int) []byte {
	dst = strconv.AppendInt(dst, int64(sp), 10)
	dst = append(dst, ',')
	dst = startpos.Fritz9.Append(dst, sp)
	dst = append(dst, ',')
	return startpos.Rank.Append(dst, sp)
}

// appendPadded writes n right-aligned in width columns.
func appendPadded(dst []byte, n, width int) []byte {
	s := strconv.Itoa(n)
	for range width - len(s) {
		dst = append(dst, ' ')
	}
	return append(dst, s...)
}
