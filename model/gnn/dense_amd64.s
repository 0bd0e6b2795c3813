#include "textflag.h"

// Dense products on row-major blocks, one 16-column block (four YMM
// accumulators) or one block of at most 8 columns (two, with VMASKMOVPD
// under a lane mask) per call. Every output entry is summed from zero in
// ascending order of the summed-over index with a rounded multiply and then
// a rounded add (VMULPD, VADDPD: no fused multiply-add). A term whose
// coefficient a is zero (or −0) is masked to +0 before its add (VCMPPD
// not-equal, VANDPD), which leaves a sum started at +0 unchanged bit for bit
// — even where the other factor is infinite or NaN — so the result equals
// the sparse loops that skip zero coefficients (gather, scatter).

// func denseNN16AVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int)
//
// For i < n: dst[i·ds : +16] = Σ_{p<k, a[i·as+p] ≠ 0} a[i·as+p]·b[p·bs : +16].
TEXT ·denseNN16AVX(SB), NOSPLIT, $0-64
	MOVQ   dst+0(FP), DI
	MOVQ   ds+8(FP), R8
	SHLQ   $3, R8
	MOVQ   a+16(FP), SI
	MOVQ   as+24(FP), R9
	SHLQ   $3, R9
	MOVQ   n+32(FP), CX
	MOVQ   k+40(FP), R10
	MOVQ   b+48(FP), BX
	MOVQ   bs+56(FP), R11
	SHLQ   $3, R11
	VXORPD Y9, Y9, Y9
	TESTQ  CX, CX
	JE     doneNN16

rowNN16:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ   SI, AX
	MOVQ   BX, DX
	MOVQ   R10, R12
	TESTQ  R12, R12
	JE     storeNN16

termNN16:
	VBROADCASTSD (AX), Y4
	VCMPPD       $4, Y9, Y4, Y5
	VMULPD       (DX), Y4, Y6
	VMULPD       32(DX), Y4, Y7
	VMULPD       64(DX), Y4, Y8
	VMULPD       96(DX), Y4, Y10
	VANDPD       Y5, Y6, Y6
	VANDPD       Y5, Y7, Y7
	VANDPD       Y5, Y8, Y8
	VANDPD       Y5, Y10, Y10
	VADDPD       Y6, Y0, Y0
	VADDPD       Y7, Y1, Y1
	VADDPD       Y8, Y2, Y2
	VADDPD       Y10, Y3, Y3
	ADDQ         $8, AX
	ADDQ         R11, DX
	DECQ         R12
	JNE          termNN16

storeNN16:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ    R9, SI
	ADDQ    R8, DI
	DECQ    CX
	JNE     rowNN16

doneNN16:
	VZEROUPPER
	RET

// func denseNN8AVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int, mask *[8]int64)
//
// denseNN16AVX for the lanes of 8 columns whose mask entry is −1: only those
// are written to dst. All 8 lanes of b's rows are read (the caller pads b),
// the extra lanes' sums discarded.
TEXT ·denseNN8AVX(SB), NOSPLIT, $0-72
	MOVQ    dst+0(FP), DI
	MOVQ    ds+8(FP), R8
	SHLQ    $3, R8
	MOVQ    a+16(FP), SI
	MOVQ    as+24(FP), R9
	SHLQ    $3, R9
	MOVQ    n+32(FP), CX
	MOVQ    k+40(FP), R10
	MOVQ    b+48(FP), BX
	MOVQ    bs+56(FP), R11
	SHLQ    $3, R11
	MOVQ    mask+64(FP), AX
	VMOVDQU (AX), Y11
	VMOVDQU 32(AX), Y12
	VXORPD  Y9, Y9, Y9
	TESTQ   CX, CX
	JE      doneNN8

rowNN8:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	MOVQ   SI, AX
	MOVQ   BX, DX
	MOVQ   R10, R12
	TESTQ  R12, R12
	JE     storeNN8

termNN8:
	VBROADCASTSD (AX), Y4
	VCMPPD       $4, Y9, Y4, Y5
	VMULPD       (DX), Y4, Y6
	VMULPD       32(DX), Y4, Y7
	VANDPD       Y5, Y6, Y6
	VANDPD       Y5, Y7, Y7
	VADDPD       Y6, Y0, Y0
	VADDPD       Y7, Y1, Y1
	ADDQ         $8, AX
	ADDQ         R11, DX
	DECQ         R12
	JNE          termNN8

storeNN8:
	VMASKMOVPD Y0, Y11, (DI)
	VMASKMOVPD Y1, Y12, 32(DI)
	ADDQ       R9, SI
	ADDQ       R8, DI
	DECQ       CX
	JNE        rowNN8

