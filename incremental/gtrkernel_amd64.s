//go:build amd64 && !amd64.v3 && !noasm

#include "textflag.h"

// gtrRowsFMA's registers. Per row: AX and BX at the row's diagonal entry
// of L⁺ and S; SI, DI, R8, R9, R10 at entry i of x, y, dL, dS, cf; CX the
// bytes of the row after its diagonal, R13 those of its whole steps of
// four; R11 the byte offset in the row; R14 the rows left. Y15 aL (= aSy),
// Y14 aSx, Y12 dL_i + 1, Y11 dS_i, Y10 ci, Y9 −2, Y7 t, X13 1; Y8 the
// lanes that passed, R12 the single entries that passed.

// GTR_UPDATE updates four entries of the row: l −= aL·x, s −= aSx·x, then
// s −= aSy·y, each by a fused multiply–add; leaves them in Y1 and Y6.
#define GTR_UPDATE \
	VMOVUPD      8(SI)(R11*1), Y0 \
	VMOVUPD      8(AX)(R11*1), Y1 \
	VFNMADD231PD Y0, Y15, Y1 \
	VMOVUPD      Y1, 8(AX)(R11*1) \
	VMOVUPD      8(BX)(R11*1), Y6 \
	VFNMADD231PD Y0, Y14, Y6 \
	VMOVUPD      8(DI)(R11*1), Y3 \
	VFNMADD231PD Y3, Y15, Y6 \
	VMOVUPD      Y6, 8(BX)(R11*1)

// GTR_TEST tests the four pairs whose entries of L⁺ and S are in Y1 and
// Y6: D = fma(−2, l, dL_k + (dL_i + 1)), b = fma(−2, s, dS_k + dS_i) (as
// gtrScore rounds them), the lanes where b − t·D > 0 (fused: the sign of
// the exact difference) or-ed into Y8; with mask, only where cf_k = ci.
#define GTR_TEST(mask) \
	VADDPD       8(R8)(R11*1), Y12, Y2 \
	VFMADD231PD  Y1, Y9, Y2 \
	VADDPD       8(R9)(R11*1), Y11, Y3 \
	VFMADD231PD  Y6, Y9, Y3 \
	VFNMADD231PD Y2, Y7, Y3 \
	VXORPD       Y4, Y4, Y4 \
	VCMPPD       $0x1e, Y4, Y3, Y3 \
	mask \
	VORPD        Y3, Y8, Y8

#define MASK4 \
	VCMPPD  $0, 8(R10)(R11*1), Y10, Y4 \
	VANDPD  Y4, Y3, Y3

#define NOMASK

// GTR_UPDATE1 and GTR_TEST1 are GTR_UPDATE and GTR_TEST for the one entry
// in the low lanes (the test's outcome or-ed into R12: a 128-bit VEX
// operation on X8 would clear Y8's upper lanes).
#define GTR_UPDATE1 \
	VMOVSD       8(SI)(R11*1), X0 \
	VMOVSD       8(AX)(R11*1), X1 \
	VFNMADD231SD X0, X15, X1 \
	VMOVSD       X1, 8(AX)(R11*1) \
	VMOVSD       8(BX)(R11*1), X6 \
	VFNMADD231SD X0, X14, X6 \
	VMOVSD       8(DI)(R11*1), X3 \
	VFNMADD231SD X3, X15, X6 \
	VMOVSD       X6, 8(BX)(R11*1)

#define GTR_TEST1(mask) \
	VADDSD       8(R8)(R11*1), X12, X2 \
	VFMADD231SD  X1, X9, X2 \
	VADDSD       8(R9)(R11*1), X11, X3 \
	VFMADD231SD  X6, X9, X3 \
	VFNMADD231SD X2, X7, X3 \
	VXORPD       X4, X4, X4 \
	VCMPSD       $0x1e, X4, X3, X3 \
	mask \
	MOVQ         X3, DX \
	ORQ          DX, R12

#define MASK1 \
	VMOVSD  8(R10)(R11*1), X5 \
	VCMPSD  $0, X10, X5, X5 \
	VANDPD  X5, X3, X3

