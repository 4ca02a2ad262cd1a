package numbering

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/frctool/frctool/internal/words"
)

// Scheme is a numbering of the 960 start positions.
type Scheme uint8

const (
	// Scharnagl is Scharnagl's numbering, 0..959 (960 is accepted for 0).
	Scharnagl Scheme = iota
	// Fritz9 is ChessBase Fritz 9's numbering, 1..960.
	Fritz9
)

func (s Scheme) String() string {
	if s == Fritz9 {
		return "fritz9"
	}
	return "sp"
}

// ParseScheme reads "sp" or "fritz9" (any case).
func ParseScheme(s string) (Scheme, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "sp", "scharnagl":
		return Scharnagl, nil
	case "fritz9", "fritz":
		return Fritz9, nil
	}
	return Scharnagl, fmt.Errorf("numbering %s: want sp or fritz9", words.Quote(s))
}

// ToSP returns the Scharnagl number of n in the scheme, or an error
// saying which numbers the scheme has.
func (s Scheme) ToSP(n int) (int, error) {
	if s == Fritz9 {
		return Fritz9ToSP(n)
	}
	return NormalizeSP(n)
}

// ErrList is wrapped by every error of ParseList.
var ErrList = errors.New("bad position list")

// ParseList reads a list of position numbers in the scheme: numbers and
// inclusive ranges separated by commas, such as "0-15,518,900-959".
// Blanks around items are ignored. It returns the Scharnagl numbers of the
// positions, in list order, without duplicates.
//
// For Scharnagl numbers 960 means 0, as in the 1..960 convention, so
// "1-960" is every position; Fritz9 numbers are 1..960. An error names the
// item at fault.
func ParseList(s string, scheme Scheme) ([]int, error) {
	var seen [Count]bool
	var sps []int
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("%w: empty", ErrList)
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		lo, hi, err := parseItem(item)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrList, words.Quote(item), err)
		}
		for n := lo; n <= hi; n++ {
			sp, err := scheme.ToSP(n)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrList, words.Quote(item), err)
			}
			if !seen[sp] {
				seen[sp] = true
				sps = append(sps, sp)
			}
		}
	}
	return sps, nil
}

// parseItem reads "N" or "N-M".
func parseItem(item string) (lo, hi int, err error) {
	if item == "" {
		return 0, 0, errors.New("empty item")
	}
	a, b, isRange := strings.Cut(item, "-")
	lo, err = atoi(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, err
	}
	if !isRange {
		return lo, lo, nil
	}
	hi, err = atoi(strings.TrimSpace(b))
	if err != nil {
		return 0, 0, err
	}
	if hi < lo {
		return 0, 0, fmt.Errorf("range ends before it starts (%d > %d)", lo, hi)
	}
	return lo, hi, nil
}

// atoi reads a plain decimal number; signs and anything else are errors,
// so that "-5" is read as a malformed range rather than a negative number.
func atoi(s string) (int, error) {
	if s == "" {
		return 0, errors.New("missing number")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%s is not a number", words.Quote(s))
		}
	}
	if len(s) > 6 {
		return 0, fmt.Errorf("%s: %w", s, ErrRange)
	}
	return strconv.Atoi(s)
}

// ParseRanks reads back ranks such as "RNBQKBNR" or German "TSLDKLST", in
// any case, each item possibly a comma-separated list, and returns their
// Scharnagl numbers without duplicates. The error names the bad rank.
func ParseRanks(ranks ...string) ([]int, error) {
	var seen [Count]bool
	var sps []int
	for _, list := range ranks {
		for _, item := range strings.Split(list, ",") {
			r, err := ParseRank(strings.TrimSpace(item))
			if err != nil {
				return nil, err
			}
			if sp := r.SP(); !seen[sp] {
				seen[sp] = true
				sps = append(sps, sp)
			}
		}
	}
	return sps, nil
}
