//go:build !purego

#include "textflag.h"

// Each loop below tests 32 bytes at a time: split each byte into its low
// and high nibble, look both up in a set's tables with VPSHUFB (one lookup
// a byte, within each 16-byte lane, so the tables are loaded into both
// lanes), and AND the two answers: a byte is in the set where the result
// is not zero. Y5 holds 0x0f in every byte and Y4 zero.

// CONSTANTS sets Y5 and Y4.
#define CONSTANTS \
	MOVQ         $0x0f, DX; \
	VMOVQ        DX, X5; \
	VPBROADCASTB X5, Y5; \
	VPXOR        Y4, Y4, Y4

// SPLIT puts the low nibbles of the bytes of src in lo, their high nibbles
// in hi.
#define SPLIT(src, lo, hi) \
	VPAND  Y5, src, lo; \
	VPSRLW $4, src, hi; \
	VPAND  Y5, hi, hi

// OUTSIDE sets r to a bit for each byte, split into lo and hi, that is
// not in the set whose tables are tlo and thi; t1 and t2 are scratch.
#define OUTSIDE(lo, hi, tlo, thi, t1, t2, r) \
	VPSHUFB   lo, tlo, t1; \
	VPSHUFB   hi, thi, t2; \
	VPAND     t1, t2, t1; \
	VPCMPEQB  Y4, t1, t1; \
	VPMOVMSKB t1, r

// MEMBERS joins the bits of OUTSIDE for bytes 0-31 (low) and 32-63
// (high) into low, as the bits of the members of the set.
#define MEMBERS(low, high) \
	SHLQ $32, high; \
	ORQ  high, low; \
	NOTQ low

// WINDOW sets R10 to the members of the set in Y6 and Y7, and R11 to those
// of the set in Y8 and Y9, among the 64 bytes at R8 + w, using AX and DX.
#define WINDOW(w) \
	VMOVDQU (R8)(w*1), Y0; \
	SPLIT(Y0, Y1, Y2); \
	OUTSIDE(Y1, Y2, Y6, Y7, Y10, Y11, R10); \
	OUTSIDE(Y1, Y2, Y8, Y9, Y12, Y13, R11); \
	VMOVDQU 32(R8)(w*1), Y0; \
	SPLIT(Y0, Y1, Y2); \
	OUTSIDE(Y1, Y2, Y6, Y7, Y10, Y11, AX); \
	OUTSIDE(Y1, Y2, Y8, Y9, Y12, Y13, DX); \
	MEMBERS(R10, AX); \
	MEMBERS(R11, DX)

// TWOSETS loads the tables of the sets at s and t, registers, into Y6 and
// Y7, and Y8 and Y9.
#define TWOSETS(s, t) \
	VBROADCASTI128 (s), Y6; \
	VBROADCASTI128 16(s), Y7; \
	VBROADCASTI128 (t), Y8; \
	VBROADCASTI128 16(t), Y9

