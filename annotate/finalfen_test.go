package annotate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/startpos"
)

// TestReplayOptions covers --plycount and --final-fen game by game: where
// the comment goes, the notation of its castling field, what a second run
// replaces, and what a game that cannot be replayed keeps.
func TestReplayOptions(t *testing.T) {
	const frc = `[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]` + "\n"
	shredder, xfen := fen.Shredder, fen.XFEN
	both := Options{NoFritz9: true, PlyCount: true, FinalFEN: true}
	tests := []struct {
		name     string
		opts     Options
		in, want string
		warnings []string
	}{
		{
			name: "plycount added",
			opts: Options{NoFritz9: true, PlyCount: true},
			in:   "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n",
			want: "[Event \"x\"]\n[Chess960 \"518\"]\n[PlyCount \"3\"]\n\n1. e4 e5 2. Nf3 *\n",
		},
		{
			name: "wrong plycount corrected in place",
			opts: Options{NoFritz9: true, PlyCount: true},
			in:   "[Event \"x\"]\n[PlyCount \"40\"]\n\n1. e4 e5 2. Nf3 *\n",
			want: "[Event \"x\"]\n[PlyCount \"3\"]\n[Chess960 \"518\"]\n\n1. e4 e5 2. Nf3 *\n",
		},
		{
			name: "variations do not count",
			opts: Options{NoFritz9: true, PlyCount: true},
			in:   "[Event \"x\"]\n\n1. e4 (1. d4 d5 2. c4) e5 {fine} 2. Nf3 $1 *\n",
			want: "[Event \"x\"]\n[Chess960 \"518\"]\n[PlyCount \"3\"]\n\n1. e4 (1. d4 d5 2. c4) e5 {fine} 2. Nf3 $1 *\n",
		},
		{
			name: "comment before the marker",
			opts: both,
			in:   "[Event \"x\"]\n\n1. e4 e5 *\n",
			want: "[Event \"x\"]\n[Chess960 \"518\"]\n[PlyCount \"2\"]\n\n1. e4 e5 { \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\" } *\n",
		},
		{
			name: "long line breaks before the comment",
			opts: Options{NoFritz9: true, FinalFEN: true},
			in:   "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Ruy Lopez} 1/2-1/2\n",
			want: "[Event \"x\"]\n[Chess960 \"518\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Ruy Lopez}\n{ \"r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4\" } 1/2-1/2\n",
		},
		{
			name: "CRLF line break",
			opts: Options{NoFritz9: true, FinalFEN: true},
			in:   "[Event \"x\"]\r\n\r\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Ruy Lopez} 1/2-1/2\r\n",
			want: "[Event \"x\"]\r\n[Chess960 \"518\"]\r\n\r\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Ruy Lopez}\r\n{ \"r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4\" } 1/2-1/2\r\n",
		},
		{
			name: "earlier comment replaced, marker on its own line",
			opts: Options{NoFritz9: true, FinalFEN: true},
			in:   "[Event \"x\"]\n\n1. e4 e5\n{ \"8/8/8/8/8/8/8/K6k w - - 0 1\" }\n*\n",
			want: "[Event \"x\"]\n[Chess960 \"518\"]\n\n1. e4 e5 { \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\" } *\n",
		},
		{
			name: "other comments stay",
			opts: Options{NoFritz9: true, FinalFEN: true},
			in:   "[Event \"x\"]\n\n1. e4 {\"not a FEN\"} *\n",
			want: "[Event \"x\"]\n[Chess960 \"518\"]\n\n1. e4 {\"not a FEN\"}\n{ \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\" } *\n",
		},
		{
			name: "comment after the marker stays after it",
			opts: Options{NoFritz9: true, FinalFEN: true},
			in:   "[Event \"x\"]\n\n1. e4 1-0 {White resigns? no, Black}\n",
			want: "[Event \"x\"]\n[Chess960 \"518\"]\n\n1. e4 { \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\" } 1-0 {White resigns? no, Black}\n",
		},
		{
			name:     "no marker: comment after the last move",
			opts:     Options{NoFritz9: true, FinalFEN: true},
			in:       "[Event \"x\"]\n\n1. d4 d5\n\n",
			want:     "[Event \"x\"]\n[Chess960 \"518\"]\n\n1. d4 d5 { \"rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2\" }\n\n",
			warnings: []string{"in.pgn:3: game has no result (truncated?)"},
		},
		{
			name: "no moves: the start position",
			opts: both,
			in:   "[Event \"x\"]\n" + frc + "\n*\n",
			want: "[Event \"x\"]\n" + frc + "[Chess960 \"0\"]\n[PlyCount \"0\"]\n\n{ \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\" } *\n",
		},
		{
			name: "Shredder-FEN tag gives Shredder-FEN",
			opts: Options{NoFritz9: true, FinalFEN: true},
			in:   "[Event \"x\"]\n" + frc + "\n1. g3 g6 2. Ng2 Ng7 *\n",
			want: "[Event \"x\"]\n" + frc + "[Chess960 \"0\"]\n\n1. g3 g6 2. Ng2 Ng7\n{ \"bbqn1rkr/ppppppnp/6p1/8/8/6P1/PPPPPPNP/BBQN1RKR w HFhf - 2 3\" } *\n",
		},
		{
			name: "--castling xfen wins over the tag",
			opts: Options{NoFritz9: true, FinalFEN: true, Castling: &xfen},
			in:   "[Event \"x\"]\n" + frc + "\n1. g3 g6 2. Ng2 Ng7 *\n",
			want: "[Event \"x\"]\n" + `[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"]` + "\n[Chess960 \"0\"]\n\n1. g3 g6 2. Ng2 Ng7\n{ \"bbqn1rkr/ppppppnp/6p1/8/8/6P1/PPPPPPNP/BBQN1RKR w KQkq - 2 3\" } *\n",
		},
		{
			name: "--castling shredder on a standard game",
			opts: Options{NoFritz9: true, FinalFEN: true, Castling: &shredder},
			in:   "[Event \"x\"]\n\n1. e4 *\n",
			want: "[Event \"x\"]\n[Chess960 \"518\"]\n\n1. e4 { \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1\" } *\n",
		},
		{
			name: "Chess960 castling replayed",
			opts: both,
			in:   "[Event \"x\"]\n" + frc + "\n1. f4 f5 2. Rf3 Rf6 3. O-O O-O *\n",
			want: "[Event \"x\"]\n" + frc + "[Chess960 \"0\"]\n[PlyCount \"6\"]\n\n1. f4 f5 2. Rf3 Rf6 3. O-O O-O\n{ \"bbqnnrk1/ppppp1pp/5r2/5p2/5P2/5R2/PPPPP1PP/BBQNNRK1 w - - 4 4\" } *\n",
		},
		{
			name:     "illegal move: game unchanged but for the number tag",
			opts:     both,
			in:       "[Event \"x\"]\n[PlyCount \"9\"]\n\n1. e4 e5 2. Ke3 { \"8/8/8/8/8/8/8/K6k w - - 0 1\" } *\n",
			want:     "[Event \"x\"]\n[PlyCount \"9\"]\n[Chess960 \"518\"]\n\n1. e4 e5 2. Ke3 { \"8/8/8/8/8/8/8/K6k w - - 0 1\" } *\n",
			warnings: []string{"in.pgn:4: game 1 (? - ?), move 2.: illegal move 'Ke3': no king can move to e3"},
		},
		{
			name:     "unterminated comment: not replayed",
			opts:     both,
			in:       "[Event \"x\"]\n\n1. e4 e5 {truncated here",
			want:     "[Event \"x\"]\n[Chess960 \"518\"]\n\n1. e4 e5 {truncated here",
			warnings: []string{"in.pgn:3: unterminated comment: '{' never closed before the end of the input"},
		},
		{
			name: "unknown start: not replayed",
			opts: both,
			in:   "[Event \"x\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\n1. e4 *\n",
			want: "[Event \"x\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\n1. e4 *\n",
			// The same warning as without a replay: the start tags'.
			warnings: []string{`in.pgn:3: start position unknown: [SetUp "1"] without a FEN tag`},
		},
	}
	manyTags := "[Chess960 \"1\"]\n" + strings.Repeat("[Tag \"x\"]\n", pgn.MaxTags) + "\n1. e4 *\n"
	tests = append(tests, struct {
		name     string
		opts     Options
		in, want string
		warnings []string
	}{
		name:     "more tags than a game holds: passed through",
		opts:     both,
		in:       manyTags,
		want:     manyTags,
		warnings: []string{fmt.Sprintf("in.pgn:%d: game too large: over %d tags; the game is passed through unexamined", pgn.MaxTags+1, pgn.MaxTags)},
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, warnings := annotateBytes(t, []byte(tt.in), tt.opts, 1)
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
			if fmt.Sprint(warnings) != fmt.Sprint(tt.warnings) {
				t.Errorf("warnings %q, want %q", warnings, tt.warnings)
			}
			again, _, _ := annotateBytes(t, out, tt.opts, 1)
			if !bytes.Equal(again, out) {
				t.Errorf("a second run changed the output:\n%s", again)
			}
		})
	}
}

