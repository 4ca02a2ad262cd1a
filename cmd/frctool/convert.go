package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/internal/csvfield"
	"github.com/frctool/frctool/startpos"
)

func convertCommand() *cli.Command {
	return &cli.Command{
		Name:      "convert",
		Usage:     "convert start positions between SP, Fritz9 number, back rank and FEN",
		ArgsUsage: "[VALUE...]",
		Description: `Reads each VALUE, or each line of standard input when there are none or
for a VALUE of - (plain, gzip, bzip2 or zstd; blank lines and lines starting
with # are skipped; a row is written as soon as its line is read), in the
--from notation and prints it in the --to notation, one result per line. A
value that cannot be read is named on stderr and leaves its line empty; the
exit status is then 1.

Notations: scharnagl (SP 0..959; 960 is read as 0), fritz9 (1..960), rank
(RNBQKBNR, or German TSLDKLST), fen (read in any castling style, written in
X-FEN with KQkq) and shredder-fen (written with rook files, HAha; output only).` +
			examplesHead +
			"frctool convert --from fritz9 --to scharnagl 359" + nextExample +
			"seq 1 960 | frctool convert --from fritz9 --to rank --format csv",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "notation of the values: scharnagl, fritz9, rank or fen"},
			&cli.StringFlag{Name: "to", Usage: "notation of the results: scharnagl, fritz9, rank, fen or shredder-fen"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text (the results) or csv (input,output with a header)"},
			outputFlag(),
		},
		Action: runConvert,
	}
}

func runConvert(ctx context.Context, cmd *cli.Command) error {
	from, err := choice(cmd, "from", "scharnagl", "fritz9", "rank", "fen")
	if err != nil {
		return err
	}
	to, err := choice(cmd, "to", "scharnagl", "fritz9", "rank", "fen", "shredder-fen")
	if err != nil {
		return err
	}
	format, err := choice(cmd, "format", "text", "csv")
	if err != nil {
		return err
	}
	// choice has checked the names, so these cannot fail.
	in, _ := startpos.ParseNotation(from)
	out, _ := startpos.ParseNotation(to)

	if format == "csv" {
		return eachInput(ctx, cmd, "input,output", func(dst, item []byte, readErr error) ([]byte, error) {
			dst = csvfield.Append(dst, item)
			dst = append(dst, ',')
			if readErr != nil {
				return dst, readErr
			}
			sp, err := in.Read(item)
			if err != nil {
				return dst, err
			}
			// A FEN holds no comma or quote, so the output needs no quoting.
			return out.Append(dst, sp), nil
		})
	}
	return eachInput(ctx, cmd, "", func(dst, item []byte, readErr error) ([]byte, error) {
		if readErr != nil {
			return dst, readErr
		}
		sp, err := in.Read(item)
		if err != nil {
			return dst, err
		}
		return out.Append(dst, sp), nil
	})
}
