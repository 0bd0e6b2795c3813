#include "textflag.h"

// The sketch's distance kernel (sketch.go): ‖a − b_j‖² for four points b_j
// at once, one YMM register per point whose four lanes are Sketch.R's four
// partial sums (lane l sums the coordinates q ≡ l mod 4, q ascending, each
// difference squared and rounded, then added: never fused), then (s0 + s1)
// + (s2 + s3): bit for bit R's numbers. k is a multiple of 4.

// DIST4(off, b, acc): acc += (Y0 − b[off])², Y0 holding a's coordinates.
#define DIST4(b, acc) \
	VSUBPD (b)(AX*1), Y0, Y1; \
	VMULPD Y1, Y1, Y1; \
	VADDPD Y1, acc, acc

// HSUM(acc, dst): dst = (lane0 + lane1) + (lane2 + lane3) of acc.
#define HSUM(acc, xacc, dst) \
	VEXTRACTF128 $1, acc, X1; \
	VHADDPD      xacc, xacc, xacc; \
	VHADDPD      X1, X1, X1; \
	VADDSD       X1, xacc, xacc; \
	VMOVSD       xacc, dst

// func sqdist4AVX(out *[4]float64, a, b0, b1, b2, b3 *float64, k int)
TEXT ·sqdist4AVX(SB), NOSPLIT, $0-56
	MOVQ   out+0(FP), DI
	MOVQ   a+8(FP), SI
	MOVQ   b0+16(FP), R8
	MOVQ   b1+24(FP), R9
	MOVQ   b2+32(FP), R10
	MOVQ   b3+40(FP), R11
	MOVQ   k+48(FP), CX
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	XORQ   AX, AX
	SHLQ   $3, CX
	TESTQ  CX, CX
	JE     qdone

qloop:
	VMOVUPD (SI)(AX*1), Y0
	DIST4(R8, Y2)
	DIST4(R9, Y3)
	DIST4(R10, Y4)
	DIST4(R11, Y5)
	ADDQ    $32, AX
	CMPQ    AX, CX
	JL      qloop

qdone:
	HSUM(Y2, X2, (DI))
	HSUM(Y3, X3, 8(DI))
	HSUM(Y4, X4, 16(DI))
	HSUM(Y5, X5, 24(DI))
	VZEROUPPER
	RET
