#include "textflag.h"
#include "masks512_amd64.h"

// BatchNorm's row loops (batchnorm.go) in AVX-512 on blocks of at most 32
// columns: four ZMM registers of 8 doubles, the lanes beyond the block's
// width masked (K1–K4; masked loads read nothing there and fault on
// nothing). Every entry is computed with the operations of the Go loops,
// in their order, each rounded (no fused multiply–add), and every sum runs
// over the rows in ascending order: the bits of the Go loops.

// func bnSqDev32(dst, src *float64, n, ss int, mean *float64, w int)
//
// dst[k] += (src[i·ss+k] − mean[k])² for i = 0 … n−1 in order, k < w.
TEXT ·bnSqDev32(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), R9
	MOVQ ss+24(FP), R8
	SHLQ $3, R8
	MOVQ mean+32(FP), BX
	KMASKS32(w+40(FP))
	VMOVUPD.Z 0(DI), K1, Z0
	VMOVUPD.Z 64(DI), K2, Z1
	VMOVUPD.Z 128(DI), K3, Z2
	VMOVUPD.Z 192(DI), K4, Z3
	VMOVUPD.Z 0(BX), K1, Z8
	VMOVUPD.Z 64(BX), K2, Z9
	VMOVUPD.Z 128(BX), K3, Z10
	VMOVUPD.Z 192(BX), K4, Z11
	TESTQ R9, R9
	JE donesq
rowsq:
	VMOVUPD.Z 0(SI), K1, Z4
	VMOVUPD.Z 64(SI), K2, Z5
	VMOVUPD.Z 128(SI), K3, Z6
	VMOVUPD.Z 192(SI), K4, Z7
	VSUBPD Z8, Z4, Z4
	VSUBPD Z9, Z5, Z5
	VSUBPD Z10, Z6, Z6
	VSUBPD Z11, Z7, Z7
	VMULPD Z4, Z4, Z4
	VMULPD Z5, Z5, Z5
	VMULPD Z6, Z6, Z6
	VMULPD Z7, Z7, Z7
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	VADDPD Z6, Z2, Z2
	VADDPD Z7, Z3, Z3
	ADDQ R8, SI
	DECQ R9
	JNE rowsq
donesq:
	VMOVUPD Z0, K1, 0(DI)
	VMOVUPD Z1, K2, 64(DI)
	VMOVUPD Z2, K3, 128(DI)
	VMOVUPD Z3, K4, 192(DI)
	VZEROUPPER
	RET

// func bnNorm32(x, xh, y *float64, n, ss int, mean, inv, gamma, beta *float64, relu bool, w int)
//
// For every row i < n and column k < w: h = (x − mean[k])·inv[k] into xh,
// gamma[k]·h + beta[k] into y, or max(0, that) + 0 (Go's max(that, 0))
// when relu (all three with row stride ss).
TEXT ·bnNorm32(SB), NOSPLIT, $0-88
	MOVQ x+0(FP), SI
	MOVQ xh+8(FP), DI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), R9
	MOVQ ss+32(FP), R8
	SHLQ $3, R8
	KMASKS32(w+80(FP))
	MOVBQZX relu+72(FP), R10
	VPXORQ Z24, Z24, Z24
	MOVQ mean+40(FP), BX
	VMOVUPD.Z 0(BX), K1, Z8
	VMOVUPD.Z 64(BX), K2, Z9
	VMOVUPD.Z 128(BX), K3, Z10
	VMOVUPD.Z 192(BX), K4, Z11
	MOVQ inv+48(FP), BX
	VMOVUPD.Z 0(BX), K1, Z12
	VMOVUPD.Z 64(BX), K2, Z13
	VMOVUPD.Z 128(BX), K3, Z14
	VMOVUPD.Z 192(BX), K4, Z15
	MOVQ gamma+56(FP), BX
	VMOVUPD.Z 0(BX), K1, Z16
	VMOVUPD.Z 64(BX), K2, Z17
	VMOVUPD.Z 128(BX), K3, Z18
	VMOVUPD.Z 192(BX), K4, Z19
	MOVQ beta+64(FP), BX
	VMOVUPD.Z 0(BX), K1, Z20
	VMOVUPD.Z 64(BX), K2, Z21
	VMOVUPD.Z 128(BX), K3, Z22
	VMOVUPD.Z 192(BX), K4, Z23
	TESTQ R9, R9
	JE donenorm
