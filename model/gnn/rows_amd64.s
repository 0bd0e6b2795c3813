#include "textflag.h"

// Row-wise sums on row-major blocks of at most 16 columns, the lanes chosen
// by a mask (VMASKMOVPD: masked-out lanes are neither read nor written).
// Each entry gets one rounded add per row, rows in ascending order — the
// bits of axpy(d, 1, row) row by row.

// func sumRows16AVX(dst *float64, src *float64, n, ss int, mask *[16]int64)
//
// dst[0:16] += src[i·ss : +16] for i = 0 … n−1 in order.
TEXT ·sumRows16AVX(SB), NOSPLIT, $0-40
	MOVQ       dst+0(FP), DI
	MOVQ       src+8(FP), SI
	MOVQ       n+16(FP), CX
	MOVQ       ss+24(FP), R8
	SHLQ       $3, R8
	MOVQ       mask+32(FP), AX
	VMOVDQU    (AX), Y8
	VMOVDQU    32(AX), Y9
	VMOVDQU    64(AX), Y10
	VMOVDQU    96(AX), Y11
	VMASKMOVPD (DI), Y8, Y0
	VMASKMOVPD 32(DI), Y9, Y1
	VMASKMOVPD 64(DI), Y10, Y2
	VMASKMOVPD 96(DI), Y11, Y3
	TESTQ      CX, CX
	JE         storesum

rowsum:
	VMASKMOVPD (SI), Y8, Y4
	VMASKMOVPD 32(SI), Y9, Y5
	VMASKMOVPD 64(SI), Y10, Y6
	VMASKMOVPD 96(SI), Y11, Y7
	VADDPD     Y4, Y0, Y0
	VADDPD     Y5, Y1, Y1
	VADDPD     Y6, Y2, Y2
	VADDPD     Y7, Y3, Y3
	ADDQ       R8, SI
	DECQ       CX
	JNE        rowsum

storesum:
	VMASKMOVPD Y0, Y8, (DI)
	VMASKMOVPD Y1, Y9, 32(DI)
	VMASKMOVPD Y2, Y10, 64(DI)
	VMASKMOVPD Y3, Y11, 96(DI)
	VZEROUPPER
	RET

// func addToRows16AVX(dst *float64, ds, n int, v *float64, mask *[16]int64)
//
// dst[i·ds : +16] += v[0:16] for every i < n.
TEXT ·addToRows16AVX(SB), NOSPLIT, $0-40
	MOVQ       dst+0(FP), DI
	MOVQ       ds+8(FP), R8
	SHLQ       $3, R8
	MOVQ       n+16(FP), CX
	MOVQ       v+24(FP), SI
	MOVQ       mask+32(FP), AX
	VMOVDQU    (AX), Y8
	VMOVDQU    32(AX), Y9
	VMOVDQU    64(AX), Y10
	VMOVDQU    96(AX), Y11
	VMASKMOVPD (SI), Y8, Y4
	VMASKMOVPD 32(SI), Y9, Y5
	VMASKMOVPD 64(SI), Y10, Y6
	VMASKMOVPD 96(SI), Y11, Y7
	TESTQ      CX, CX
	JE         doneadd

rowadd:
	VMASKMOVPD (DI), Y8, Y0
	VMASKMOVPD 32(DI), Y9, Y1
	VMASKMOVPD 64(DI), Y10, Y2
	VMASKMOVPD 96(DI), Y11, Y3
	VADDPD     Y4, Y0, Y0
	VADDPD     Y5, Y1, Y1
	VADDPD     Y6, Y2, Y2
	VADDPD     Y7, Y3, Y3
	VMASKMOVPD Y0, Y8, (DI)
	VMASKMOVPD Y1, Y9, 32(DI)
	VMASKMOVPD Y2, Y10, 64(DI)
	VMASKMOVPD Y3, Y11, 96(DI)
	ADDQ       R8, DI
	DECQ       CX
	JNE        rowadd

doneadd:
	VZEROUPPER
	RET

// func scaleAVX(y *float64, f float64, n int)
//
// y[k] *= f for k < n, n a multiple of 4 (one rounded multiply each).
TEXT ·scaleAVX(SB), NOSPLIT, $0-24
	MOVQ         y+0(FP), DI
	VBROADCASTSD f+8(FP), Y0
	MOVQ         n+16(FP), CX
	SHRQ         $2, CX
	JE           donescale

loopscale:
	VMULPD  (DI), Y0, Y1
	VMOVUPD Y1, (DI)
	ADDQ    $32, DI
	DECQ    CX
	JNE     loopscale

donescale:
	VZEROUPPER
	RET
