//go:build !purego

#include "textflag.h"

// func indexNibble(b []byte, s *nibbleSet) int
//
// For each block of thirty-two bytes: split the bytes into their low and
// high nibbles, look both up in s's tables (VPSHUFB, one lookup per byte),
// and AND the two; a byte is in the set where the result is not zero. The
// last block is read overlapping the one before it, so that nothing is read
// past b: its bytes already tested are known not to be in the set. len(b)
// is at least 32.
TEXT ·indexNibble(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	MOVQ s+24(FP), AX
	VBROADCASTI128 (AX), Y6   // s.lo, in both 16-byte lanes
	VBROADCASTI128 16(AX), Y7 // s.hi
	MOVQ $0x0f, DX
	MOVQ DX, X5
	VPBROADCASTB X5, Y5       // 0x0f in every byte
	VPXOR Y4, Y4, Y4          // zero
	MOVQ SI, DI               // b's start
	LEAQ -32(SI)(CX*1), BX    // the last block's start

loop:
	CMPQ SI, BX
	JA   last
	VMOVDQU (SI), Y0
	VPAND Y5, Y0, Y1
	VPSRLW $4, Y0, Y2
	VPAND Y5, Y2, Y2
	VPSHUFB Y1, Y6, Y1
	VPSHUFB Y2, Y7, Y2
	VPAND Y1, Y2, Y1
	VPCMPEQB Y4, Y1, Y1       // 0xff where a byte is not in the set
	VPMOVMSKB Y1, DX
	NOTL DX
	TESTL DX, DX
	JNZ  found
	ADDQ $32, SI
	JMP  loop

last:
	LEAQ 32(BX), R8
	CMPQ SI, R8
	JEQ  none                 // b was a whole number of blocks
	MOVQ BX, SI
	VMOVDQU (SI), Y0
	VPAND Y5, Y0, Y1
	VPSRLW $4, Y0, Y2
	VPAND Y5, Y2, Y2
	VPSHUFB Y1, Y6, Y1
	VPSHUFB Y2, Y7, Y2
	VPAND Y1, Y2, Y1
	VPCMPEQB Y4, Y1, Y1
	VPMOVMSKB Y1, DX
	NOTL DX
	TESTL DX, DX
	JNZ  found

none:
	MOVQ CX, ret+32(FP)
	VZEROUPPER
	RET

found:
	BSFL DX, DX
	SUBQ DI, SI
	ADDQ DX, SI
	MOVQ SI, ret+32(FP)
	VZEROUPPER
	RET

// func classify64(b *[64]byte, s, t *nibbleSet) (inS, inT uint64)
//
// The members of s and of t among the 64 bytes at b, as bit masks, bit k
// for b[k]: the same lookups as indexNibble's, for two sets at once.
TEXT ·classify64(SB), NOSPLIT, $0-40
	MOVQ b+0(FP), SI
	MOVQ s+8(FP), AX
	MOVQ t+16(FP), BX
	VBROADCASTI128 (AX), Y6   // s.lo
	VBROADCASTI128 16(AX), Y7 // s.hi
	VBROADCASTI128 (BX), Y8   // t.lo
	VBROADCASTI128 16(BX), Y9 // t.hi
	MOVQ $0x0f, DX
	MOVQ DX, X5
	VPBROADCASTB X5, Y5
	VPXOR Y4, Y4, Y4

	VMOVDQU (SI), Y0
	VPAND Y5, Y0, Y1
	VPSRLW $4, Y0, Y2
	VPAND Y5, Y2, Y2
	VPSHUFB Y1, Y6, Y10
	VPSHUFB Y2, Y7, Y11
	VPAND Y10, Y11, Y10
	VPCMPEQB Y4, Y10, Y10
	VPMOVMSKB Y10, AX         // bytes 0-31 not in s
	VPSHUFB Y1, Y8, Y12
	VPSHUFB Y2, Y9, Y13
	VPAND Y12, Y13, Y12
	VPCMPEQB Y4, Y12, Y12
	VPMOVMSKB Y12, BX         // bytes 0-31 not in t

	VMOVDQU 32(SI), Y0
	VPAND Y5, Y0, Y1
	VPSRLW $4, Y0, Y2
	VPAND Y5, Y2, Y2
	VPSHUFB Y1, Y6, Y10
	VPSHUFB Y2, Y7, Y11
	VPAND Y10, Y11, Y10
	VPCMPEQB Y4, Y10, Y10
	VPMOVMSKB Y10, CX         // bytes 32-63 not in s
	VPSHUFB Y1, Y8, Y12
	VPSHUFB Y2, Y9, Y13
	VPAND Y12, Y13, Y12
	VPCMPEQB Y4, Y12, Y12
	VPMOVMSKB Y12, DX         // bytes 32-63 not in t

	SHLQ $32, CX
	ORQ  CX, AX
	NOTQ AX
	SHLQ $32, DX
	ORQ  DX, BX
	NOTQ BX
	MOVQ AX, inS+24(FP)
	MOVQ BX, inT+32(FP)
	VZEROUPPER
	RET

// func plyClasses(b *[64]byte, t *[4]nibbleSet, out *[7]uint64)
//
// countPliesVector's masks of the 64 bytes at b: the members of t's four
// sets (letters, digits and dots, blanks, and the bytes it leaves to
// CountPlies' loop) by classify64's lookups, then the dots, the '{' and
// the '}' compared byte for byte.
TEXT ·plyClasses(SB), NOSPLIT, $0-24
	MOVQ b+0(FP), SI
	MOVQ t+8(FP), AX
	MOVQ out+16(FP), DI
	MOVQ $0x0f, DX
	MOVQ DX, X5
	VPBROADCASTB X5, Y5       // 0x0f
	VPXOR Y4, Y4, Y4          // zero
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VPAND Y5, Y0, Y2          // low nibbles of bytes 0-31
	VPSRLW $4, Y0, Y3
	VPAND Y5, Y3, Y3          // their high nibbles
	VPAND Y5, Y1, Y8          // low nibbles of bytes 32-63
	VPSRLW $4, Y1, Y9
	VPAND Y5, Y9, Y9          // their high nibbles
	MOVQ $4, CX

sets:
	VBROADCASTI128 (AX), Y6   // lo
	VBROADCASTI128 16(AX), Y7 // hi
	VPSHUFB Y2, Y6, Y10
	VPSHUFB Y3, Y7, Y11
	VPAND Y10, Y11, Y10
	VPCMPEQB Y4, Y10, Y10
	VPMOVMSKB Y10, BX         // bytes 0-31 not in the set
	VPSHUFB Y8, Y6, Y12
	VPSHUFB Y9, Y7, Y13
	VPAND Y12, Y13, Y12
	VPCMPEQB Y4, Y12, Y12
	VPMOVMSKB Y12, DX         // bytes 32-63 not in the set
	SHLQ $32, DX
	ORQ  DX, BX
	NOTQ BX
	MOVQ BX, (DI)
	ADDQ $32, AX
	ADDQ $8, DI
	DECQ CX
	JNZ  sets

	MOVQ $'.', DX
	MOVQ DX, X6
	VPBROADCASTB X6, Y6
	VPCMPEQB Y6, Y0, Y10
	VPMOVMSKB Y10, BX
	VPCMPEQB Y6, Y1, Y10
	VPMOVMSKB Y10, DX
	SHLQ $32, DX
	ORQ  DX, BX
	MOVQ BX, (DI)
	MOVQ $'{', DX
	MOVQ DX, X6
	VPBROADCASTB X6, Y6
	VPCMPEQB Y6, Y0, Y10
	VPMOVMSKB Y10, BX
	VPCMPEQB Y6, Y1, Y10
	VPMOVMSKB Y10, DX
	SHLQ $32, DX
	ORQ  DX, BX
	MOVQ BX, 8(DI)
	MOVQ $'}', DX
	MOVQ DX, X6
	VPBROADCASTB X6, Y6
	VPCMPEQB Y6, Y0, Y10
	VPMOVMSKB Y10, BX
	VPCMPEQB Y6, Y1, Y10
	VPMOVMSKB Y10, DX
	SHLQ $32, DX
	ORQ  DX, BX
	MOVQ BX, 16(DI)
	VZEROUPPER
	RET
