#include "textflag.h"

// The walk kernel of the diagonal estimate's control variate (diag.go): a
// row of 8 probes is 64 bytes, two YMM registers, the terms added in the
// Go loop's order, so the results are bit for bit those of the Go loop.
// Column indices are int32, row pointers int.

// func adjacentSum8AVX(t, u *float64, start *int, nb *int32, n int)
TEXT ·adjacentSum8AVX(SB), NOSPLIT, $0-40
	MOVQ  t+0(FP), DI
	MOVQ  u+8(FP), SI
	MOVQ  start+16(FP), R8
	MOVQ  nb+24(FP), R9
	MOVQ  n+32(FP), CX
	TESTQ CX, CX
	JE    sdone
	MOVQ  (R8), R10

srow:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	MOVQ   8(R8), R12
	CMPQ   R10, R12
	JGE    sstore

sterm:
	MOVLQSX    512(R9)(R10*4), BX // the row 128 entries on: prefetched (block16_amd64.s)
	SHLQ       $6, BX
	PREFETCHT0 (SI)(BX*1)
	MOVLQSX (R9)(R10*4), AX
	SHLQ    $6, AX
	VADDPD  (SI)(AX*1), Y0, Y0
	VADDPD  32(SI)(AX*1), Y1, Y1
	INCQ R10
	CMPQ R10, R12
	JL   sterm

sstore:
	MOVQ    R12, R10
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    $64, DI
	ADDQ    $8, R8
	DECQ    CX
	JNE     srow

sdone:
	VZEROUPPER
	RET
