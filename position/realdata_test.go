package position

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
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
			if st, _ := startpos.OfGame(g); st.FEN >= 0 {
				if b, err = ParseFEN(string(g.Tags[st.FEN].Value)); err != nil {
					t.Errorf("%s: game %d: %v", filepath.Base(path), g.Index, err)
					continue
				}
			}
			games++
			// The main line's moves are exactly the move tokens of depth 0.
			s := pgn.NewMovetextScanner(g.Movetext())
			for s.Next() {
				if s.Kind() != pgn.TokenMove || s.Depth() > 0 {
					continue
				}
				m, err := b.Play(string(s.Token().Text))
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
