package csvfield_test

import (
	"fmt"

	"github.com/frctool/frctool/internal/csvfield"
)

// Write a row of three fields, one of which needs quotes.
func Example() {
	var row []byte
	for i, f := range []string{"518", `Kasparov, "Garry"`, "RNBQKBNR"} {
		if i > 0 {
			row = append(row, ',')
		}
		row = csvfield.Append(row, []byte(f))
	}
	fmt.Println(string(row))
	// Output: 518,"Kasparov, ""Garry""",RNBQKBNR
}
