package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/frctool/frctool/internal/words"
)

// isTerminal reports whether w is a terminal: run leaves the command's
// standard output an *os.File only then.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth returns how many characters a line of the terminal w
// holds, or 0 when w is no terminal or does not say. COLUMNS, when set
// to a number, is taken instead, as ls and Python take it.
func terminalWidth(w io.Writer) int {
	if !isTerminal(w) {
		return 0
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	width, _, err := term.GetSize(int(w.(*os.File).Fd()))
	if err != nil || width <= 0 {
		return 0
	}
	return width
}

// isStdout reports whether the output named by -o is the standard output.
func isStdout(name string) bool { return name == "-" || name == "" }

// noteLeftOut says, under a table cut to fit a terminal, which columns it
// left out and how to have them.
func noteLeftOut(w io.Writer, left []string, how string) {
	if len(left) > 0 {
		fmt.Fprintf(w, "(%s left out to fit the terminal: %s; %s)\n",
			words.Count(len(left), "column", "columns"), strings.Join(left, ", "), how)
	}
}
