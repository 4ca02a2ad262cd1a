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
