//go:build !noasm && !openblas

#include "textflag.h"

// DOT_STEP is one element l of dotChunkAVX2's sums: t[l] (at off(R11))
// times row l of the panel (at R12, two groups of four columns) added to
// the partial sums a and b, then R12 moves to row l+1.
#define DOT_STEP(off, a, b) \
	VBROADCASTSD off(R11), Y8 \
	VMULPD       (R12), Y8, Y9 \
	VADDPD       Y9, a, a \
	VMULPD       32(R12), Y8, Y10 \
	VADDPD       Y10, b, b \
	ADDQ         R8, R12

// AXPY_ROW adds a(r, l) (at p) times row l of b (Y8, Y9) to row r of the
// block (a, b), one product and one addition rounded at a time.
#define AXPY_ROW(p, a, b) \
	VBROADCASTSD (p), Y10 \
	VMULPD       Y8, Y10, Y11 \
	VADDPD       Y11, a, a \
	VMULPD       Y9, Y10, Y12 \
	VADDPD       Y12, b, b

// LOAD_ROW and STORE_ROW move one row of eight entries of c, at SI,
// into and out of (a, b).
#define LOAD_ROW(a, b) \
	VMOVUPD (SI), a \
	VMOVUPD 32(SI), b

#define STORE_ROW(a, b) \
	VMOVUPD a, (SI) \
	VMOVUPD b, 32(SI)

// func dotChunkAVX2(t *float64, zt *float64, ldz int, c *float64, k int, groups int)
//
// For each of the groups·8 consecutive columns j of c, c[j] += s_j, where
// s_j is the dot product of t[0:k] with column j of the k-row panel zt
// (row stride ldz elements), summed exactly as gonum's amd64 DotUnitary
// sums: four partial sums for the elements ≡ 0, 1, 2, 3 (mod 4) of the
// multiples of four, the remaining 1–3 elements added to the first, then
// (sum0 + sum2) + (sum1 + sum3). Products and sums are rounded separately
// (VMULPD, VADDPD; no fused multiply–add), so the result is bit-identical.
// Each YMM lane holds one column; Y0–Y3 and Y4–Y7 are the four partial sums
// of the two groups of four columns.
TEXT ·dotChunkAVX2(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), SI
	MOVQ zt+8(FP), DI
	MOVQ ldz+16(FP), R8
	SHLQ $3, R8
	MOVQ c+24(FP), DX
	MOVQ k+32(FP), R9
	MOVQ groups+40(FP), R10

group:
	TESTQ R10, R10
	JE    done
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ   SI, R11
	MOVQ   DI, R12
	MOVQ   R9, CX
	SUBQ   $4, CX
	JL     tail

loop4:
	DOT_STEP(0, Y0, Y4)
	DOT_STEP(8, Y1, Y5)
	DOT_STEP(16, Y2, Y6)
	DOT_STEP(24, Y3, Y7)
	ADDQ         $32, R11
	SUBQ         $4, CX
	JGE          loop4

tail:
	ADDQ $4, CX
	JLE  reduce

tail1:
	DOT_STEP(0, Y0, Y4)
	ADDQ         $8, R11
	DECQ         CX
	JNZ          tail1

reduce:
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y1, Y1
	VADDPD  Y1, Y0, Y0
	VADDPD  Y6, Y4, Y4
	VADDPD  Y7, Y5, Y5
	VADDPD  Y5, Y4, Y4
	VMOVUPD (DX), Y9
	VADDPD  Y0, Y9, Y9
	VMOVUPD Y9, (DX)
	VMOVUPD 32(DX), Y10
	VADDPD  Y4, Y10, Y10
	VMOVUPD Y10, 32(DX)
	ADDQ    $64, DX
	ADDQ    $64, DI
	DECQ    R10
	JMP     group

done:
	VZEROUPPER
	RET

