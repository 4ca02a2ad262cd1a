package pgn

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// liveFeed is a source that writes its chunks with pauses between some,
// as a live feed does: a Read takes the next chunk, and Idle reports a
// pause when one comes next, and takes it.
type liveFeed struct {
	events []string // chunks, and "" for a pause
	pauses int      // pauses Idle reported
}

func (f *liveFeed) Read(p []byte) (int, error) {
	for len(f.events) > 0 && f.events[0] == "" {
		f.events = f.events[1:] // a pause nobody asked about: waited through
	}
	if len(f.events) == 0 {
		return 0, io.EOF
	}
	n := copy(p, f.events[0])
	if f.events[0] = f.events[0][n:]; f.events[0] == "" {
		f.events = f.events[1:]
	}
	return n, nil
}

func (f *liveFeed) Idle(time.Duration) bool {
	if len(f.events) > 0 && f.events[0] == "" {
		f.events = f.events[1:]
		f.pauses++
		return true
	}
	return false
}

// TestIdleHandsOutWholeGames: when the input pauses, ReadPart and ReadBatch
// hand out the games they hold whole, each once the next one has begun,
// instead of waiting to fill the batch; the games are Next's, byte for
// byte.
func TestIdleHandsOutWholeGames(t *testing.T) {
	game := func(n int) string {
		return "[Event \"" + strings.Repeat("g", n) + "\"]\n[Result \"*\"]\n\n1. e4 *\n\n"
	}
	g1, g2, g3 := game(1), game(2), game(3)
	events := []string{g1 + g2, "", g3, "", "\n"}
	want := []string{g1, g2, g3 + "\n"}
	// What each batch should hold: the games whole at each pause.
	wantBatches := [][]string{{g1}, {g2}, {g3 + "\n"}}
	wantIdle := []bool{true, true, false}

	type reading struct {
		name string
		read func(r *Reader, b *Batch) error
	}
	for _, rd := range []reading{
		{"ReadPart", func(r *Reader, b *Batch) error {
			if err := r.ReadPart(b, 1<<20); err != nil {
				return err
			}
			if _, complete := b.ScanPart(); !complete {
				t.Fatal("a part's cut was not confirmed")
			}
			b.Build()
			return nil
		}},
		{"ReadBatch", func(r *Reader, b *Batch) error { return r.ReadBatch(b, 1<<20) }},
	} {
		t.Run(rd.name, func(t *testing.T) {
			feed := &liveFeed{events: append([]string(nil), events...)}
			r := NewReader(feed)
			var all []string
			for i := 0; ; i++ {
				var b Batch
				err := rd.read(r, &b)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, g := range b.Games {
					got = append(got, string(g.Raw))
				}
				all = append(all, got...)
				if i >= len(wantBatches) || strings.Join(got, "|") != strings.Join(wantBatches[i], "|") || b.Idle() != wantIdle[i] {
					t.Errorf("batch %d: %q, idle %v; want %q, idle %v", i, got, b.Idle(), wantBatches[min(i, len(wantBatches)-1)], wantIdle[min(i, len(wantIdle)-1)])
				}
			}
			if strings.Join(all, "|") != strings.Join(want, "|") {
				t.Errorf("games %q, want %q", all, want)
			}
			if feed.pauses != 2 {
				t.Errorf("%d pauses noticed, want 2", feed.pauses)
			}
		})
	}
	t.Run("a source without Idle waits to fill the batch", func(t *testing.T) {
		r := NewReader(io.MultiReader(strings.NewReader(g1+g2), strings.NewReader(g3)))
		var b Batch
		if err := r.ReadBatch(&b, 1<<20); err != nil || len(b.Games) != 3 || b.Idle() {
			t.Errorf("%d games, idle %v, %v; want all 3 in one batch", len(b.Games), b.Idle(), err)
		}
	})
	t.Run("a pause inside the first game is waited through", func(t *testing.T) {
		feed := &liveFeed{events: []string{g1[:10], "", g1[10:] + g2, ""}}
		r := NewReader(feed)
		var b Batch
		if err := r.ReadBatch(&b, 1<<20); err != nil || len(b.Games) != 1 || !bytes.Equal(b.Games[0].Raw, []byte(g1)) {
			t.Errorf("%d games, %v; want the first game whole", len(b.Games), err)
		}
	})
}

// pausing returns a wrapper that gives its input in chunks of n bytes
// with a pause after each, as a live feed written a little at a time:
// every read that could hand out games early does.
func pausing(n int) func(io.Reader) io.Reader {
	return func(r io.Reader) io.Reader {
		b, _ := io.ReadAll(r)
		f := &liveFeed{}
		for len(b) > 0 {
			k := min(n, len(b))
			f.events = append(f.events, string(b[:k]), "")
			b = b[k:]
		}
		return f
	}
}

// FuzzIdleHandOut reads an input through a live feed that pauses every n
// bytes, with ReadBatch, which hands out every game it holds whole at each
// pause: the games must be Next's, and together the input.
func FuzzIdleHandOut(f *testing.F) {
	f.Add([]byte("[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 {c\n\n[x]} *\n"), uint8(7))
	f.Add([]byte("[A \"1\"]\r\n\r\n1-0\r\n[B \"2\"]\r\n\r\n0-1"), uint8(3))
	f.Add([]byte("\xef\xbb\xbf[E \"x\"]\r1. e4 *\r\r[E \"y\"]\r1. d4 *\r"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		input := string(data)
		var want []string
		for _, g := range readAll(t, input, iotest.OneByteReader, 64) {
			want = append(want, describeGame(g))
		}
		r := NewReader(pausing(int(n%64) + 1)(strings.NewReader(input)))
		r.Name, r.MaxGameSize = "t.pgn", 64
		var got []string
		var all strings.Builder
		for {
			var b Batch
			err := r.ReadBatch(&b, 1<<10)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range b.Games {
				got = append(got, describeGame(&b.Games[i]))
				all.Write(b.Games[i].Raw)
			}
		}
		sameGames(t, got, want, all.String(), input)
	})
}
