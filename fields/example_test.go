package fields_test

import (
	"fmt"
	"strings"

	"github.com/frctool/frctool/fields"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

func Example() {
	input := `[Event "Rated Chess960 game"]
[Date "2024.05.17"]
[WhiteElo "2101"]
[BlackElo "1900"]
[TimeControl "180+2"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. e4 e5 2. Nf3 1-0
`
	g, _ := pgn.NewReader(strings.NewReader(input)).Next()
	c := startpos.Classify(g)
	for _, name := range []string{"sp", "kind", "plies", "elo", "elo_band", "date", "speed", "bot", "Event"} {
		v := fields.Get(g, &c, name)
		fmt.Printf("%s = %s (%s)\n", name, v, v.Type)
	}
	// Output:
	// sp = 0 (number)
	// kind = chess960 (text)
	// plies = 3 (number)
	// elo = 2000 (number)
	// elo_band = 2000 (number)
	// date = 2024.05.17 (date)
	// speed = blitz (text)
	// bot = false (bool)
	// Event = Rated Chess960 game (text)
}

func ExampleTimeControl() {
	for _, tc := range []string{"180+2", "60", "40/7200:3600", "1/86400", "-"} {
		base, inc, speed, ok := fields.TimeControl([]byte(tc))
		fmt.Println(tc, base, inc, speed, ok)
	}
	// Output:
	// 180+2 180 2 blitz true
	// 60 60 0 bullet true
	// 40/7200:3600 7200 0 classical true
	// 1/86400 86400 0 correspondence true
	// - 0 0 correspondence true
}

func ExampleDate_Compare() {
	may, _ := fields.ParseDate([]byte("2024.05"))
	first, _ := fields.ParseDate([]byte("2024.05.01"))
	for _, s := range []string{"2024.05.17", "2024.05.??", "2024.??.??", "2023.??.??"} {
		d, _ := fields.ParseDate([]byte(s))
		c1, ok1 := d.Compare(may)
		c2, ok2 := d.Compare(first)
		fmt.Printf("%s: against 2024.05 %d %v, against 2024.05.01 %d %v\n", s, c1, ok1, c2, ok2)
	}
	// Output:
	// 2024.05.17: against 2024.05 0 true, against 2024.05.01 1 true
	// 2024.05.??: against 2024.05 0 true, against 2024.05.01 0 false
	// 2024.??.??: against 2024.05 0 false, against 2024.05.01 0 false
	// 2023.??.??: against 2024.05 -1 true, against 2024.05.01 -1 true
}