// func axpyBlockAVX2(a *float64, sa, sl int, b *float64, ldb int, c *float64, ldc int, k int)
//
// For the 4×8 block of c (rows r = 0..3 at c + r·ldc, eight columns each),
// c[r][j] += a(r, l)·b[l][j] for l = 0, 1, …, k−1 in turn, a(r, l) at
// a + r·sa + l·sl and row l of b at b + l·ldb: the sums of gonum's
// AxpyUnitary, one product and one addition rounded at a time, made
// in the same order for every entry. Y0–Y7 hold the block.
TEXT ·axpyBlockAVX2(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), R11
	MOVQ sa+8(FP), AX
	SHLQ $3, AX
	MOVQ sl+16(FP), R8
	SHLQ $3, R8
	MOVQ b+24(FP), BX
	MOVQ ldb+32(FP), R9
	SHLQ $3, R9
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R10
	SHLQ $3, R10
	MOVQ k+56(FP), CX

	LEAQ (R11)(AX*1), R12
	LEAQ (R12)(AX*1), R13
	LEAQ (R13)(AX*1), R14

	MOVQ DX, SI
	LOAD_ROW(Y0, Y1)
	ADDQ R10, SI
	LOAD_ROW(Y2, Y3)
	ADDQ R10, SI
	LOAD_ROW(Y4, Y5)
	ADDQ R10, SI
	LOAD_ROW(Y6, Y7)

	TESTQ CX, CX
	JE    store

loop:
	VMOVUPD      (BX), Y8
	VMOVUPD      32(BX), Y9
	AXPY_ROW(R11, Y0, Y1)
	AXPY_ROW(R12, Y2, Y3)
	AXPY_ROW(R13, Y4, Y5)
	AXPY_ROW(R14, Y6, Y7)
	ADDQ         R8, R11
	ADDQ         R8, R12
	ADDQ         R8, R13
	ADDQ         R8, R14
	ADDQ         R9, BX
	DECQ         CX
	JNZ          loop

store:
	MOVQ DX, SI
	STORE_ROW(Y0, Y1)
	ADDQ R10, SI
	STORE_ROW(Y2, Y3)
	ADDQ R10, SI
	STORE_ROW(Y4, Y5)
	ADDQ R10, SI
	STORE_ROW(Y6, Y7)
	VZEROUPPER
	RET

// func axpyRowAVX2(a *float64, sl int, b *float64, ldb int, c *float64, k int)
//
// axpyBlockAVX2 for one row of sixteen columns: c[j] += a(l)·b[l][j] for
// l = 0, …, k−1 in turn, a(l) at a + l·sl. Y0–Y3 hold the row.
TEXT ·axpyRowAVX2(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), R11
	MOVQ sl+8(FP), R8
	SHLQ $3, R8
	MOVQ b+16(FP), BX
	MOVQ ldb+24(FP), R9
	SHLQ $3, R9
	MOVQ c+32(FP), DX
	MOVQ k+40(FP), CX

	VMOVUPD (DX), Y0
	VMOVUPD 32(DX), Y1
	VMOVUPD 64(DX), Y2
	VMOVUPD 96(DX), Y3

	TESTQ CX, CX
	JE    rstore

rloop:
	VBROADCASTSD (R11), Y10
	VMULPD       (BX), Y10, Y4
	VADDPD       Y4, Y0, Y0
	VMULPD       32(BX), Y10, Y5
	VADDPD       Y5, Y1, Y1
	VMULPD       64(BX), Y10, Y6
	VADDPD       Y6, Y2, Y2
	VMULPD       96(BX), Y10, Y7
	VADDPD       Y7, Y3, Y3
	ADDQ         R8, R11
	ADDQ         R9, BX
	DECQ         CX
	JNZ          rloop

rstore:
	VMOVUPD Y0, (DX)
	VMOVUPD Y1, 32(DX)
	VMOVUPD Y2, 64(DX)
	VMOVUPD Y3, 96(DX)
	VZEROUPPER
	RET
