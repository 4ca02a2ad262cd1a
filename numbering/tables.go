package numbering

// The reference tables of the seed documents. They are computed here from the
// same arithmetic as the conversions rather than typed in, so that they cannot
// drift from it; the tests hold them against a transcription of the seed.

// KingRow is one row of Scharnagl's King's table: the 60 ways to place the six
// pieces other than the bishops. Adding a bishop code (0..15, see
// [BishopTable]) to SP gives the 16 start positions sharing the row.
type KingRow struct {
	SP     int    // the row's number, a multiple of 16: the SP with bishops on a1 and b1
	Pieces string // the six other pieces in file order, e.g. "RNQKNR" for SP 512
}

// BishopRow is one row of the Bishop's table.
type BishopRow struct {
	Code    int    // the bishop code, 0..15: SP mod 16, and Fritz9 number - 1 mod 16
	Squares string // files a..h, "B" for a bishop and "-" otherwise, e.g. "--B--B--"
}

// SkeletonRow is one entry of an NQ-skeleton table. The skeleton is the rank
// without its bishops and with king and rooks written "-": standard chess has
// "-NQ-N-". The 16 start positions sharing a skeleton differ in their bishops
// only, and number Number plus their bishop code.
type SkeletonRow struct {
	Number   int    // Scharnagl: the SP with bishops on a1 and b1; Fritz9: its Fritz9 number
	Skeleton string // six of "N", "Q", "-"
}

// Table sizes: 60 placements of the non-bishop pieces, 16 of the bishops.
const (
	KingRows   = Count / 16
	BishopRows = 16
)

// KingTable returns the King's table, 60 rows in SP order (0, 16, ..., 944).
func KingTable() []KingRow {
	rows := make([]KingRow, KingRows)
	for m := range rows {
		r := decodeSP(16 * m)
		rows[m] = KingRow{SP: 16 * m, Pieces: string(r[2:])} // bishop code 0 is a1, b1
	}
	return rows
}

// BishopTable returns the Bishop's table, rows in code order 0..15.
func BishopTable() []BishopRow {
	rows := make([]BishopRow, BishopRows)
	for code := range rows {
		sq := []byte("--------")
		sq[2*(code%4)+1] = 'B' // light squares b, d, f, h
		sq[2*(code/4)] = 'B'   // dark squares a, c, e, g
		rows[code] = BishopRow{Code: code, Squares: string(sq)}
	}
	return rows
}

// SkeletonTable returns Scharnagl's NQ-skeleton table, 60 entries in SP order
// (0, 16, ..., 944): the queen's place among six squares varies fastest, then
// the knights' pair among the five left (the N5N code).
func SkeletonTable() []SkeletonRow {
	rows := make([]SkeletonRow, KingRows)
	for m := range rows {
		rows[m] = SkeletonRow{Number: 16 * m, Skeleton: skeleton(decodeSP(16 * m))}
	}
	return rows
}

// Fritz9SkeletonTable returns the Fritz9 NQ-skeleton table, 60 entries in
// Fritz9 order (1, 17, ..., 945): the knights' pair among six squares varies
// fastest, then the queen's place among the four left.
func Fritz9SkeletonTable() []SkeletonRow {
	rows := make([]SkeletonRow, KingRows)
	for m := range rows {
		f := 1 + 16*m
		rows[m] = SkeletonRow{Number: f, Skeleton: skeleton(decodeFritz9(f))}
	}
	return rows
}

// skeleton returns the NQ-skeleton of r: the six non-bishop squares with
// knights and queen kept and king and rooks written "-".
func skeleton(r Rank) string {
	var s [6]byte
	n := 0
	for _, p := range r {
		switch p {
		case 'B':
			continue
		case 'N', 'Q':
			s[n] = p
		default:
			s[n] = '-'
		}
		n++
	}
	return string(s[:])
}
