package selector

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/frctool/frctool/internal/sharedtest"
	"github.com/frctool/frctool/pgn"
	"github.com/frctool/frctool/pipeline"
)

// FuzzFilterPartition holds filter to its promise on any archive: the
// games selected and the games rejected, put back together game by game
// in input order, are the input byte for byte; and filtering the selected
// games again selects them all.
func FuzzFilterPartition(f *testing.F) {
	f.Add([]byte("[Event \"a\"]\n\n1. e4 *\n\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n1. g3 *\n\njunk\n"), uint16(518), uint8(0))
	f.Add([]byte("\n\n[E \"x\"]\r\n\r\n1. d4 1-0\r\n"), uint16(0), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, sp uint16, how uint8) {
		c := Criteria{SPs: []int{int(sp % 960)}, DFRC: how&1 != 0, Other: how&2 != 0, Invert: how&4 != 0}
		filter := func(in []byte) (sel, rej []byte) {
			var s, r bytes.Buffer
			fl := NewFilter(New(c), &s, &r)
			if err := fl.Run(context.Background(), pgn.NewReader(bytes.NewReader(in)), pipeline.Options{Jobs: int(how%2) + 1}); err != nil {
				t.Fatal(err)
			}
			if err := fl.Close(); err != nil {
				t.Fatal(err)
			}
			return s.Bytes(), r.Bytes()
		}
		sel, rej := filter(data)
		if len(sel)+len(rej) != len(data) {
			t.Fatalf("selected %d and rejected %d bytes, input %d", len(sel), len(rej), len(data))
		}
		if !interleaves(data, sel, rej) {
			t.Fatalf("the input is not the selected and the rejected bytes put back together in order")
		}
		if c.Invert || sharedtest.LoneCR(data) {
			return // the complement of a complement needs the original's classes
		}
		again, rejAgain := filter(sel)
		if !bytes.Equal(again, sel) || len(rejAgain) != 0 {
			t.Fatalf("filtering the selected games again rejected %q", rejAgain)
		}
	})
}

// interleaves reports whether all is a and b merged, each in its order,
// by dynamic programming over their prefixes: row i says for every j
// whether all's first i+j bytes are a's first i merged with b's first j.
func interleaves(all, a, b []byte) bool {
	prev := make([]bool, len(b)+1)
	cur := make([]bool, len(b)+1)
	prev[0] = true
	for j := 1; j <= len(b); j++ {
		prev[j] = prev[j-1] && b[j-1] == all[j-1]
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = prev[0] && a[i-1] == all[i-1]
		for j := 1; j <= len(b); j++ {
			k := all[i+j-1]
			cur[j] = prev[j] && a[i-1] == k || cur[j-1] && b[j-1] == k
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// FuzzSplitKeepsEveryGame holds split to its promise on any archive: the
// files together hold the input's bytes, each file holds its games in
// input order, and filtering the input for a file's position gives that
// file, byte for byte.
func FuzzSplitKeepsEveryGame(f *testing.F) {
	f.Add([]byte("[Event \"a\"]\n\n1. e4 *\n\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n1. g3 *\n\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kf1 *\n"), false)
	f.Add([]byte("[E \"x\"]\r\n\r\n1. d4 1-0\r\n[E \"y\"]\r\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\r\n\r\n*"), true)
	f.Fuzz(func(t *testing.T, data []byte, tiny bool) {
		dir := t.TempDir()
		split(t, SplitOptions{Dir: dir}, tiny, 0, data)
		files := readDir(t, dir)
		total := 0
		for name, b := range files {
			total += len(b)
			var c Criteria
			switch {
			case name == DFRCFile:
				c.DFRC = true
			case name == OtherFile:
				c.Other = true
			default:
				var sp int
				if _, err := fmt.Sscanf(name, "sp-%03d.pgn", &sp); err != nil {
					t.Fatalf("a file %s", name)
				}
				c.SPs = []int{sp}
			}
			var sel bytes.Buffer
			fl := NewFilter(New(c), &sel, io.Discard)
			if err := fl.Run(context.Background(), pgn.NewReader(bytes.NewReader(data)), pipeline.Options{Jobs: 1}); err != nil {
				t.Fatal(err)
			}
			fl.Close()
			// Text with no game at all goes to other.pgn, and a filter
			// rejects it.
			noGame := bytes.Equal(b, data) && sel.Len() == 0 && name == OtherFile
			if !bytes.Equal(sel.Bytes(), b) && !noGame {
				t.Fatalf("%s holds %q; filtering the input for it gives %q", name, b, sel.Bytes())
			}
		}
		if total != len(data) {
			t.Fatalf("the files hold %d bytes, the input %d", total, len(data))
		}
	})
}
