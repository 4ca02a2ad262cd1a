package fields

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

func game(t testing.TB, input string) *pgn.Game {
	t.Helper()
	g, err := pgn.NewReader(strings.NewReader(input)).Next()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

const (
	fen0    = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
	fenDFRC = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" // White 518, Black 0
	fenMid  = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
)

// full is a lichess-style game with every tag the derived fields read.
const full = `[Event "Rated Chess960 game"]
[Date "2024.05.17"]
[UTCDate "2024.05.18"]
[White "a"]
[Black "b"]
[Result "1-0 "]
[WhiteElo "2101"]
[BlackElo "1900"]
[WhiteTitle "BOT"]
[TimeControl "180+2"]
[Variant "Chess960"]
[FEN "` + fen0 + `"]
[PlyCount "3"]

1. e4 e5 2. Nf3 (2. d4 d5) 1-0
`

func TestValue(t *testing.T) {
	tests := []struct {
		name  string
		pgn   string
		field string
		want  string // Value.String()
		typ   Type
	}{
		{"sp", full, "sp", "0", TypeNumber},
		{"fritz9", full, "fritz9", "81", TypeNumber},
		{"white_sp", full, "white_sp", "0", TypeNumber},
		{"black_sp", full, "black_sp", "0", TypeNumber},
		{"kind chess960", full, "kind", "chess960", TypeText},
		{"standard chess without FEN is SP 518", "[Event \"x\"]\n\n1. e4 *\n", "sp", "518", TypeNumber},
		{"sp of DFRC is missing", "[FEN \"" + fenDFRC + "\"]\n\n*\n", "sp", "", TypeMissing},
		{"fritz9 of DFRC is missing", "[FEN \"" + fenDFRC + "\"]\n\n*\n", "fritz9", "", TypeMissing},
		{"white_sp of DFRC", "[FEN \"" + fenDFRC + "\"]\n\n*\n", "white_sp", "518", TypeNumber},
		{"black_sp of DFRC", "[FEN \"" + fenDFRC + "\"]\n\n*\n", "black_sp", "0", TypeNumber},
		{"kind dfrc", "[FEN \"" + fenDFRC + "\"]\n\n*\n", "kind", "dfrc", TypeText},
		{"kind other", "[SetUp \"1\"]\n[FEN \"" + fenMid + "\"]\n\n*\n", "kind", "other", TypeText},
		{"white_sp of other is missing", "[FEN \"" + fenMid + "\"]\n\n*\n", "white_sp", "", TypeMissing},
		{"kind unknown", "[SetUp \"1\"]\n\n*\n", "kind", "unknown", TypeText},
		{"kind of tagless text", "1. e4 e5 *\n", "kind", "unknown", TypeText},
		{"plies from PlyCount", full, "plies", "3", TypeNumber},
		{"plies counted", "[Event \"x\"]\n\n1. e4 e5 2. Nf3 (2. d4) Nc6 3. Bb5 *\n", "plies", "5", TypeNumber},
		{"plies counted when PlyCount is junk", "[PlyCount \"?\"]\n\n1. e4 e5 *\n", "plies", "2", TypeNumber},
		{"plies counted when PlyCount is negative", "[PlyCount \"-4\"]\n\n1. e4 *\n", "plies", "1", TypeNumber},
		{"plies of a game without moves", "[Event \"x\"]\n\n*\n", "plies", "0", TypeNumber},
		{"elo is the mean rounded down", full, "elo", "2000", TypeNumber},
		{"min_elo", full, "min_elo", "1900", TypeNumber},
		{"elo_diff", full, "elo_diff", "201", TypeNumber},
		{"elo_diff negative", "[WhiteElo \"1500\"]\n[BlackElo \"1600\"]\n\n*\n", "elo_diff", "-100", TypeNumber},
		{"elo_band", full, "elo_band", "2000", TypeNumber},
		{"elo_band rounds down", "[WhiteElo \"1937\"]\n[BlackElo \"1937\"]\n\n*\n", "elo_band", "1800", TypeNumber},
		{"elo needs both", "[WhiteElo \"2000\"]\n\n*\n", "elo", "", TypeMissing},
		{"elo of a question mark", "[WhiteElo \"2000\"]\n[BlackElo \"?\"]\n\n*\n", "elo", "", TypeMissing},
		{"elo of a dash", "[WhiteElo \"-\"]\n[BlackElo \"2000\"]\n\n*\n", "min_elo", "", TypeMissing},
		{"elo of zero", "[WhiteElo \"0\"]\n[BlackElo \"2000\"]\n\n*\n", "elo_diff", "", TypeMissing},
		{"elo of text", "[WhiteElo \"2000\"]\n[BlackElo \"unrated\"]\n\n*\n", "elo_band", "", TypeMissing},
		{"year from Date", full, "year", "2024", TypeNumber},
		{"date from Date", full, "date", "2024.05.17", TypeDate},
		{"year from UTCDate", "[Date \"????.??.??\"]\n[UTCDate \"2023.01.02\"]\n\n*\n", "year", "2023", TypeNumber},
		{"date from UTCDate", "[UTCDate \"2023.01.02\"]\n\n*\n", "date", "2023.01.02", TypeDate},
		{"partial date", "[Date \"2023.??.??\"]\n\n*\n", "date", "2023.??.??", TypeDate},
		{"no date", "[Date \"????.??.??\"]\n\n*\n", "year", "", TypeMissing},
		{"base", full, "base", "180", TypeNumber},
		{"increment", full, "increment", "2", TypeNumber},
		{"fractional increment", "[TimeControl \"10+0.05\"]\n\n*\n", "increment", "0.05", TypeNumber},
		{"speed", full, "speed", "blitz", TypeText},
		{"speed correspondence", "[TimeControl \"-\"]\n\n*\n", "speed", "correspondence", TypeText},
		{"base of correspondence is missing", "[TimeControl \"1/86400\"]\n\n*\n", "base", "", TypeMissing},
		{"speed without TimeControl", "[Event \"x\"]\n\n*\n", "speed", "", TypeMissing},
		{"speed of a question mark", "[TimeControl \"?\"]\n\n*\n", "speed", "", TypeMissing},
		{"result trimmed", full, "result", "1-0", TypeText},
		{"result from the marker without a tag", "[Event \"x\"]\n\n*\n", "result", "*", TypeText},
		{"result from the marker past a tag of no result", "[Result \"?\"]\n\n1. e4 0-1\n", "result", "0-1", TypeText},
		{"result of the tag over the marker", "[Result \"1-0\"]\n\n1. e4 0-1\n", "result", "1-0", TypeText},
		{"result missing", "[Event \"x\"]\n\n1. e4\n", "result", "", TypeMissing},
		{"bot", full, "bot", "true", TypeBool},
		{"bot as Black", "[BlackTitle \"BOT\"]\n\n*\n", "bot", "true", TypeBool},
		{"no bot", "[WhiteTitle \"GM\"]\n\n*\n", "bot", "false", TypeBool},
		{"no titles", "[Event \"x\"]\n\n*\n", "bot", "false", TypeBool},
		{"tag", full, "White", "a", TypeText},
		{"tag untrimmed", full, "Result", "1-0 ", TypeText},
		{"tag missing", full, "Round", "", TypeMissing},
		{"tag case-sensitive", full, "WHITE", "", TypeMissing},
		{"date tag", full, "UTCDate", "2024.05.18", TypeDate},
		{"unreadable date tag is text", "[EventDate \"May 2024\"]\n\n*\n", "EventDate", "May 2024", TypeText},
		{"unknown lower-case name", full, "white", "", TypeMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := game(t, tt.pgn)
			c := startpos.Classify(g)
			v := Get(g, &c, tt.field)
			if v.Type != tt.typ || v.String() != tt.want {
				t.Errorf("%s = %v %q, want %v %q", tt.field, v.Type, v.String(), tt.typ, tt.want)
			}
			if nv := Get(g, nil, tt.field); nv.Type != v.Type || nv.String() != v.String() {
				t.Errorf("with a nil class: %v %q, want %v %q", nv.Type, nv.String(), v.Type, v.String())
			}
		})
	}
}

