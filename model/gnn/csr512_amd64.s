#include "textflag.h"
#include "masks512_amd64.h"

// csr16AVX (csr_amd64.s) in AVX-512 on a block of at most 32 columns: four
// ZMM accumulators, the lanes beyond the width masked (K1–K4: masked lanes
// are neither read nor written), so one pass over the CSR structure serves
// twice csr16AVX's columns. Each entry is summed as there — from zero in
// stored order, a rounded multiply and then a rounded add, then plus addp —
// the bits of gather.

// func csr32(dst *float64, ds int, ptr, ind *int, val *float64, n int, src *float64, ss int, addp *float64, as int, w int, nc int) (ok bool)
TEXT ·csr32(SB), NOSPLIT, $0-97
	KMASKS32(w+80(FP))
	MOVQ  dst+0(FP), DI
	MOVQ  ds+8(FP), R9
	SHLQ  $3, R9
	MOVQ  ptr+16(FP), SI
	MOVQ  ind+24(FP), R10
	MOVQ  val+32(FP), DX
	MOVQ  n+40(FP), CX
	MOVQ  src+48(FP), BX
	MOVQ  ss+56(FP), R8
	SHLQ  $3, R8
	MOVQ  addp+64(FP), R11
	MOVQ  as+72(FP), R12
	SHLQ  $3, R12
	TESTQ CX, CX
	JE    done32

row32:
	MOVQ   8(SI), R13
	SUBQ   (SI), R13
	ADDQ   $8, SI
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	TESTQ  R13, R13
	JE     store32
	JL     fail32

term32:
	MOVQ         (R10), AX
	CMPQ         AX, nc+88(FP)
	JAE          fail32
	IMULQ        R8, AX
	ADDQ         BX, AX
	VBROADCASTSD (DX), Z4
	VMULPD.Z     (AX), Z4, K1, Z5
	VMULPD.Z     64(AX), Z4, K2, Z6
	VMULPD.Z     128(AX), Z4, K3, Z7
	VMULPD.Z     192(AX), Z4, K4, Z8
	VADDPD       Z5, Z0, Z0
	VADDPD       Z6, Z1, Z1
	VADDPD       Z7, Z2, Z2
	VADDPD       Z8, Z3, Z3
	ADDQ         $8, R10
	ADDQ         $8, DX
	DECQ         R13
	JNE          term32

store32:
	TESTQ    R11, R11
	JE       put32
	VADDPD.Z (R11), Z0, K1, Z0
	VADDPD.Z 64(R11), Z1, K2, Z1
	VADDPD.Z 128(R11), Z2, K3, Z2
	VADDPD.Z 192(R11), Z3, K4, Z3
	ADDQ     R12, R11

put32:
	VMOVUPD Z0, K1, (DI)
	VMOVUPD Z1, K2, 64(DI)
	VMOVUPD Z2, K3, 128(DI)
	VMOVUPD Z3, K4, 192(DI)
	ADDQ    R9, DI
	DECQ    CX
	JNE     row32

done32:
	VZEROUPPER
	MOVB $1, ok+96(FP)
	RET

fail32:
	VZEROUPPER
	MOVB $0, ok+96(FP)
	RET
