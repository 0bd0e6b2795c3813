//go:build amd64 && !noasm

#include "textflag.h"

// func divAVX2(dst, a, b *float64, n int)
//
// dst[k] = a[k] / b[k] for k < n, four a step (VDIVPD rounds each quotient
// as DIVSD does), the last 0–3 one by one.
TEXT ·divAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $3, CX
	MOVQ CX, R13
	ANDQ $-32, R13
	XORQ R11, R11

div4:
	CMPQ R11, R13
	JGE  div1
	VMOVUPD (SI)(R11*1), Y0
	VMOVUPD (DX)(R11*1), Y1
	VDIVPD  Y1, Y0, Y0
	VMOVUPD Y0, (DI)(R11*1)
	ADDQ $32, R11
	JMP  div4

div1:
	CMPQ R11, CX
	JGE  divdone
	VMOVSD (SI)(R11*1), X0
	VMOVSD (DX)(R11*1), X1
	VDIVSD X1, X0, X0
	VMOVSD X0, (DI)(R11*1)
	ADDQ $8, R11
	JMP  div1

divdone:
	VZEROUPPER
	RET

// func scaleDivAVX2(dst, a *float64, n int, d float64)
//
// dst[k] = a[k] / d for k < n.
TEXT ·scaleDivAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD d+24(FP), Y1
	SHLQ $3, CX
	MOVQ CX, R13
	ANDQ $-32, R13
	XORQ R11, R11

sdiv4:
	CMPQ R11, R13
	JGE  sdiv1
	VMOVUPD (SI)(R11*1), Y0
	VDIVPD  Y1, Y0, Y0
	VMOVUPD Y0, (DI)(R11*1)
	ADDQ $32, R11
	JMP  sdiv4

sdiv1:
	CMPQ R11, CX
	JGE  sdivdone
	VMOVSD (SI)(R11*1), X0
	VDIVSD X1, X0, X0
	VMOVSD X0, (DI)(R11*1)
	ADDQ $8, R11
	JMP  sdiv1

sdivdone:
	VZEROUPPER
	RET