func TestPliesOfLargeGame(t *testing.T) {
	input := "[Event \"x\"]\n\n1. e4 e5 {" + strings.Repeat("long comment ", 200) + "} 2. Nf3 *\n"
	tests := []struct {
		name   string
		prefix string
		want   string
	}{
		{"first part without PlyCount", "", ""},
		{"first part with PlyCount", "[PlyCount \"3\"]\n", "3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := pgn.NewReader(strings.NewReader(tt.prefix + input))
			r.MaxGameSize = 256
			g, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			if !g.Partial {
				t.Fatal("the game was not split")
			}
			if v := Get(g, nil, "plies"); v.String() != tt.want {
				t.Errorf("plies = %q, want %q", v.String(), tt.want)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		err   error
		tag   bool
		typ   Type
		start bool
	}{
		{"derived number", "elo", nil, false, TypeNumber, false},
		{"derived start", "sp", nil, false, TypeNumber, true},
		{"derived text", "speed", nil, false, TypeText, false},
		{"derived date", "date", nil, false, TypeDate, false},
		{"derived bool", "bot", nil, false, TypeBool, false},
		{"tag", "WhiteElo", nil, true, TypeText, false},
		{"date tag", "EventDate", nil, true, TypeDate, false},
		{"tag with odd bytes", "Time-Control", nil, true, TypeText, false},
		{"lower-case unknown", "white_elo", ErrUnknownField, false, TypeMissing, false},
		{"empty", "", ErrBadName, false, TypeMissing, false},
		{"blank inside", "White Elo", ErrBadName, false, TypeMissing, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Lookup(tt.in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Lookup(%q) error %v, want %v", tt.in, err, tt.err)
			}
			if err != nil {
				return
			}
			if f.Name() != tt.in || f.IsTag() != tt.tag || f.Type() != tt.typ || f.Start() != tt.start {
				t.Errorf("Lookup(%q) = name %q tag %v type %v start %v", tt.in, f.Name(), f.IsTag(), f.Type(), f.Start())
			}
			if f.IsTag() != (f.Doc() == "") {
				t.Errorf("Doc() = %q", f.Doc())
			}
		})
	}
}

func TestNames(t *testing.T) {
	want := "sp fritz9 white_sp black_sp kind plies elo min_elo elo_diff elo_band year date base increment speed result bot"
	if got := strings.Join(Names(), " "); got != want {
		t.Errorf("Names() = %s\nwant %s", got, want)
	}
	for _, n := range Names() {
		if f, err := Lookup(n); err != nil || f.IsTag() || f.Name() != n {
			t.Errorf("Lookup(%q) = %v, %v", n, f, err)
		}
	}
}

func TestTags(t *testing.T) {
	tests := []struct {
		name string
		want string
	}{
		{"sp", "FEN SetUp"},
		{"plies", "PlyCount"},
		{"elo_band", "WhiteElo BlackElo"},
		{"date", "Date UTCDate"},
		{"speed", "TimeControl"},
		{"bot", "WhiteTitle BlackTitle"},
		{"Event", "Event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Lookup(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(f.Tags(), " "); got != tt.want {
				t.Errorf("Tags() = %q, want %q", got, tt.want)
			}
		})
	}
	for _, n := range Names() {
		if f, _ := Lookup(n); len(f.Tags()) == 0 {
			t.Errorf("%s reads no tags", n)
		}
	}
}

