package selector

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/klauspost/compress/gzip"

	"github.com/frctool/frctool/fen"
	"github.com/frctool/frctool/internal/stream"
	"github.com/frctool/frctool/numbering"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
	"github.com/frctool/frctool/startpos"
)

// split runs a Splitter over the inputs, with chunk and budget small
// when tiny is set so that files are written and reopened many times.
func split(t *testing.T, opts SplitOptions, tiny bool, maxGame int, inputs ...[]byte) *Splitter {
	t.Helper()
	s, err := NewSplitter(opts)
	if err != nil {
		t.Fatal(err)
	}
	if tiny {
		s.chunk, s.budget = 1<<10, 8<<10
	}
	for _, in := range inputs {
		if err := s.Run(context.Background(), newReader(in, maxGame), pipeline.Options{Jobs: 3}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return s
}

// readDir returns the contents of the files in dir, decompressed where
// their names ask split to compress them. A plain file is read as it is:
// its bytes are any input's, and stream.Open would take one that begins
// as gzip for gzip, or refuse one that begins as UTF-16.
func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := make(map[string][]byte, len(entries))
	for _, e := range entries {
		name := filepath.Join(dir, e.Name())
		if stream.ByExtension(name) == stream.None {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = b
			continue
		}
		in, err := stream.Open(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(in)
		in.Close()
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		files[e.Name()] = b
	}
	return files
}

// checkFileClasses checks that every game in each file belongs there.
func checkFileClasses(t *testing.T, s *Splitter, files map[string][]byte) {
	t.Helper()
	classOf := make(map[string]int, Classes)
	for c := 0; c < Classes; c++ {
		classOf[s.FileName(c)] = c
	}
	for name, b := range files {
		want, ok := classOf[name]
		if !ok {
			t.Errorf("unexpected file %s", name)
			continue
		}
		r := pgn.NewReader(bytes.NewReader(b))
		for {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			cl := startpos.Classify(g)
			if c := Class(&cl); c != Follow && c != want {
				t.Errorf("%s holds a game of class %d at line %d", name, c, g.Line)
			}
		}
	}
}

// TestSplitEveryFile: the split files of every testdata and real-world
// file hold every input game exactly once, each in the file of its class,
// in input order; also with files reopened many times, and with games cut
// into parts.
func TestSplitEveryFile(t *testing.T) {
	for _, file := range inputFiles(t) {
		input, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			by      numbering.Scheme
			tiny    bool
			maxGame int
		}{{numbering.Scharnagl, false, 0}, {numbering.Fritz9, true, 0}, {numbering.Scharnagl, true, 4096}} {
			dir := t.TempDir()
			s := split(t, SplitOptions{Dir: dir, By: tc.by, MaxOpen: 3}, tc.tiny, tc.maxGame, input)
			files := readDir(t, dir)
			t.Run(filepath.Base(file), func(t *testing.T) {
				checkMerge(t, input, files)
				checkFileClasses(t, s, files)
				if s.Files() != len(files) {
					t.Errorf("Files() = %d, the directory holds %d", s.Files(), len(files))
				}
			})
			if t.Failed() {
				t.Fatalf("%s, %+v", file, tc)
			}
		}
	}
}

// all960 returns a PGN file with one game from each start position, in
// order of Scharnagl numbers, written with fen.StartFEN, and at the end a
// second SP 518 game with no FEN tag.
func all960(t testing.TB) []byte {
	var b bytes.Buffer
	for sp := 0; sp < numbering.Count; sp++ {
		r, err := numbering.FromSP(sp)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "[Event \"SP %d\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n[Result \"*\"]\n\n1. a3 *\n\n", sp, fen.StartFEN(r, fen.Shredder))
	}
	b.WriteString("[Event \"standard, no FEN\"]\n[Result \"*\"]\n\n*\n")
	return b.Bytes()
}

