package main

import (
	"errors"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/frctool/frctool/where"
)

// whereFlag names the selection expression; its presence among a
// command's flags makes newArchives read the selection.
const whereFlag = "where"

// selectionFlags are the flags that select games by their tags, the same
// on every command that reads games and keeps only some: --where and the
// shortcuts that expand to its expressions.
func selectionFlags() []cli.Flag {
	const cat = "Selection by tags"
	return []cli.Flag{
		&cli.StringFlag{Name: whereFlag, Category: cat, Usage: "take only the games `EXPR` selects, e.g. 'WhiteElo >= 2000 and speed = blitz'"},
		&cli.IntFlag{Name: "min-elo", Category: cat, Usage: "take only games where both players are rated `N` or more"},
		&cli.StringFlag{Name: "speed", Category: cat, Usage: "take only games of the speeds `LIST`: ultrabullet, bullet, blitz, rapid, classical, correspondence"},
		&cli.IntFlag{Name: "min-plies", Category: cat, Usage: "take only games of `N` plies (half-moves) or more"},
		&cli.StringFlag{Name: "since", Category: cat, Usage: "take only games played on `DATE` (2024, 2024.05 or 2024.05.17) or later"},
		&cli.StringFlag{Name: "until", Category: cat, Usage: "take only games played on `DATE` or earlier"},
		&cli.BoolFlag{Name: "no-bots", Category: cat, Usage: "leave out games a bot played (WhiteTitle or BlackTitle BOT)"},
	}
}

// hasFlag reports whether cmd defines the flag name.
func hasFlag(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// selection reads the selection flags into one expression, the
// conjunction of --where and every shortcut given; nil when none is
// given. A mistake is a usage error, which for --where shows the
// expression with a caret under the column of the mistake.
func selection(cmd *cli.Command) (*where.Expr, error) {
	if !hasFlag(cmd, whereFlag) {
		return nil, nil
	}
	var parts []*where.Expr
	add := func(flag, expr string, err error) error {
		if err != nil {
			return usagef(cmd, "--%s: %w", flag, err)
		}
		e, err := where.Parse(expr)
		if err != nil {
			// The shortcuts build their expressions from checked
			// values, so only --where can fail here.
			var se *where.SyntaxError
			if errors.As(err, &se) {
				return usagef(cmd, "--%s: %w\n%s", flag, err, se.Caret())
			}
			return usagef(cmd, "--%s: %w", flag, err)
		}
		parts = append(parts, e)
		return nil
	}
	if cmd.IsSet(whereFlag) {
		if err := add(whereFlag, cmd.String(whereFlag), nil); err != nil {
			return nil, err
		}
	}
	// 0, which --help shows as the default, selects as the default does:
	// every game. As a condition it would leave out the unrated games, or
	// those whose moves cannot be counted, which no one asking for 0 means.
	if n := cmd.Int("min-elo"); n < 0 {
		return nil, usagef(cmd, "--min-elo must be 0 (any game) or more, not %d", n)
	} else if n > 0 {
		if err := add("min-elo", where.MinElo(int(n)), nil); err != nil {
			return nil, err
		}
	}
	if cmd.IsSet("speed") {
		expr, err := where.Speeds(cmd.String("speed"))
		if err := add("speed", expr, err); err != nil {
			return nil, err
		}
	}
	if n := cmd.Int("min-plies"); n < 0 {
		return nil, usagef(cmd, "--min-plies must be 0 (any game) or more, not %d", n)
	} else if n > 0 {
		if err := add("min-plies", where.MinPlies(int(n)), nil); err != nil {
			return nil, err
		}
	}
	if cmd.IsSet("since") {
		expr, err := where.Since(cmd.String("since"))
		if err := add("since", expr, err); err != nil {
			return nil, err
		}
	}
	if cmd.IsSet("until") {
		expr, err := where.Until(cmd.String("until"))
		if err := add("until", expr, err); err != nil {
			return nil, err
		}
	}
	if cmd.Bool("no-bots") {
		if err := add("no-bots", where.NoBots(), nil); err != nil {
			return nil, err
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return where.And(parts...), nil
}

// selectionHelp is the paragraph every selecting command's --help adds.
const selectionHelp = `--where EXPR takes only the games the expression selects: comparisons
NAME OP VALUE with = != < <= > >= ~ !~ (RE2), joined by and, or, not and
parentheses. NAME is a tag as spelled in the PGN (WhiteElo, Event) or a
derived field: sp fritz9 white_sp black_sp kind plies elo min_elo elo_diff
elo_band year date base increment speed result bot. exists(NAME) tests
presence; a comparison on a missing value is false. --min-elo, --speed,
--min-plies, --since, --until and --no-bots add common conditions without
quoting; all given must hold.`

// splitList splits a comma-separated list, dropping blanks around items
// and empty items.
func splitList(s string) []string {
	var list []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			list = append(list, item)
		}
	}
	return list
}
