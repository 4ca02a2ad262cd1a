package numbering

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseList(t *testing.T) {
	all := make([]int, Count)
	for i := range all {
		all[i] = i
	}
	for _, tc := range []struct {
		in     string
		scheme Scheme
		want   []int
		err    string // substring of the error; "" for none
	}{
		{in: "518", want: []int{518}},
		{in: "0-3,518,957-959", want: []int{0, 1, 2, 3, 518, 957, 958, 959}},
		{in: " 5 , 7 - 8 ", want: []int{5, 7, 8}},
		{in: "960", want: []int{0}},
		{in: "958-960", want: []int{958, 959, 0}},
		{in: "1-960", want: append(all[1:], 0)},
		{in: "0-959", want: all},
		{in: "3,3,1-4", want: []int{3, 1, 2, 4}},
		{in: "359", scheme: Fritz9, want: []int{518}},
		{in: "81,928,518", scheme: Fritz9, want: []int{0, 959, 261}},
		{in: "960", scheme: Fritz9, want: []int{mustFritz9ToSP(960)}},
		{in: "", err: "empty"},
		{in: "5,,6", err: `"": empty item`},
		{in: "961", err: `"961"`},
		{in: "0-961", err: `"0-961"`},
		{in: "0", scheme: Fritz9, err: `"0": Fritz9 number 0`},
		{in: "1-961", scheme: Fritz9, err: `"1-961"`},
		{in: "x", err: `"x": "x" is not a number`},
		{in: "1,2,3x", err: `"3x"`},
		{in: "-5", err: `"-5": missing number`},
		{in: "5-", err: `"5-": missing number`},
		{in: "9-3", err: "range ends before it starts (9 > 3)"},
		{in: "1-2-3", err: `"2-3" is not a number`},
		{in: "+5", err: `"+5" is not a number`},
		{in: "99999999999", err: "out of range"},
	} {
		got, err := ParseList(tc.in, tc.scheme)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrList) {
				t.Errorf("ParseList(%q, %v) error %v, want one containing %q", tc.in, tc.scheme, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseList(%q, %v) = %v, %v; want %v", tc.in, tc.scheme, got, err, tc.want)
		}
	}
}

func mustFritz9ToSP(f int) int {
	sp, err := Fritz9ToSP(f)
	if err != nil {
		panic(err)
	}
	return sp
}

func TestParseRanks(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []int
		err  string
	}{
		{in: []string{"RNBQKBNR"}, want: []int{518}},
		{in: []string{"rnbqkbnr"}, want: []int{518}},
		{in: []string{"TSLDKLST"}, want: []int{518}},
		{in: []string{"tsldklst", "BBQNNRKR"}, want: []int{518, 0}},
		{in: []string{"bbqnnrkr,RKRNNQBB", "RnBqKbNr"}, want: []int{0, 959, 518}},
		{in: []string{"RNBQKBNR", "rnbqkbnr"}, want: []int{518}},
		{in: []string{"RNBQKBN"}, err: `back rank "RNBQKBN": a back rank has 8 squares`},
		{in: []string{"RNBQKBNX"}, err: `'X' on the h-file`},
		{in: []string{"RNBKQBNR,RBQBKNNR"}, err: `back rank "RBQBKNNR": the bishops must stand on squares of opposite colours`},
		{in: []string{"KRRBBQNN"}, err: "king must stand between the rooks"},
		{in: []string{""}, err: "8 squares"},
	} {
		got, err := ParseRanks(tc.in...)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseRanks(%q) error %v, want one containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseRanks(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseScheme(t *testing.T) {
	for in, want := range map[string]Scheme{"sp": Scharnagl, "SP": Scharnagl, "fritz9": Fritz9, " Fritz9 ": Fritz9} {
		if got, err := ParseScheme(in); err != nil || got != want {
			t.Errorf("ParseScheme(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseScheme("fritz10"); err == nil {
		t.Error("ParseScheme(fritz10) succeeded")
	}
}