// check960 checks the files of all960 split by the scheme.
func check960(t *testing.T, dir string, by numbering.Scheme, input []byte) {
	t.Helper()
	files := readDir(t, dir)
	if len(files) != numbering.Count {
		t.Fatalf("%d files, want %d", len(files), numbering.Count)
	}
	for sp := 0; sp < numbering.Count; sp++ {
		name := fmt.Sprintf("sp-%03d.pgn", sp)
		if by == numbering.Fritz9 {
			f, _ := numbering.SPToFritz9(sp)
			name = fmt.Sprintf("fritz9-%03d.pgn", f)
		}
		b, ok := files[name]
		if !ok {
			t.Fatalf("no file %s", name)
		}
		evs := events(t, b)
		want := []string{fmt.Sprintf("SP %d", sp)}
		if sp == numbering.StandardSP {
			want = append(want, "standard, no FEN")
		}
		if strings.Join(evs, "|") != strings.Join(want, "|") {
			t.Errorf("%s holds %q, want %q", name, evs, want)
		}
	}
	checkMerge(t, input, files)
}

func TestSplit960(t *testing.T) {
	input := all960(t)
	for _, by := range []numbering.Scheme{numbering.Scharnagl, numbering.Fritz9} {
		// Writing in tiny chunks reopens files thousands of times: once
		// is enough.
		for _, tiny := range []bool{by == numbering.Fritz9} {
			dir := t.TempDir()
			s := split(t, SplitOptions{Dir: dir, By: by, MaxOpen: 5}, tiny, 0, input)
			check960(t, dir, by, input)
			if s.Files() != numbering.Count || s.Summary().Games != numbering.Count+1 || s.Summary().Selected != numbering.Count+1 {
				t.Errorf("%d files, %d games, %d with a number", s.Files(), s.Summary().Games, s.Summary().Selected)
			}
		}
	}
}

// namesFlag reports whether an error names a command-line flag, which is
// the command's business.
func namesFlag(err error) bool {
	return strings.Contains(err.Error(), "--") || strings.Contains(err.Error(), " -o")
}

func TestSplitRefusesNonEmptyDir(t *testing.T) {
	input := all960(t)[:2000]
	dir := t.TempDir()
	split(t, SplitOptions{Dir: dir}, false, 0, input)
	first := readDir(t, dir)
	if _, err := NewSplitter(SplitOptions{Dir: dir}); !errors.Is(err, ErrNotEmpty) || namesFlag(err) {
		t.Fatalf("second run into %s: error %v, want ErrNotEmpty without flag names", dir, err)
	}
	// Any file counts, not only split's own.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSplitter(SplitOptions{Dir: other}); !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("run into a directory with a file: error %v", err)
	}
	// With Append, the files grow by the same games, in order.
	split(t, SplitOptions{Dir: dir, Append: true}, true, 0, input)
	second := readDir(t, dir)
	if len(second) != len(first) {
		t.Fatalf("--append: %d files, want %d", len(second), len(first))
	}
	for name, b := range first {
		if want := string(b) + string(b); string(second[name]) != want {
			t.Errorf("%s after --append:\n%q\nwant\n%q", name, second[name], want)
		}
	}
	// A missing directory is created, nested too.
	nested := filepath.Join(t.TempDir(), "a", "b")
	split(t, SplitOptions{Dir: nested}, false, 0, input)
	if len(readDir(t, nested)) == 0 {
		t.Error("nothing written into a new directory")
	}
}

