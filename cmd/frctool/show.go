package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/corentings/chess/v2"
	"github.com/corentings/chess/v2/image"
	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/startpos"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "draw a start position, with its SP and Fritz9 numbers",
		ArgsUsage: "N|RANK|FEN",
		Description: `Draws the start position given by its Scharnagl number N (0..959, or 960
for 0), its back rank (RNBQKBNR, or German TSLDKLST) or its FEN, as a Unicode
diagram with both numbers and both FEN styles. A DFRC start FEN is drawn
with each side's number. With --svg the board is also drawn as an SVG image
into FILE, which is replaced only once it is completely written; --svg - puts
the image alone on standard output.` +
			examplesHead +
			"frctool show 518" + nextExample +
			"frctool show --svg sp0.svg BBQNNRKR",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "svg", Usage: "also draw the board as SVG into `FILE`", Validator: aName("file name")},
			outputFlag(),
		},
		Action: runShow,
	}
}

func runShow(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() != 1 {
		return usagef(cmd, "want one start position (N, RANK or FEN), got %d arguments", cmd.Args().Len())
	}
	input := cmd.Args().First()
	white, black, err := showRanks(input)
	if err != nil {
		return err
	}
	pos := fen.StartPosition(white, black)
	svg := cmd.String("svg")
	// --svg - alone puts the image on standard output, without the
	// diagram, which would make it no SVG file.
	diagram := svg != "-" || cmd.IsSet("output")
	// Two outputs, checked as the archive commands check theirs (show
	// reads no files).
	if diagram {
		if err := checkOutputs(cmd, nil, cmd.String("output"), svg); err != nil {
			return err
		}
		o, out, err := textOutput(cmd)
		if err != nil {
			return err
		}
		w := bufio.NewWriter(out)
		writeDiagram(w, &pos, white, black)
		if err := finishTextOutput(ctx, o, w.Flush()); err != nil {
			return err
		}
	}
	if svg != "" {
		if err := writeSVGFile(ctx, svg, cmd.Root().Writer, &pos); err != nil {
			return fmt.Errorf("--svg: %w", err)
		}
	}
	return nil
}

// showRanks reads show's argument: a number is an SP, anything else a rank
// or FEN, which must be a start array, DFRC allowed.
func showRanks(input string) (white, black numbering.Rank, err error) {
	input = strings.TrimSpace(input)
	// A sign makes it a number too, and its error the number's ("SP -1: out
	// of range"), not a back rank's.
	if digits := strings.TrimLeft(input, "+-"); digits != "" && len(input)-len(digits) <= 1 && strings.Trim(digits, "0123456789") == "" {
		sp, err := startpos.Scharnagl.Read([]byte(input))
		if err != nil {
			return white, black, err
		}
		r, _ := numbering.FromSP(sp)
		return r, r, nil
	}
	id, err := startpos.Identify(input)
	if err != nil {
		return white, black, err
	}
	if id.NotStart != nil {
		return white, black, id.NotStart
	}
	white, _ = id.WhiteRank()
	black, _ = id.BlackRank()
	return white, black, nil
}

// writeDiagram prints the numbers, the board with Unicode pieces (rank 8 at
// the top) and the position's X-FEN and Shredder-FEN.
func writeDiagram(w io.Writer, pos *fen.Position, white, black numbering.Rank) {
	if white == black {
		fmt.Fprintf(w, "%s\n\n", appendNumbers(nil, white.SP()))
	} else {
		fmt.Fprintf(w, "DFRC  White SP %d %s  Black SP %d %s\n\n", white.SP(), white, black.SP(), black)
	}
	for rank := 7; rank >= 0; rank-- {
		fmt.Fprintf(w, "%d ", rank+1)
		for file := range 8 {
			if file > 0 {
				fmt.Fprint(w, " ")
			}
			fmt.Fprint(w, glyph(pos.Board[rank*8+file]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "  a b c d e f g h\n\n")
	fmt.Fprintf(w, "X-FEN:        %s\n", pos.Format(fen.XFEN))
	fmt.Fprintf(w, "Shredder-FEN: %s\n", pos.Format(fen.Shredder))
}

// glyph returns the Unicode chess symbol for a FEN piece letter, or a dot
// for an empty square.
func glyph(c byte) string {
	if i := strings.IndexByte("KQRBNPkqrbnp", c); i >= 0 {
		return string(rune(0x2654 + i)) // U+2654 white king ... U+265F black pawn
	}
	return "·"
}

// chessPieces maps FEN letters to the chess library's pieces, and other
// bytes to NoPiece. An array, not a map, so that start-up builds nothing.
var chessPieces = [256]chess.Piece{
	'K': chess.WhiteKing, 'Q': chess.WhiteQueen, 'R': chess.WhiteRook,
	'B': chess.WhiteBishop, 'N': chess.WhiteKnight, 'P': chess.WhitePawn,
	'k': chess.BlackKing, 'q': chess.BlackQueen, 'r': chess.BlackRook,
	'b': chess.BlackBishop, 'n': chess.BlackKnight, 'p': chess.BlackPawn,
}

// drawSVG draws the board with the chess library's image package. The
// library is given the pieces only: it does not know Chess960 castling, and
// a picture needs none.
func drawSVG(w io.Writer, pos *fen.Position) error {
	squares := make(map[chess.Square]chess.Piece)
	for i, c := range pos.Board {
		if p := chessPieces[c]; p != chess.NoPiece {
			squares[chess.NewSquare(chess.File(i%8), chess.Rank(i/8))] = p
		}
	}
	board, err := chess.NewBoard(squares)
	if err != nil {
		return err
	}
	return image.SVG(w, board)
}

// writeSVGFile draws the board into path like every other output: a
// regular file replaced atomically, a device or FIFO (/dev/stdout) written
// to directly, "-" for stdout.
func writeSVGFile(ctx context.Context, path string, stdout io.Writer, pos *fen.Position) error {
	out, err := stream.Create(path, stdout)
	if err != nil {
		return err
	}
	return writeAll(ctx, out, drawSVG(out, pos))
}
