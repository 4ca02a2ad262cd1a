package stream

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
)

// refusedPrefixes are the first bytes of the inputs OpenContext refuses,
// written out here apart from the package's own table: xz, 7-Zip, zip,
// lz4, compress, and UTF-16's byte order marks.
var refusedPrefixes = [][]byte{
	{0xfd, '7', 'z', 'X'}, {'7', 'z', 0xbc, 0xaf}, {'P', 'K', 3, 4},
	{0x04, 0x22, 0x4d, 0x18}, {0x1f, 0x9d}, {0xff, 0xfe}, {0xfe, 0xff},
}

// FuzzOpen: whatever its first bytes, an input opens, or is refused as a
// format frctool does not read only when it begins as one does, or fails
// as the compressed data its magic number says it is. One that opens as
// plain reads back byte for byte.
func FuzzOpen(f *testing.F) {
	for _, s := range []string{"", "[Event \"e\"]\n\n*\n", "PK is a name\n", "\xff is a letter", "\xef\xbb\xbf[Event \"e\"]", "7z", "P", "\x1f", "\x28\xb5\x2f\xfd"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		refused := false
		for _, p := range refusedPrefixes {
			refused = refused || bytes.HasPrefix(data, p)
		}
		in, err := OpenContext(context.Background(), "-", bytes.NewReader(data))
		switch {
		case errors.Is(err, ErrUnsupportedCompression) || errors.Is(err, ErrUTF16):
			if !refused {
				t.Fatalf("refused %q: %v", data[:min(len(data), 8)], err)
			}
			return
		case err != nil:
			if Detect(data) == None {
				t.Fatalf("a plain input failed to open: %v", err)
			}
			return
		}
		defer in.Close()
		if refused && Detect(data) == None {
			t.Fatalf("opened %q, which begins as a format frctool does not read", data[:min(len(data), 8)])
		}
		if in.Compression != None {
			io.Copy(io.Discard, in) // a decoder's error is the data's
			return
		}
		got, err := io.ReadAll(in)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read %q (%v), want %q", got, err, data)
		}
	})
}
