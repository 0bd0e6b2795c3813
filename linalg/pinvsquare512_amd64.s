//go:build !noasm && !openblas

#include "textflag.h"

// func fmaBlock8x8US(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int)
//
// c[r][j] = Σ_l a[r·lda + l]·b[l·ldb + j] for the 8×8 block of c, r, j =
// 0..7, l = 0..k−1 (k ≥ 1), stored (AVX-512: one accumulator per row, the
// entry of a broadcast into the fused multiply–add).
TEXT ·fmaBlock8x8US(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R10
	SHLQ $3, R10
	LEAQ (R10)(R10*2), R11 // 3·lda
	LEAQ (SI)(R10*4), R12  // row 4
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R8
	SHLQ $3, R8
	MOVQ k+32(FP), CX
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R9
	SHLQ $3, R9
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7

loop:
	VMOVUPD (DI), Z8
	VFMADD231PD.BCST (SI), Z8, Z0
	VFMADD231PD.BCST (SI)(R10*1), Z8, Z1
	VFMADD231PD.BCST (SI)(R10*2), Z8, Z2
	VFMADD231PD.BCST (SI)(R11*1), Z8, Z3
	VFMADD231PD.BCST (R12), Z8, Z4
	VFMADD231PD.BCST (R12)(R10*1), Z8, Z5
	VFMADD231PD.BCST (R12)(R10*2), Z8, Z6
	VFMADD231PD.BCST (R12)(R11*1), Z8, Z7
	ADDQ $8, SI
	ADDQ $8, R12
	ADDQ R8, DI
	DECQ CX
	JNZ  loop

	VMOVUPD Z0, (DX)
	ADDQ    R9, DX
	VMOVUPD Z1, (DX)
	ADDQ    R9, DX
	VMOVUPD Z2, (DX)
	ADDQ    R9, DX
	VMOVUPD Z3, (DX)
	ADDQ    R9, DX
	VMOVUPD Z4, (DX)
	ADDQ    R9, DX
	VMOVUPD Z5, (DX)
	ADDQ    R9, DX
	VMOVUPD Z6, (DX)
	ADDQ    R9, DX
	VMOVUPD Z7, (DX)
	VZEROUPPER
	RET

// func fmaBlock8x8U(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int)
//
// fmaBlock8x8US adding to the block of c: c[r][j] += Σ_l a[r·lda + l]·b[l·ldb + j],
// the sum continued from c's entries in order (a sum cut in two by a store
// and a load is the same sum, bit for bit).
TEXT ·fmaBlock8x8U(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R10
	SHLQ $3, R10
	LEAQ (R10)(R10*2), R11 // 3·lda
	LEAQ (SI)(R10*4), R12  // row 4
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R8
	SHLQ $3, R8
	MOVQ k+32(FP), CX
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R9
	SHLQ $3, R9
	MOVQ    DX, AX
	VMOVUPD (AX), Z0
	ADDQ    R9, AX
	VMOVUPD (AX), Z1
	ADDQ    R9, AX
	VMOVUPD (AX), Z2
	ADDQ    R9, AX
	VMOVUPD (AX), Z3
	ADDQ    R9, AX
	VMOVUPD (AX), Z4
	ADDQ    R9, AX
	VMOVUPD (AX), Z5
	ADDQ    R9, AX
	VMOVUPD (AX), Z6
	ADDQ    R9, AX
	VMOVUPD (AX), Z7

loopu:
	VMOVUPD (DI), Z8
	VFMADD231PD.BCST (SI), Z8, Z0
	VFMADD231PD.BCST (SI)(R10*1), Z8, Z1
	VFMADD231PD.BCST (SI)(R10*2), Z8, Z2
	VFMADD231PD.BCST (SI)(R11*1), Z8, Z3
	VFMADD231PD.BCST (R12), Z8, Z4
	VFMADD231PD.BCST (R12)(R10*1), Z8, Z5
	VFMADD231PD.BCST (R12)(R10*2), Z8, Z6
	VFMADD231PD.BCST (R12)(R11*1), Z8, Z7
	ADDQ $8, SI
	ADDQ $8, R12
	ADDQ R8, DI
	DECQ CX
	JNZ  loopu

	VMOVUPD Z0, (DX)
	ADDQ    R9, DX
	VMOVUPD Z1, (DX)
	ADDQ    R9, DX
	VMOVUPD Z2, (DX)
	ADDQ    R9, DX
	VMOVUPD Z3, (DX)
	ADDQ    R9, DX
	VMOVUPD Z4, (DX)
	ADDQ    R9, DX
	VMOVUPD Z5, (DX)
	ADDQ    R9, DX
	VMOVUPD Z6, (DX)
	ADDQ    R9, DX
	VMOVUPD Z7, (DX)
	VZEROUPPER
	RET
