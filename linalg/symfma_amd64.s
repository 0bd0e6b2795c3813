//go:build !noasm && !openblas

#include "textflag.h"

// ZERO_ACC clears the eight accumulators Y0–Y7.
#define ZERO_ACC \
	VXORPD Y0, Y0, Y0 \
	VXORPD Y1, Y1, Y1 \
	VXORPD Y2, Y2, Y2 \
	VXORPD Y3, Y3, Y3 \
	VXORPD Y4, Y4, Y4 \
	VXORPD Y5, Y5, Y5 \
	VXORPD Y6, Y6, Y6 \
	VXORPD Y7, Y7, Y7

// FMA_ROW multiplies the broadcast t entry at off(SI) by the panel row
// (Y8, Y9) and adds it to the accumulators a and b with fused
// multiply–adds.
#define FMA_ROW(off, a, b) \
	VBROADCASTSD off(SI), Y10 \
	VFMADD231PD  Y8, Y10, a \
	VFMADD231PD  Y9, Y10, b

// ADD_ROW adds the accumulators (a, b) to the eight entries at DX and
// moves DX to the next row of c.
#define ADD_ROW(a, b) \
	VADDPD  (DX), a, a \
	VMOVUPD a, (DX) \
	VADDPD  32(DX), b, b \
	VMOVUPD b, 32(DX) \
	ADDQ    R9, DX

// func fmaBlock4x8(tp *float64, zp *float64, k int, c *float64, ldc int)
//
// c[a][j] += Σ_l tp[4l+a]·zp[8l+j] for the 4×8 block of c (row stride ldc
// elements), a = 0..3, j = 0..7, l = 0..k−1 (k ≥ 1): tp holds four rows of
// T interleaved, zp eight rows of Z interleaved (both packed by
// addUpperTZFMA), so that both are read in order. Fused multiply–adds,
// eight accumulators.
TEXT ·fmaBlock4x8(SB), NOSPLIT, $0-40
	MOVQ tp+0(FP), SI
	MOVQ zp+8(FP), DI
	MOVQ k+16(FP), CX
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R9
	SHLQ $3, R9
	ZERO_ACC

loop:
	VMOVUPD (DI), Y8
	VMOVUPD 32(DI), Y9
	FMA_ROW(0, Y0, Y1)
	FMA_ROW(8, Y2, Y3)
	FMA_ROW(16, Y4, Y5)
	FMA_ROW(24, Y6, Y7)
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop

	ADD_ROW(Y0, Y1)
	ADD_ROW(Y2, Y3)
	ADD_ROW(Y4, Y5)
	ADD_ROW(Y6, Y7)
	VZEROUPPER
	RET

// FMA_ROWU is FMA_ROW for the row of A at SI plus the byte offset in idx
// (0 for the first row: FMA_ROW0U).
#define FMA_ROWU(idx, a, b) \
	VBROADCASTSD (SI)(idx*1), Y10 \
	VFMADD231PD  Y8, Y10, a \
	VFMADD231PD  Y9, Y10, b

// func fmaBlock4x8U(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int)
//
// c[r][j] += Σ_l a[r·lda + l]·b[l·ldb + j] for the 4×8 block of c (row
// stride ldc elements), r = 0..3, j = 0..7, l = 0..k−1 (k ≥ 1): fmaBlock4x8
// on operands read in place, four rows of A (each contiguous) and eight
// columns of B (each row contiguous).
TEXT ·fmaBlock4x8U(SB), NOSPLIT, $0-56
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
	ZERO_ACC

loopu:
	VMOVUPD (DI), Y8
	VMOVUPD 32(DI), Y9
	VBROADCASTSD (SI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	FMA_ROWU(R10, Y2, Y3)
	FMA_ROWU(R11, Y4, Y5)
	FMA_ROWU(R12, Y6, Y7)
	ADDQ $8, SI
	ADDQ R8, DI
	DECQ CX
	JNZ  loopu

	ADD_ROW(Y0, Y1)
	ADD_ROW(Y2, Y3)
	ADD_ROW(Y4, Y5)
	ADD_ROW(Y6, Y7)
	VZEROUPPER
	RET
