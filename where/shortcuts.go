package where

import (
	"errors"
	"fmt"
	"strings"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/internal/words"
)

// Errors of the shortcuts' arguments.
var (
	ErrSpeed = errors.New("unknown speed")
	ErrDate  = errors.New("not a date")
)

// MinElo selects games whose two players are both rated n or more.
func MinElo(n int) string { return "min_elo >= " + formatInt(n) }

// MinPlies selects games of n plies (half-moves) or more.
func MinPlies(n int) string { return "plies >= " + formatInt(n) }

// NoBots leaves out the games a bot played.
func NoBots() string { return "not bot" }

// Speeds selects games of the speed classes listed, separated by commas
// or blanks: "blitz,rapid" gives speed = blitz or speed = rapid.
func Speeds(list string) (string, error) {
	names := strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(names) == 0 {
		return "", fmt.Errorf("%w: empty list (speeds are %s)", ErrSpeed, speedList())
	}
	var b strings.Builder
	for i, name := range names {
		if _, ok := fields.ParseSpeed(name); !ok {
			return "", fmt.Errorf("%w: %s (speeds are %s)", ErrSpeed, words.Quote(name), speedList())
		}
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("speed = ")
		b.WriteString(name)
	}
	if len(names) == 1 {
		return b.String(), nil
	}
	return "(" + b.String() + ")", nil
}

func speedList() string {
	var names []string
	for s := fields.UltraBullet; s <= fields.Correspondence; s++ {
		names = append(names, s.String())
	}
	return strings.Join(names, ", ")
}

// Since selects games played on date or later. A date without a day or
// month stands for its first day: Since("2024.05") takes May on.
func Since(date string) (string, error) {
	d, err := parseDateArg(date)
	if err != nil {
		return "", err
	}
	return `date >= "` + dateLiteral(d) + `"`, nil
}

// Until selects games played on date or earlier. A date without a day or
// month stands for its last day: Until("2024.05") takes May in.
func Until(date string) (string, error) {
	d, err := parseDateArg(date)
	if err != nil {
		return "", err
	}
	return `date <= "` + dateLiteral(d) + `"`, nil
}

func parseDateArg(s string) (fields.Date, error) {
	d, ok := fields.ParseDate([]byte(s))
	if !ok {
		return d, fmt.Errorf("%w: %s (write 2024.05.17, 2024-05-17, 2024.05 or 2024)", ErrDate, words.Quote(s))
	}
	return d, nil
}

// dateLiteral writes a date's known parts only: "2024.05".
func dateLiteral(d fields.Date) string {
	s := d.String()
	s = strings.TrimSuffix(s, ".??")
	return strings.TrimSuffix(s, ".??")
}
