package numbering_test

import (
	"errors"
	"fmt"

	"github.com/frctool/frctool/numbering"
)

// Convert between the two numberings and the back rank they stand for.
func ExampleFromSP() {
	for _, sp := range []int{0, 518, 959} {
		r, err := numbering.FromSP(sp)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("SP %d = %s = Fritz9 %d (%s, black %s)\n", r.SP(), r, r.Fritz9(), r.German(), r.Black())
	}
	// Output:
	// SP 0 = BBQNNRKR = Fritz9 81 (LLDSSTKT, black bbqnnrkr)
	// SP 518 = RNBQKBNR = Fritz9 359 (TSLDKLST, black rnbqkbnr)
	// SP 959 = RKRNNQBB = Fritz9 928 (TKTSSDLL, black rkrnnqbb)
}

// A back rank is read in either language and any case; one that breaks a
// Chess960 rule says which, as a *RankError wrapping the rule's error.
func ExampleParseRank() {
	for _, s := range []string{"tsldklst", "rkrnnqbb", "KRRNNQBB", "BQBNNRKR", "RNBQKBN"} {
		r, err := numbering.ParseRank(s)
		var re *numbering.RankError
		switch {
		case errors.As(err, &re):
			fmt.Printf("%s: %v (ErrKing: %t)\n", re.Input, re.Err, errors.Is(err, numbering.ErrKing))
		case err != nil:
			fmt.Println(err)
		default:
			fmt.Printf("%s: SP %d, %s\n", s, r.SP(), r)
		}
	}
	// Output:
	// tsldklst: SP 518, RNBQKBNR
	// rkrnnqbb: SP 959, RKRNNQBB
	// KRRNNQBB: the king must stand between the rooks (ErrKing: true)
	// BQBNNRKR: the bishops must stand on squares of opposite colours (ErrKing: false)
	// RNBQKBN: a back rank has 8 squares (ErrKing: false)
}

// Position lists take numbers and ranges in either scheme, and give
// Scharnagl numbers.
func ExampleParseList() {
	sps, err := numbering.ParseList("0-2, 518, 960", numbering.Scharnagl)
	fmt.Println(sps, err)
	sps, err = numbering.ParseList("359,1", numbering.Fritz9)
	fmt.Println(sps, err)
	_, err = numbering.ParseList("5-3", numbering.Scharnagl)
	fmt.Println(err)
	// Output:
	// [0 1 2 518] <nil>
	// [518 32] <nil>
	// bad position list: "5-3": range ends before it starts (5 > 3)
}

// Standard chess is SP 518 and Fritz9 359; numbers out of range are errors.
func ExampleSPToFritz9() {
	f9, _ := numbering.SPToFritz9(518)
	sp, _ := numbering.Fritz9ToSP(f9)
	fmt.Println(f9, sp)
	_, err := numbering.SPToFritz9(961)
	fmt.Println(err)
	// Output:
	// 359 518
	// SP 961: number out of range (Scharnagl numbers are 0..959, or 960 for 0)
}
