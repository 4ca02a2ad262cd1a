package annotate

import (
	"github.com/frctool/frctool/fen"
)

// isFENComment says whether a comment's text is a quoted FEN and nothing
// else, the form of the final-position comment annotate writes, which a
// second run replaces.
func isFENComment(text []byte) bool {
	if len(text) < 2 || text[0] != '"' || text[len(text)-1] != '"' {
		return false
	}
	_, err := fen.ParseBytes(text[1 : len(text)-1])
	return err == nil
}