rownorm:
	VMOVUPD.Z 0(SI), K1, Z0
	VMOVUPD.Z 64(SI), K2, Z1
	VMOVUPD.Z 128(SI), K3, Z2
	VMOVUPD.Z 192(SI), K4, Z3
	VSUBPD Z8, Z0, Z0
	VSUBPD Z9, Z1, Z1
	VSUBPD Z10, Z2, Z2
	VSUBPD Z11, Z3, Z3
	VMULPD Z12, Z0, Z0
	VMULPD Z13, Z1, Z1
	VMULPD Z14, Z2, Z2
	VMULPD Z15, Z3, Z3
	VMOVUPD Z0, K1, 0(DI)
	VMOVUPD Z1, K2, 64(DI)
	VMOVUPD Z2, K3, 128(DI)
	VMOVUPD Z3, K4, 192(DI)
	VMULPD Z16, Z0, Z0
	VMULPD Z17, Z1, Z1
	VMULPD Z18, Z2, Z2
	VMULPD Z19, Z3, Z3
	VADDPD Z20, Z0, Z0
	VADDPD Z21, Z1, Z1
	VADDPD Z22, Z2, Z2
	VADDPD Z23, Z3, Z3
	TESTQ R10, R10
	JE storenorm
	VMAXPD Z0, Z24, Z0
	VMAXPD Z1, Z24, Z1
	VMAXPD Z2, Z24, Z2
	VMAXPD Z3, Z24, Z3
	VADDPD Z24, Z0, Z0
	VADDPD Z24, Z1, Z1
	VADDPD Z24, Z2, Z2
	VADDPD Z24, Z3, Z3
storenorm:
	VMOVUPD Z0, K1, 0(DX)
	VMOVUPD Z1, K2, 64(DX)
	VMOVUPD Z2, K3, 128(DX)
	VMOVUPD Z3, K4, 192(DX)
	ADDQ R8, SI
	ADDQ R8, DI
	ADDQ R8, DX
	DECQ R9
	JNE rownorm
donenorm:
	VZEROUPPER
	RET

// func bnSumDot32(sum, dot, d, h *float64, n, ss, w int)
//
// sum[k] += d[i·ss+k] and dot[k] += d[i·ss+k]·h[i·ss+k] for i = 0 … n−1 in
// order, k < w.
TEXT ·bnSumDot32(SB), NOSPLIT, $0-56
	MOVQ sum+0(FP), DI
	MOVQ dot+8(FP), DX
	MOVQ d+16(FP), SI
	MOVQ h+24(FP), BX
	MOVQ n+32(FP), R9
	MOVQ ss+40(FP), R8
	SHLQ $3, R8
	KMASKS32(w+48(FP))
	VMOVUPD.Z 0(DI), K1, Z0
	VMOVUPD.Z 64(DI), K2, Z1
	VMOVUPD.Z 128(DI), K3, Z2
	VMOVUPD.Z 192(DI), K4, Z3
	VMOVUPD.Z 0(DX), K1, Z4
	VMOVUPD.Z 64(DX), K2, Z5
	VMOVUPD.Z 128(DX), K3, Z6
	VMOVUPD.Z 192(DX), K4, Z7
	TESTQ R9, R9
	JE donesd
rowsd:
	VMOVUPD.Z 0(SI), K1, Z8
	VMOVUPD.Z 64(SI), K2, Z9
	VMOVUPD.Z 128(SI), K3, Z10
	VMOVUPD.Z 192(SI), K4, Z11
	VMOVUPD.Z 0(BX), K1, Z12
	VMOVUPD.Z 64(BX), K2, Z13
	VMOVUPD.Z 128(BX), K3, Z14
	VMOVUPD.Z 192(BX), K4, Z15
	VADDPD Z8, Z0, Z0
	VADDPD Z9, Z1, Z1
	VADDPD Z10, Z2, Z2
	VADDPD Z11, Z3, Z3
	VMULPD Z8, Z12, Z12
	VMULPD Z9, Z13, Z13
	VMULPD Z10, Z14, Z14
	VMULPD Z11, Z15, Z15
	VADDPD Z12, Z4, Z4
	VADDPD Z13, Z5, Z5
	VADDPD Z14, Z6, Z6
	VADDPD Z15, Z7, Z7
	ADDQ R8, SI
	ADDQ R8, BX
	DECQ R9
	JNE rowsd
