//go:build amd64 && !amd64.v3 && !noasm

#include "textflag.h"

// func fosrRowsSSE2(x, isd, y, w *float64, lists *[]int, loop *bool, n int) float64
//
// For i < n in order: s = +0 plus w[j] for the entries j of lists[i] in
// order, then w[i] when loop[i]; y[i] = x[i] + s·isd[i]; and the returned
// norm = Σ y[i]·y[i] in order from +0. Each product and sum is rounded on
// its own (scalar SSE2, never fused), as powerStep's Go loop under GOAMD64
// below v3. A list is taken four entries a step without a branch on its
// length inside the step: entry t < len is read (t clamped to len − 1, so
// nothing past the list is read), entry t ≥ len is replaced by n (CMOV),
// whose w[n] = +0 changes no sum (s starts at +0, and a sum of doubles is
// then never −0). The steps a list takes vary less than its length does,
// so the loop mispredicts less than one entry at a time would.
TEXT ·fosrRowsSSE2(SB), NOSPLIT, $0-64
	MOVQ x+0(FP), SI
	MOVQ isd+8(FP), R8
	MOVQ y+16(FP), DI
	MOVQ w+24(FP), DX
	MOVQ lists+32(FP), R9
	MOVQ loop+40(FP), R10
	MOVQ n+48(FP), CX
	XORPD X0, X0
	XORQ AX, AX

row:
	CMPQ AX, CX
	JGE  rowsdone
	MOVQ 0(R9), R11 // the list's data
	MOVQ 8(R9), R12 // its length
	XORPD X1, X1
	XORQ BX, BX     // t
	LEAQ -1(R12), R15

four:
	CMPQ BX, R12
	JGE  self
	// entries t, t+1, t+2, t+3
	MOVQ   BX, R13
	CMPQ   R13, R15
	CMOVQGT R15, R13
	MOVQ   (R11)(R13*8), R14
	CMPQ   BX, R12
	CMOVQGE CX, R14
	ADDSD  (DX)(R14*8), X1
	LEAQ   1(BX), R13
	MOVQ   R13, R14
	CMPQ   R14, R15
	CMOVQGT R15, R14
	MOVQ   (R11)(R14*8), R14
	CMPQ   R13, R12
	CMOVQGE CX, R14
	ADDSD  (DX)(R14*8), X1
	LEAQ   2(BX), R13
	MOVQ   R13, R14
	CMPQ   R14, R15
	CMOVQGT R15, R14
	MOVQ   (R11)(R14*8), R14
	CMPQ   R13, R12
	CMOVQGE CX, R14
	ADDSD  (DX)(R14*8), X1
	LEAQ   3(BX), R13
	MOVQ   R13, R14
	CMPQ   R14, R15
	CMOVQGT R15, R14
	MOVQ   (R11)(R14*8), R14
	CMPQ   R13, R12
	CMOVQGE CX, R14
	ADDSD  (DX)(R14*8), X1
	ADDQ   $4, BX
	JMP    four

self:
	MOVBQZX (R10)(AX*1), R13
	TESTQ   R13, R13
	JE      sum
	ADDSD   (DX)(AX*8), X1

sum:
	MULSD (R8)(AX*8), X1
	ADDSD (SI)(AX*8), X1
	MOVSD X1, (DI)(AX*8)
	MULSD X1, X1
	ADDSD X1, X0
	ADDQ  $24, R9
	INCQ  AX
	JMP   row

rowsdone:
	MOVSD X0, ret+56(FP)
	RET
