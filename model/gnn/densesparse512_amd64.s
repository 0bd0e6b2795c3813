#include "textflag.h"

// func denseNNList64(dst *float64, ds int, a *float64, as int, n int, b *float64, bs int, idx, cnt *int32)
//
// For each row i < n: dst[i·ds : +64] = Σ_t a[i·as+p_t]·b[p_t·bs : +64] over
// the cnt[i] column indices p_t of row i listed in idx (ascending, the
// rows' lists one after another), summed from +0 with a multiply and then
// a separately rounded add: denseNN64x2FZ's sum with the terms of zero
// coefficients left out, the same bits when b is finite (a zero
// coefficient's term is ±0, and a sum started at +0 never becomes −0).
// Eight ZMM accumulators hold the row; each listed term loads a row of b.
TEXT ·denseNNList64(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), DI
	MOVQ ds+8(FP), R8
	SHLQ $3, R8
	MOVQ a+16(FP), SI
	MOVQ as+24(FP), R9
	SHLQ $3, R9
	MOVQ n+32(FP), CX
	MOVQ b+40(FP), BX
	MOVQ bs+48(FP), R11
	SHLQ $3, R11
	MOVQ idx+56(FP), R10
	MOVQ cnt+64(FP), DX
	TESTQ CX, CX
	JE donelist

rowlist:
	VPXORQ  Z0, Z0, Z0
	VPXORQ  Z1, Z1, Z1
	VPXORQ  Z2, Z2, Z2
	VPXORQ  Z3, Z3, Z3
	VPXORQ  Z4, Z4, Z4
	VPXORQ  Z5, Z5, Z5
	VPXORQ  Z6, Z6, Z6
	VPXORQ  Z7, Z7, Z7
	MOVLQSX (DX), R12
	ADDQ    $4, DX
	TESTQ   R12, R12
	JE      storelist

termlist:
	MOVLQSX      (R10), AX
	ADDQ         $4, R10
	VBROADCASTSD (SI)(AX*8), Z8
	IMULQ        R11, AX
	ADDQ         BX, AX
	VMULPD       0(AX), Z8, Z9
	VMULPD       64(AX), Z8, Z10
	VMULPD       128(AX), Z8, Z11
	VMULPD       192(AX), Z8, Z12
	VMULPD       256(AX), Z8, Z13
	VMULPD       320(AX), Z8, Z14
	VMULPD       384(AX), Z8, Z15
	VMULPD       448(AX), Z8, Z16
	VADDPD       Z9, Z0, Z0
	VADDPD       Z10, Z1, Z1
	VADDPD       Z11, Z2, Z2
	VADDPD       Z12, Z3, Z3
	VADDPD       Z13, Z4, Z4
	VADDPD       Z14, Z5, Z5
	VADDPD       Z15, Z6, Z6
	VADDPD       Z16, Z7, Z7
	DECQ         R12
	JNE          termlist

storelist:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVUPD Z4, 256(DI)
	VMOVUPD Z5, 320(DI)
	VMOVUPD Z6, 384(DI)
	VMOVUPD Z7, 448(DI)
	ADDQ    R8, DI
	ADDQ    R9, SI
	DECQ    CX
	JNE     rowlist

donelist:
	VZEROUPPER
	RET

// iota16 holds the dword lane numbers 0 … 15.
DATA iota16<>+0(SB)/8, $0x0000000100000000
DATA iota16<>+8(SB)/8, $0x0000000300000002
DATA iota16<>+16(SB)/8, $0x0000000500000004
DATA iota16<>+24(SB)/8, $0x0000000700000006
DATA iota16<>+32(SB)/8, $0x0000000900000008
DATA iota16<>+40(SB)/8, $0x0000000b0000000a
DATA iota16<>+48(SB)/8, $0x0000000d0000000c
DATA iota16<>+56(SB)/8, $0x0000000f0000000e
GLOBL iota16<>(SB), RODATA|NOPTR, $64

// func nonZeroIdx512(a *float64, n, k int, idx, cnt *int32) (total int)
//
// For each row i < n of a (n×k, row-major): appends to idx the column
// indices p of its entries with a[i·k+p] ≠ 0 (an unordered compare: NaN
// counts, ±0 does not), ascending, and sets cnt[i] to their number; returns
// their total. Sixteen entries at a time: two compares, one VPCOMPRESSD of
// the lane numbers into a register, one 64-byte store at the list's end
// (idx must hold total + 16 entries: the store runs past the last index).
TEXT ·nonZeroIdx512(SB), NOSPLIT, $0-48
	MOVQ      a+0(FP), SI
	MOVQ      n+8(FP), BX
	MOVQ      k+16(FP), R8
	MOVQ      idx+24(FP), DI
	MOVQ      cnt+32(FP), DX
	XORQ      R11, R11
	VPXORQ    Z0, Z0, Z0
	VMOVDQU32 iota16<>(SB), Z1
	MOVL      $16, AX
	VPBROADCASTD AX, Z2
	TESTQ     BX, BX
	JE        donenz

rownz:
	XORQ      R9, R9      // p
	MOVQ      R11, R12    // the row's first index
	VMOVDQA32 Z1, Z3      // p + lane numbers

blocknz:
	MOVQ  R8, AX
	SUBQ  R9, AX          // entries left in the row
	JLE   endrownz
	CMPQ  AX, $16
	JAE   fullnz
	MOVQ  AX, CX
	MOVL  $1, AX
	SHLQ  CX, AX
	DECQ  AX
	JMP   masknz

fullnz:
	MOVL $0xffff, AX

masknz:
	KMOVW     AX, K1
	KSHIFTRW  $8, K1, K2
	VMOVUPD.Z (SI)(R9*8), K1, Z4
	VMOVUPD.Z 64(SI)(R9*8), K2, Z5
	VCMPPD    $4, Z0, Z4, K1, K3
	VCMPPD    $4, Z0, Z5, K2, K4
	KUNPCKBW  K3, K4, K5
	VPCOMPRESSD.Z Z3, K5, Z6
	VMOVDQU32 Z6, (DI)(R11*4)
	KMOVW     K5, AX
	POPCNTL   AX, AX
	ADDQ      AX, R11
	VPADDD    Z2, Z3, Z3
	ADDQ      $16, R9
	JMP       blocknz

endrownz:
	MOVQ  R11, AX
	SUBQ  R12, AX
	MOVL  AX, (DX)
	ADDQ  $4, DX
	LEAQ  (SI)(R8*8), SI
	DECQ  BX
	JNE   rownz

donenz:
	MOVQ R11, total+40(FP)
	VZEROUPPER
	RET
