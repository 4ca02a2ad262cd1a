package pgn

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

func TestAppendUTF8(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"ASCII", "Carlsen, Magnus", "Carlsen, Magnus"},
		{"UTF-8", "Müller, Jörg", "Müller, Jörg"},
		{"Latin-1", "M\xfcller, J\xf6rg", "Müller, Jörg"},
		{"both in one value", "M\xfcller / Müller", "Müller / Müller"},
		{"a UTF-8 sequence cut short at the end", "Caf\xc3", "CafÃ"},
		{"a lone continuation byte", "a\x80b", "a\u0080b"},
		{"the replacement character itself", "\uFFFD", "\uFFFD"},
		{"empty", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(AppendUTF8([]byte("x:"), []byte(tt.in)))
			if got != "x:"+tt.want || !utf8.ValidString(got) {
				t.Errorf("AppendUTF8(%q) = %q, want %q", tt.in, got[2:], tt.want)
			}
		})
	}
}

// TestAppendUTF8IsLatin1 holds AppendUTF8 to an ISO 8859-1 decoder written
// by others, on text that is Latin-1 and no UTF-8: every byte 0x80..0xff
// standing alone between ASCII letters.
func TestAppendUTF8IsLatin1(t *testing.T) {
	var in []byte
	for c := 0x80; c <= 0xff; c++ {
		in = append(in, 'a', byte(c))
	}
	in = append(in, 'a')
	want, err := charmap.ISO8859_1.NewDecoder().Bytes(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := AppendUTF8(nil, in); string(got) != string(want) {
		t.Errorf("AppendUTF8 gives %q,\nthe ISO 8859-1 decoder %q", got, want)
	}
	for i := 0; i < len(in); {
		r, n := DecodeRune(in[i:])
		if n != 1 || r != rune(in[i]) {
			t.Fatalf("DecodeRune at %d = %U, %d; want %U, 1", i, r, n, rune(in[i]))
		}
		i += n
	}
	if r, n := DecodeRune(nil); r != utf8.RuneError || n != 0 {
		t.Errorf("DecodeRune(nil) = %U, %d", r, n)
	}
}