// func indexNibble(b []byte, s *nibbleSet) int
//
// The last block is read overlapping the one before it, so that nothing is
// read past b: its bytes already tested are known not to be in the set.
// len(b) is at least 32.
TEXT ·indexNibble(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	MOVQ s+24(FP), AX
	VBROADCASTI128 (AX), Y6   // s.lo
	VBROADCASTI128 16(AX), Y7 // s.hi
	CONSTANTS
	MOVQ SI, DI               // b's start
	LEAQ -32(SI)(CX*1), BX    // the last block's start

loop:
	CMPQ SI, BX
	JA   last
	VMOVDQU (SI), Y0
	SPLIT(Y0, Y1, Y2)
	OUTSIDE(Y1, Y2, Y6, Y7, Y10, Y11, DX)
	NOTL  DX
	TESTL DX, DX
	JNZ   found
	ADDQ  $32, SI
	JMP   loop

last:
	LEAQ 32(BX), R8
	CMPQ SI, R8
	JEQ  none                 // b was a whole number of blocks
	MOVQ BX, SI
	VMOVDQU (SI), Y0
	SPLIT(Y0, Y1, Y2)
	OUTSIDE(Y1, Y2, Y6, Y7, Y10, Y11, DX)
	NOTL  DX
	TESTL DX, DX
	JNZ   found

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
TEXT ·classify64(SB), NOSPLIT, $0-40
	MOVQ b+0(FP), R8
	MOVQ s+8(FP), AX
	MOVQ t+16(FP), BX
	TWOSETS(AX, BX)
	CONSTANTS
	XORQ R9, R9
	WINDOW(R9)
	MOVQ R10, inS+24(FP)
	MOVQ R11, inT+32(FP)
	VZEROUPPER
	RET

// EQUAL sets r to the bits of the 64 bytes in Y0 and Y1 that equal the
// byte c, using Y6, Y10 and DX.
#define EQUAL(c, r) \
	MOVQ         $c, DX; \
	VMOVQ        DX, X6; \
	VPBROADCASTB X6, Y6; \
	VPCMPEQB     Y6, Y0, Y10; \
	VPMOVMSKB    Y10, r; \
	VPCMPEQB     Y6, Y1, Y10; \
	VPMOVMSKB    Y10, DX; \
	SHLQ         $32, DX; \
	ORQ          DX, r

// func plyClasses(b *[64]byte, t *[4]nibbleSet, out *[7]uint64)
//
// countPliesVector's masks of the 64 bytes at b: the members of t's four
// sets (letters, digits and dots, blanks, and the bytes it leaves to
// CountPlies' loop), then the dots, the '{' and the '}'.
TEXT ·plyClasses(SB), NOSPLIT, $0-24
	MOVQ b+0(FP), SI
	MOVQ t+8(FP), AX
	MOVQ out+16(FP), DI
	CONSTANTS
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	SPLIT(Y0, Y2, Y3)         // bytes 0-31
	SPLIT(Y1, Y8, Y9)         // bytes 32-63
	MOVQ $4, CX

sets:
	VBROADCASTI128 (AX), Y6   // lo
	VBROADCASTI128 16(AX), Y7 // hi
	OUTSIDE(Y2, Y3, Y6, Y7, Y10, Y11, BX)
	OUTSIDE(Y8, Y9, Y6, Y7, Y12, Y13, DX)
	MEMBERS(BX, DX)
	MOVQ BX, (DI)
	ADDQ $32, AX
	ADDQ $8, DI
	DECQ CX
	JNZ  sets

	EQUAL('.', BX)
	MOVQ BX, (DI)
	EQUAL('{', BX)
	MOVQ BX, 8(DI)
	EQUAL('}', BX)
	MOVQ BX, 16(DI)
	VZEROUPPER
	RET

// func tagLinesVector(data []byte, i int, tags []tagSpan, lines int, name, value *nibbleSet) (next, n, nlines int)
//
// plainTagLines' loop, line by line, while each line lies in 64-byte
// windows of data: the window's masks of the bytes not in a name (name)
// and of those that end a value (value) give the name's and the value's
// ends. A window is made again once a line starts in its second half or a
// value runs past it. The fields of tags[n] are written as they are found;
// n counts the tag only once its line is whole and plain. It stops at the
// first line it does not take whole, for plainTagLines' own loop, and when
// tags is full: n is then cap(tags).
//
// Registers: R8 data, R9 len(data), SI the line's start (i), DI &tags[n],
// R12 &tags[cap(tags)], R13 lines, R14 the window's start, R10 and R11 its
// masks; AX, BX, CX and DX are scratch.
TEXT ·tagLinesVector(SB), NOSPLIT, $0-104
	MOVQ data_base+0(FP), R8
	MOVQ data_len+8(FP), R9
	MOVQ i+24(FP), SI
	MOVQ tags_base+32(FP), DI
	MOVQ tags_len+40(FP), AX
	SHLQ $6, AX
	ADDQ AX, DI
	MOVQ tags_cap+48(FP), R12
	SHLQ $6, R12
	ADDQ tags_base+32(FP), R12
	MOVQ lines+56(FP), R13
	MOVQ name+64(FP), AX
	MOVQ value+72(FP), BX
	TWOSETS(AX, BX)
	CONSTANTS
	MOVQ $-64, R14            // no window yet

line:
	CMPQ DI, R12
	JAE  done                 // tags is full
	LEAQ 64(SI), AX
	CMPQ AX, R9
	JA   done                 // the line's window would pass the end
	CMPB (R8)(SI*1), $'['
	JNE  done
	MOVQ SI, AX
	SUBQ R14, AX
	CMPQ AX, $32
	JB   named                // the line starts in the window's first half
	MOVQ SI, R14
	WINDOW(R14)

named:
	MOVQ SI, 0(DI)            // start
	LEAQ 1(SI), AX
	MOVQ AX, 16(DI)           // nameStart
	MOVQ AX, CX
	SUBQ R14, CX              // 1 to 32
	MOVQ R10, BX
	SHRQ CX, BX
	BSFQ BX, BX
	JZ   done                 // the name runs past the window
	TESTQ BX, BX
	JZ   done                 // no name
	ADDQ AX, BX               // nameEnd
	LEAQ 1(BX), DX
	CMPQ DX, R9
	JAE  done
	CMPW (R8)(BX*1), $0x2220  // ` "`
	JNE  done
	MOVQ BX, 24(DI)           // nameEnd
	ADDQ $2, BX
	MOVQ BX, 32(DI)           // valStart
	MOVQ BX, CX
	SUBQ R14, CX
	CMPQ CX, $64
	JAE  valueWindow          // the value starts past the window
	MOVQ R11, DX
	SHRQ CX, DX
	BSFQ DX, DX
	JNZ  valueEnd

valueWindow:
	LEAQ 64(BX), AX
	CMPQ AX, R9
	JA   done
	MOVQ BX, R14
	WINDOW(R14)
	BSFQ R11, DX
	JZ   done                 // a value of 64 bytes or more

valueEnd:
	ADDQ BX, DX               // valEnd
	LEAQ 4(DX), AX
	CMPQ AX, R9
	JA   done
	MOVL (R8)(DX*1), AX
	CMPW AX, $0x5d22          // `"]`
	JNE  done
	SHRL $16, AX
	CMPB AX, $'\n'
	JEQ  lf
	CMPW AX, $0x0a0d          // "\r\n"
	JNE  done
	LEAQ 4(DX), AX
	JMP  whole

lf:
	LEAQ 3(DX), AX

whole:
	MOVQ DX, 40(DI)           // valEnd
	ADDQ $2, DX
	MOVQ DX, 8(DI)            // end
	MOVQ $0, 48(DI)           // escaped false
	MOVQ R13, 56(DI)          // line
	INCQ R13
	ADDQ $64, DI
	MOVQ AX, SI
	JMP  line

done:
	MOVQ SI, next+80(FP)
	SUBQ tags_base+32(FP), DI
	SHRQ $6, DI
	MOVQ DI, n+88(FP)
	MOVQ R13, nlines+96(FP)
	VZEROUPPER
	RET

// func skimVector(data []byte, i int, stop *nibbleSet, space, name, blanks *[256]bool) (p, lines, end, verdict int)
//
// skimMovetext's loop over the lines of the movetext at data[i], 64 bytes
// at a time, while a block of 64 lies within data: the block's masks of
// the bytes in stop (line feeds, other blanks, control bytes) and of the
// braces give each stop in turn, and the last '{' and '}' before a line.
// space, name and blanks are spaceTable, nameBytes and tagBlanks. The
// verdict is skimMore, skimmed (the next game starts at end) or
// skimGiveUp; with skimMore the loop stopped at p, having counted lines
// line feeds, fewer than 64 bytes before the end of data.
//
// Registers: R8 data, R9 len(data), SI the block's start, R13 lines, R10
// and R11 the last '{' and '}' of the blocks before (-1: none), R12 the
// block's stops not yet handled, BX its '{' and DX its '}'; DI the stop's
// offset; AX, CX and R14 are scratch.
TEXT ·skimVector(SB), NOSPLIT, $0-96
	MOVQ data_base+0(FP), R8
	MOVQ data_len+8(FP), R9
	MOVQ i+24(FP), SI
	MOVQ stop+32(FP), AX
	VBROADCASTI128 (AX), Y7   // stop.lo
	VBROADCASTI128 16(AX), Y8 // stop.hi
	CONSTANTS
	MOVQ $'{', AX
	VMOVQ AX, X12
	VPBROADCASTB X12, Y12
	MOVQ $'}', AX
	VMOVQ AX, X13
	VPBROADCASTB X13, Y13
	XORQ R13, R13
	MOVQ $-1, R10
	MOVQ $-1, R11

block:
	LEAQ 64(SI), AX
	CMPQ AX, R9
	JA   more
	VMOVDQU (R8)(SI*1), Y0
	VMOVDQU 32(R8)(SI*1), Y1
	SPLIT(Y0, Y2, Y3)
	OUTSIDE(Y2, Y3, Y7, Y8, Y10, Y11, R12)
	SPLIT(Y1, Y2, Y3)
	OUTSIDE(Y2, Y3, Y7, Y8, Y10, Y11, AX)
	MEMBERS(R12, AX)
	VPCMPEQB  Y12, Y0, Y10
	VPMOVMSKB Y10, BX
	VPCMPEQB  Y12, Y1, Y10
	VPMOVMSKB Y10, AX
	SHLQ      $32, AX
	ORQ       AX, BX
	VPCMPEQB  Y13, Y0, Y10
	VPMOVMSKB Y10, DX
	VPCMPEQB  Y13, Y1, Y10
	VPMOVMSKB Y10, AX
	SHLQ      $32, AX
	ORQ       AX, DX

stop:
	TESTQ R12, R12
	JZ    next
	BSFQ  R12, CX             // the stop's bit
	LEAQ  (SI)(CX*1), DI      // and offset
	LEAQ  2(DI), AX
	CMPQ  AX, R9
	JAE   giveUp              // too near the end of data to tell
	MOVBLZX (R8)(DI*1), AX
	CMPB  AX, $'\n'
	JEQ   newline
	MOVQ  space+40(FP), R14
	CMPB  (R14)(AX*1), $0
	JEQ   giveUp              // a control byte
	JMP   handled

newline:
	INCQ    R13
	MOVBLZX 1(R8)(DI*1), AX
	CMPB    AX, $'['
	JNE     notBracket
	MOVBLZX 2(R8)(DI*1), AX
	MOVL    AX, R14
	ORL     $0x20, R14
	SUBL    $'a', R14
	CMPL    R14, $26
	JB      tag               // '[' and a letter
	MOVQ    name+48(FP), R14
	CMPB    (R14)(AX*1), $0
	JNE     giveUp            // not a tag, but a sign of a comment left open
	JMP     handled           // "[%clk ...]" and the like

notBracket:
	CMPB AX, $'%'
	JEQ  giveUp
	MOVQ blanks+56(FP), R14
	CMPB (R14)(AX*1), $0
	JNE  giveUp

handled:
	LEAQ -1(R12), AX
	ANDQ AX, R12
	JMP  stop

tag:
	// The next game, unless the line lies in a comment: the last '{'
	// before it comes after the last '}'. CX is the stop's bit.
	MOVQ $2, AX
	SHLQ CX, AX
	DECQ AX                   // the bits up to the stop's
	MOVQ BX, R14
	ANDQ AX, R14
	JZ   lastOpen
	BSRQ R14, R14
	ADDQ SI, R14
	JMP  closes

lastOpen:
	MOVQ R10, R14

closes:
	MOVQ DX, CX
	ANDQ AX, CX
	JZ   lastClose
	BSRQ CX, CX
	ADDQ SI, CX
	JMP  compare

lastClose:
	MOVQ R11, CX

compare:
	CMPQ R14, CX
	JGT  giveUp
	INCQ DI
	MOVQ DI, end+80(FP)
	MOVQ $1, verdict+88(FP)   // skimmed
	JMP  out

next:
	TESTQ BX, BX
	JZ    noOpen
	BSRQ  BX, R10
	ADDQ  SI, R10

noOpen:
	TESTQ DX, DX
	JZ    noClose
	BSRQ  DX, R11
	ADDQ  SI, R11

noClose:
	ADDQ $64, SI
	JMP  block

more:
	MOVQ $0, verdict+88(FP)   // skimMore
	JMP  out

giveUp:
	MOVQ $2, verdict+88(FP)   // skimGiveUp

out:
	MOVQ SI, p+64(FP)
	MOVQ R13, lines+72(FP)
	VZEROUPPER
	RET

// SETMEMBERS sets r to the members, among the 64 bytes split into Y2 and
// Y3 (bytes 0-31) and Y8 and Y9 (32-63), of the set at off(AX), using CX.
#define SETMEMBERS(off, r) \
	VBROADCASTI128 off(AX), Y6; \
	VBROADCASTI128 off+16(AX), Y7; \
	OUTSIDE(Y2, Y3, Y6, Y7, Y10, Y11, r); \
	OUTSIDE(Y8, Y9, Y6, Y7, Y12, Y13, CX); \
	MEMBERS(r, CX)

// func pliesBlocks(b []byte, p int, st *plyState, sets *[4]nibbleSet) (next int, counted bool)
//
// countPliesVector's loop over whole blocks of 64 bytes of b from p, the
// block's masks made as plyClasses makes them and the block counted as
// the loop counts it, with the state carried from block to block in st.
// It stops fewer than 64 bytes before the end of b, or after a block that
// ends inside a comment, for countPliesVector to go on from next; counted
// false says a block held what the loop leaves to CountPlies' own.
//
// Registers: SI b, R9 len(b), DI p, R8 st; the block's masks R10 letters,
// R11 digits and dots, R12 blanks, R13 others, R14 dots, BX '{' and DX
// '}'; AX and CX are scratch; X14 holds all ones, for the prefix XOR.
TEXT ·pliesBlocks(SB), NOSPLIT, $0-57
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), R9
	MOVQ p+24(FP), DI
	MOVQ st+32(FP), R8
	CONSTANTS
	MOVQ $-1, AX
	VMOVQ AX, X14