doneNN8:
	VZEROUPPER
	RET

// func denseTN16AVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int)
//
// For i = rows[0], rows[1], … (nr of them) in order, and p < k with
// a[i·as+p] ≠ 0: dst[p·ds : +16] += a[i·as+p]·gr[i·gs : +16] — aᵀ·g over
// the listed rows, each entry getting its terms in list order (the bits of
// scatter row by row).
TEXT ·denseTN16AVX(SB), NOSPLIT, $0-72
	MOVQ   dst+0(FP), DI
	MOVQ   ds+8(FP), R8
	SHLQ   $3, R8
	MOVQ   a+16(FP), SI
	MOVQ   as+24(FP), R9
	SHLQ   $3, R9
	MOVQ   rows+32(FP), R13
	MOVQ   nr+40(FP), CX
	MOVQ   k+48(FP), R10
	MOVQ   gr+56(FP), BX
	MOVQ   gs+64(FP), R11
	SHLQ   $3, R11
	VXORPD Y9, Y9, Y9
	TESTQ  CX, CX
	JE     doneTN16
	TESTQ  R10, R10
	JE     doneTN16

rowTN16:
	MOVQ    (R13), AX
	MOVQ    AX, DX
	IMULQ   R11, DX
	ADDQ    BX, DX
	VMOVUPD (DX), Y0
	VMOVUPD 32(DX), Y1
	VMOVUPD 64(DX), Y2
	VMOVUPD 96(DX), Y3
	IMULQ   R9, AX
	ADDQ    SI, AX
	MOVQ    DI, DX
	MOVQ    R10, R12

termTN16:
	VBROADCASTSD (AX), Y4
	VCMPPD       $4, Y9, Y4, Y5
	VMULPD       Y0, Y4, Y6
	VMULPD       Y1, Y4, Y7
	VMULPD       Y2, Y4, Y8
	VMULPD       Y3, Y4, Y10
	VANDPD       Y5, Y6, Y6
	VANDPD       Y5, Y7, Y7
	VANDPD       Y5, Y8, Y8
	VANDPD       Y5, Y10, Y10
	VADDPD       (DX), Y6, Y6
	VADDPD       32(DX), Y7, Y7
	VADDPD       64(DX), Y8, Y8
	VADDPD       96(DX), Y10, Y10
	VMOVUPD      Y6, (DX)
	VMOVUPD      Y7, 32(DX)
	VMOVUPD      Y8, 64(DX)
	VMOVUPD      Y10, 96(DX)
	ADDQ         $8, AX
	ADDQ         R8, DX
	DECQ         R12
	JNE          termTN16
	ADDQ         $8, R13
	DECQ         CX
	JNE          rowTN16

doneTN16:
	VZEROUPPER
	RET

// func denseTN8AVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int, mask *[8]int64)
//
// denseTN16AVX for 8 columns of dst, all written (the caller pads dst), from
// the lanes of g whose mask entry is −1 (the others read as zero).
TEXT ·denseTN8AVX(SB), NOSPLIT, $0-80
	MOVQ    dst+0(FP), DI
	MOVQ    ds+8(FP), R8
	SHLQ    $3, R8
	MOVQ    a+16(FP), SI
	MOVQ    as+24(FP), R9
	SHLQ    $3, R9
	MOVQ    rows+32(FP), R13
	MOVQ    nr+40(FP), CX
	MOVQ    k+48(FP), R10
	MOVQ    gr+56(FP), BX
	MOVQ    gs+64(FP), R11
	SHLQ    $3, R11
	MOVQ    mask+72(FP), AX
	VMOVDQU (AX), Y11
	VMOVDQU 32(AX), Y12
	VXORPD  Y9, Y9, Y9
	TESTQ   CX, CX
	JE      doneTN8
	TESTQ   R10, R10
	JE      doneTN8

rowTN8:
	MOVQ       (R13), AX
	MOVQ       AX, DX
	IMULQ      R11, DX
	ADDQ       BX, DX
	VMASKMOVPD (DX), Y11, Y0
	VMASKMOVPD 32(DX), Y12, Y1
	IMULQ      R9, AX
	ADDQ       SI, AX
	MOVQ       DI, DX
	MOVQ       R10, R12

termTN8:
	VBROADCASTSD (AX), Y4
	VCMPPD       $4, Y9, Y4, Y5
	VMULPD       Y0, Y4, Y6
	VMULPD       Y1, Y4, Y7
	VANDPD       Y5, Y6, Y6
	VANDPD       Y5, Y7, Y7
	VADDPD       (DX), Y6, Y6
	VADDPD       32(DX), Y7, Y7
	VMOVUPD      Y6, (DX)
	VMOVUPD      Y7, 32(DX)
	ADDQ         $8, AX
	ADDQ         R8, DX
	DECQ         R12
	JNE          termTN8
	ADDQ         $8, R13
	DECQ         CX
	JNE          rowTN8

