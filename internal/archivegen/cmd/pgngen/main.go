// Command pgngen writes a generated Chess960 archive to standard output,
// for benchmarks and for the measurements quoted in the README:
//
//	go run ./internal/archivegen/cmd/pgngen -shape lichess -size 64MB -seed 1 > lichess.pgn
//	go run ./internal/archivegen/cmd/pgngen -shape headers -games 100000 -dialects > headers.pgn
//
// The same flags always give the same bytes.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/frctool/frctool/internal/archivegen"
)

func main() {
	err := run(os.Args[1:], os.Stdout)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgngen:", err)
		os.Exit(2)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("pgngen", flag.ContinueOnError)
	shape := fs.String("shape", "lichess", "archive shape: lichess or headers")
	size := fs.String("size", "", "write at least this many bytes of whole games (64MB, 512KB, 1GB or a byte count)")
	games := fs.Int("games", 0, "write this many games")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same archive")
	dialects := fs.Bool("dialects", false, "mix Variant spellings, FEN castling styles and CRLF line endings")
	plies := fs.Int("plies", 0, "mean game length in plies for -shape lichess (0: about 1 KB games)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	sh, err := archivegen.ParseShape(*shape)
	if err != nil {
		return fmt.Errorf("-shape: %w", err)
	}
	if (*size == "") == (*games == 0) {
		return errors.New("give either -size or -games")
	}
	g := archivegen.New(archivegen.Options{Seed: *seed, Shape: sh, Dialects: *dialects, MeanPlies: *plies})
	w := bufio.NewWriterSize(stdout, 1<<20)
	if *games > 0 {
		_, err = g.WriteGames(w, *games)
	} else {
		var n int64
		if n, err = parseSize(*size); err != nil {
			return fmt.Errorf("-size: %w", err)
		}
		_, err = g.WriteSize(w, n)
	}
	if err != nil {
		return err
	}
	return w.Flush()
}

// parseSize reads a byte count with an optional KB, MB or GB suffix, each
// a power of 1024.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	upper := strings.ToUpper(s)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(upper, u.suffix) {
			upper, mult = strings.TrimSuffix(upper, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(upper), 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size such as 64MB", s)
	}
	return n * mult, nil
}
