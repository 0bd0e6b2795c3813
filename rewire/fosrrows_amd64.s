//go:build amd64 && !amd64.v3 && !noasm

#include "textflag.h"

// func fosrRowsSSE2(x, isd, y, w *float64, nb, start, end *int, n int) float64
//
// For i < n in order: s = +0 plus w[nb[t]] for t = start[i], …, end[i]−1
// in order (end − start a multiple of four), y[i] = x[i] + s·isd[i], and
// the returned norm = Σ y[i]·y[i] summed in order from +0: each product
// and sum rounded on its own (scalar SSE2, never fused), as powerStep's
// Go loop under GOAMD64 below v3.
TEXT ·fosrRowsSSE2(SB), NOSPLIT, $0-72
	MOVQ x+0(FP), SI
	MOVQ isd+8(FP), R8
	MOVQ y+16(FP), DI
	MOVQ w+24(FP), DX
	MOVQ nb+32(FP), R9
	MOVQ start+40(FP), R10
	MOVQ end+48(FP), R11
	MOVQ n+56(FP), CX
	XORPD X0, X0
	XORQ AX, AX

row:
	CMPQ AX, CX
	JGE  rowsdone
	MOVQ (R10)(AX*8), BX
	MOVQ (R11)(AX*8), R12
	XORPD X1, X1

four:
	CMPQ  BX, R12
	JGE   sum
	MOVQ  (R9)(BX*8), R13
	ADDSD (DX)(R13*8), X1
	MOVQ  8(R9)(BX*8), R13
	ADDSD (DX)(R13*8), X1
	MOVQ  16(R9)(BX*8), R13
	ADDSD (DX)(R13*8), X1
	MOVQ  24(R9)(BX*8), R13
	ADDSD (DX)(R13*8), X1
	ADDQ  $4, BX
	JMP   four

sum:
	MULSD (R8)(AX*8), X1
	ADDSD (SI)(AX*8), X1
	MOVSD X1, (DI)(AX*8)
	MULSD X1, X1
	ADDSD X1, X0
	INCQ  AX
	JMP   row

rowsdone:
	MOVSD X0, ret+64(FP)
	RET