// TestPlyCountAgreesWithArchives: the PlyCount tags that the real archives'
// own software wrote are an independent count; the replay must agree with
// every one and leave those tags byte for byte as they were.
func TestPlyCountAgreesWithArchives(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedtest.Path(t, "realdata"), "*", "*.pgn"))
	if len(files) == 0 {
		t.Fatal("no PGN files in ../shared/realdata")
	}
	checked, games := 0, 0
	for _, file := range files {
		in, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out, sum, warnings := annotateBytes(t, in, Options{PlyCount: true, FinalFEN: true}, 2)
		if len(warnings) > 0 {
			t.Errorf("%s: %q", filepath.Base(file), warnings)
		}
		if sum.Replayed != sum.Games {
			t.Errorf("%s: %d of %d games replayed", filepath.Base(file), sum.Replayed, sum.Games)
		}
		before, after := splitGames(t, in), splitGames(t, out)
		if len(before) != len(after) {
			t.Fatalf("%s: %d games in, %d out", filepath.Base(file), len(before), len(after))
		}
		games += len(before)
		for i := range before {
			want, had := before[i].Tag("PlyCount")
			got, ok := after[i].Tag("PlyCount")
			if counts := startpos.Classify(&before[i]).Counted && before[i].HasTagSection(); counts && !ok {
				t.Errorf("%s game %d: no PlyCount written", filepath.Base(file), i+1)
			}
			if had {
				checked++
				if string(got) != string(want) {
					t.Errorf("%s game %d: PlyCount %s, the archive says %s", filepath.Base(file), i+1, got, want)
				}
			}
			if startpos.Classify(&after[i]).Counted && after[i].HasTagSection() && !finalComment.Match(after[i].Movetext()) {
				t.Errorf("%s game %d: no final-position comment", filepath.Base(file), i+1)
			}
		}
		again, _, _ := annotateBytes(t, out, Options{PlyCount: true, FinalFEN: true}, 1)
		if !bytes.Equal(again, out) {
			t.Errorf("%s: a second run changed the output", filepath.Base(file))
		}
	}
	t.Logf("%d games, %d PlyCount tags of the archives agree with the replay", games, checked)
	if games == 0 {
		t.Error("no game was read from the archives")
	}
	if checked == 0 {
		t.Error("no archive has a PlyCount tag to compare with")
	}
}

var finalComment = regexp.MustCompile(`\{ "[^"]+ [wb] [^"]+" \}\s*(1-0|0-1|1/2-1/2|\*)?\s*(\{[^}]*\}\s*)*$`)

// splitGames reads every game of data.
func splitGames(t *testing.T, data []byte) []pgn.Game {
	t.Helper()
	games, err := pgn.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return games
}
