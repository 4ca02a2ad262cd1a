package pgn

import "testing"

// nibbleSetCases are the scanner's sets, each with the bytes it must hold
// spelled out here again.
var nibbleSetCases = []struct {
	name string
	set  *nibbleSet
	in   func(c byte) bool
}{
	{"line feed, control byte or DEL", lineOrControlSet, func(c byte) bool { return c <= 0x1f || c == 0x7f }},
	{"end of a plain value", plainValueSet, func(c byte) bool { return c == '"' || c == '\\' || c == '\n' }},
	{"not in a tag name", notNameSet, func(c byte) bool {
		return !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '+' || c == '#' || c == '=' || c == ':')
	}},
}

func TestNibbleSets(t *testing.T) {
	for _, c := range nibbleSetCases {
		t.Run(c.name, func(t *testing.T) {
			for b := range 256 {
				if got, want := c.set.has(byte(b)), c.in(byte(b)); got != want {
					t.Errorf("has(%#02x) = %v, want %v", b, got, want)
				}
			}
		})
	}
}

// TestNewNibbleSet builds sets of up to eight distinct rows and checks
// every byte; a ninth row must panic.
func TestNewNibbleSet(t *testing.T) {
	cases := []struct {
		name string
		in   func(c byte) bool
	}{
		{"empty", func(byte) bool { return false }},
		{"every byte", func(byte) bool { return true }},
		{"one byte", func(c byte) bool { return c == 0xa7 }},
		{"high bytes", func(c byte) bool { return c >= 0x80 }},
		{"odd bytes", func(c byte) bool { return c&1 == 1 }},
		{"a range across rows", func(c byte) bool { return 0x1c <= c && c <= 0x43 }},
		{"eight rows", func(c byte) bool { return c>>4 < 8 && c&0xf == c>>4 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newNibbleSet(c.in)
			for b := range 256 {
				if got, want := s.has(byte(b)), c.in(byte(b)); got != want {
					t.Fatalf("has(%#02x) = %v, want %v", b, got, want)
				}
			}
		})
	}
	t.Run("nine rows", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Fatal("no panic")
			}
		}()
		newNibbleSet(func(c byte) bool { return c>>4 < 9 && c&0xf == c>>4 })
	})
}
