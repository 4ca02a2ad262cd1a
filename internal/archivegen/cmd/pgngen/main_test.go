package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/frctool/frctool/internal/archivegen"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  bool
	}{
		{"64MB", 64 << 20, false},
		{"512kb", 512 << 10, false},
		{"1G", 1 << 30, false},
		{"1000", 1000, false},
		{"10B", 10, false},
		{"", 0, true},
		{"-5MB", 0, true},
		{"MB", 0, true},
		{"64 MiB", 0, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseSize(tc.in)
			if (err != nil) != tc.err || got != tc.want {
				t.Errorf("parseSize(%q) = %d, %v; want %d, error %v", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []byte // nil when an error is expected
		err  string
	}{
		{"games", []string{"-games", "50", "-seed", "3"},
			archivegen.New(archivegen.Options{Seed: 3}).Append(nil, 50), ""},
		{"size", []string{"-shape", "headers", "-size", "64KB", "-dialects"},
			archivegen.New(archivegen.Options{Seed: 1, Shape: archivegen.Headers, Dialects: true}).AppendSize(nil, 64<<10), ""},
		{"plies", []string{"-games", "5", "-plies", "90"},
			archivegen.New(archivegen.Options{Seed: 1, MeanPlies: 90}).Append(nil, 5), ""},
		{"no amount", []string{"-shape", "lichess"}, nil, "either -size or -games"},
		{"both amounts", []string{"-games", "5", "-size", "1MB"}, nil, "either -size or -games"},
		{"bad shape", []string{"-shape", "tcec", "-games", "5"}, nil, `-shape: unknown archive shape "tcec"`},
		{"bad size", []string{"-size", "lots"}, nil, `-size: "lots" is not a size`},
		{"argument", []string{"-games", "5", "out.pgn"}, nil, `unexpected argument "out.pgn"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(tc.args, &out)
			if tc.want == nil {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), tc.want) {
				t.Errorf("wrote %d bytes, want the generator's %d", out.Len(), len(tc.want))
			}
		})
	}
}