// func gtrRowsFMA(l, s, x, y, dl, ds, cf *float64, n, rows int, c, c2xx, t float64, mode int) int
//
// For the rows r = 0, 1, …, rows−1 of packed triangles from a row i of n
// entries (row r at l + Σ_{q<r}(n − q), n − r entries, and the same in s;
// x, y, dl, ds, cf at entry i): the diagonal entries set to dl[r] and
// ds[r]; with mode&1, the entries after them updated as GTR_UPDATE does,
// aL = aSy = c·x[r], aSx = c·y[r] − c2xx·x[r] (each rounded as Go rounds
// it); then GTR_TEST with dL_i = dl[r], dS_i = ds[r] and, with mode&2,
// ci = cf[r]. It returns the first r in which a pair passes (that row
// updated), or rows. Four entries a step, the last 0–3 one by one.
TEXT ·gtrRowsFMA(SB), NOSPLIT, $0-112
	MOVQ l+0(FP), AX
	MOVQ s+8(FP), BX
	MOVQ x+16(FP), SI
	MOVQ y+24(FP), DI
	MOVQ dl+32(FP), R8
	MOVQ ds+40(FP), R9
	MOVQ cf+48(FP), R10
	MOVQ n+56(FP), CX
	DECQ CX
	SHLQ $3, CX
	MOVQ rows+64(FP), R14
	VBROADCASTSD t+88(FP), Y7
	MOVQ $0xC000000000000000, DX // −2
	MOVQ DX, X9
	VBROADCASTSD X9, Y9
	MOVQ $0x3FF0000000000000, DX // 1
	MOVQ DX, X13

row:
	TESTQ R14, R14
	JE    none
	VMOVSD (R8), X0
	VMOVSD X0, (AX)
	VMOVSD (R9), X11
	VMOVSD X11, (BX)
	VADDSD X13, X0, X12
	VBROADCASTSD X12, Y12
	VBROADCASTSD X11, Y11
	VBROADCASTSD (R10), Y10
	VMOVSD c+72(FP), X1
	VMULSD (SI), X1, X15        // aL = c·x_i
	VMULSD (DI), X1, X14        // c·y_i
	VMOVSD c2xx+80(FP), X2
	VMULSD (SI), X2, X2         // c2xx·x_i
	VSUBSD X2, X14, X14         // aSx
	VBROADCASTSD X15, Y15
	VBROADCASTSD X14, Y14
	VXORPD Y8, Y8, Y8
	XORQ   R11, R11
	XORQ   R12, R12
	MOVQ   CX, R13
	ANDQ   $-32, R13
	MOVQ   mode+96(FP), DX
	CMPQ   DX, $1
	JEQ    upd
	CMPQ   DX, $2
	JEQ    scanm
	CMPQ   DX, $3
	JEQ    updm

scan:
	CMPQ R11, R13
	JGE  scan1
	VMOVUPD 8(AX)(R11*1), Y1
	VMOVUPD 8(BX)(R11*1), Y6
	GTR_TEST(NOMASK)
	ADDQ $32, R11
	JMP  scan
scan1:
	CMPQ R11, CX
	JGE  rowdone
	VMOVSD 8(AX)(R11*1), X1
	VMOVSD 8(BX)(R11*1), X6
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
	JGE  rowdone
	GTR_UPDATE1
	GTR_TEST1(NOMASK)
	ADDQ $8, R11
	JMP  upd1

scanm:
	CMPQ R11, R13
	JGE  scanm1
	VMOVUPD 8(AX)(R11*1), Y1
	VMOVUPD 8(BX)(R11*1), Y6
	GTR_TEST(MASK4)
	ADDQ $32, R11
	JMP  scanm
scanm1:
	CMPQ R11, CX
	JGE  rowdone
	VMOVSD 8(AX)(R11*1), X1
	VMOVSD 8(BX)(R11*1), X6
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
	JGE  rowdone
	GTR_UPDATE1
	GTR_TEST1(MASK1)
	ADDQ $8, R11
	JMP  updm1

rowdone:
	VMOVMSKPD Y8, DX
	ORQ   R12, DX
	TESTQ DX, DX
	JNE   found
	LEAQ  8(AX)(CX*1), AX
	LEAQ  8(BX)(CX*1), BX
	ADDQ  $8, SI
	ADDQ  $8, DI
	ADDQ  $8, R8
	ADDQ  $8, R9
	ADDQ  $8, R10
	SUBQ  $8, CX
	DECQ  R14
	JMP   row

found:
	MOVQ rows+64(FP), DX
	SUBQ R14, DX
	MOVQ DX, ret+104(FP)
	VZEROUPPER
	RET

none:
	MOVQ rows+64(FP), DX
	MOVQ DX, ret+104(FP)
	VZEROUPPER
	RET
