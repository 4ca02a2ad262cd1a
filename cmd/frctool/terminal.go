package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal: run leaves the command's
// standard output an *os.File only then.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth returns how many characters a line of the terminal w
// holds, or 0 when w is no terminal or does not say.
func terminalWidth(w io.Writer) int {
	if !isTerminal(w) {
		return 0
	}
	width, _, err := term.GetSize(int(w.(*os.File).Fd()))
	if err != nil || width <= 0 {
		return 0
	}
	return width
}

// isStdout reports whether the output named by -o is the standard output.
func isStdout(name string) bool { return name == "-" || name == "" }
