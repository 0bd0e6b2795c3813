#include "textflag.h"

// Sparse-times-dense products over every row of a CSR matrix P (n rows,
// row pointers ptr with ptr[0] = 0, column indices ind, values val), one
// 16-column block (four YMM accumulators) or one block of at most 8 columns
// under a lane mask per call. Row i of dst is Σ_q val[q]·src[ind[q]·ss : …]
// over q in ptr[i] … ptr[i+1]−1, summed from zero in q order with a rounded
// multiply and then a rounded add (VMULPD, VADDPD) — the bits of gather —
// and then, when addp is not nil, plus addp[i·as : …] (as = 0 adds one
// row, a bias, to every row; addp = dst, as = ds adds to what dst held).

// func csr16AVX(dst *float64, ds int, ptr, ind *int, val *float64, n int, src *float64, ss int, addp *float64, as int, nc int) (ok bool)
TEXT ·csr16AVX(SB), NOSPLIT, $0-89
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
	JE    done16

row16:
	MOVQ   8(SI), R13
	SUBQ   (SI), R13
	ADDQ   $8, SI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	TESTQ  R13, R13
	JE     store16
	JL     fail16

term16:
	MOVQ         (R10), AX
	CMPQ         AX, nc+80(FP)
	JAE          fail16
	IMULQ        R8, AX
	ADDQ         BX, AX
	VBROADCASTSD (DX), Y4
	VMULPD       (AX), Y4, Y5
	VMULPD       32(AX), Y4, Y6
	VMULPD       64(AX), Y4, Y7
	VMULPD       96(AX), Y4, Y8
	VADDPD       Y5, Y0, Y0
	VADDPD       Y6, Y1, Y1
	VADDPD       Y7, Y2, Y2
	VADDPD       Y8, Y3, Y3
	ADDQ         $8, R10
	ADDQ         $8, DX
	DECQ         R13
	JNE          term16

store16:
	TESTQ  R11, R11
	JE     put16
	VADDPD (R11), Y0, Y0
	VADDPD 32(R11), Y1, Y1
	VADDPD 64(R11), Y2, Y2
	VADDPD 96(R11), Y3, Y3
	ADDQ   R12, R11

put16:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ    R9, DI
	DECQ    CX
	JNE     row16

done16:
	VZEROUPPER
	MOVB $1, ok+88(FP)
	RET

fail16:
	VZEROUPPER
	MOVB $0, ok+88(FP)
	RET

// func csr8AVX(dst *float64, ds int, ptr, ind *int, val *float64, n int, src *float64, ss int, addp *float64, as int, mask *[8]int64, nc int) (ok bool)
//
// csr16AVX for the lanes of 8 columns whose mask entry is −1: only those
// are read from src and addp and written to dst.
TEXT ·csr8AVX(SB), NOSPLIT, $0-97
	MOVQ    dst+0(FP), DI
	MOVQ    ds+8(FP), R9
	SHLQ    $3, R9
	MOVQ    ptr+16(FP), SI
	MOVQ    ind+24(FP), R10
	MOVQ    val+32(FP), DX
	MOVQ    n+40(FP), CX
	MOVQ    src+48(FP), BX
	MOVQ    ss+56(FP), R8
	SHLQ    $3, R8
	MOVQ    addp+64(FP), R11
	MOVQ    as+72(FP), R12
	SHLQ    $3, R12
	MOVQ    mask+80(FP), AX
	VMOVDQU (AX), Y11
	VMOVDQU 32(AX), Y12
	TESTQ   CX, CX
	JE      done8

row8:
	MOVQ   8(SI), R13
	SUBQ   (SI), R13
	ADDQ   $8, SI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	TESTQ  R13, R13
	JE     store8
	JL     fail8

term8:
	MOVQ         (R10), AX
	CMPQ         AX, nc+88(FP)
	JAE          fail8
	IMULQ        R8, AX
	ADDQ         BX, AX
	VBROADCASTSD (DX), Y4
	VMASKMOVPD   (AX), Y11, Y5
	VMASKMOVPD   32(AX), Y12, Y6
	VMULPD       Y5, Y4, Y5
	VMULPD       Y6, Y4, Y6
	VADDPD       Y5, Y0, Y0
	VADDPD       Y6, Y1, Y1
	ADDQ         $8, R10
	ADDQ         $8, DX
	DECQ         R13
	JNE          term8

store8:
	TESTQ      R11, R11
	JE         put8
	VMASKMOVPD (R11), Y11, Y5
	VMASKMOVPD 32(R11), Y12, Y6
	VADDPD     Y5, Y0, Y0
	VADDPD     Y6, Y1, Y1
	ADDQ       R12, R11

put8:
	VMASKMOVPD Y0, Y11, (DI)
	VMASKMOVPD Y1, Y12, 32(DI)
	ADDQ       R9, DI
	DECQ       CX
	JNE        row8

done8:
	VZEROUPPER
	MOVB $1, ok+96(FP)
	RET

fail8:
	VZEROUPPER
	MOVB $0, ok+96(FP)
	RET
