//go:build amd64 && !amd64.v3 && !noasm

#include "textflag.h"

// GTR_SCORE scores the four pairs whose updated entries of L⁺ and S are in
// Y1 and Y6, at byte offset R11 of dL, dS and cf: with r = (dL0 + dL_k) −
// 2·L_k, s = ((dS0 + dS_k) − 2·S_k)/(1 + r), zeroed where cf_k ≠ ci, and
// kept in Y8 when greater (a NaN s is never kept). Each operation is
// rounded as the Go expression of gtrPass rounds it (2·v as v + v: exact).
#define GTR_SCORE \
	VMOVUPD (R8)(R11*1), Y2 \
	VADDPD  Y2, Y12, Y2 \
	VADDPD  Y1, Y1, Y1 \
	VSUBPD  Y1, Y2, Y2 \
	VADDPD  Y9, Y2, Y2 \
	VMOVUPD (R9)(R11*1), Y3 \
	VADDPD  Y3, Y11, Y3 \
	VADDPD  Y6, Y6, Y6 \
	VSUBPD  Y6, Y3, Y3 \
	VDIVPD  Y2, Y3, Y3 \
	VMOVUPD (R10)(R11*1), Y4 \
	VCMPPD  $0, Y10, Y4, Y4 \
	VANDPD  Y4, Y3, Y3 \
	VMAXPD  Y8, Y3, Y8

// func gtrRowAVX2(l, s, x, y, dl, ds, cf *float64, n int, aL, aSx, aSy, dL0, dS0, ci float64, upd int) float64
//
// For k = 0, …, n−1 (n a multiple of 4): when upd ≠ 0, l[k] −= aL·x[k] and
// s[k] −= aSx·x[k] + aSy·y[k], each product, sum and difference rounded
// separately (VMULPD, VADDPD, VSUBPD: no fused multiply–add), as gtrPass's
// scalar loop; then the greatest score of GTR_SCORE over k (−Inf, or 0
// when only other components' pairs were scored) is returned.
TEXT ·gtrRowAVX2(SB), NOSPLIT, $0-128
	MOVQ l+0(FP), AX
	MOVQ s+8(FP), BX
	MOVQ x+16(FP), SI
	MOVQ y+24(FP), DI
	MOVQ dl+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ cf+48(FP), R10
	MOVQ n+56(FP), CX
	SHLQ $3, CX
	VBROADCASTSD aL+64(FP), Y15
	VBROADCASTSD aSx+72(FP), Y14
	VBROADCASTSD aSy+80(FP), Y13
	VBROADCASTSD dL0+88(FP), Y12
	VBROADCASTSD dS0+96(FP), Y11
	VBROADCASTSD ci+104(FP), Y10
	MOVQ $0x3FF0000000000000, DX
	MOVQ DX, X9
	VBROADCASTSD X9, Y9
	MOVQ $0xFFF0000000000000, DX
	MOVQ DX, X8
	VBROADCASTSD X8, Y8
	XORQ R11, R11
	MOVQ upd+112(FP), DX
	TESTQ DX, DX
	JE   scan

update:
	CMPQ R11, CX
	JGE  done
	VMOVUPD (SI)(R11*1), Y0
	VMOVUPD (AX)(R11*1), Y1
	VMULPD  Y0, Y15, Y2
	VSUBPD  Y2, Y1, Y1
	VMOVUPD Y1, (AX)(R11*1)
	VMOVUPD (DI)(R11*1), Y3
	VMULPD  Y0, Y14, Y4
	VMULPD  Y3, Y13, Y5
	VADDPD  Y5, Y4, Y4
	VMOVUPD (BX)(R11*1), Y6
	VSUBPD  Y4, Y6, Y6
	VMOVUPD Y6, (BX)(R11*1)
	GTR_SCORE
	ADDQ $32, R11
	JMP  update

scan:
	CMPQ R11, CX
	JGE  done
	VMOVUPD (AX)(R11*1), Y1
	VMOVUPD (BX)(R11*1), Y6
	GTR_SCORE
	ADDQ $32, R11
	JMP  scan

done:
	VEXTRACTF128 $1, Y8, X0
	VMAXPD       X8, X0, X8
	VPERMILPD    $1, X8, X0
	VMAXPD       X8, X0, X8
	VZEROUPPER
	MOVSD X8, ret+120(FP)
	RET
