package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/internal/words"
	"github.com/urfave/cli/v3"
)

// The input rule shared by identify and convert: the items are the
// command's arguments or, when there are none, the lines of standard input,
// where blank lines and lines starting with '#' are skipped. Each item gives
// exactly one output row, so that output stays aligned with the items; an
// item that cannot be read is named on stderr ("frctool: stdin:7: ...") and
// gets its empty-result row, and the command exits with status 1 at the end.

// rowFunc appends the output row for one item, without its newline, to dst.
// When the item cannot be read it appends the empty-result row and returns
// the error, which the loop reports. readErr, when not nil, is why the
// line could not even be read (errLineTooLong): the row is then the
// empty-result row with that error, and item is nil.
type rowFunc func(dst, item []byte, readErr error) ([]byte, error)

// errLineTooLong is the error of an input line over maxLine bytes, which
// is skipped: no FEN or back rank is that long.
var errLineTooLong = fmt.Errorf("line longer than %d bytes, not read", maxLine)

const (
	// outputBuffer is how much output is gathered before a write: large
	// enough that a bulk conversion makes few system calls.
	outputBuffer = 256 << 10
	// maxLine bounds an input line; FEN and EPD lines are far shorter.
	maxLine = 1 << 20
)

// eachInput writes the header (if any), then one row per item of cmd, to
// cmd's standard output. It stops when ctx ends (Ctrl-C), even while
// waiting for standard input.
func eachInput(ctx context.Context, cmd *cli.Command, header string, row rowFunc) error {
	if err := checkStdinStdout(cmd); err != nil {
		return err
	}
	o, w, err := textOutput(cmd)
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(w, outputBuffer)
	err = eachRow(ctx, cmd, out, header, row)
	if ferr := out.Flush(); err == nil || errors.Is(err, errReported) && ferr != nil {
		err = ferr
	}
	return finishTextOutput(ctx, o, err)
}

// checkStdinStdout refuses standard input and standard output that are
// one file ("frctool convert ... < x.txt >> x.txt", which cat refuses
// too): every row written would be read again, without end. An -o FILE
// is replaced only at the end, so it may be the input.
func checkStdinStdout(cmd *cli.Command) error {
	if o := cmd.String("output"); o != "-" {
		return nil
	}
	if args := cmd.Args().Slice(); len(args) > 0 && !slices.Contains(args, "-") {
		return nil
	}
	in, ok := streamID(cmd.Root().Reader, "standard input")
	if !ok {
		return nil
	}
	if out, ok := stdoutID(cmd); ok && out.same(in) {
		return usagef(cmd, "standard input and standard output are one file: every row written would be read again")
	}
	return nil
}

// eachRow is eachInput's loop, writing to out.
func eachRow(ctx context.Context, cmd *cli.Command, out *bufio.Writer, header string, row rowFunc) error {
	stderr := cmd.Root().ErrWriter
	if header != "" {
		out.WriteString(header)
		out.WriteByte('\n')
	}
	failed := 0
	var buf []byte // reused for every row: no allocation per line
	emit := func(source string, n int, item []byte, readErr error) error {
		var err error
		buf, err = row(buf[:0], item, readErr)
		buf = append(buf, '\n')
		if err != nil {
			failed++
			// Flush first so that on a terminal the message follows the
			// rows before it.
			if ferr := out.Flush(); ferr != nil {
				return ferr
			}
			fmt.Fprintf(stderr, "frctool: %s:%d: %s\n", source, n, printable(err.Error()))
		}
		_, werr := out.Write(buf)
		return werr
	}

	stdin := func() error {
		if err := out.Flush(); err != nil { // the header, before any wait
			return err
		}
		in, err := stream.OpenContext(ctx, "-", cmd.Root().Reader)
		if err != nil {
			return interrupted(ctx, err) // named "stdin: ..." already
		}
		defer in.Close()
		readError := func(err error) error {
			if in.Compression == stream.None { // else named with its format
				err = fmt.Errorf("stdin: %w", err)
			}
			return interrupted(ctx, err)
		}
		lines := lineReader{r: bufio.NewReaderSize(in, 64<<10)}
		for n := 1; ; n++ {
			if lines.r.Buffered() == 0 {
				// The next read may wait for a line being typed, or
				// for a program that asks and waits for the answer:
				// the rows so far go out first.
				if err := out.Flush(); err != nil {
					return err
				}
			}
			line, tooLong, err := lines.next()
			if err != nil && err != io.EOF {
				out.Flush()
				return readError(err)
			}
			if n%1024 == 0 && ctx.Err() != nil {
				// Only a read that waits sees the signal; a pipe that
				// always has more (yes RNBQKBNR | frctool identify)
				// is stopped here.
				out.Flush()
				return interrupted(ctx, ctx.Err())
			}
			if tooLong {
				if err := emit("stdin", n, nil, errLineTooLong); err != nil {
					return err
				}
				continue
			}
			if line == nil && err == io.EOF {
				return nil
			}
			if n == 1 {
				// Files saved by some Windows editors start with a byte
				// order mark, which is no part of the first input.
				line = bytes.TrimPrefix(line, []byte("\uFEFF"))
			}
			line = bytes.TrimSpace(line) // also the \r of CRLF line ends
			if len(line) == 0 || line[0] == '#' {
				continue
			}
			if err := emit("stdin", n, line, nil); err != nil {
				return err
			}
		}
	}
	args := cmd.Args().Slice()
	if len(args) == 0 {
		args = []string{"-"}
	}
	read := false
	for i, a := range args {
		var err error
		switch {
		case a == "-" && !read: // standard input's lines, as cat reads "-"
			read = true
			err = stdin()
		case a == "-": // read already, to its end
		default:
			err = emit("argument", i+1, []byte(a), nil)
		}
		if err != nil {
			return err
		}
	}
	if failed > 0 {
		return errReported
	}
	return nil
}

// lineReader reads lines of at most maxLine bytes; a longer one is
// skipped to its end and reported as too long, so that the lines after it
// are read and numbered as ever.
type lineReader struct {
	r    *bufio.Reader
	line []byte
}

// next returns the next line without its newline, or tooLong; at the end
// of the input it returns a nil line and io.EOF. A last line without a
// newline is returned with a nil error, and io.EOF comes next.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	l.line = l.line[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		if err == nil && len(l.line) == 0 && !tooLong {
			return chunk[:len(chunk)-1], false, nil // a line in one piece, the usual case: no copy
		}
		if !tooLong {
			// Gathered up to the limit and its newline, no further: the
			// rest of a longer line is only read past.
			l.line = append(l.line, chunk...)
			if len(l.line) > maxLine+1 {
				tooLong, l.line = true, l.line[:0]
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == nil:
			if tooLong {
				return nil, true, nil
			}
			return l.line[:len(l.line)-1], false, nil
		case err == io.EOF && (tooLong || len(l.line) > 0):
			if tooLong || len(l.line) > maxLine {
				return nil, true, nil
			}
			return l.line, false, nil
		default:
			return nil, false, err
		}
	}
}

// interrupted is err, or the error of a read stopped by ctx.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return errors.New("interrupted")
	}
	return err
}

// choice returns the value of a flag that takes one of a few words, or a
// usage error listing them.
func choice(cmd *cli.Command, flag string, allowed ...string) (string, error) {
	v := cmd.String(flag)
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	if v == "" {
		return "", usagef(cmd, "--%s is required: one of %s", flag, strings.Join(allowed, ", "))
	}
	return "", usagef(cmd, "--%s %s: want one of %s", flag, words.Quote(v), strings.Join(allowed, ", "))
}
