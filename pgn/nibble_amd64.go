//go:build !purego

package pgn

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// vectorScan says the vector loops may be called: the CPU has AVX2, and
// the population count and carry-less multiply that pliesBlocks uses (every
// processor with AVX2 has them).
var vectorScan = cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT && cpu.X86.HasPCLMULQDQ

// indexNibble returns the offset of the first byte of b in s, or len(b).
// b must hold at least thirty-two bytes. It is written in assembly
// (nibble_amd64.s): Go has no vector instructions of its own.
//
//go:noescape
func indexNibble(b []byte, s *nibbleSet) int

// classify64 returns the members of s and of t among the bytes of b, as
// masks: bit k for b[k]. It is written in assembly (nibble_amd64.s).
//
//go:noescape
func classify64(b *[64]byte, s, t *nibbleSet) (inS, inT uint64)

// plyClasses sets out to countPliesVector's masks of the bytes of b: the
// members of t's four sets, then the '.', '{' and '}' bytes. It is written
// in assembly (nibble_amd64.s).
//
//go:noescape
func plyClasses(b *[64]byte, t *[4]nibbleSet, out *[7]uint64)

// tagLinesVector reads plain tag lines from data[i] on as plainTagLines'
// loop does, into tags[len(tags):cap(tags)], while each line lies within
// 64-byte windows of data, with name and value the sets notNameSet and
// plainValueSet. It returns where it stopped, the number of tags in
// tags then and the lines counted. It is written in assembly
// (nibble_amd64.s), which writes tagSpans field by field: the layout
// assertion below keeps the two in step.
//
//go:noescape
func tagLinesVector(data []byte, i int, tags []tagSpan, lines int, name, value *nibbleSet) (next, n, nlines int)

// skimVector is skimMovetext's loop, 64 bytes at a time while they last
// in data, with the tables spaceTable, nameBytes and tagBlanks and the
// set lineOrControlSet. Its verdict is skimMore, skimmed or skimGiveUp;
// with skimMore, skimMovetext's own loop goes on from p, lines line feeds
// counted. It is written in assembly (nibble_amd64.s).
//
//go:noescape
func skimVector(data []byte, i int, stop *nibbleSet, space, name, blanks *[256]bool) (p, lines, end, verdict int)

// pliesBlocks is countPliesVector's loop over the whole blocks of 64
// bytes of b from p, with the state carried from block to block in st,
// and sets plySets. It stops fewer than 64 bytes before the end of b, or
// after a block that ends inside a comment, at next; counted false says
// that a block held what the loop leaves to CountPlies' own. It is written
// in assembly (nibble_amd64.s).
//
//go:noescape
func pliesBlocks(b []byte, p int, st *plyState, sets *[4]nibbleSet) (next int, counted bool)

// The offsets of the fields of a tagSpan that tagLinesVector writes,
// checked at compile time: [N]struct{} is [0]struct{} only for N zero.
var (
	_ [0]struct{} = [unsafe.Sizeof(tagSpan{}) - 64]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(tagSpan{}.start)]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(tagSpan{}.end) - 8]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(tagSpan{}.nameStart) - 16]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(tagSpan{}.nameEnd) - 24]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(tagSpan{}.valStart) - 32]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(tagSpan{}.valEnd) - 40]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(tagSpan{}.escaped) - 48]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(tagSpan{}.line) - 56]struct{}{}

	// and of the plyState that pliesBlocks reads and writes.
	_ [0]struct{} = [unsafe.Offsetof(plyState{}.n)]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(plyState{}.inComment) - 8]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(plyState{}.afterBlank) - 16]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(plyState{}.afterDot) - 24]struct{}{}
	_ [0]struct{} = [unsafe.Offsetof(plyState{}.carry) - 32]struct{}{}
)
