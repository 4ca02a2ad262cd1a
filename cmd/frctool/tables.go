package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
)

func tablesCommand() *cli.Command {
	return &cli.Command{
		Name:      "tables",
		Usage:     "print the reference tables of the Chess960 numbering",
		ArgsUsage: "[king|bishop|skeleton|fritz9]",
		Description: `Prints the tables of the numbering's seed documents, computed from the
arithmetic and laid out as the seeds lay them out: the King's table and the
Bishop's table (together they give any SP: the row at or below the number,
then the remainder's bishops), Scharnagl's NQ-skeleton table and the Fritz9
NQ-skeleton table. With no argument, all four.` +
			examplesHead +
			"frctool tables king" + nextExample +
			"frctool tables",
		Flags:  []cli.Flag{outputFlag()},
		Action: runTables,
	}
}

// The tables by the names the command takes, in the order it prints them.
var tablePrinters = []struct {
	name  string
	print func(io.Writer)
}{
	{"king", printKingTable},
	{"bishop", printBishopTable},
	{"skeleton", printSkeletonTable},
	{"fritz9", printFritz9Table},
}

func runTables(ctx context.Context, cmd *cli.Command) error {
	args := cmd.Args().Slice()
	var printers []func(io.Writer)
	switch len(args) {
	case 0:
		for _, t := range tablePrinters {
			printers = append(printers, t.print)
		}
	case 1:
		for _, t := range tablePrinters {
			if t.name == args[0] {
				printers = append(printers, t.print)
			}
		}
		if printers == nil {
			return usagef(cmd, "unknown table %s: want king, bishop, skeleton or fritz9", words.Quote(args[0]))
		}
	default:
		return usagef(cmd, "one table at a time, got %d arguments", len(args))
	}
	o, out, err := textOutput(cmd)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	for i, p := range printers {
		if i > 0 {
			fmt.Fprintln(w)
		}
		p(w)
	}
	return finishTextOutput(ctx, o, w.Flush())
}

// columns lays cells out column by column, rows to a column, as the seed
// documents print their long tables.
func columns(w io.Writer, cells []string, rows int, gap string) {
	width := 0
	for _, c := range cells {
		width = max(width, len(c))
	}
	for r := 0; r < rows; r++ {
		var line strings.Builder
		for i := r; i < len(cells); i += rows {
			if i > r {
				line.WriteString(gap)
			}
			fmt.Fprintf(&line, "%-*s", width, cells[i])
		}
		fmt.Fprintln(w, strings.TrimRight(line.String(), " "))
	}
}

// printKingTable prints the 60 rows in three columns of 21, 21 and 18.
func printKingTable(w io.Writer) {
	fmt.Fprintln(w, "King's table (the SP with bishops on a1 and b1, then the other six pieces)")
	var cells []string
	for _, r := range numbering.KingTable() {
		cells = append(cells, fmt.Sprintf("%3d %s", r.SP, r.Pieces))
	}
	columns(w, cells, 21, "   ")
}

func printBishopTable(w io.Writer) {
	fmt.Fprintln(w, "Bishop's table (SP mod 16)")
	fmt.Fprintln(w, "   abcdefgh")
	for _, r := range numbering.BishopTable() {
		fmt.Fprintf(w, "%2d %s\n", r.Code, r.Squares)
	}
}

// printSkeletonTable prints the 60 skeletons in five columns of twelve: a
// column holds two N5N knight placements, six queen squares each.
func printSkeletonTable(w io.Writer) {
	fmt.Fprintln(w, "Scharnagl's NQ-skeleton table (SP = entry + bishop code)")
	var cells []string
	for _, e := range numbering.SkeletonTable() {
		cells = append(cells, fmt.Sprintf("%3d %s", e.Number, e.Skeleton))
	}
	columns(w, cells, 12, "   ")
}

// printFritz9Table prints the 60 skeletons in four columns of fifteen, one
// column per queen's place among the four squares the knights leave.
func printFritz9Table(w io.Writer) {
	fmt.Fprintln(w, "Fritz9 NQ-skeleton table (Fritz9 number = entry + bishop code)")
	var cells []string
	for _, e := range numbering.Fritz9SkeletonTable() {
		cells = append(cells, fmt.Sprintf("%3d %s", e.Number, e.Skeleton))
	}
	columns(w, cells, 15, "   ")
}
