//go:build !purego

package pgn

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestIndexNibble holds the vector loop to a byte loop: one member at
// every offset of buffers of every length from 32 to 160 (so that the
// last, overlapping block is read at every alignment), none at all, and
// random bytes. Members follow each buffer in memory, after one byte that
// is not, so that a read past its end would be seen.
func TestIndexNibble(t *testing.T) {
	if !vectorScan {
		t.Skip("no vector loop here")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range nibbleSetCases {
		t.Run(c.name, func(t *testing.T) {
			var members, others []byte
			for b := range 256 {
				if c.in(byte(b)) {
					members = append(members, byte(b))
				} else {
					others = append(others, byte(b))
				}
			}
			want := func(b []byte) int {
				for i, x := range b {
					if c.in(x) {
						return i
					}
				}
				return len(b)
			}
			buf := make([]byte, 160+32)
			for n := 32; n <= 160; n++ {
				b := buf[:n]
				for i := range buf[:n+1] {
					buf[i] = others[rng.IntN(len(others))]
				}
				for i := n + 1; i < len(buf); i++ {
					buf[i] = members[rng.IntN(len(members))]
				}
				if got := indexNibble(b, c.set); got != n {
					t.Fatalf("no member in %q: got %d, want %d", b, got, n)
				}
				for k := range b {
					keep := b[k]
					b[k] = members[rng.IntN(len(members))]
					if got := indexNibble(b, c.set); got != k {
						t.Fatalf("member %#02x at %d of %d: got %d", b[k], k, n, got)
					}
					b[k] = keep
				}
				for range 20 {
					for i := range b {
						b[i] = byte(rng.Uint32())
					}
					if got, want := indexNibble(b, c.set), want(b); got != want {
						t.Fatalf("%q: got %d, want %d", b, got, want)
					}
				}
			}
		})
	}
}

// TestClassify64 holds classify64's masks to the sets' own test, byte by
// byte, with every byte value at every offset.
func TestClassify64(t *testing.T) {
	if !vectorScan {
		t.Skip("no vector loop here")
	}
	var b [64]byte
	for v := range 256 {
		for i := range b {
			b[i] = byte(v + i*37)
		}
		for si, s := range nibbleSetCases {
			u := nibbleSetCases[(si+1)%len(nibbleSetCases)]
			inS, inU := classify64(&b, s.set, u.set)
			for i, x := range b {
				if got, want := inS>>i&1 == 1, s.in(x); got != want {
					t.Fatalf("%s: byte %#02x at %d: %v, want %v", s.name, x, i, got, want)
				}
				if got, want := inU>>i&1 == 1, u.in(x); got != want {
					t.Fatalf("%s: byte %#02x at %d: %v, want %v", u.name, x, i, got, want)
				}
			}
		}
	}
}

// TestPlyClasses holds plyClasses' seven masks to the classes spelled out
// here, byte by byte, with every byte value at every offset.
func TestPlyClasses(t *testing.T) {
	if !vectorScan {
		t.Skip("no vector loop here")
	}
	classes := [7]func(c byte) bool{
		func(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' },
		func(c byte) bool { return '0' <= c && c <= '9' || c == '.' },
		func(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' || c == 0x1a },
		func(c byte) bool {
			return c <= 0x08 || 0x0e <= c && c <= 0x19 || 0x1b <= c && c <= 0x1f || c >= 0x7f || c == '(' || c == ')' || c == ';' || c == '$'
		},
		func(c byte) bool { return c == '.' },
		func(c byte) bool { return c == '{' },
		func(c byte) bool { return c == '}' },
	}
	var b [64]byte
	var masks [7]uint64
	for v := range 256 {
		for i := range b {
			b[i] = byte(v + i*37)
		}
		plyClasses(&b, &plySets, &masks)
		for k, in := range classes {
			for i, x := range b {
				if got, want := masks[k]>>i&1 == 1, in(x); got != want {
					t.Fatalf("mask %d: byte %#02x at %d: %v, want %v", k, x, i, got, want)
				}
			}
		}
	}
}

// TestTagLinesVector holds plainTagLines with its assembly loop to
// plainTagLines without it: random tag sections of plain lines and of
// lines the loop must stop at, names and values of every length around a
// window's 64 bytes, LF and CRLF line ends, each cut at every length and
// placed just before a page that cannot be read (on Linux), so that every
// bound on reading near the end of data is crossed and a read past it
// faults. The room for the tags holds spans unlike any a line makes, as
// the general path's spans of escaped values leave it in a scanner used
// before, so that a field the assembly fails to write shows. The test also
// requires the assembly to take the lines of a long
// enough section, so that the comparison is not of the Go loop with itself.
func TestTagLinesVector(t *testing.T) {
	if !vectorScan {
		t.Skip("no vector loop here")
	}
	read := func(data []byte, vector bool) scanner {
		defer func(v bool) { vectorScan = v }(vectorScan)
		vectorScan = vector
		var s scanner
		s.reset()
		room := make([]tagSpan, 64)
		for i := range room {
			room[i] = tagSpan{-1, -1, -1, -1, -1, -1, true, -1}
		}
		s.tags = room[:0]
		s.pos = s.plainTagLines(data, 0)
		return s
	}
	rng := rand.New(rand.NewPCG(3, 4))
	name := func(n int) string { return strings.Repeat("N", n) }
	value := func(n int) string { return strings.Repeat("v", n) }
	// Names of 55 to 63 bytes put the value's start at the end of the
	// window made at the line's start, or just past it.
	longish := func() int { return 55 + rng.IntN(9) }
	pieces := []func() string{
		func() string { return fmt.Sprintf("[%s \"%s\"]\n", name(1+rng.IntN(12)), value(rng.IntN(60))) },
		func() string { return fmt.Sprintf("[%s \"%s\"]\r\n", name(1+rng.IntN(12)), value(rng.IntN(60))) },
		func() string { return fmt.Sprintf("[%s \"%s\"]\n", name(1+rng.IntN(80)), value(rng.IntN(140))) },
		func() string { return fmt.Sprintf("[%s \"%s\"]\n", name(longish()), value(rng.IntN(70))) },
		func() string { return "[FEN \"qnrknrbb/pppppppp/8/8/8/8/PPPPPPPP/QNRKNRBB w KQkq - 0 1\"]\n" },
		// Lines that end a value, or a name, in the wrong way, with what
		// a plain line would end with just after.
		func() string { return fmt.Sprintf("[%s \"%s\"x\n", name(1+rng.IntN(12)), value(rng.IntN(20))) },
		func() string { return fmt.Sprintf("[%s x%s\"]\n", name(1+rng.IntN(12)), value(rng.IntN(20))) },
		func() string { return fmt.Sprintf("[%s \"%s\"]\rx", name(1+rng.IntN(12)), value(rng.IntN(20))) },
		func() string { return fmt.Sprintf("[%s \"\\\"]\n", name(1+rng.IntN(12))) }, // an escape, read by the general path
		func() string { return plainTagLineCases[rng.IntN(len(plainTagLineCases))].line },
		func() string { return fmt.Sprintf("%s \"%s\"]\n", name(1+rng.IntN(12)), value(rng.IntN(20))) }, // no '['
		func() string { return fmt.Sprintf("{%s \"%s\"]\n", name(1+rng.IntN(12)), value(rng.IntN(20))) },
		func() string { return "\n" },
		func() string { return "\r\n" },
	}
	// Sections laid out so that a value's end read from the wrong bits of
	// a window would find the next line's end where a plain line's would
	// be: a name of 61 bytes starts the value just past the line's
	// window, 63 bytes past the end of the next line's value.
	fixed := []string{
		"[" + name(61) + " \"v\"]\n[B \"" + value(55) + "\"]\n[C \"3\"]\n\n",
		"[" + name(62) + " \"v\"]\n[B \"" + value(54) + "\"]\n[C \"3\"]\n\n",
		"[A \"1\"]\n[" + name(61) + " \"v\"]\n[B \"" + value(55) + "\"]\n" + lichessTags,
	}
	buf := guarded(t, 4096)
	for round := range 600 + len(fixed) {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			p := rng.IntN(len(pieces))
			if p >= 5 && rng.IntN(3) > 0 {
				p = rng.IntN(5) // plain lines are the most common
			}
			b.WriteString(pieces[p]())
		}
		section := b.String()
		if round < len(fixed) {
			section = fixed[round]
		}
		if len(section) > len(buf) {
			continue
		}
		for n := range len(section) + 1 {
			data := buf[len(buf)-n:]
			copy(data, section)
			got, want := read(data, true), read(data, false)
			if got.pos != want.pos || got.lines != want.lines || got.mode != want.mode || got.movetext != want.movetext || !slices.Equal(got.tags, want.tags) {
				t.Fatalf("round %d, %q: with the assembly next %d, lines %d, mode %d, movetext %d, tags %+v; without %d, %d, %d, %d, %+v",
					round, data, got.pos, got.lines, got.mode, got.movetext, got.tags, want.pos, want.lines, want.mode, want.movetext, want.tags)
			}
		}
	}

	// The assembly takes every line of a section with 64 bytes after it.
	data := []byte(lichessTags + crlf(lichessTags) + strings.Repeat("\n", 64))
	tags := make([]tagSpan, 0, 64)
	next, n, lines := tagLinesVector(data, 0, tags, 0, notNameSet, plainValueSet)
	want := read(data, false)
	if next != want.pos || n != len(want.tags) || lines != want.lines || !slices.Equal(tags[:n], want.tags) {
		t.Fatalf("tagLinesVector took %d tags, to %d, counting %d lines; want all %d, to %d, %d lines", n, next, lines, len(want.tags), want.pos, want.lines)
	}
	// It stops when tags is full, for more room.
	if next, n, _ := tagLinesVector(data, 0, tags[:0:3], 0, notNameSet, plainValueSet); n != 3 || next != bytes.Index(data, []byte("[Round")) {
		t.Fatalf("tagLinesVector with room for 3 tags took %d, to %d", n, next)
	}
}

// TestSkimVector holds skimMovetext with its assembly loop to
// skimMovetext without it: random movetexts of moves, clock comments,
// comments left open or closed late, stray braces, lines that begin with
// '[' and a letter, a '%' or a blank, '%' lines, blanks, CRLF and control
// bytes, with the next game after them or not, each cut at every length
// and placed just before a page that cannot be read (on Linux). It also
// requires the assembly to settle a lichess-like game, so that the
// comparison is not of the Go loop with itself.
func TestSkimVector(t *testing.T) {
	if !vectorScan {
		t.Skip("no vector loop here")
	}
	skim := func(data []byte, i int, vector bool) (end, lines int, ok bool) {
		defer func(v bool) { vectorScan = v }(vectorScan)
		vectorScan = vector
		return skimMovetext(data, i)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	// Pieces after the first 24 make the skim give up, and come rarely.
	pieces := []string{
		"1. e4 ", "e5 ", "{ [%clk 0:10:00] } ", "12... Nxf7+ ", "\n", "\n", "\r\n",
		"{ a comment\nover lines } ", "{ open ", "} ", "{", "}", "}{", "{}", "\t", " ",
		"\n[Event \"next\"]\n", "\n[%clk 0:01:00]\n", "\n[zZ \"x\"]\n", "\n[az \"x\"]\n", "\n[@]\n", "\n[`]\n", "\f\x1a", "1-0",
		"\n[1 \"x\"]\n", "\n[_x]\n", "\n[ Event \"x\"]\n", "\n% escape {\n", "\n e4", "\x01", "\x7f",
	}
	piece := func() string {
		if rng.IntN(10) == 0 {
			return pieces[rng.IntN(len(pieces))]
		}
		return pieces[rng.IntN(24)]
	}
	buf := guarded(t, 4096)
	for round := range 3000 {
		var b strings.Builder
		if rng.IntN(4) > 0 {
			b.WriteString("\n") // the blank line the movetext begins at
		}
		for range rng.IntN(60) {
			b.WriteString(piece())
		}
		if rng.IntN(4) > 0 {
			b.WriteString("\n\n[Event \"next\"]\n\n*\n")
		}
		text := b.String()
		if len(text) > len(buf) {
			continue
		}
		for n := len(text); n >= 0; n -= 1 + rng.IntN(8) {
			data := buf[len(buf)-n:]
			copy(data, text)
			for _, i := range []int{0, min(1, n)} {
				e1, l1, ok1 := skim(data, i, true)
				e2, l2, ok2 := skim(data, i, false)
				if e1 != e2 || l1 != l2 || ok1 != ok2 {
					t.Fatalf("round %d, %q from %d: with the assembly %d %d %v, without %d %d %v", round, data, i, e1, l1, ok1, e2, l2, ok2)
				}
			}
		}
	}

	data := []byte("\n" + strings.Repeat("1. e4 { [%clk 0:10:00] } 1... e5 { [%clk 0:10:00] }\n", 6) + "1-0\n\n" + lichessTags + "\n*\n")
	if _, lines, end, verdict := skimVector(data, 0, lineOrControlSet, &spaceTable, &nameBytes, &tagBlanks); verdict != skimmed || end != bytes.Index(data, []byte("[Event")) || lines != 9 {
		t.Fatalf("skimVector on a lichess-like game: verdict %d, end %d, lines %d", verdict, end, lines)
	}
}

// TestAssemblyIsVEXOnly holds nibble_amd64.s to vector instructions in
// their VEX form alone. A legacy SSE instruction on an X register while
// the upper halves of the Y registers are in use (MOVQ DX, X5 after a
// VBROADCASTI128, say) costs a switch of the vector unit's state on many
// processors: on one machine here, about 120 ns a call, which made the
// header-only scan three times as slow (BenchmarkVectorCall shows it).
// VZEROUPPER before each RET keeps Go's own SSE code from paying it.
func TestAssemblyIsVEXOnly(t *testing.T) {
	src, err := os.ReadFile("nibble_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	vectorRegister := regexp.MustCompile(`\b[XY][0-9]+\b`)
	last, rets := "", 0
	for n, line := range strings.Split(string(src), "\n") {
		line, _, _ = strings.Cut(line, "//")
		for _, ins := range strings.Split(strings.TrimSuffix(strings.TrimSpace(line), `\`), ";") {
			fields := strings.Fields(ins)
			if len(fields) == 0 || fields[0] == "#define" || fields[0] == "#include" || strings.HasSuffix(fields[0], ":") {
				continue // no instruction, or a label
			}
			op := fields[0]
			if op == "RET" {
				// Every function in the file uses the Y registers.
				if rets++; last != "VZEROUPPER" {
					t.Errorf("nibble_amd64.s:%d: RET after %s; the upper halves are to be cleared first (VZEROUPPER)", n+1, last)
				}
			}
			last = op
			if len(fields) < 2 || strings.Contains(op, "(") {
				continue // a macro, whose body is checked where it is defined
			}
			if vectorRegister.MatchString(strings.Join(fields[1:], " ")) && !strings.HasPrefix(op, "V") {
				t.Errorf("nibble_amd64.s:%d: %s on a vector register is a legacy SSE instruction; use its VEX form (V%s)", n+1, op, op)
			}
		}
	}
	if rets == 0 {
		t.Fatal("no RET found in nibble_amd64.s")
	}
}

// BenchmarkVectorCall times one call of each vector loop on a header-only
// game's few bytes, where a call's fixed cost is all there is.
func BenchmarkVectorCall(b *testing.B) {
	if !vectorScan {
		b.Skip("no vector loop here")
	}
	game := []byte("*\n\n[Event \"Rated blitz game\"]\n[Site \"https://lichess.org/abcdefgh\"]\n[White \"someone\"]\n[Black \"other\"]\n[Result \"*\"]\n\n*\n\n")
	b.Run("skim", func(b *testing.B) {
		for b.Loop() {
			if _, _, _, verdict := skimVector(game, 0, lineOrControlSet, &spaceTable, &nameBytes, &tagBlanks); verdict != skimmed {
				b.Fatalf("verdict %d", verdict)
			}
		}
	})
	b.Run("tags", func(b *testing.B) {
		tags := make([]tagSpan, 0, 8)
		// The loop reads lines that lie within 64 bytes ahead: the next
		// game's bytes give it room for the last of them.
		data := bytes.Repeat(game, 2)
		for b.Loop() {
			if _, n, _ := tagLinesVector(data, 3, tags, 0, notNameSet, plainValueSet); n != 5 {
				b.Fatalf("%d tags", n)
			}
		}
	})
	b.Run("classify", func(b *testing.B) {
		var block [64]byte
		copy(block[:], game)
		for b.Loop() {
			classify64(&block, lineOrControlSet, notNameSet)
		}
	})
}
