package words

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int64
		want string
	}{
		{"none is plural", 0, "0 plies"},
		{"one is singular", 1, "1 ply"},
		{"two", 2, "2 plies"},
		{"minus one is plural", -1, "-1 plies"},
		{"large", 12_345_678_901, "12345678901 plies"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Count(tc.n, "ply", "plies"); got != tc.want {
				t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
			}
		})
	}
	if got := Count(1, "game", "games"); got != "1 game" {
		t.Errorf("Count of an int: %q", got)
	}
}