func TestTagShadowedByDerived(t *testing.T) {
	g := game(t, "[elo \"lower-case tag\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2200\"]\n\n*\n")
	if v := Get(g, nil, "elo"); v.String() != "2100" {
		t.Errorf("elo = %q, want the derived 2100", v.String())
	}
	if v := Tag("elo").Value(g, nil); v.String() != "lower-case tag" {
		t.Errorf("Tag(elo) = %q, want the tag", v.String())
	}
}

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want Date
		ok   bool
	}{
		{"2024.05.17", Date{2024, 5, 17}, true},
		{" 2024.05.17 ", Date{2024, 5, 17}, true},
		{"2024-05-17", Date{2024, 5, 17}, true},
		{"2024/5/7", Date{2024, 5, 7}, true},
		{"2024.05.??", Date{2024, 5, 0}, true},
		{"2024.??.??", Date{2024, 0, 0}, true},
		{"2024.??.17", Date{2024, 0, 0}, true},
		{"2024.?.?", Date{2024, 0, 0}, true},
		{"2024.05", Date{2024, 5, 0}, true},
		{"2024", Date{2024, 0, 0}, true},
		{"????.??.??", Date{}, false},
		{"????.05.17", Date{}, false},
		{"24.05.17", Date{}, false},
		{"2024.13.01", Date{}, false},
		{"2024.12.32", Date{}, false},
		{"2024.00.01", Date{}, false},
		{"2024.02.29", Date{2024, 2, 29}, true},
		{"2000.02.29", Date{2000, 2, 29}, true},
		{"2023.02.29", Date{}, false},
		{"1900.02.29", Date{}, false},
		{"2024.02.30", Date{}, false},
		{"2024.04.31", Date{}, false},
		{"2024.04.30", Date{2024, 4, 30}, true},
		{"2024.05.17.1", Date{}, false},
		{"2024..17", Date{}, false},
		{"2024.05.", Date{}, false},
		{"2024.5?.01", Date{}, false},
		{"", Date{}, false},
		{"May 2024", Date{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, ok := ParseDate([]byte(tt.in))
			if d != tt.want || ok != tt.ok {
				t.Errorf("ParseDate(%q) = %v, %v; want %v, %v", tt.in, d, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestDateCompare(t *testing.T) {
	tests := []struct {
		name string
		d    string
		ref  string
		cmp  int
		ok   bool
	}{
		{"equal", "2024.05.17", "2024.05.17", 0, true},
		{"earlier day", "2024.05.16", "2024.05.17", -1, true},
		{"later month", "2024.06.01", "2024.05.17", 1, true},
		{"earlier year", "2023.12.31", "2024.01.01", -1, true},
		{"inside the reference month", "2024.05.17", "2024.05", 0, true},
		{"inside the reference year", "2024.12.31", "2024", 0, true},
		{"unknown day against a known one", "2024.05.??", "2024.05.01", 0, false},
		{"unknown day, the month decides", "2024.05.??", "2024.04.30", 1, true},
		{"unknown month, the year decides", "2024.??.??", "2023.05.01", 1, true},
		{"unknown month against a known one", "2024.??.??", "2024.05", 0, false},
		{"unknown day, reference month", "2024.05.??", "2024.05", 0, true},
		{"unknown month, reference year", "2024.??.??", "2024", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := ParseDate([]byte(tt.d))
			ref, _ := ParseDate([]byte(tt.ref))
			cmp, ok := d.Compare(ref)
			if cmp != tt.cmp || ok != tt.ok {
				t.Errorf("%s.Compare(%s) = %d, %v; want %d, %v", tt.d, tt.ref, cmp, ok, tt.cmp, tt.ok)
			}
		})
	}
}

func TestTimeControl(t *testing.T) {
	tests := []struct {
		in        string
		base, inc float64
		speed     Speed
		ok        bool
	}{
		{"180+2", 180, 2, Blitz, true},
		{"60", 60, 0, Bullet, true},
		{"15+0", 15, 0, UltraBullet, true},
		{"29", 29, 0, UltraBullet, true},
		{"30", 30, 0, Bullet, true},
		{"120+1", 120, 1, Bullet, true}, // 160
		{"60+3", 60, 3, Blitz, true},    // 180
		{"300+3", 300, 3, Blitz, true},  // 420
		{"480", 480, 0, Rapid, true},    // 480
		{"600+5", 600, 5, Rapid, true},  // 800
		{"900+15", 900, 15, Classical, true},
		{"1800+3", 1800, 3, Classical, true},
		{"10+0.05", 10, 0.05, UltraBullet, true},
		{" 7200+30 ", 7200, 30, Classical, true},
		{"40/7200:3600", 7200, 0, Classical, true},
		{"40/5400+30:1800+30", 5400, 30, Classical, true},
		{"-", 0, 0, Correspondence, true},
		{"1/86400", 86400, 0, Correspondence, true},
		{"1/259200", 259200, 0, Correspondence, true},
		{"3d", 3 * 86400, 0, Correspondence, true},
		{"2 days", 2 * 86400, 0, Correspondence, true},
		{"1 day", 86400, 0, Correspondence, true},
		{"*180", 180, 0, Blitz, true},
		{"?", 0, 0, UnknownSpeed, false},
		{"", 0, 0, UnknownSpeed, false},
		{"inf", 0, 0, UnknownSpeed, false},
		{"180+", 0, 0, UnknownSpeed, false},
		{"+2", 0, 0, UnknownSpeed, false},
		{"-60", 0, 0, UnknownSpeed, false},
		{"0/60", 0, 0, UnknownSpeed, false},
		{"1e3", 0, 0, UnknownSpeed, false},
		{"0 days", 0, 0, UnknownSpeed, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			base, inc, speed, ok := TimeControl([]byte(tt.in))
			if base != tt.base || inc != tt.inc || speed != tt.speed || ok != tt.ok {
				t.Errorf("TimeControl(%q) = %v, %v, %v, %v; want %v, %v, %v, %v", tt.in, base, inc, speed, ok, tt.base, tt.inc, tt.speed, tt.ok)
			}
		})
	}
}

func TestSpeedNames(t *testing.T) {
	for s := UltraBullet; s <= Correspondence; s++ {
		t.Run(s.String(), func(t *testing.T) {
			if got, ok := ParseSpeed(s.String()); !ok || got != s {
				t.Errorf("ParseSpeed(%q) = %v, %v", s.String(), got, ok)
			}
		})
	}
	if _, ok := ParseSpeed("unknown"); ok {
		t.Error("ParseSpeed(unknown) is ok")
	}
	if Speed(99).String() != "unknown" {
		t.Errorf("Speed(99) = %q", Speed(99).String())
	}
}

func TestRating(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"2000", 2000, true},
		{" 1500 ", 1500, true},
		{"0", 0, false},
		{"?", 0, false},
		{"-", 0, false},
		{"", 0, false},
		{"-100", 0, false},
		{"2000.5", 0, false},
		{"123456", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got, ok := Rating([]byte(tt.in)); got != tt.want || ok != tt.ok {
				t.Errorf("Rating(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"12", 12, true},
		{"-12", -12, true},
		{" 7 ", 7, true},
		{"0.05", 0.05, true},
		{"-0.5", -0.5, true},
		{"12345678901234567890", 12345678901234567890, true},
		{"1.", 0, false},
		{".5", 0, false},
		{"1.2.3", 0, false},
		{"1e3", 0, false},
		{"+1", 0, false},
		{"-", 0, false},
		{"", 0, false},
		{"0x10", 0, false},
		{"1_000", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got, ok := ParseNumber([]byte(tt.in)); got != tt.want || ok != tt.ok {
				t.Errorf("ParseNumber(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestAccessors(t *testing.T) {
	g := game(t, full)
	if n, ok := Elo(g); n != 2000 || !ok {
		t.Errorf("Elo = %d, %v", n, ok)
	}
	if n, ok := MinElo(g); n != 1900 || !ok {
		t.Errorf("MinElo = %d, %v", n, ok)
	}
	if n, ok := EloDiff(g); n != 201 || !ok {
		t.Errorf("EloDiff = %d, %v", n, ok)
	}
	if n, ok := EloBand(g); n != 2000 || !ok {
		t.Errorf("EloBand = %d, %v", n, ok)
	}
	if n, ok := Plies(g); n != 3 || !ok {
		t.Errorf("Plies = %d, %v", n, ok)
	}
	if n, ok := Year(g); n != 2024 || !ok {
		t.Errorf("Year = %d, %v", n, ok)
	}
	if d, ok := GameDate(g); d != (Date{2024, 5, 17}) || !ok {
		t.Errorf("GameDate = %v, %v", d, ok)
	}
	if s, ok := GameSpeed(g); s != Blitz || !ok {
		t.Errorf("GameSpeed = %v, %v", s, ok)
	}
	if r, ok := Result(g); string(r) != "1-0" || !ok {
		t.Errorf("Result = %q, %v", r, ok)
	}
	if !Bot(g) {
		t.Error("Bot = false")
	}
}

func TestValueAllocations(t *testing.T) {
	g := game(t, full)
	c := startpos.Classify(g)
	for _, name := range append(Names(), "White", "Date") {
		f, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { f.Value(g, &c) }); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}

func BenchmarkValue(b *testing.B) {
	g := game(b, full)
	c := startpos.Classify(g)
	for _, name := range []string{"elo", "speed", "date", "sp", "WhiteElo"} {
		f, _ := Lookup(name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f.Value(g, &c)
			}
		})
	}
}

// TestResultTag holds the one rule for a Result tag: a standard result,
// with spaces and tabs around it, counts; anything else leaves the result
// to the termination marker.
func TestResultTag(t *testing.T) {
	tests := []struct {
		name, tags, want string
		ok               bool
	}{
		{"plain", `[Result "1-0"]`, "1-0", true},
		{"blanks around", "[Result \" 1/2-1/2\t\"]", "1/2-1/2", true},
		{"unfinished", `[Result "*"]`, "*", true},
		{"unknown", `[Result "?"]`, "", false},
		{"other text", `[Result "white wins"]`, "", false},
		{"no-break space", "[Result \"1-0\u00a0\"]", "", false},
		{"missing", `[Event "x"]`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := game(t, tt.tags+"\n\n1. e4 0-1\n")
			got, ok := ResultTag(g)
			if string(got) != tt.want || ok != tt.ok {
				t.Fatalf("ResultTag = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
			// Result falls back to the marker exactly when the tag does not count.
			r, _ := Result(g)
			if want := map[bool]string{true: tt.want, false: "0-1"}[tt.ok]; string(r) != want {
				t.Errorf("Result = %q, want %q", r, want)
			}
		})
	}
}

// TestNamesAsText holds the names written out as bytes, and speed's
// values, to the names they copy.
func TestNamesAsText(t *testing.T) {
	for s, name := range speedNames {
		if string(speedText[s]) != name {
			t.Errorf("speedText[%d] = %q, want %q", s, speedText[s], name)
		}
	}
	for k := range kindText {
		if name := startpos.Kind(k).String(); string(kindText[k]) != name {
			t.Errorf("kindText[%d] = %q, want %q", k, kindText[k], name)
		}
	}
	if got, want := derived[speedID].values, speedNames[UltraBullet:]; !slices.Equal(got, want) {
		t.Errorf("speed's values %q, want %q", got, want)
	}
}

// TestParseDateDaysOfMonths holds ParseDate's days of each month to the
// time package's calendar: a day is a date when time.Date keeps it, and
// no date when time.Date moves it into the next month.
func TestParseDateDaysOfMonths(t *testing.T) {
	years := []int{1600, 1700, 1800, 1900, 2000, 2100, 2400}
	for y := 1895; y <= 2105; y++ {
		years = append(years, y)
	}
	for _, y := range years {
		for m := 1; m <= 12; m++ {
			for d := 1; d <= 31; d++ {
				want := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Day() == d
				in := fmt.Sprintf("%04d.%02d.%02d", y, m, d)
				got, ok := ParseDate([]byte(in))
				if ok != want || ok && got != (Date{y, m, d}) {
					t.Fatalf("ParseDate(%q) = %v, %v; want ok %v", in, got, ok, want)
				}
			}
		}
	}
}
