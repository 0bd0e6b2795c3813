//go:build !noasm && !openblas

#include "textflag.h"

// FMA_ROWS multiplies the broadcast A entry at SI plus idx by the row of B
// (Y8, Y9) and adds it to the accumulators a and b.
#define FMA_ROWS(idx, a, b) \
	VBROADCASTSD (SI)(idx*1), Y10 \
	VFMADD231PD  Y8, Y10, a \
	VFMADD231PD  Y9, Y10, b

// STORE_ROWS writes the accumulators (a, b) to the eight entries at DX and
// moves DX to the next row of c.
#define STORE_ROWS(a, b) \
	VMOVUPD a, (DX) \
	VMOVUPD b, 32(DX) \
	ADDQ    R9, DX

// func fmaBlock4x8US(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int)
//
// c[r][j] = Σ_l a[r·lda + l]·b[l·ldb + j] for the 4×8 block of c (row
// stride ldc elements), r = 0..3, j = 0..7, l = 0..k−1 (k ≥ 1):
// fmaBlock4x8U storing the block instead of adding it, so that c need not
// be cleared first.
TEXT ·fmaBlock4x8US(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R10
	SHLQ $3, R10
	LEAQ (R10)(R10*1), R11
	LEAQ (R11)(R10*1), R12
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R8
	SHLQ $3, R8
	MOVQ k+32(FP), CX
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R9
	SHLQ $3, R9
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ   AX, AX

loop:
	VMOVUPD (DI), Y8
	VMOVUPD 32(DI), Y9
	FMA_ROWS(AX, Y0, Y1)
	FMA_ROWS(R10, Y2, Y3)
	FMA_ROWS(R11, Y4, Y5)
	FMA_ROWS(R12, Y6, Y7)
	ADDQ $8, SI
	ADDQ R8, DI
	DECQ CX
	JNZ  loop

	STORE_ROWS(Y0, Y1)
	STORE_ROWS(Y2, Y3)
	STORE_ROWS(Y4, Y5)
	STORE_ROWS(Y6, Y7)
	VZEROUPPER
	RET
