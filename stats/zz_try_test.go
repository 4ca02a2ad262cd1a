package stats

import (
	"os"
	"testing"
)

func TestZZTry(t *testing.T) {
	var s Stats
	for sp := 0; sp < 5; sp++ {
		s.SP[sp*100] = Counts{Games: 10, WhiteWins: int64(sp + 1), Draws: 3, BlackWins: int64(6 - sp), Plies: 800}
	}
	f, _ := os.Create("/tmp/ct/c5.svg")
	if err := s.Chart(f, "svg", Options{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
}