doneTN8:
	VZEROUPPER
	RET

// func denseNN16x2AVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int)
//
// denseNN16AVX two rows at a time (n even): every row of b is loaded once
// for both rows and eight accumulators are in flight; each entry gets the
// same terms, in the same order, with the same roundings.
TEXT ·denseNN16x2AVX(SB), NOSPLIT, $0-64
	MOVQ   dst+0(FP), DI
	MOVQ   ds+8(FP), R8
	SHLQ   $3, R8
	MOVQ   a+16(FP), SI
	MOVQ   as+24(FP), R9
	SHLQ   $3, R9
	MOVQ   n+32(FP), CX
	SHRQ   $1, CX
	MOVQ   k+40(FP), R10
	MOVQ   b+48(FP), BX
	MOVQ   bs+56(FP), R11
	SHLQ   $3, R11
	VXORPD Y9, Y9, Y9
	TESTQ  CX, CX
	JE     doneNN16x2

pairNN16x2:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	MOVQ   SI, AX
	LEAQ   (SI)(R9*1), R13
	MOVQ   BX, DX
	MOVQ   R10, R12
	TESTQ  R12, R12
	JE     storeNN16x2

termNN16x2:
	VMOVUPD      (DX), Y6
	VMOVUPD      32(DX), Y7
	VMOVUPD      64(DX), Y8
	VMOVUPD      96(DX), Y10
	VBROADCASTSD (AX), Y4
	VCMPPD       $4, Y9, Y4, Y5
	VMULPD       Y6, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y0, Y0
	VMULPD       Y7, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y1, Y1
	VMULPD       Y8, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y2, Y2
	VMULPD       Y10, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y3, Y3
	VBROADCASTSD (R13), Y4
	VCMPPD       $4, Y9, Y4, Y5
	VMULPD       Y6, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y11, Y11
	VMULPD       Y7, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y12, Y12
	VMULPD       Y8, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y13, Y13
	VMULPD       Y10, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y14, Y14
	ADDQ         $8, AX
	ADDQ         $8, R13
	ADDQ         R11, DX
	DECQ         R12
	JNE          termNN16x2

storeNN16x2:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	LEAQ    (DI)(R8*1), AX
	VMOVUPD Y11, (AX)
	VMOVUPD Y12, 32(AX)
	VMOVUPD Y13, 64(AX)
	VMOVUPD Y14, 96(AX)
	LEAQ    (SI)(R9*2), SI
	LEAQ    (DI)(R8*2), DI
	DECQ    CX
	JNE     pairNN16x2

doneNN16x2:
	VZEROUPPER
	RET

// func denseTN16x2AVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int)
//
// denseTN16AVX two listed rows at a time (nr even): each 16-column row of
// dst is loaded once, gets the term of the first row and then that of the
// second (the order of denseTN16AVX), and is stored once.
TEXT ·denseTN16x2AVX(SB), NOSPLIT, $0-72
	MOVQ   dst+0(FP), DI
	MOVQ   ds+8(FP), R8
	SHLQ   $3, R8
	MOVQ   a+16(FP), SI
	MOVQ   as+24(FP), R9
	SHLQ   $3, R9
	MOVQ   rows+32(FP), R13
	MOVQ   nr+40(FP), CX
	SHRQ   $1, CX
	MOVQ   gr+56(FP), BX
	MOVQ   gs+64(FP), R11
	SHLQ   $3, R11
	VXORPD Y9, Y9, Y9
	TESTQ  CX, CX
	JE     doneTN16x2
	MOVQ   k+48(FP), R12
	TESTQ  R12, R12
	JE     doneTN16x2

pairTN16x2:
	MOVQ    (R13), AX
	MOVQ    AX, DX
	IMULQ   R11, DX
	ADDQ    BX, DX
	VMOVUPD (DX), Y0
	VMOVUPD 32(DX), Y1
	VMOVUPD 64(DX), Y2
	VMOVUPD 96(DX), Y3
	IMULQ   R9, AX
	ADDQ    SI, AX
	MOVQ    8(R13), R10
	MOVQ    R10, DX
	IMULQ   R11, DX
	ADDQ    BX, DX
	VMOVUPD (DX), Y11
	VMOVUPD 32(DX), Y12
	VMOVUPD 64(DX), Y13
	VMOVUPD 96(DX), Y14
	IMULQ   R9, R10
	ADDQ    SI, R10
	MOVQ    DI, DX
	MOVQ    k+48(FP), R12

