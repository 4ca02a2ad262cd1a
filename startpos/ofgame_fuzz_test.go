package startpos

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/words"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
)

// FuzzOfGame holds OfGame to ofGameOnePass, the same rules written here the
// plain way, in one pass over the tags that does everything as it goes:
// the start, the tag it is read from, and the problems, in order, with
// their lines. Each line of the input is a tag: its first byte picks the
// name, the rest is the value.
func FuzzOfGame(f *testing.F) {
	for _, seed := range []string{
		"F" + fen0,
		"F" + fen518 + "\nS1",
		"S1\nVChess960",
		"S0\nE\nS 1 ",
		"F?\nF" + fen0,
		"F" + fen0 + "\nF" + strings.Replace(fen0, "HFhf", "KQkq", 1) + "\nF" + fen518,
		"F" + fenDFRC,
		"F" + fenMid + "\nS1",
		"F  " + fen959Sh + " ;",
		"Frnbqkbnr/ppp/8 w",
		"F",
	} {
		f.Add([]byte(seed))
	}
	names := map[byte]string{'F': "FEN", 'S': "SetUp", 'V': "Variant", 'f': "fen"}
	f.Fuzz(func(t *testing.T, data []byte) {
		var b strings.Builder
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			name, ok := names[line[0]]
			if !ok {
				name = "Event"
			}
			value := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", "", "\x00", "").Replace(string(line[1:]))
			fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value)
		}
		b.WriteString("\n*\n")
		g := firstGame(t, b.String())
		got, gotProblems := OfGame(g)
		want, wantProblems := ofGameOnePass(g)
		if got != want || problemText(gotProblems) != problemText(wantProblems) {
			t.Fatalf("%q:\nOfGame %+v %s\none pass %+v %s", b.String(), got, problemText(gotProblems), want, problemText(wantProblems))
		}
	})
}

func problemText(ps []*pgn.ParseError) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Error() + "; ")
	}
	return b.String()
}

// ofGameOnePass is OfGame's rules in one pass over the tags: the first
// FEN tag decides, a later one of another position is reported, and a game
// without one starts from SP 518 unless a SetUp tag says "1".
func ofGameOnePass(g *pgn.Game) (Start, []*pgn.ParseError) {
	st := unknownStart
	var problems []*pgn.ParseError
	for i := range g.Tags {
		t := &g.Tags[i]
		if string(t.Name) != "FEN" {
			continue
		}
		value := trimFEN(t.Value)
		if st.FEN >= 0 {
			want, _ := fen.ParseBytes(trimFEN(g.Tags[st.FEN].Value))
			if p, err := fen.ParseBytes(value); err == nil && (p.Board != want.Board || p.Turn != want.Turn) {
				problems = append(problems, g.Problem(t.Line, fmt.Errorf("%w: line %d describes another position than line %d; the first is used", ErrFENConflict, t.Line, g.Tags[st.FEN].Line)))
			}
			continue
		}
		st.FEN = i
		if len(value) == 0 || string(value) == "?" {
			problems = append(problems, g.Problem(t.Line, fmt.Errorf("%w: [FEN %s]", ErrNoFEN, words.Quote(t.Value))))
			continue
		}
		p, err := fen.ParseBytes(value)
		if err != nil {
			problems = append(problems, g.Problem(t.Line, fmt.Errorf("%w: %w", ErrFEN, err)))
			continue
		}
		st.Kind, st.White, st.Black = kindOf(p.Start())
	}
	if st.FEN >= 0 {
		return st, problems
	}
	for i := range g.Tags {
		t := &g.Tags[i]
		if string(t.Name) == "SetUp" && string(bytes.TrimSpace(t.Value)) == "1" {
			return st, append(problems, g.Problem(t.Line, fmt.Errorf("%w: [SetUp \"1\"] without a FEN tag", ErrNoFEN)))
		}
	}
	st.Kind, st.White, st.Black = Chess960, numbering.StandardSP, numbering.StandardSP
	return st, problems
}
