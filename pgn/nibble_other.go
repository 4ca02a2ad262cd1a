//go:build !amd64 || purego

package pgn

// vectorScan is false: there is no vector loop for this architecture, or
// the purego build tag asks for none. The word-at-a-time loops run alone.
const vectorScan = false

func indexNibble(b []byte, s *nibbleSet) int { panic("pgn: no vector loop on this architecture") }

func classify64(b *[64]byte, s, t *nibbleSet) (inS, inT uint64) {
	panic("pgn: no vector loop on this architecture")
}

func plyClasses(b *[64]byte, t *[4]nibbleSet, out *[7]uint64) {
	panic("pgn: no vector loop on this architecture")
}

func tagLinesVector(data []byte, i int, tags []tagSpan, lines int, name, value *nibbleSet) (next, n, nlines int) {
	panic("pgn: no vector loop on this architecture")
}

func skimVector(data []byte, i int, stop *nibbleSet, space, name, blanks *[256]bool) (p, lines, end, verdict int) {
	panic("pgn: no vector loop on this architecture")
}

func pliesBlocks(b []byte, p int, st *plyState, sets *[4]nibbleSet) (next int, counted bool) {
	panic("pgn: no vector loop on this architecture")
}