// TestSplitCompressed: with files reopened many times, the compressed
// files hold the same bytes as the plain ones, as one stream of members
// (gzip) or frames (zstd).
func TestSplitCompressed(t *testing.T) {
	// The first 40 positions, three times over.
	first := all960(t)
	first = first[:bytes.Index(first, []byte("[Event \"SP 40\"]"))]
	input := bytes.Repeat(first, 3)
	plainDir := t.TempDir()
	split(t, SplitOptions{Dir: plainDir, MaxOpen: 3}, true, 0, input)
	plain := readDir(t, plainDir)
	for _, ext := range []string{".gz", ".zst"} {
		dir := t.TempDir()
		split(t, SplitOptions{Dir: dir, Pattern: "sp-%03d.pgn" + ext, MaxOpen: 3}, true, 0, input)
		got := readDir(t, dir)
		if len(got) != len(plain) {
			t.Fatalf("%s: %d files, want %d", ext, len(got), len(plain))
		}
		for name, b := range plain {
			if !bytes.Equal(got[name+ext], b) {
				t.Errorf("%s%s differs from the plain file", name, ext)
			}
		}
	}
}

func TestSplitPattern(t *testing.T) {
	for _, tc := range []struct {
		opts SplitOptions
		err  string // "" for a good pattern
		name string // the file name of SP 518, for a good one
	}{
		{opts: SplitOptions{}, name: "sp-518.pgn"},
		{opts: SplitOptions{By: numbering.Fritz9}, name: "fritz9-359.pgn"},
		{opts: SplitOptions{Pattern: "%d.pgn"}, name: "518.pgn"},
		{opts: SplitOptions{Pattern: "SP%04d.pgn.zst"}, name: "SP0518.pgn.zst"},
		{opts: SplitOptions{Pattern: "100%%-%d.pgn"}, name: "100%-518.pgn"},
		{opts: SplitOptions{Pattern: "games.pgn"}, err: "want exactly one integer verb"},
		{opts: SplitOptions{Pattern: "%d-%d.pgn"}, err: "want exactly one integer verb"},
		{opts: SplitOptions{Pattern: "%s.pgn"}, err: "want exactly one integer verb"},
		{opts: SplitOptions{Pattern: "dfrc%.0d.pgn"}, err: "twice"},
		{opts: SplitOptions{Pattern: "x/%d.pgn"}, err: "not a path"},
		{opts: SplitOptions{Pattern: "%d.pgn.bz2"}, err: "bzip2 output is not offered"},
	} {
		tc.opts.Dir = t.TempDir()
		s, err := NewSplitter(tc.opts)
		if tc.err != "" {
			if err == nil || !errors.Is(err, ErrPattern) || !strings.Contains(err.Error(), tc.err) || namesFlag(err) {
				t.Errorf("%q: error %v, want ErrPattern with %q and no flag names", tc.opts.Pattern, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.opts.Pattern, err)
			continue
		}
		if got := s.FileName(518); got != tc.name {
			t.Errorf("%q: SP 518 goes to %q, want %q", tc.opts.Pattern, got, tc.name)
		}
	}
	s, _ := NewSplitter(SplitOptions{Dir: t.TempDir(), Pattern: "f%d.pgn.gz"})
	if s.FileName(DFRC) != "dfrc.pgn.gz" || s.FileName(Other) != "other.pgn.gz" {
		t.Errorf("compressed pattern: %s, %s", s.FileName(DFRC), s.FileName(Other))
	}
}

// TestSplitBlankOnly: an input with no game leaves its bytes in other.pgn.
func TestSplitBlankOnly(t *testing.T) {
	dir := t.TempDir()
	split(t, SplitOptions{Dir: dir}, false, 0, []byte("\n\n"))
	if files := readDir(t, dir); len(files) != 1 || string(files[OtherFile]) != "\n\n" {
		t.Errorf("files %q", files)
	}
}

// check960Twice checks the files of all960 split twice in one run.
func check960Twice(t *testing.T, dir string, input []byte) {
	t.Helper()
	files := readDir(t, dir)
	if len(files) != numbering.Count {
		t.Fatalf("%d files, want %d", len(files), numbering.Count)
	}
	for sp := 0; sp < numbering.Count; sp++ {
		want := fmt.Sprintf("SP %d|SP %d", sp, sp)
		if sp == numbering.StandardSP {
			want = "SP 518|standard, no FEN|SP 518|standard, no FEN"
		}
		name := fmt.Sprintf("sp-%03d.pgn", sp)
		if got := strings.Join(events(t, files[name]), "|"); got != want {
			t.Errorf("%s holds %q, want %q", name, got, want)
		}
	}
	checkMerge(t, append(append([]byte{}, input...), input...), files)
}

// truncatedGzip returns the gzip of input cut so that reading it gives
// input[:cut] and then an error.
func truncatedGzip(t *testing.T, input []byte, cut int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(input[:cut]); err != nil {
		t.Fatal(err)
	}
	if err := zw.Flush(); err != nil {
		t.Fatal(err)
	}
	n := b.Len()
	if _, err := zw.Write(input[cut:]); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()[:n]
}

// TestSplitCutShort: when the input fails, the whole games before the
// failure go to their files, and the last game, which ends where the
// reading stopped, goes to the file of incomplete games with a warning
// naming the file, its line and where its bytes are.
func TestSplitCutShort(t *testing.T) {
	all := all960(t)
	sp5 := bytes.Index(all, []byte("[Event \"SP 5\"]"))
	sp6 := bytes.Index(all, []byte("[Event \"SP 6\"]"))
	input := all[:sp6]
	for _, tc := range []struct {
		name       string
		ext        string
		cut        int
		whole      int    // games in their files
		incomplete string // bytes in the file of incomplete games
		line       int    // the line of the warning
	}{
		{"mid-game", "", sp5 + 40, 5, string(input[sp5 : sp5+40]), 1 + bytes.Count(input[:sp5], []byte("\n"))},
		{"mid-game, gzip output", ".gz", sp5 + 100, 5, string(input[sp5 : sp5+100]), 1 + bytes.Count(input[:sp5], []byte("\n"))},
		{"in the first game", "", 10, 0, string(input[:10]), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			zr, err := gzip.NewReader(bytes.NewReader(truncatedGzip(t, input, tc.cut)))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			s, err := NewSplitter(SplitOptions{Dir: dir, Pattern: "sp-%03d.pgn" + tc.ext})
			if err != nil {
				t.Fatal(err)
			}
			r := pgn.NewReader(zr)
			r.Name = "games.pgn.gz"
			var warnings []*pgn.ParseError
			reported := 0
			err = s.Run(context.Background(), r, pipeline.Options{Jobs: 2, Warn: func(e *pgn.ParseError) {
				reported++
				if errors.Is(e, ErrCutShort) {
					warnings = append(warnings, e)
				}
			}})
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("Run: %v, want io.ErrUnexpectedEOF", err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			files := readDir(t, dir)
			if len(files) != tc.whole+1 || s.Files() != len(files) {
				t.Errorf("%d files, Files() = %d, want %d", len(files), s.Files(), tc.whole+1)
			}
			for sp := 0; sp < tc.whole; sp++ {
				name := fmt.Sprintf("sp-%03d.pgn%s", sp, tc.ext)
				if got, want := strings.Join(events(t, files[name]), "|"), fmt.Sprintf("SP %d", sp); got != want {
					t.Errorf("%s holds %q, want %q", name, got, want)
				}
			}
			inc := IncompleteFile + tc.ext
			if got := string(files[inc]); got != tc.incomplete {
				t.Errorf("%s holds %q, want %q", inc, got, tc.incomplete)
			}
			want := fmt.Sprintf("games.pgn.gz:%d: game cut short by a read error; its bytes are in %s", tc.line, filepath.Join(dir, inc))
			if len(warnings) != 1 || warnings[0].Error() != want {
				t.Errorf("warnings %q, want one: %q", warnings, want)
			}
			// The cut game's own problems (no result, a broken tag) come
			// too, and every warning is counted.
			if w := s.Summary().Warnings; w != int64(reported) {
				t.Errorf("Summary().Warnings = %d, %d reported", w, reported)
			}
		})
	}
}

func TestOpenBounds(t *testing.T) {
	for _, tc := range []struct {
		name           string
		maxOpen        int
		limit          uint64
		open, creators int
	}{
		{"unknown limit", 64, 0, 64, 8},
		{"limit of 256", 64, 256, 64, 8},
		{"limit just enough", 64, 64 + 8 + openReserve, 64, 8},
		{"limit of 60", 64, 60, 40, 8},
		{"limit of 20", 64, 20, 6, 2},
		{"limit of 20, fewer asked", 3, 20, 3, 2},
		{"limit below the reserve", 64, 5, 1, 1},
	} {
		open, creators := openBounds(tc.maxOpen, tc.limit)
		if open != tc.open || creators != tc.creators {
			t.Errorf("%s: openBounds(%d, %d) = %d, %d; want %d, %d", tc.name, tc.maxOpen, tc.limit, open, creators, tc.open, tc.creators)
		}
	}
}

// TestSplitKeepsBuffersWithinBudget adds games to every file in turn and
// checks the memory the buffers hold: flushAll keeps buffers for the next
// games, but no more than the budget of them, however many files there
// are.
func TestSplitKeepsBuffersWithinBudget(t *testing.T) {
	s, err := NewSplitter(SplitOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	s.chunk, s.budget = 1<<10, 8<<10
	game := []byte("[Event \"x\"]\n[Result \"*\"]\n\n" + strings.Repeat("1. e4 e5 ", 30) + "*\n\n")
	most, kept := 0, 0
	for i := range 20 * Classes {
		if err := s.add(i%Classes, game); err != nil {
			t.Fatal(err)
		}
		held, empty := 0, 0
		for _, b := range s.bufs {
			held += cap(b)
			if len(b) == 0 && cap(b) > 0 {
				empty++
			}
		}
		most, kept = max(most, held), max(kept, empty)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Kept buffers, at most the budget, and the ones filled since, at
	// most twice what they hold, which is at most the budget and a game.
	if bound := s.budget + 2*(s.budget+len(game)); most > bound {
		t.Errorf("the buffers held %d bytes at most, want at most %d", most, bound)
	}
	if kept == 0 {
		t.Error("no buffer was kept for the next games")
	}
}

// snapshot returns the bytes of every file in dir, or nil when dir does
// not exist.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	files := make(map[string]string, len(entries))
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	return files
}

// TestSplitAbort checks that Abort puts the directory back as it was
// before the run: written files cut back to their earlier bytes, created
// ones removed, and a directory the run made removed; plain and
// compressed, with files reopened many times, and with a game cut short.
func TestSplitAbort(t *testing.T) {
	all := all960(t)
	first := all[:bytes.Index(all, []byte("[Event \"SP 40\"]"))]
	sp5 := bytes.Index(all, []byte("[Event \"SP 5\"]"))
	for _, tt := range []struct {
		name    string
		ext     string
		earlier bool // the directory holds an earlier split, and --append
		cut     bool // the input ends inside a game
	}{
		{"new directory", "", false, false},
		{"new directory, zstd", ".zst", false, false},
		{"appending", "", true, false},
		{"appending, gzip", ".gz", true, false},
		{"appending, a game cut short", "", true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out", "by-sp")
			opts := SplitOptions{Dir: dir, Pattern: "sp-%03d.pgn" + tt.ext, MaxOpen: 3}
			if tt.earlier {
				split(t, opts, true, 0, first[:sp5])
				opts.Append = true
			}
			want := snapshot(t, dir)
			s, err := NewSplitter(opts)
			if err != nil {
				t.Fatal(err)
			}
			s.chunk, s.budget = 1<<10, 8<<10
			var r *pgn.Reader
			if tt.cut {
				zr, err := gzip.NewReader(bytes.NewReader(truncatedGzip(t, all, sp5+40)))
				if err != nil {
					t.Fatal(err)
				}
				r = pgn.NewReader(zr)
			} else {
				r = newReader(bytes.Repeat(first, 3), 0)
			}
			s.Run(context.Background(), r, pipeline.Options{Jobs: 2})
			if len(snapshot(t, dir)) == 0 {
				t.Fatal("the run wrote nothing to abort")
			}
			if err := s.Abort(); err != nil {
				t.Fatal(err)
			}
			got := snapshot(t, dir)
			if len(got) != len(want) || want == nil && got != nil {
				t.Fatalf("%d files after Abort, want %d (directory there: %v, want %v)", len(got), len(want), got != nil, want != nil)
			}
			for name, b := range want {
				if got[name] != b {
					t.Errorf("%s: %d bytes after Abort, want its %d bytes before", name, len(got[name]), len(b))
				}
			}
			// The directories the run made are gone, those it found stay.
			_, err = os.Stat(filepath.Dir(dir))
			if tt.earlier != (err == nil) {
				t.Errorf("the directory above: %v, want it there %v", err, tt.earlier)
			}
			if _, err := os.Stat(filepath.Dir(filepath.Dir(dir))); err != nil {
				t.Errorf("the test's own directory: %v", err)
			}
		})
	}
}

// TestSplitEnd checks End's choice: a run that read its inputs to the end,
// or stopped at an input it could not read, keeps its files; one stopped
// by its context is put back, with a *RollbackError.
func TestSplitEnd(t *testing.T) {
	all := all960(t)
	readErr := errors.New("input: read error")
	for _, tt := range []struct {
		name     string
		err      error // what the reading stopped with
		kept     bool  // the files written stay
		rollback bool
	}{
		{"read to the end", nil, true, false},
		{"an input not read to its end", readErr, true, false},
		{"interrupted", context.Canceled, false, true},
		{"interrupted, wrapped", fmt.Errorf("reading: %w", context.Canceled), false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			s, err := NewSplitter(SplitOptions{Dir: dir, Pattern: "sp-%03d.pgn"})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Run(context.Background(), newReader(all, 0), pipeline.Options{Jobs: 2}); err != nil {
				t.Fatal(err)
			}
			err = s.End(tt.err)
			var rb *RollbackError
			if errors.As(err, &rb) != tt.rollback {
				t.Fatalf("End(%v) = %v; want a RollbackError: %v", tt.err, err, tt.rollback)
			}
			if tt.rollback {
				if !errors.Is(err, tt.err) || rb.Restore != nil || rb.Dir != dir {
					t.Errorf("End(%v) = %#v", tt.err, rb)
				}
				if want := tt.err.Error() + "; " + dir + " left as it was"; err.Error() != want {
					t.Errorf("message %q, want %q", err, want)
				}
			} else if err != tt.err {
				t.Errorf("End(%v) = %v, want it back", tt.err, err)
			}
			files := snapshot(t, dir)
			if tt.kept != (len(files) == 960) || !tt.kept && files != nil {
				t.Errorf("%d files after End (directory there: %v); want all 960 kept: %v", len(files), files != nil, tt.kept)
			}
		})
	}
}

// TestFileError: a file's error names the file once, whether the system
// named it already or not, and errors.Is still finds the cause.
func TestFileError(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"named by the system", &fs.PathError{Op: "write", Path: "sp-114.pgn", Err: syscall.ENOSPC}, "write sp-114.pgn: no space left on device"},
		{"another file named", &fs.PathError{Op: "write", Path: "tmp", Err: syscall.ENOSPC}, "sp-114.pgn: write tmp: no space left on device"},
		{"not named", fmt.Errorf("zstd: %w", syscall.ENOSPC), "sp-114.pgn: zstd: no space left on device"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := fileError("sp-114.pgn", tc.err)
			if err.Error() != tc.want || !errors.Is(err, syscall.ENOSPC) {
				t.Errorf("fileError = %v, want %q, which errors.Is takes for ENOSPC", err, tc.want)
			}
		})
	}
}