block:
	LEAQ 64(DI), AX
	CMPQ AX, R9
	JA   stop
	MOVQ sets+40(FP), AX
	VMOVDQU (SI)(DI*1), Y0
	VMOVDQU 32(SI)(DI*1), Y1
	SPLIT(Y0, Y2, Y3)         // bytes 0-31
	SPLIT(Y1, Y8, Y9)         // bytes 32-63
	SETMEMBERS(0, R10)
	SETMEMBERS(32, R11)
	SETMEMBERS(64, R12)
	SETMEMBERS(96, R13)
	EQUAL('.', R14)
	EQUAL('{', BX)
	EQUAL('}', AX)
	MOVQ AX, DX

	// in: 1 after each byte where a comment is open, the prefix XOR of
	// the braces and the comment open before the block.
	MOVQ  BX, AX
	ORQ   DX, AX              // braces
	VMOVQ AX, X13
	VPCLMULQDQ $0x00, X14, X13, X13
	VMOVQ X13, CX
	XORQ  8(R8), CX           // in
	TESTQ CX, DX
	JNZ   bail                // a '}' outside a comment
	MOVQ  CX, DX
	NOTQ  DX
	TESTQ DX, BX
	JNZ   bail                // a '{' inside a comment
	MOVQ  CX, BX
	SARQ  $63, BX
	MOVQ  BX, 8(R8)           // the comment open after the block
	MOVQ  CX, DX
	ORQ   AX, DX
	NOTQ  DX                  // outside: neither in a comment nor a brace
	TESTQ DX, R13
	JNZ   bail                // a byte left to the loop, outside comments
	ORQ   AX, R12             // ends: blanks and braces end a word
	// starts: the first bytes of words outside comments.
	MOVQ  R12, AX
	SHLQ  $1, AX
	ORQ   16(R8), AX
	ANDQ  DX, AX
	MOVQ  R12, CX
	NOTQ  CX
	ANDQ  CX, AX
	MOVQ  R10, CX
	ORQ   R11, CX
	NOTQ  CX
	TESTQ CX, AX
	JNZ   bail                // a word that starts with neither
	MOVQ  AX, CX
	ANDQ  R10, CX
	POPCNTQ CX, CX
	ADDQ  CX, 0(R8)           // words that start with a letter are moves
	// A word that starts with a digit or a dot: adding its first bit to
	// the run of them carries past the run, to the byte after it.
	ANDQ  R11, AX
	MOVQ  32(R8), CX
	NEGQ  CX                  // the carry into the block, in CF
	MOVQ  R11, BX
	ADCQ  AX, BX              // sum
	SBBQ  CX, CX
	NEGQ  CX
	MOVQ  CX, 32(R8)          // the carry out of the block
	MOVQ  R11, CX
	NOTQ  CX
	ANDQ  CX, BX              // after: the bytes after the runs
	MOVQ  R14, CX
	SHLQ  $1, CX
	ORQ   24(R8), CX
	ANDQ  R10, CX
	ANDQ  BX, CX              // glued: a move right after a number's dots
	MOVQ  R12, AX
	ORQ   CX, AX
	NOTQ  AX
	TESTQ AX, BX
	JNZ   bail                // a run followed by something else
	POPCNTQ CX, CX
	ADDQ  CX, 0(R8)
	SHRQ  $63, R12
	MOVQ  R12, 16(R8)         // the block ends with a blank or brace
	SHRQ  $63, R14
	MOVQ  R14, 24(R8)         // the block ends with a dot
	ADDQ  $64, DI
	CMPQ  8(R8), $0
	JEQ   block               // no comment open: on to the next block

stop:
	MOVQ DI, next+48(FP)
	MOVB $1, counted+56(FP)
	VZEROUPPER
	RET

bail:
	MOVQ DI, next+48(FP)
	MOVB $0, counted+56(FP)
	VZEROUPPER
	RET
