package fen

import "math/bits"

// Castling holds castling rights per rook, as Shredder-FEN states them: for
// each side, the files of the rooks that may still castle. Naming the rook
// rather than the wing is what Chess960 needs, where a king-side rook may
// stand on any file right of the king and two rooks may share a wing. The
// zero value means no rights; Castling values can be compared with ==.
type Castling struct {
	// White and Black have bit f set (f = 0 for the a-file to 7 for the
	// h-file) when the side's rook on that file of its back rank may castle.
	White, Black uint8
}

// Has reports whether the rook on the given file (0 = a .. 7 = h) of the
// side's back rank may castle.
func (c Castling) Has(white bool, file int) bool {
	return file >= 0 && file < 8 && c.side(white)&(1<<file) != 0
}

// Files returns the files of the side's rooks that may castle, from a to h.
func (c Castling) Files(white bool) []int {
	m := c.side(white)
	files := make([]int, 0, bits.OnesCount8(m))
	for ; m != 0; m &= m - 1 {
		files = append(files, bits.TrailingZeros8(m))
	}
	return files
}

// IsEmpty reports whether neither side may castle.
func (c Castling) IsEmpty() bool { return c.White == 0 && c.Black == 0 }

// Add grants the right to castle with the side's rook on file.
func (c *Castling) Add(white bool, file int) {
	if file < 0 || file >= 8 {
		return
	}
	if white {
		c.White |= 1 << file
	} else {
		c.Black |= 1 << file
	}
}

// Remove takes away the right to castle with the side's rook on file.
func (c *Castling) Remove(white bool, file int) {
	if file < 0 || file >= 8 {
		return
	}
	if white {
		c.White &^= 1 << file
	} else {
		c.Black &^= 1 << file
	}
}

// String returns the rights in Shredder-FEN, e.g. "HAha", or "-". It needs no
// board, unlike X-FEN; see [Position.Format].
func (c Castling) String() string {
	var buf [16]byte
	return string(appendCastling(buf[:0], nil, c, Shredder))
}

func (c Castling) side(white bool) uint8 {
	if white {
		return c.White
	}
	return c.Black
}

// backRank returns the index of the a-file square of the side's back rank.
func backRank(white bool) int {
	if white {
		return 0
	}
	return 56
}

// pieceOf returns the FEN letter of the side's piece, given its upper-case
// letter.
func pieceOf(white bool, upper byte) byte {
	if white {
		return upper
	}
	return upper | 0x20
}

// kingFile returns the file of the side's king on its back rank, or -1 when
// there is none or more than one there: castling needs exactly one king
// there to tell the wings apart.
func kingFile(board *[64]byte, white bool) int {
	king, at := pieceOf(white, 'K'), -1
	for f, c := range board[backRank(white) : backRank(white)+8] {
		if c == king {
			if at >= 0 {
				return -1
			}
			at = f
		}
	}
	return at
}

// outerRook returns the file of the side's rook farthest from the king on
// its back rank on the h-side (hSide) or the a-side of the king file king,
// or -1 when that wing has no rook. This is the rook X-FEN's K and Q name.
func outerRook(board *[64]byte, white bool, king int, hSide bool) int {
	rook, rank := pieceOf(white, 'R'), board[backRank(white):backRank(white)+8]
	if hSide {
		for f := 7; f > king; f-- {
			if rank[f] == rook {
				return f
			}
		}
	} else {
		for f := 0; f < king; f++ {
			if rank[f] == rook {
				return f
			}
		}
	}
	return -1
}

// castlingRook resolves one letter of a castling field against the board:
// the side it belongs to and the file of the rook it names. ok is false for
// a letter that is no castling letter at all; file is -1 when the board has
// no such rook or no single king on the side's back rank, so there is no
// right to grant.
func castlingRook(board *[64]byte, letter byte) (white bool, file int, ok bool) {
	white = letter < 'a'
	upper := letter &^ 0x20
	if upper != 'K' && upper != 'Q' && (upper < 'A' || upper > 'H') {
		return white, -1, false
	}
	king := kingFile(board, white)
	if king < 0 {
		return white, -1, true
	}
	switch upper {
	case 'K':
		return white, outerRook(board, white, king, true), true
	case 'Q':
		return white, outerRook(board, white, king, false), true
	}
	file = int(upper - 'A')
	if board[backRank(white)+file] != pieceOf(white, 'R') {
		file = -1
	}
	return white, file, true
}

// castlingLetter is the inverse of castlingRook in the given style. board
// may be nil for Shredder.
func castlingLetter(board *[64]byte, white bool, file int, style Style) byte {
	letter := 'A' + byte(file)
	if style == XFEN && board != nil {
		if king := kingFile(board, white); king >= 0 {
			switch file {
			case outerRook(board, white, king, true):
				letter = 'K'
			case outerRook(board, white, king, false):
				letter = 'Q'
			}
		}
	}
	return pieceOf(white, letter)
}

// parseCastling reads a castling field in X-FEN, Shredder-FEN or a mixture.
// Letters that name no rook are skipped rather than rejected: such fields
// occur in real files, and the rest of the record is still good.
func parseCastling[T text](board *[64]byte, f T) (Castling, error) {
	var c Castling
	if len(f) == 1 && f[0] == '-' {
		return c, nil
	}
	for i := 0; i < len(f); i++ {
		white, file, ok := castlingRook(board, f[i])
		if !ok {
			if f[i] == '-' {
				return c, errorf("castling", "'-' among letters in %q", string(f))
			}
			return c, errorf("castling", "unknown letter %q in %q", runeAt(f, i), string(f))
		}
		c.Add(white, file)
	}
	return c, nil
}

// appendCastling writes the castling field: per side, White first, rights
// from the h-file to the a-file, so that the king-side rook comes first, as
// Stockfish and lichess write Shredder-FEN (HAha, HFhf).
func appendCastling(b []byte, board *[64]byte, c Castling, style Style) []byte {
	if c.IsEmpty() {
		return append(b, '-')
	}
	for _, white := range [2]bool{true, false} {
		for f := 7; f >= 0; f-- {
			if c.Has(white, f) {
				b = append(b, castlingLetter(board, white, f, style))
			}
		}
	}
	return b
}
