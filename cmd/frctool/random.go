package main

import (
	"bufio"
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"strconv"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/startpos"
)

func randomCommand() *cli.Command {
	return &cli.Command{
		Name:  "random",
		Usage: "draw Chess960 start positions at random, uniformly over the 960",
		Description: exampleHelp(`Draws --count start positions, each of the 960 equally likely, as an
arbiter would for a round. The draw comes from the operating system's secure
random source (crypto/rand); with --seed it comes from a PCG generator seeded
with S instead, so that the same seed repeats the same draw on every machine.`,
			"frctool random --count 5",
			"frctool random --seed 2026 --format fen"),
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "count", Value: 1, Usage: "how many positions to draw"},
			&cli.Uint64Flag{Name: "seed", Usage: "draw reproducibly from seed `S` instead of crypto/rand"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, csv (sp,fritz9,rank) or fen (X-FEN)"},
		},
		Action: runRandom,
	}
}

// pcgStream is the second PCG seed word, fixed so that --seed S alone
// determines the draw.
const pcgStream = 960

// cryptoSource is a rand.Source drawing from crypto/rand, so that rand.Rand's
// unbiased IntN can be used over it.
type cryptoSource struct{}

func (cryptoSource) Uint64() uint64 {
	var b [8]byte
	crand.Read(b[:]) // never fails: crypto/rand aborts the program instead
	return binary.LittleEndian.Uint64(b[:])
}

func runRandom(_ context.Context, cmd *cli.Command) error {
	format, err := choice(cmd, "format", "text", "csv", "fen")
	if err != nil {
		return err
	}
	count := cmd.Int("count")
	if count < 1 {
		return usagef(cmd, "--count %d: want 1 or more", count)
	}
	var src rand.Source = cryptoSource{}
	if cmd.IsSet("seed") {
		src = rand.NewPCG(cmd.Uint64("seed"), pcgStream)
	}
	rng := rand.New(src)

	w := bufio.NewWriter(cmd.Root().Writer)
	if format == "csv" {
		w.WriteString("sp,fritz9,rank\n")
	}
	var line []byte
	for range count {
		sp := rng.IntN(numbering.Count)
		line = line[:0]
		switch format {
		case "text":
			line = appendNumbers(line, sp)
		case "csv":
			line = strconv.AppendInt(line, int64(sp), 10)
			line = append(line, ',')
			line = startpos.Fritz9.Append(line, sp)
			line = append(line, ',')
			line = startpos.Rank.Append(line, sp)
		case "fen":
			line = startpos.FEN.Append(line, sp)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return w.Flush()
}