donesd:
	VMOVUPD Z0, K1, 0(DI)
	VMOVUPD Z1, K2, 64(DI)
	VMOVUPD Z2, K3, 128(DI)
	VMOVUPD Z3, K4, 192(DI)
	VMOVUPD Z4, K1, 0(DX)
	VMOVUPD Z5, K2, 64(DX)
	VMOVUPD Z6, K3, 128(DX)
	VMOVUPD Z7, K4, 192(DX)
	VZEROUPPER
	RET

// func bnGrad32(dx, d, h *float64, n, ss int, a, sum, dot *float64, fn float64, w int)
//
// dx = a[k]·((fn·d − sum[k]) − h·dot[k]) for every row i < n and column
// k < w (all three with row stride ss).
TEXT ·bnGrad32(SB), NOSPLIT, $0-80
	MOVQ dx+0(FP), DI
	MOVQ d+8(FP), SI
	MOVQ h+16(FP), DX
	MOVQ n+24(FP), R9
	MOVQ ss+32(FP), R8
	SHLQ $3, R8
	KMASKS32(w+72(FP))
	MOVQ a+40(FP), BX
	VMOVUPD.Z 0(BX), K1, Z16
	VMOVUPD.Z 64(BX), K2, Z17
	VMOVUPD.Z 128(BX), K3, Z18
	VMOVUPD.Z 192(BX), K4, Z19
	MOVQ sum+48(FP), BX
	VMOVUPD.Z 0(BX), K1, Z20
	VMOVUPD.Z 64(BX), K2, Z21
	VMOVUPD.Z 128(BX), K3, Z22
	VMOVUPD.Z 192(BX), K4, Z23
	MOVQ dot+56(FP), BX
	VMOVUPD.Z 0(BX), K1, Z24
	VMOVUPD.Z 64(BX), K2, Z25
	VMOVUPD.Z 128(BX), K3, Z26
	VMOVUPD.Z 192(BX), K4, Z27
	VBROADCASTSD fn+64(FP), Z28
	TESTQ R9, R9
	JE donegrad
rowgrad:
	VMOVUPD.Z 0(SI), K1, Z0
	VMOVUPD.Z 64(SI), K2, Z1
	VMOVUPD.Z 128(SI), K3, Z2
	VMOVUPD.Z 192(SI), K4, Z3
	VMOVUPD.Z 0(DX), K1, Z4
	VMOVUPD.Z 64(DX), K2, Z5
	VMOVUPD.Z 128(DX), K3, Z6
	VMOVUPD.Z 192(DX), K4, Z7
	VMULPD Z28, Z0, Z0
	VMULPD Z28, Z1, Z1
	VMULPD Z28, Z2, Z2
	VMULPD Z28, Z3, Z3
	VSUBPD Z20, Z0, Z0
	VSUBPD Z21, Z1, Z1
	VSUBPD Z22, Z2, Z2
	VSUBPD Z23, Z3, Z3
	VMULPD Z24, Z4, Z4
	VMULPD Z25, Z5, Z5
	VMULPD Z26, Z6, Z6
	VMULPD Z27, Z7, Z7
	VSUBPD Z4, Z0, Z0
	VSUBPD Z5, Z1, Z1
	VSUBPD Z6, Z2, Z2
	VSUBPD Z7, Z3, Z3
	VMULPD Z16, Z0, Z0
	VMULPD Z17, Z1, Z1
	VMULPD Z18, Z2, Z2
	VMULPD Z19, Z3, Z3
	VMOVUPD Z0, K1, 0(DI)
	VMOVUPD Z1, K2, 64(DI)
	VMOVUPD Z2, K3, 128(DI)
	VMOVUPD Z3, K4, 192(DI)
	ADDQ R8, SI
	ADDQ R8, DX
	ADDQ R8, DI
	DECQ R9
	JNE rowgrad
donegrad:
	VZEROUPPER
	RET
