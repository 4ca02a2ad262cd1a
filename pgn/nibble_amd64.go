//go:build !purego

package pgn

import "golang.org/x/sys/cpu"

// vectorScan says the vector loops may be called: the CPU has AVX2.
var vectorScan = cpu.X86.HasAVX2

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
