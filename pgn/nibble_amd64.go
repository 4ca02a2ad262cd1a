//go:build !purego

package pgn

import "golang.org/x/sys/cpu"

// vectorScan says indexNibble may be called: the CPU has AVX2.
var vectorScan = cpu.X86.HasAVX2

// indexNibble returns the offset of the first byte of b in s, or len(b).
// b must hold at least thirty-two bytes. It is written in assembly
// (nibble_amd64.s): Go has no vector instructions of its own.
//
//go:noescape
func indexNibble(b []byte, s *nibbleSet) int
