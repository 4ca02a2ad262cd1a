package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/annotate"
	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/pgn"
)

func annotateCommand() *cli.Command {
	return &cli.Command{
		Name:      "annotate",
		Usage:     "tag every game with the Scharnagl and Fritz9 numbers of its start position",
		ArgsUsage: "[FILE...]",
		Description: `Reads PGN archives (plain, gzip, bzip2 or zstd: detected from the data) and
writes every game back with [Chess960 "SP"] and [Chess960Fritz9 "N"] set after
its FEN tag (at the end of the tags when it has none). Games whose back ranks
differ (DFRC) get "W:B" pairs; games from other positions get neither tag, and
stale ones are removed (unless that would change how the game reads: then they
stay). Nothing else changes: deleting those tag lines from the output gives
back the input byte for byte, and a second run changes nothing.
The start is read from the FEN's board, never from the Variant tag; a game with
no FEN starts from SP 518. Problems are reported as file:line: message.

--plycount and --final-fen replay each game's main line with the Chess960
rules, as validate does: PlyCount is set to the number of moves played, and a
comment { "FEN" } with the final position goes before the result (replacing
such a comment from an earlier run). A game whose moves cannot all be played
is reported and keeps its PlyCount and movetext as they were.` +
			examplesHead +
			"frctool annotate tcec.pgn.zst -o tcec-numbered.pgn" + nextExample +
			"frctool annotate --in-place --backup .orig games/*.pgn" + nextExample +
			"frctool annotate --plycount --final-fen --castling shredder lichess960.pgn.zst > out.pgn" + nextExample +
			"curl -s https://example.org/960.pgn | frctool annotate --no-fritz9 > numbered.pgn",
		Flags: []cli.Flag{
			outputFlag(),
			&cli.StringFlag{Name: "sp-tag", Usage: "name of the Scharnagl number's tag", Value: annotate.DefaultSPTag},
			&cli.StringFlag{Name: "fritz9-tag", Usage: "name of the Fritz9 number's tag", Value: annotate.DefaultFritz9Tag},
			&cli.BoolFlag{Name: "no-fritz9", Usage: "leave the Fritz9 tag out"},
			&cli.BoolFlag{Name: "variant", Usage: `also set [Variant "Chess960"] and [SetUp "1"] on games from a Chess960 array other than 518`},
			&cli.StringFlag{Name: "castling", Usage: "rewrite the FEN's castling field in `STYLE` xfen (KQkq) or shredder (HAha)"},
			&cli.BoolFlag{Name: "plycount", Usage: "set [PlyCount \"N\"] from a replay of the main line"},
			&cli.BoolFlag{Name: "final-fen", Usage: `put the final position as a comment { "FEN" } before the result`},
			&cli.BoolFlag{Name: "in-place", Aliases: []string{"i"}, Usage: "rewrite each FILE, keeping its compression and mode (atomic: on any failure the original stays)"},
			&cli.StringFlag{Name: "backup", Usage: "with --in-place, keep each original as FILE`SUFFIX`", Validator: aName("suffix")},
			quietFlag(),
			jobsFlag(),
		},
		Action: runAnnotate,
	}
}

func runAnnotate(ctx context.Context, cmd *cli.Command) error {
	opts := annotate.Options{
		SPTag:     cmd.String("sp-tag"),
		Fritz9Tag: cmd.String("fritz9-tag"),
		NoFritz9:  cmd.Bool("no-fritz9"),
		Variant:   cmd.Bool("variant"),
		PlyCount:  cmd.Bool("plycount"),
		FinalFEN:  cmd.Bool("final-fen"),
	}
	switch c := cmd.String("castling"); c {
	case "":
	case "xfen", "x-fen":
		s := fen.XFEN
		opts.Castling = &s
	case "shredder", "shredder-fen":
		s := fen.Shredder
		opts.Castling = &s
	default:
		return usagef(cmd, "--castling must be xfen or shredder, not %s", words.Quote(c))
	}
	if err := opts.Check(); err != nil {
		return usagef(cmd, "%v", err)
	}
	inPlace := cmd.Bool("in-place")
	if cmd.IsSet("backup") && !inPlace {
		return usagef(cmd, "--backup goes with --in-place")
	}
	if inPlace && cmd.IsSet("output") {
		return usagef(cmd, "--in-place and --output exclude each other")
	}
	boundMemory()
	a, err := newArchives(cmd)
	if err != nil {
		return err
	}
	if err := a.checkOutputs(cmd, cmd.String("output")); err != nil {
		return err
	}
	run := a.options()
	var sum annotate.Summary
	if inPlace {
		for _, name := range a.names {
			if name == "-" {
				return usagef(cmd, "--in-place needs FILE arguments, not standard input")
			}
		}
		if err := a.checkInPlace(cmd, cmd.String("backup")); err != nil {
			return err
		}
		err = a.each(ctx, func(in *stream.Input, r *pgn.Reader) error {
			out, err := stream.CreateCompressed(in.Name, in.Compression, 0)
			if err != nil {
				return err
			}
			if b := cmd.String("backup"); b != "" {
				out.SetBackup(in.Name + b)
			}
			return writeAll(ctx, out, annotate.Run(ctx, r, out, opts, run, &sum))
		})
	} else {
		out, err2 := stream.Create(cmd.String("output"), cmd.Root().Writer)
		if err2 != nil {
			return err2
		}
		a.live = append(a.live, out)
		err = a.each(ctx, func(in *stream.Input, r *pgn.Reader) error {
			return annotate.Run(ctx, r, out, opts, run, &sum)
		})
		err = writeAll(ctx, out, err)
	}
	a.summary("annotate: %s", &sum)
	return err
}

// writeAll commits out when err is nil, and discards it otherwise, so that
// a failed run leaves no partial file behind (commitAll).
func writeAll(ctx context.Context, out *stream.Output, err error) error {
	return commitAll(ctx, err, out)
}

// commitAll commits the outputs together when err is nil, so that they
// appear all or none, and discards them all otherwise: a failed run leaves
// no partial file behind. A stop signal that came while they were written,
// as stats and tree write theirs after reading everything, leaves them
// uncommitted too. nil outputs are skipped.
func commitAll(ctx context.Context, err error, outs ...*stream.Output) error {
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		return stream.CommitAll(outs...)
	}
	var names []string
	for _, o := range outs {
		if o != nil {
			o.Abort()
			names = append(names, o.Name)
		}
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted; %s left unchanged", strings.Join(names, ", "))
	}
	return err
}
