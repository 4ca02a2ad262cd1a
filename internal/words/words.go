// Package words writes the counts of frctool's summary lines in English:
// "1 game", "2 games". The lines are for people; machines read the
// commands' CSV and JSON.
package words

import "strconv"

// Count returns n followed by the noun one when n is 1 and many
// otherwise, the form English uses for zero as for larger numbers.
func Count[N ~int | ~int64](n N, one, many string) string {
	noun := many
	if n == 1 {
		noun = one
	}
	return strconv.FormatInt(int64(n), 10) + " " + noun
}
