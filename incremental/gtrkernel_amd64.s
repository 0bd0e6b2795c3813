//go:build amd64 && !amd64.v3 && !noasm

#include "textflag.h"

// Registers: AX l, BX s, SI x, DI y, R8 dL, R9 dS, R10 cf, R11 the byte
// offset, R13 the bytes of the whole steps of four, CX all the bytes;
// Y15 aL, Y14 aSx, Y13 aSy, Y12 dL0 + 1, Y11 dS0, Y10 ci, Y9 −2, Y7 t,
// Y8 the lanes that passed, R12 the single entries that passed.

// GTR_UPDATE updates four entries of l and s: l −= aL·x, s −= aSx·x, then
// s −= aSy·y, each by a fused multiply–add; leaves them in Y1 and Y6.
#define GTR_UPDATE \
	VMOVUPD      (SI)(R11*1), Y0 \
	VMOVUPD      (AX)(R11*1), Y1 \
	VFNMADD231PD Y0, Y15, Y1 \
	VMOVUPD      Y1, (AX)(R11*1) \
	VMOVUPD      (BX)(R11*1), Y6 \
	VFNMADD231PD Y0, Y14, Y6 \
	VMOVUPD      (DI)(R11*1), Y3 \
	VFNMADD231PD Y3, Y13, Y6 \
	VMOVUPD      Y6, (BX)(R11*1)

// GTR_TEST tests the four pairs whose entries of L⁺ and S are in Y1 and
// Y6: D = fma(−2, l, dL_k + (dL0 + 1)), b = fma(−2, s, dS_k + dS0) (as
// gtrScore rounds them), the lanes where b − t·D > 0 (fused: the sign of
// the exact difference) or-ed into Y8; with mask, only where cf_k = ci.
#define GTR_TEST(mask) \
	VADDPD       (R8)(R11*1), Y12, Y2 \
	VFMADD231PD  Y1, Y9, Y2 \
	VADDPD       (R9)(R11*1), Y11, Y3 \
	VFMADD231PD  Y6, Y9, Y3 \
	VFNMADD231PD Y2, Y7, Y3 \
	VXORPD       Y4, Y4, Y4 \
	VCMPPD       $0x1e, Y4, Y3, Y3 \
	mask \
	VORPD        Y3, Y8, Y8

#define MASK4 \
	VCMPPD  $0, (R10)(R11*1), Y10, Y4 \
	VANDPD  Y4, Y3, Y3

#define NOMASK

// GTR_UPDATE1 and GTR_TEST1 are GTR_UPDATE and GTR_TEST for the one entry
// in the low lanes (the test's outcome or-ed into R12: a 128-bit VEX
// operation on X8 would clear Y8's upper lanes).
#define GTR_UPDATE1 \
	VMOVSD       (SI)(R11*1), X0 \
	VMOVSD       (AX)(R11*1), X1 \
	VFNMADD231SD X0, X15, X1 \
	VMOVSD       X1, (AX)(R11*1) \
	VMOVSD       (BX)(R11*1), X6 \
	VFNMADD231SD X0, X14, X6 \
	VMOVSD       (DI)(R11*1), X3 \
	VFNMADD231SD X3, X13, X6 \
	VMOVSD       X6, (BX)(R11*1)

#define GTR_TEST1(mask) \
	VADDSD       (R8)(R11*1), X12, X2 \
	VFMADD231SD  X1, X9, X2 \
	VADDSD       (R9)(R11*1), X11, X3 \
	VFMADD231SD  X6, X9, X3 \
	VFNMADD231SD X2, X7, X3 \
	VXORPD       X4, X4, X4 \
	VCMPSD       $0x1e, X4, X3, X3 \
	mask \
	MOVQ         X3, DX \
	ORQ          DX, R12

#define MASK1 \
	VMOVSD  (R10)(R11*1), X5 \
	VCMPSD  $0, X10, X5, X5 \
	VANDPD  X5, X3, X3

// func gtrRowFMA(l, s, x, y, dl, ds, cf *float64, n int, aL, aSx, aSy, dL1, dS0, ci, t float64, mode int) bool
//
// For k = 0, …, n−1: with mode&1, l[k] and s[k] updated as GTR_UPDATE
// does; then it reports whether some k (of component ci when mode&2)
// passes GTR_TEST's b > t·D. Four entries a step, the last 0–3 one by one.
TEXT ·gtrRowFMA(SB), NOSPLIT, $0-129
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
	VBROADCASTSD dL1+88(FP), Y12
	VBROADCASTSD dS0+96(FP), Y11
	VBROADCASTSD ci+104(FP), Y10
	VBROADCASTSD t+112(FP), Y7
	MOVQ $0xC000000000000000, DX // −2
	MOVQ DX, X9
	VBROADCASTSD X9, Y9
	VXORPD Y8, Y8, Y8
	XORQ R11, R11
	XORQ R12, R12
	MOVQ mode+120(FP), DX
	CMPQ DX, $1
	JEQ  upd
	CMPQ DX, $2
	JEQ  scanm
	CMPQ DX, $3
	JEQ  updm

scan:
	CMPQ R11, R13
	JGE  scan1
	VMOVUPD (AX)(R11*1), Y1
	VMOVUPD (BX)(R11*1), Y6
	GTR_TEST(NOMASK)
	ADDQ $32, R11
	JMP  scan
scan1:
	CMPQ R11, CX
	JGE  done
	VMOVSD (AX)(R11*1), X1
	VMOVSD (BX)(R11*1), X6
	GTR_TEST1(NOMASK)
	ADDQ $8, R11
	JMP  scan1

upd:
	CMPQ R11, R13
	JGE  upd1
	GTR_UPDATE
	GTR_TEST(NOMASK)
	ADDQ $32, R11
	JMP  upd
upd1:
	CMPQ R11, CX
	JGE  done
	GTR_UPDATE1
	GTR_TEST1(NOMASK)
	ADDQ $8, R11
	JMP  upd1

scanm:
	CMPQ R11, R13
	JGE  scanm1
	VMOVUPD (AX)(R11*1), Y1
	VMOVUPD (BX)(R11*1), Y6
	GTR_TEST(MASK4)
	ADDQ $32, R11
	JMP  scanm
scanm1:
	CMPQ R11, CX
	JGE  done
	VMOVSD (AX)(R11*1), X1
	VMOVSD (BX)(R11*1), X6
	GTR_TEST1(MASK1)
	ADDQ $8, R11
	JMP  scanm1

updm:
	CMPQ R11, R13
	JGE  updm1
	GTR_UPDATE
	GTR_TEST(MASK4)
	ADDQ $32, R11
	JMP  updm
updm1:
	CMPQ R11, CX
	JGE  done
	GTR_UPDATE1
	GTR_TEST1(MASK1)
	ADDQ $8, R11
	JMP  updm1

done:
	VMOVMSKPD Y8, DX
	VZEROUPPER
	ORQ   R12, DX
	TESTQ DX, DX
	SETNE ret+128(FP)
	RET
