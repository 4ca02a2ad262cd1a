package position

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
)

// TestRealGames replays the main line of every game in the shared real-world
// archives, all of which are legal, Chess960 castlings of every shape
// included.
func TestRealGames(t *testing.T) {
	root := sharedtest.Path(t, "realdata")
	files, _ := filepath.Glob(filepath.Join(root, "*", "*.pgn"))
	if len(files) == 0 {
		t.Skip("no PGN files in", root)
	}
	games, plies, castlings := 0, 0, 0
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r := pgn.NewReader(f)
		for {
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if !g.HasTagSection() {
				continue
			}
			b := New()
			if st, _ := g.Start(); st.FEN >= 0 {
				if b, err = ParseFEN(string(g.Tags[st.FEN].Value)); err != nil {
					t.Errorf("%s: game %d: %v", filepath.Base(path), g.Index, err)
					continue
				}
			}
			games++
			for _, tok := range movetextTokens(string(g.Movetext())) {
				m, err := b.Play(tok)
				if err != nil {
					t.Errorf("%s: game %d, ply %d: %v\n%s", filepath.Base(path), g.Index, len(b.history)+1, err, b)
					break
				}
				if m.IsCastling() {
					castlings++
				}
				plies++
			}
		}
		f.Close()
	}
	t.Logf("%d games, %d plies, %d castlings replayed", games, plies, castlings)
}

// movetextTokens returns the main-line moves of PGN movetext, dropping
// comments, variations, NAGs, move numbers and the result. It is just
// enough PGN for this test; reading movetext is package pgn's business.
func movetextTokens(s string) []string {
	var toks []string
	depth := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '{':
			if j := strings.IndexByte(s[i:], '}'); j >= 0 {
				i += j + 1
				continue
			}
			return toks
		case c == ';':
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j + 1
				continue
			}
			return toks
		case c == '(':
			depth++
			i++
			continue
		case c == ')':
			depth--
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
			continue
		}
		j := i
		for j < len(s) && !strings.ContainsRune(" \t\r\n{}();", rune(s[j])) {
			j++
		}
		tok := s[i:j]
		i = j
		if depth > 0 || tok[0] == '$' {
			continue
		}
		switch tok {
		case "1-0", "0-1", "1/2-1/2", "*":
			continue
		}
		// A move number, "12." or "12...", possibly glued to the move;
		// digits not followed by a dot are castling written with zeros.
		if d := strings.TrimLeft(tok, "0123456789"); len(d) < len(tok) && strings.HasPrefix(d, ".") {
			tok = strings.TrimLeft(d, ".")
		}
		if tok == "" {
			continue
		}
		toks = append(toks, tok)
	}
	return toks
}
