//go:build amd64 && !amd64.v3 && !noasm

#include "textflag.h"

// GTR_SCORE tests the four pairs whose updated entries of L⁺ and S are in
// Y1 and Y6, at byte offset R11 of dL, dS and cf: with r = (dL0 + dL_k) −
// 2·L_k and b = (dS0 + dS_k) − 2·S_k, each rounded as the Go expression of
// gtrPass rounds it (2·v as v + v: exact), the lanes where b > t·(1 + r)
// and cf_k = ci are set in Y8 (a NaN never sets one).
#define GTR_SCORE \
	VMOVUPD (R8)(R11*1), Y2 \
	VADDPD  Y2, Y12, Y2 \
	VADDPD  Y1, Y1, Y1 \
	VSUBPD  Y1, Y2, Y2 \
	VADDPD  Y9, Y2, Y2 \
	VMULPD  Y7, Y2, Y2 \
	VMOVUPD (R9)(R11*1), Y3 \
	VADDPD  Y3, Y11, Y3 \
	VADDPD  Y6, Y6, Y6 \
	VSUBPD  Y6, Y3, Y3 \
	VCMPPD  $0x1e, Y2, Y3, Y3 \
	VMOVUPD (R10)(R11*1), Y4 \
	VCMPPD  $0, Y10, Y4, Y4 \
	VANDPD  Y4, Y3, Y3 \
	VORPD   Y3, Y8, Y8

// GTR_SCORE1 is GTR_SCORE for the one pair in the low lanes of X1 and X6
// (its test's outcome or-ed into R12: a 128-bit VEX operation on X8 would
// clear Y8's upper lanes).
#define GTR_SCORE1 \
	VMOVSD  (R8)(R11*1), X2 \
	VADDSD  X2, X12, X2 \
	VADDSD  X1, X1, X1 \
	VSUBSD  X1, X2, X2 \
	VADDSD  X9, X2, X2 \
	VMULSD  X7, X2, X2 \
	VMOVSD  (R9)(R11*1), X3 \
	VADDSD  X3, X11, X3 \
	VADDSD  X6, X6, X6 \
	VSUBSD  X6, X3, X3 \
	VCMPSD  $0x1e, X2, X3, X3 \
	VMOVSD  (R10)(R11*1), X4 \
	VCMPSD  $0, X10, X4, X4 \
	VANDPD  X4, X3, X3 \
	MOVQ    X3, DX \
	ORQ     DX, R12

// func gtrRowAVX2(l, s, x, y, dl, ds, cf *float64, n int, aL, aSx, aSy, dL0, dS0, ci, t float64, upd int) bool
//
// For k = 0, …, n−1: when upd ≠ 0, l[k] −= aL·x[k] and s[k] −= aSx·x[k] +
// aSy·y[k], each product, sum and difference rounded separately (no fused
// multiply–add), as gtrPass's scalar loop; then it reports whether some k
// of component ci passes GTR_SCORE's test b > t·(1 + r). Four entries a
// step, the last 0–3 one by one.
TEXT ·gtrRowAVX2(SB), NOSPLIT, $0-129
	MOVQ l+0(FP), AX
	MOVQ s+8(FP), BX
	MOVQ x+16(FP), SI
	MOVQ y+24(FP), DI
	MOVQ dl+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ cf+48(FP), R10
	MOVQ n+56(FP), CX
	SHLQ $3, CX
	MOVQ CX, R13
	ANDQ $-32, R13 // bytes of the whole steps of four
	VBROADCASTSD aL+64(FP), Y15
	VBROADCASTSD aSx+72(FP), Y14
	VBROADCASTSD aSy+80(FP), Y13
	VBROADCASTSD dL0+88(FP), Y12
	VBROADCASTSD dS0+96(FP), Y11
	VBROADCASTSD ci+104(FP), Y10
	VBROADCASTSD t+112(FP), Y7
	MOVQ $0x3FF0000000000000, DX
	MOVQ DX, X9
	VBROADCASTSD X9, Y9
	VXORPD Y8, Y8, Y8
	XORQ R11, R11
	XORQ R12, R12
	MOVQ upd+120(FP), DX
	TESTQ DX, DX
	JE   scan

update:
	CMPQ R11, R13
	JGE  update1
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

update1:
	CMPQ R11, CX
	JGE  done
	VMOVSD  (SI)(R11*1), X0
	VMOVSD  (AX)(R11*1), X1
	VMULSD  X0, X15, X2
	VSUBSD  X2, X1, X1
	VMOVSD  X1, (AX)(R11*1)
	VMOVSD  (DI)(R11*1), X3
	VMULSD  X0, X14, X4
	VMULSD  X3, X13, X5
	VADDSD  X5, X4, X4
	VMOVSD  (BX)(R11*1), X6
	VSUBSD  X4, X6, X6
	VMOVSD  X6, (BX)(R11*1)
	GTR_SCORE1
	ADDQ $8, R11
	JMP  update1

scan:
	CMPQ R11, R13
	JGE  scan1
	VMOVUPD (AX)(R11*1), Y1
	VMOVUPD (BX)(R11*1), Y6
	GTR_SCORE
	ADDQ $32, R11
	JMP  scan

scan1:
	CMPQ R11, CX
	JGE  done
	VMOVSD (AX)(R11*1), X1
	VMOVSD (BX)(R11*1), X6
	GTR_SCORE1
	ADDQ $8, R11
	JMP  scan1

done:
	VMOVMSKPD Y8, DX
	VZEROUPPER
	ORQ   R12, DX
	TESTQ DX, DX
	SETNE ret+128(FP)
	RET