termTN16x2:
	VMOVUPD      (DX), Y6
	VMOVUPD      32(DX), Y7
	VMOVUPD      64(DX), Y8
	VMOVUPD      96(DX), Y10
	VBROADCASTSD (AX), Y4
	VCMPPD       $4, Y9, Y4, Y5
	VMULPD       Y0, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y6, Y6
	VMULPD       Y1, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y7, Y7
	VMULPD       Y2, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y8, Y8
	VMULPD       Y3, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y10, Y10
	VBROADCASTSD (R10), Y4
	VCMPPD       $4, Y9, Y4, Y5
	VMULPD       Y11, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y6, Y6
	VMULPD       Y12, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y7, Y7
	VMULPD       Y13, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y8, Y8
	VMULPD       Y14, Y4, Y15
	VANDPD       Y5, Y15, Y15
	VADDPD       Y15, Y10, Y10
	VMOVUPD      Y6, (DX)
	VMOVUPD      Y7, 32(DX)
	VMOVUPD      Y8, 64(DX)
	VMOVUPD      Y10, 96(DX)
	ADDQ         $8, AX
	ADDQ         $8, R10
	ADDQ         R8, DX
	DECQ         R12
	JNE          termTN16x2
	ADDQ         $16, R13
	DECQ         CX
	JNE          pairTN16x2

doneTN16x2:
	VZEROUPPER
	RET

// func denseTN16x2FAVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int)
//
// denseTN16x2AVX without the masking of zero coefficients, for listed rows
// of g whose entries are all finite: a zero coefficient's term is then ±0,
// which leaves a sum started at +0 (never −0) unchanged, so the bits are
// those of the masked kernel.
TEXT ·denseTN16x2FAVX(SB), NOSPLIT, $0-72
	MOVQ   dst+0(FP), DI
	MOVQ   ds+8(FP), R8
	SHLQ   $3, R8
	MOVQ   a+16(FP), SI
	MOVQ   as+24(FP), R9
	SHLQ   $3, R9
	MOVQ   rows+32(FP), R13
	MOVQ   nr+40(FP), CX
	SHRQ   $1, CX
	MOVQ   gr+56(FP), BX
	MOVQ   gs+64(FP), R11
	SHLQ   $3, R11
	VXORPD Y9, Y9, Y9
	TESTQ  CX, CX
	JE     doneTN16x2F
	MOVQ   k+48(FP), R12
	TESTQ  R12, R12
	JE     doneTN16x2F

pairTN16x2F:
	MOVQ    (R13), AX
	MOVQ    AX, DX
	IMULQ   R11, DX
	ADDQ    BX, DX
	VMOVUPD (DX), Y0
	VMOVUPD 32(DX), Y1
	VMOVUPD 64(DX), Y2
	VMOVUPD 96(DX), Y3
	IMULQ   R9, AX
	ADDQ    SI, AX
	MOVQ    8(R13), R10
	MOVQ    R10, DX
	IMULQ   R11, DX
	ADDQ    BX, DX
	VMOVUPD (DX), Y11
	VMOVUPD 32(DX), Y12
	VMOVUPD 64(DX), Y13
	VMOVUPD 96(DX), Y14
	IMULQ   R9, R10
	ADDQ    SI, R10
	MOVQ    DI, DX
	MOVQ    k+48(FP), R12

termTN16x2F:
	VMOVUPD      (DX), Y6
	VMOVUPD      32(DX), Y7
	VMOVUPD      64(DX), Y8
	VMOVUPD      96(DX), Y10
	VBROADCASTSD (AX), Y4
	VMULPD       Y0, Y4, Y15
	VADDPD       Y15, Y6, Y6
	VMULPD       Y1, Y4, Y15
	VADDPD       Y15, Y7, Y7
	VMULPD       Y2, Y4, Y15
	VADDPD       Y15, Y8, Y8
	VMULPD       Y3, Y4, Y15
	VADDPD       Y15, Y10, Y10
	VBROADCASTSD (R10), Y4
	VMULPD       Y11, Y4, Y15
	VADDPD       Y15, Y6, Y6
	VMULPD       Y12, Y4, Y15
	VADDPD       Y15, Y7, Y7
	VMULPD       Y13, Y4, Y15
	VADDPD       Y15, Y8, Y8
	VMULPD       Y14, Y4, Y15
	VADDPD       Y15, Y10, Y10
	VMOVUPD      Y6, (DX)
	VMOVUPD      Y7, 32(DX)
	VMOVUPD      Y8, 64(DX)
	VMOVUPD      Y10, 96(DX)
	ADDQ         $8, AX
	ADDQ         $8, R10
	ADDQ         R8, DX
	DECQ         R12
	JNE          termTN16x2F
	ADDQ         $16, R13
	DECQ         CX
	JNE          pairTN16x2F

