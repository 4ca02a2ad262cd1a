package dedup

import (
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pipeline"
)

// FuzzDedup holds dedup to what it promises on any archive: the output and
// the duplicates are the input, game for game (as many bytes, and every
// game of the input in one of them), and the output deduplicated again is
// itself, with no duplicates left.
func FuzzDedup(f *testing.F) {
	a := std("1. e4 e5 2. Nf3 1-0", "1-0")
	f.Add(a+a+std("1. e4 e5 *", "*")+std("1. d4 0-1", "0-1"), uint8(0))
	f.Add(a+strings.ReplaceAll(a, "\n", "\r\n")+"junk\n"+a, uint8(5))
	f.Fuzz(func(t *testing.T, input string, how uint8) {
		opts := Options{Key: Key(how % 3), Prefix: how&4 != 0}
		out, dups, sum := runAll(t, opts, pipeline.Options{Jobs: int(how%2) + 1}, input)
		if len(out)+len(dups) != len(input) {
			t.Fatalf("out %d and duplicates %d bytes, input %d", len(out), len(dups), len(input))
		}
		if n := sum.Duplicates + sum.PrefixDuplicates; n > 0 && dups == "" || n == 0 && dups != "" {
			t.Fatalf("%d duplicates counted, %d bytes of them written", n, len(dups))
		}
		if sharedtest.LoneCR([]byte(input)) {
			return
		}
		again, dups2, _ := runAll(t, opts, pipeline.Options{Jobs: 1}, out)
		if again != out || dups2 != "" {
			t.Fatalf("the output deduplicated again lost %q", dups2)
		}
	})
}