// func centerAVX2(x, w, sd, isd *float64, n int, dot, sum float64)
//
// For k < n: x[k] = x[k] − (dot·sd[k])/sum, then w[k] = x[k]·isd[k], each
// product, quotient and difference rounded on its own (no fused
// multiply–add), as powerStep's Go loop.
TEXT ·centerAVX2(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ sd+16(FP), DX
	MOVQ isd+24(FP), R8
	MOVQ n+32(FP), CX
	VBROADCASTSD dot+40(FP), Y14
	VBROADCASTSD sum+48(FP), Y15
	SHLQ $3, CX
	MOVQ CX, R13
	ANDQ $-32, R13
	XORQ R11, R11

c4:
	CMPQ R11, R13
	JGE  c1
	VMOVUPD (DX)(R11*1), Y0
	VMULPD  Y0, Y14, Y0
	VDIVPD  Y15, Y0, Y0
	VMOVUPD (DI)(R11*1), Y1
	VSUBPD  Y0, Y1, Y1
	VMOVUPD Y1, (DI)(R11*1)
	VMOVUPD (R8)(R11*1), Y2
	VMULPD  Y2, Y1, Y1
	VMOVUPD Y1, (SI)(R11*1)
	ADDQ $32, R11
	JMP  c4

c1:
	CMPQ R11, CX
	JGE  cdone
	VMOVSD (DX)(R11*1), X0
	VMULSD X0, X14, X0
	VDIVSD X15, X0, X0
	VMOVSD (DI)(R11*1), X1
	VSUBSD X0, X1, X1
	VMOVSD X1, (DI)(R11*1)
	VMOVSD (R8)(R11*1), X2
	VMULSD X2, X1, X1
	VMOVSD X1, (SI)(R11*1)
	ADDQ $8, R11
	JMP  c1

cdone:
	VZEROUPPER
	RET

// extremeIdx is the lanes' first indices, {0, 1, 2, 3}.
DATA extremeIdx<>+0(SB)/8, $0
DATA extremeIdx<>+8(SB)/8, $1
DATA extremeIdx<>+16(SB)/8, $2
DATA extremeIdx<>+24(SB)/8, $3
GLOBL extremeIdx<>(SB), RODATA|NOPTR, $32


// EXT_MERGE merges into the lanes Y10–Y15 (a1, a2, b1, b2, ia, ib) the
// lanes in Y0–Y5 (another lane's, permuted): a2 = min(max(a1, a1'),
// min(a2, a2')), a1 = min(a1, a1'), ia = ia' where a1' < a1, the lesser
// index where they tie; b the same way with max. The lanes hold no NaN and
// no −0, so VMINPD and VMAXPD are plain minima and maxima.
#define EXT_MERGE \
	VCMPPD    $0x11, Y10, Y0, Y6 \
	VCMPPD    $0x00, Y10, Y0, Y7 \
	VPCMPGTQ  Y4, Y14, Y8 \
	VBLENDVPD Y8, Y4, Y14, Y8 \
	VBLENDVPD Y6, Y4, Y14, Y14 \
	VBLENDVPD Y7, Y8, Y14, Y14 \
	VMAXPD    Y0, Y10, Y8 \
	VMINPD    Y1, Y11, Y11 \
	VMINPD    Y8, Y11, Y11 \
	VMINPD    Y0, Y10, Y10 \
	VCMPPD    $0x11, Y2, Y12, Y6 \
	VCMPPD    $0x00, Y12, Y2, Y7 \
	VPCMPGTQ  Y5, Y15, Y8 \
	VBLENDVPD Y8, Y5, Y15, Y8 \
	VBLENDVPD Y6, Y5, Y15, Y15 \
	VBLENDVPD Y7, Y8, Y15, Y15 \
	VMINPD    Y2, Y12, Y8 \
	VMAXPD    Y3, Y13, Y13 \
	VMAXPD    Y8, Y13, Y13 \
	VMAXPD    Y2, Y12, Y12

// func extremesAVX2(y, x, sd1 *float64, n int, st *extremeLanes)
//
// For the whole steps of four, k < n &^ 3: y[k] = x[k] / sd1[k] (VDIVPD
// rounds as DIVSD) and lane k mod 4 takes y[k] as extremes.add does —
// v < a1: (a1, a2, ia) = (v, a1, k); else v < a2: a2 = v; b1 < v:
// (b1, b2, ib) = (v, b1, k); else b2 < v: b2 = v (ordered compares: a NaN
// changes nothing) —, from a1 = a2 = b1 = b2 = 0, ia = ib = −1. The lanes
// go to st (a1, a2, b1, b2, ia, ib, four each).
TEXT ·extremesAVX2(SB), NOSPLIT, $0-40
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ sd1+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ st+32(FP), AX
	SHLQ $3, CX
	ANDQ $-32, CX
	VXORPD    Y10, Y10, Y10
	VXORPD    Y11, Y11, Y11
	VXORPD    Y12, Y12, Y12
	VXORPD    Y13, Y13, Y13
	VPCMPEQQ  Y14, Y14, Y14
	VPCMPEQQ  Y15, Y15, Y15
	VMOVDQU   extremeIdx<>(SB), Y8
	MOVQ      $4, R8
	MOVQ      R8, X9
	VPBROADCASTQ X9, Y9
	XORQ R11, R11

ext4:
	CMPQ R11, CX
	JGE  extdone
	VMOVUPD (SI)(R11*1), Y0
	VMOVUPD (DX)(R11*1), Y1
	VDIVPD  Y1, Y0, Y0
	VMOVUPD Y0, (DI)(R11*1)
	VCMPPD    $0x11, Y10, Y0, Y2 // v < a1
	VCMPPD    $0x11, Y11, Y0, Y3 // v < a2
	VBLENDVPD Y3, Y0, Y11, Y11   // a2 = v where v < a2
	VBLENDVPD Y2, Y10, Y11, Y11  // a2 = a1 where v < a1
	VBLENDVPD Y2, Y0, Y10, Y10   // a1 = v where v < a1
	VBLENDVPD Y2, Y8, Y14, Y14   // ia = k where v < a1
	VCMPPD    $0x11, Y0, Y12, Y4 // b1 < v
	VCMPPD    $0x11, Y0, Y13, Y5 // b2 < v
	VBLENDVPD Y5, Y0, Y13, Y13
	VBLENDVPD Y4, Y12, Y13, Y13
	VBLENDVPD Y4, Y0, Y12, Y12
	VBLENDVPD Y4, Y8, Y15, Y15
	VPADDQ    Y9, Y8, Y8
	ADDQ $32, R11
	JMP  ext4

extdone:
	// Merge the lanes: each with the lane PERM names (halves swapped,
	// then neighbours swapped), so that every lane ends with the scan of
	// all four.
	VPERM2F128 $1, Y10, Y10, Y0
	VPERM2F128 $1, Y11, Y11, Y1
	VPERM2F128 $1, Y12, Y12, Y2
	VPERM2F128 $1, Y13, Y13, Y3
	VPERM2F128 $1, Y14, Y14, Y4
	VPERM2F128 $1, Y15, Y15, Y5
	EXT_MERGE
	VPERMILPD $5, Y10, Y0
	VPERMILPD $5, Y11, Y1
	VPERMILPD $5, Y12, Y2
	VPERMILPD $5, Y13, Y3
	VPERMILPD $5, Y14, Y4
	VPERMILPD $5, Y15, Y5
	EXT_MERGE
	VMOVUPD Y10, 0(AX)
	VMOVUPD Y11, 32(AX)
	VMOVUPD Y12, 64(AX)
	VMOVUPD Y13, 96(AX)
	VMOVDQU Y14, 128(AX)
	VMOVDQU Y15, 160(AX)
	VZEROUPPER
	RET

// func rootsAVX2(deg, sd, isd, sd1 *float64, n int)
//
// For k < n &^ 3: sd[k] = √deg[k], isd[k] = 1/√deg[k] (+0 where deg[k] is
// 0), sd1[k] = √(deg[k] + 1), four a step; VSQRTPD and VDIVPD round as
// SQRTSD and DIVSD (correctly rounded), VADDPD as ADDSD.
TEXT ·rootsAVX2(SB), NOSPLIT, $0-40
	MOVQ deg+0(FP), SI
	MOVQ sd+8(FP), DI
	MOVQ isd+16(FP), R8
	MOVQ sd1+24(FP), R9
	MOVQ n+32(FP), CX
	SHLQ $3, CX
	ANDQ $-32, CX
	MOVQ $0x3FF0000000000000, DX
	MOVQ DX, X9
	VBROADCASTSD X9, Y9 // 1
	VXORPD Y8, Y8, Y8   // 0
	XORQ R11, R11

roots4:
	CMPQ R11, CX
	JGE  rootsdone
	VMOVUPD (SI)(R11*1), Y0
	VSQRTPD Y0, Y1
	VMOVUPD Y1, (DI)(R11*1)
	VDIVPD  Y1, Y9, Y2
	VCMPPD  $0, Y8, Y0, Y3 // deg = 0
	VANDNPD Y2, Y3, Y2
	VMOVUPD Y2, (R8)(R11*1)
	VADDPD  Y9, Y0, Y4
	VSQRTPD Y4, Y4
	VMOVUPD Y4, (R9)(R11*1)
	ADDQ $32, R11
	JMP  roots4

rootsdone:
	VZEROUPPER
	RET
