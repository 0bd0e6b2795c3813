#include "textflag.h"

// The block-of-8 kernels of the Laplacian solver (block8.go): a row of 8
// right-hand sides is 64 bytes, two YMM registers. Every operation is the
// Go loop's, in its order: a rounded multiply (VMULPD) and then a rounded
// subtract (VSUBPD), never fused, so the results are bit for bit those of
// the Go loops. Column indices are int32, row pointers int.

// func apply8AVX(y, x, deg *float64, start *int, adj *int32, n int)
TEXT ·apply8AVX(SB), NOSPLIT, $0-48
	MOVQ  y+0(FP), DI
	MOVQ  x+8(FP), SI
	MOVQ  deg+16(FP), DX
	MOVQ  start+24(FP), R8
	MOVQ  adj+32(FP), R9
	MOVQ  n+40(FP), CX
	TESTQ CX, CX
	JE    adone
	MOVQ  SI, R11
	MOVQ  (R8), R10

arow:
	VBROADCASTSD (DX), Y4
	VMULPD       (R11), Y4, Y0
	VMULPD       32(R11), Y4, Y1
	MOVQ         8(R8), R12
	CMPQ         R10, R12
	JGE          astore

aterm:
	MOVLQSX (R9)(R10*4), AX
	SHLQ    $6, AX
	VSUBPD  (SI)(AX*1), Y0, Y0
	VSUBPD  32(SI)(AX*1), Y1, Y1
	INCQ    R10
	CMPQ    R10, R12
	JL      aterm

astore:
	MOVQ    R12, R10
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    $64, DI
	ADDQ    $64, R11
	ADDQ    $8, DX
	ADDQ    $8, R8
	DECQ    CX
	JNE     arow

adone:
	VZEROUPPER
	RET

// func forward8AVX(z *float64, start, mid *int, adj *int32, fac, finv *float64, n int)
TEXT ·forward8AVX(SB), NOSPLIT, $0-56
	MOVQ  z+0(FP), SI
	MOVQ  start+8(FP), R8
	MOVQ  mid+16(FP), R13
	MOVQ  adj+24(FP), R9
	MOVQ  fac+32(FP), DX
	MOVQ  finv+40(FP), BX
	MOVQ  n+48(FP), CX
	TESTQ CX, CX
	JE    fdone
	MOVQ  SI, DI

frow:
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1
	MOVQ    (R8), R10
	MOVQ    (R13), R12
	CMPQ    R10, R12
	JGE     fscale

fterm:
	VBROADCASTSD (DX)(R10*8), Y4
	MOVLQSX      (R9)(R10*4), AX
	SHLQ         $6, AX
	VMULPD       (SI)(AX*1), Y4, Y5
	VMULPD       32(SI)(AX*1), Y4, Y6
	VSUBPD       Y5, Y0, Y0
	VSUBPD       Y6, Y1, Y1
	INCQ         R10
	CMPQ         R10, R12
	JL           fterm

fscale:
	VBROADCASTSD (BX), Y7
	VMULPD       Y7, Y0, Y0
	VMULPD       Y7, Y1, Y1
	VMOVUPD      Y0, (DI)
	VMOVUPD      Y1, 32(DI)
	ADDQ         $64, DI
	ADDQ         $8, R8
	ADDQ         $8, R13
	ADDQ         $8, BX
	DECQ         CX
	JNE          frow

fdone:
	VZEROUPPER
	RET

// func backward8AVX(z *float64, start, mid *int, adj *int32, fac, finv *float64, n int)
// Rows from the last: z_i = (z_i − Σ fac_p·z_{adj_p}) · finv_i over the upper
// part p = start_{i+1}−1 down to mid_i (fac holds Fᵀ there), a gather.
TEXT ·backward8AVX(SB), NOSPLIT, $0-56
	MOVQ  z+0(FP), SI
	MOVQ  start+8(FP), R8
	MOVQ  mid+16(FP), R13
	MOVQ  adj+24(FP), R9
	MOVQ  fac+32(FP), DX
	MOVQ  finv+40(FP), BX
	MOVQ  n+48(FP), CX
	TESTQ CX, CX
	JE    bdone
	MOVQ  CX, AX
	DECQ  AX
	MOVQ  AX, R11
	SHLQ  $6, R11
	LEAQ  (SI)(R11*1), DI
	LEAQ  (R8)(AX*8), R8
	LEAQ  (R13)(AX*8), R13
	LEAQ  (BX)(AX*8), BX

brow:
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1
	MOVQ    8(R8), R10
	MOVQ    (R13), R12
	CMPQ    R10, R12
	JLE     bscale

bterm:
	DECQ         R10
	VBROADCASTSD (DX)(R10*8), Y4
	MOVLQSX      (R9)(R10*4), AX
	SHLQ         $6, AX
	VMULPD       (SI)(AX*1), Y4, Y5
	VMULPD       32(SI)(AX*1), Y4, Y6
	VSUBPD       Y5, Y0, Y0
	VSUBPD       Y6, Y1, Y1
	CMPQ         R10, R12
	JG           bterm

bscale:
	VBROADCASTSD (BX), Y7
	VMULPD       Y7, Y0, Y0
	VMULPD       Y7, Y1, Y1
	VMOVUPD      Y0, (DI)
	VMOVUPD      Y1, 32(DI)
	SUBQ         $64, DI
	SUBQ         $8, R8
	SUBQ         $8, R13
	SUBQ         $8, BX
	DECQ         CX
	JNE          brow

bdone:
	VZEROUPPER
	RET

// func adjacentSum8AVX(t, u *float64, start *int, nb *int32, n int)
TEXT ·adjacentSum8AVX(SB), NOSPLIT, $0-40
	MOVQ  t+0(FP), DI
	MOVQ  u+8(FP), SI
	MOVQ  start+16(FP), R8
	MOVQ  nb+24(FP), R9
	MOVQ  n+32(FP), CX
	TESTQ CX, CX
	JE    sdone
	MOVQ  (R8), R10

srow:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	MOVQ   8(R8), R12
	CMPQ   R10, R12
	JGE    sstore

sterm:
	MOVLQSX (R9)(R10*4), AX
	SHLQ    $6, AX
	VADDPD  (SI)(AX*1), Y0, Y0
	VADDPD  32(SI)(AX*1), Y1, Y1
	INCQ R10
	CMPQ R10, R12
	JL   sterm

sstore:
	MOVQ    R12, R10
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    $64, DI
	ADDQ    $8, R8
	DECQ    CX
	JNE     srow

sdone:
	VZEROUPPER
	RET
