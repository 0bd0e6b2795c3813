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
