package pgn

import (
	"bytes"
	"testing"
)

// wordCases are inputs for the word-at-a-time loops, named by what they
// exercise: marks in every byte of a word, bytes just around the ones
// sought (where a wrong borrow would show), and high bytes.
var wordCases = []struct{ name, data string }{
	{"clock comments", "1. e4 { [%clk 0:10:00] } 1... d6 { [%clk 0:10:00] } 2. Qh5 *\n"},
	{"line feed in the seventh byte", "abcdef\ngh"},
	{"brace in the last byte of a word", "abcdefg{h"},
	{"semicolon after a full word", "abcdefgh;comment\n"},
	{"tab and carriage return", "e4\te5\r\nNf3 {x}"},
	{"bytes next to the ones sought", "z|~!\x1f\x20\x21\x7e\x7f\x80{}"},
	{"high bytes", "\xff\xfe\x80\x81 \xc3\xa9 {caf\xc3\xa9} \xef\xbb\xbf"},
	{"control byte after a borrow", "\x00\x01\x02 abc {d}"},
	{"comment with a line break", "{ a long comment\nover two lines }"},
	{"long comment", "{ " + string(bytes.Repeat([]byte("x"), 100)) + " }"},
	{"quotes and backslashes", `"a\"b" \\ "c"` + "\n"},
	{"line feed in the second word of sixteen", "1. e4 e5 2. Nf3 \nNc6"},
	{"DEL in the second word of sixteen", "0123456789abcd\x7fef 0123456789abcdef"},
	{"control byte after sixteen plain bytes", "0123456789abcdef\x01 0123456789abcdef\n"},
	{"last line of a movetext", "1. e4 e5 2. Nf3 Nc6\n3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0"},
	{"line feed and braces in the first and last bytes of words", "\n234567{}ab\x00defg}\n\xff"},
	{"marks past 32 bytes, for the vector loop", "1. e4 { [%clk 0:10:00] } 1... d6 { [%clk 0:10:00] } 2. Qh5\x7f 2... a5 { [%clk 0:09:39] } 3. Qf3\x01 3... Nc6 \"x\\y\" { [%clk 0:09:02] } 4. Qc3\n"},
	{"short", "{}"},
	{"empty", ""},
}

// The word-at-a-time loops are held to byte-by-byte loops written here,
// at every start offset.
func checkWordLoops(t *testing.T, data []byte) {
	t.Helper()
	for i := 0; i <= len(data); i++ {
		want := i
		for want < len(data) && movetextClass[data[want]] == clsPlain {
			want++
		}
		if got := movetextPlainEnd(data, i); got != want {
			t.Fatalf("movetextPlainEnd(%q, %d) = %d, want %d", data, i, got, want)
		}
		want = i
		for want < len(data) && data[want] != '"' && data[want] != '\\' && data[want] != '\n' {
			want++
		}
		if got := plainValueLength(data, i); got != want {
			t.Fatalf("plainValueLength(%q, %d) = %d, want %d", data, i, got, want)
		}
		want = i
		for want < len(data) && data[want] >= ' ' && data[want] != 0x7f {
			want++
		}
		if got := lineOrControl(data, i); got != want {
			t.Fatalf("lineOrControl(%q, %d) = %d, want %d", data, i, got, want)
		}
		for _, c := range []byte{'\n', '{', '}', 0, 0x80, 0xff} {
			if got, want := lastIndexByte(data[:i], c), bytes.LastIndexByte(data[:i], c); got != want {
				t.Fatalf("lastIndexByte(%q, %q) = %d, want %d", data[:i], c, got, want)
			}
		}
	}
}

func TestWordLoops(t *testing.T) {
	for _, c := range wordCases {
		t.Run(c.name, func(t *testing.T) { checkWordLoops(t, []byte(c.data)) })
	}
}

// FuzzWordLoops holds the word-at-a-time loops to byte-by-byte ones. The
// corpus it has found is in testdata/fuzz/FuzzWordLoops; go test replays
// it.
func FuzzWordLoops(f *testing.F) {
	for _, c := range wordCases {
		f.Add([]byte(c.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkWordLoops(t, data) })
}
