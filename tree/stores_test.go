package tree

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// TestStoresAddUp builds the same forest with its trees in one store and
// in several, added to by one goroutine and by a goroutine per store,
// with and without pruning: every build must write the same rows and
// summary. Pruning is the part at risk: it must drop the same positions
// whichever store holds them and however far each store's goroutine has
// got.
func TestStoresAddUp(t *testing.T) {
	gen := archivegen.Bytes(archivegen.Options{Seed: 11, Shape: archivegen.Lichess}, 1<<20)
	// Half the games again, so that moves are played by one game and by
	// two, and leaves of both are pruned; then games without moves,
	// which count at the roots alone.
	data := append(append([]byte{}, gen...), gen[:len(gen)/2]...)
	data = append(data, archivegen.Bytes(archivegen.Options{Seed: 12, Shape: archivegen.Headers}, 64<<10)...)
	full := buildIn(t, data, Options{}, 1, 1)
	bounds := []struct {
		name string
		max  int
	}{
		{"no bound", 0},
		{"a third", full.Len() / 3},
		{"a tenth", full.Len() / 10},
		{"below the roots", 40},
	}
	for _, b := range bounds {
		t.Run(b.name, func(t *testing.T) {
			opts := Options{MaxNodes: b.max}
			want := render(t, buildIn(t, data, opts, 1, 1))
			for _, c := range []struct{ jobs, stores int }{{1, 3}, {2, 1}, {2, 2}, {3, 3}, {2, 5}} {
				got := render(t, buildIn(t, data, opts, c.jobs, c.stores))
				if got != want {
					t.Errorf("%d jobs, %d stores: the forest differs from one store's:\n%s", c.jobs, c.stores, firstDiff(got, want))
				}
			}
		})
	}
}

// buildIn builds a forest of the games of data with its trees in the
// given number of stores.
func buildIn(t *testing.T, data []byte, opts Options, jobs, stores int) *Forest {
	t.Helper()
	f, err := NewForest(opts)
	if err != nil {
		t.Fatal(err)
	}
	f.stores = f.stores[:0]
	for range stores {
		f.stores = append(f.stores, newStore())
	}
	if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), f, pipeline.Options{Jobs: jobs}); err != nil {
		t.Fatal(err)
	}
	// Roots are never pruned: a bound below them leaves only them.
	if opts.MaxNodes > 0 && f.Len() > max(opts.MaxNodes, len(f.trees)) {
		t.Errorf("%d positions past the bound of %d", f.Len(), opts.MaxNodes)
	}
	return f
}

// render returns the forest's summary, rows and JSON document, which
// has every position's counts (the rows have the moves').
func render(t *testing.T, f *Forest) string {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n", f)
	if err := f.WriteCSV(&b, WalkOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteJSON(&b, WalkOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func firstDiff(got, want string) string {
	gl, wl := bytes.Split([]byte(got), []byte("\n")), bytes.Split([]byte(want), []byte("\n"))
	for i := range min(len(gl), len(wl)) {
		if !bytes.Equal(gl[i], wl[i]) {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(gl), len(wl))
}

// TestRunAllocatesNothingPerGame holds adding a game to no allocation
// once its positions are in the tree: Run over the same games repeated
// four times as often allocates about as much (the readers' batches
// aside), whether one goroutine adds the lines or the stores' own do.
func TestRunAllocatesNothingPerGame(t *testing.T) {
	game := "[Event \"?\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n[Result \"1-0\"]\n\n" +
		"1. e4 e5 2. Nf3 Nf6 3. Nc3 Nc6 4. g3 g6 5. d4 d5 6. b3 b6 7. a4 a5 1-0\n\n"
	allocs := func(games, jobs int) float64 {
		data := []byte(strings.Repeat(game, games))
		return testing.AllocsPerRun(1, func() {
			f, err := NewForest(Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), f, pipeline.Options{Jobs: jobs}); err != nil {
				t.Fatal(err)
			}
		})
	}
	const few, many = 16000, 64000
	for _, jobs := range []int{1, 2} {
		t.Run(fmt.Sprintf("jobs=%d", jobs), func(t *testing.T) {
			a, b := allocs(few, jobs), allocs(many, jobs)
			if perGame := (b - a) / (many - few); perGame > 0.02 {
				t.Errorf("%.0f allocations for %d games, %.0f for %d: %.3f a game more, want none", a, few, b, many, perGame)
			}
		})
	}
}

// TestRunSmallInputMemory: a run over one short game, as for each file of
// a folder of single-game files, allocates a few KB beside the forest's
// own, not a batch of 128 lines for every store (74 KB a run before).
func TestRunSmallInputMemory(t *testing.T) {
	const game = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n"
	const most = 40 << 10
	f, err := NewForest(Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := func() {
		if err := Run(context.Background(), pgn.NewReader(strings.NewReader(game)), f, pipeline.Options{Jobs: 2}); err != nil {
			t.Fatal(err)
		}
	}
	run() // the forest's tree and positions are made now
	const runs = 50
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		run()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > most {
		t.Errorf("%d bytes allocated a run, want at most %d", per, most)
	}
}