doneTN16x2F:
	VZEROUPPER
	RET

// func denseNN16x2FAVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int)
//
// denseNN16x2AVX without the masking of zero coefficients, for a b whose
// entries are all finite: a zero coefficient's term is then ±0, which
// leaves a sum started at +0 (never −0) unchanged, so the bits are those
// of the masked kernel.
TEXT ·denseNN16x2FAVX(SB), NOSPLIT, $0-64
	MOVQ   dst+0(FP), DI
	MOVQ   ds+8(FP), R8
	SHLQ   $3, R8
	MOVQ   a+16(FP), SI
	MOVQ   as+24(FP), R9
	SHLQ   $3, R9
	MOVQ   n+32(FP), CX
	SHRQ   $1, CX
	MOVQ   k+40(FP), R10
	MOVQ   b+48(FP), BX
	MOVQ   bs+56(FP), R11
	SHLQ   $3, R11
	VXORPD Y9, Y9, Y9
	TESTQ  CX, CX
	JE     doneNN16x2F

pairNN16x2F:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	MOVQ   SI, AX
	LEAQ   (SI)(R9*1), R13
	MOVQ   BX, DX
	MOVQ   R10, R12
	TESTQ  R12, R12
	JE     storeNN16x2F

termNN16x2F:
	VMOVUPD      (DX), Y6
	VMOVUPD      32(DX), Y7
	VMOVUPD      64(DX), Y8
	VMOVUPD      96(DX), Y10
	VBROADCASTSD (AX), Y4
	VMULPD       Y6, Y4, Y15
	VADDPD       Y15, Y0, Y0
	VMULPD       Y7, Y4, Y15
	VADDPD       Y15, Y1, Y1
	VMULPD       Y8, Y4, Y15
	VADDPD       Y15, Y2, Y2
	VMULPD       Y10, Y4, Y15
	VADDPD       Y15, Y3, Y3
	VBROADCASTSD (R13), Y4
	VMULPD       Y6, Y4, Y15
	VADDPD       Y15, Y11, Y11
	VMULPD       Y7, Y4, Y15
	VADDPD       Y15, Y12, Y12
	VMULPD       Y8, Y4, Y15
	VADDPD       Y15, Y13, Y13
	VMULPD       Y10, Y4, Y15
	VADDPD       Y15, Y14, Y14
	ADDQ         $8, AX
	ADDQ         $8, R13
	ADDQ         R11, DX
	DECQ         R12
	JNE          termNN16x2F

storeNN16x2F:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	LEAQ    (DI)(R8*1), AX
	VMOVUPD Y11, (AX)
	VMOVUPD Y12, 32(AX)
	VMOVUPD Y13, 64(AX)
	VMOVUPD Y14, 96(AX)
	LEAQ    (SI)(R9*2), SI
	LEAQ    (DI)(R8*2), DI
	DECQ    CX
	JNE     pairNN16x2F

doneNN16x2F:
	VZEROUPPER
	RET

// func finiteAVX(v *float64, n int) bool
//
// finiteAVX reports whether the n entries of v (n a multiple of 16) are
// all finite: it sums x·0 over them in four accumulators, a sum that
// stays ±0 unless some x is ±Inf or NaN (then NaN), and compares it with
// itself once at the end, without a branch per entry.
TEXT ·finiteAVX(SB), NOSPLIT, $0-17
	MOVQ   v+0(FP), SI
	MOVQ   n+8(FP), CX
	SHRQ   $4, CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	TESTQ  CX, CX
	JE     sumFinite

loopFinite:
	VMULPD (SI), Y4, Y5
	VADDPD Y5, Y0, Y0
	VMULPD 32(SI), Y4, Y6
	VADDPD Y6, Y1, Y1
	VMULPD 64(SI), Y4, Y7
	VADDPD Y7, Y2, Y2
	VMULPD 96(SI), Y4, Y8
	VADDPD Y8, Y3, Y3
	ADDQ   $128, SI
	DECQ   CX
	JNE    loopFinite

sumFinite:
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VPERMILPD    $1, X0, X1
	VADDSD       X1, X0, X0
	UCOMISD      X0, X0
	SETPC        AL
	MOVB         AL, ret+16(FP)
	VZEROUPPER
	RET
