package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/frctool/frctool/internal/words"
	"github.com/urfave/cli/v3"
)

// How mistakes on the command line are worded: the flag parser's messages
// in frctool's words, and the name probably meant.

// The flag package's messages for a flag it does not know and for a value
// it cannot read, which name the flag with one dash whatever was typed.
var (
	notDefined = regexp.MustCompile(`^flag provided but not defined: -(.+)$`)
	badValue   = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): (.*)$`)
)

// noHelpTopic is the CLI package's message for help asked about a command
// it does not have ("frctool stast --help", "frctool help stast").
var noHelpTopic = regexp.MustCompile(`^No help topic for '(.*)'$`)

// helpTopicError words err as an unknown command when it is help asked
// about one, so that "frctool stast --help" is the same usage error,
// with its guess, as "frctool stast".
func helpTopicError(root *cli.Command, err error) error {
	if err == nil {
		return nil
	}
	if m := noHelpTopic.FindStringSubmatch(err.Error()); m != nil {
		return unknownCommand(root, m[1])
	}
	return err
}

// flagError words err, when it is the flag package's, the way frctool's
// own usage errors are: the flag as typed, then what is wrong. An unknown
// flag comes with the command's nearest flag when one is close ("unknown
// flag --grup-by; did you mean --group-by?"); a value that is not a
// number says so ("--count \"abc\": want a whole number").
func flagError(c *cli.Command, err error) error {
	if m := notDefined.FindStringSubmatch(err.Error()); m != nil {
		var names []string
		for _, f := range c.Flags {
			names = append(names, f.Names()...)
		}
		if near := nearest(m[1], names); near != "" {
			return fmt.Errorf("unknown flag %s; did you mean %s?", dashed(m[1]), dashed(near))
		}
		if len(m[1]) > maxGuess { // quoted, so that it is cut short
			return fmt.Errorf("unknown flag %s", words.Quote(dashed(m[1])))
		}
		return fmt.Errorf("unknown flag %s", dashed(m[1]))
	}
	if m := badValue.FindStringSubmatch(err.Error()); m != nil {
		why := m[3]
		switch {
		case strings.HasSuffix(why, strconv.ErrRange.Error()):
			why = "out of range"
		case strings.HasPrefix(why, "strconv.ParseFloat"):
			why = "want a number"
		case strings.HasPrefix(why, "strconv.ParseUint"):
			why = "want a whole number, 0 or more"
		case strings.HasPrefix(why, "strconv.Parse"):
			why = "want a whole number"
		case why == "parse error": // a boolean flag's
			why = "want true or false"
		}
		return fmt.Errorf("%s %s: %s", dashed(m[2]), words.Quote(m[1]), why)
	}
	return err
}

// dashed writes a flag's name as it is typed: -q, --quiet.
func dashed(name string) string {
	if utf8.RuneCountInString(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// commandNames are the names and aliases of cmd's subcommands.
func commandNames(cmd *cli.Command) []string {
	var names []string
	for _, sub := range cmd.Commands {
		names = append(names, sub.Names()...)
	}
	return names
}

// nearest returns the name of names that typed most probably meant, or ""
// when none is close: one that differs only in case, else the closest by
// edit distance, ignoring case, with at most a third of its letters and at
// least one changed. A one-letter name is only matched in the other case:
// any other letter is one change away.
func nearest(typed string, names []string) string {
	for _, n := range names {
		if strings.EqualFold(typed, n) {
			return n
		}
	}
	size := utf8.RuneCountInString(typed)
	if size < 2 || size > maxGuess {
		return ""
	}
	best, bestDist := "", max(1, size/3)+1
	for _, n := range names {
		if d := editDistance(strings.ToLower(typed), strings.ToLower(n)); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// maxGuess is the longest name nearest looks for a match of: no flag or
// command is nearly that long, and the distance costs the product of the
// lengths.
const maxGuess = 64

// editDistance is the number of characters to insert, delete, replace or
// swap with the next one to make b of a (Damerau's optimal string
// alignment distance): "stast" is one swap from "stats".
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] is the distance between ra[:i] and rb[:j].
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
