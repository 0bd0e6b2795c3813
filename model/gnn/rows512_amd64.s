#include "textflag.h"
#include "masks512_amd64.h"

// The row-wise sums of rows.go in AVX-512 on blocks of at most 32 columns
// (four ZMM registers, the lanes beyond the width masked by K1–K4, which
// AMD's cores store far faster than AVX's VMASKMOVPD): each entry gets one
// rounded add per row, rows in ascending order — the bits of the AVX
// kernels of rows_amd64.s and of axpy(d, 1, row) row by row.

// func sumRows32(dst *float64, src *float64, n, ss, w int)
//
// dst[0:w] += src[i·ss : +w] for i = 0 … n−1 in order.
TEXT ·sumRows32(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), R9
	MOVQ ss+24(FP), R8
	SHLQ $3, R8
	KMASKS32(w+32(FP))
	VMOVUPD.Z 0(DI), K1, Z0
	VMOVUPD.Z 64(DI), K2, Z1
	VMOVUPD.Z 128(DI), K3, Z2
	VMOVUPD.Z 192(DI), K4, Z3
	TESTQ R9, R9
	JE donesum
rowsum:
	VMOVUPD.Z 0(SI), K1, Z4
	VMOVUPD.Z 64(SI), K2, Z5
	VMOVUPD.Z 128(SI), K3, Z6
	VMOVUPD.Z 192(SI), K4, Z7
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	VADDPD Z6, Z2, Z2
	VADDPD Z7, Z3, Z3
	ADDQ R8, SI
	DECQ R9
	JNE rowsum
donesum:
	VMOVUPD Z0, K1, 0(DI)
	VMOVUPD Z1, K2, 64(DI)
	VMOVUPD Z2, K3, 128(DI)
	VMOVUPD Z3, K4, 192(DI)
	VZEROUPPER
	RET

// func addToRows32(dst *float64, ds, n int, v *float64, w int)
//
// dst[i·ds : +w] += v[0:w] for every i < n.
TEXT ·addToRows32(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ ds+8(FP), R8
	SHLQ $3, R8
	MOVQ n+16(FP), R9
	MOVQ v+24(FP), SI
	KMASKS32(w+32(FP))
	VMOVUPD.Z 0(SI), K1, Z4
	VMOVUPD.Z 64(SI), K2, Z5
	VMOVUPD.Z 128(SI), K3, Z6
	VMOVUPD.Z 192(SI), K4, Z7
	TESTQ R9, R9
	JE doneadd
rowadd:
	VMOVUPD.Z 0(DI), K1, Z0
	VMOVUPD.Z 64(DI), K2, Z1
	VMOVUPD.Z 128(DI), K3, Z2
	VMOVUPD.Z 192(DI), K4, Z3
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	VADDPD Z6, Z2, Z2
	VADDPD Z7, Z3, Z3
	VMOVUPD Z0, K1, 0(DI)
	VMOVUPD Z1, K2, 64(DI)
	VMOVUPD Z2, K3, 128(DI)
	VMOVUPD Z3, K4, 192(DI)
	ADDQ R8, DI
	DECQ R9
	JNE rowadd
doneadd:
	VZEROUPPER
	RET
