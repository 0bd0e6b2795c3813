#include "textflag.h"

// The AVX-512 products of dense.go (the machine's 32 ZMM registers hold a
// 64- or 32-column block of the output, so each loaded row of a or g and
// each broadcast coefficient serves 8 or 16 vector products, where the
// AVX kernels of dense_amd64.s reach 16 columns). Each entry is summed as
// there: from +0, term by term in ascending order, a multiply then a
// separately rounded add (no fused multiply–add), so the bits are those
// of the AVX kernels and of the scalar loops. Only the unmasked forms
// exist: the callers use them when the other factor is finite, where a
// zero coefficient's term is ±0 and leaves a sum started at +0 unchanged.
// The loops were generated (a script, not kept: each is the two kernels'
// loop unrolled over rows and 8-double lanes).

// func denseNN64x2FZ(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int)
//
// dst[i·ds : +64] = Σ_p a[i·as+p]·b[p·bs : +64] for i < n (n even), two
// rows of a at a time (a row of b loaded once for both).
TEXT ·denseNN64x2FZ(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ ds+8(FP), R8
	SHLQ $3, R8
	MOVQ a+16(FP), SI
	MOVQ as+24(FP), R9
	SHLQ $3, R9
	MOVQ n+32(FP), CX
	SHRQ $1, CX
	MOVQ k+40(FP), R10
	MOVQ b+48(FP), BX
	MOVQ bs+56(FP), R11
	SHLQ $3, R11
	TESTQ CX, CX
	JE donedenseNN64x2FZ
rowsdenseNN64x2FZ:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15
	MOVQ SI, AX
	MOVQ BX, DX
	MOVQ R10, R12
	TESTQ R12, R12
	JE storedenseNN64x2FZ
termdenseNN64x2FZ:
	VMOVUPD 0(DX), Z16
	VMOVUPD 64(DX), Z17
	VMOVUPD 128(DX), Z18
	VMOVUPD 192(DX), Z19
	VMOVUPD 256(DX), Z20
	VMOVUPD 320(DX), Z21
	VMOVUPD 384(DX), Z22
	VMOVUPD 448(DX), Z23
	VBROADCASTSD (AX), Z24
	VMULPD Z16, Z24, Z26
	VADDPD Z26, Z0, Z0
	VMULPD Z17, Z24, Z27
	VADDPD Z27, Z1, Z1
	VMULPD Z18, Z24, Z28
	VADDPD Z28, Z2, Z2
	VMULPD Z19, Z24, Z29
	VADDPD Z29, Z3, Z3
	VMULPD Z20, Z24, Z30
	VADDPD Z30, Z4, Z4
	VMULPD Z21, Z24, Z31
	VADDPD Z31, Z5, Z5
	VMULPD Z22, Z24, Z26
	VADDPD Z26, Z6, Z6
	VMULPD Z23, Z24, Z27
	VADDPD Z27, Z7, Z7
	VBROADCASTSD (AX)(R9*1), Z25
	VMULPD Z16, Z25, Z28
	VADDPD Z28, Z8, Z8
	VMULPD Z17, Z25, Z29
	VADDPD Z29, Z9, Z9
	VMULPD Z18, Z25, Z30
	VADDPD Z30, Z10, Z10
	VMULPD Z19, Z25, Z31
	VADDPD Z31, Z11, Z11
	VMULPD Z20, Z25, Z26
	VADDPD Z26, Z12, Z12
	VMULPD Z21, Z25, Z27
	VADDPD Z27, Z13, Z13
	VMULPD Z22, Z25, Z28
	VADDPD Z28, Z14, Z14
	VMULPD Z23, Z25, Z29
	VADDPD Z29, Z15, Z15
	ADDQ $8, AX
	ADDQ R11, DX
	DECQ R12
	JNE termdenseNN64x2FZ
storedenseNN64x2FZ:
	MOVQ DI, AX
	VMOVUPD Z0, 0(AX)
	VMOVUPD Z1, 64(AX)
	VMOVUPD Z2, 128(AX)
	VMOVUPD Z3, 192(AX)
	VMOVUPD Z4, 256(AX)
	VMOVUPD Z5, 320(AX)
	VMOVUPD Z6, 384(AX)
	VMOVUPD Z7, 448(AX)
	ADDQ R8, AX
	VMOVUPD Z8, 0(AX)
	VMOVUPD Z9, 64(AX)
	VMOVUPD Z10, 128(AX)
	VMOVUPD Z11, 192(AX)
	VMOVUPD Z12, 256(AX)
	VMOVUPD Z13, 320(AX)
	VMOVUPD Z14, 384(AX)
	VMOVUPD Z15, 448(AX)
	ADDQ R8, AX
	LEAQ (SI)(R9*2), SI
	LEAQ (DI)(R8*2), DI
	DECQ CX
	JNE rowsdenseNN64x2FZ
donedenseNN64x2FZ:
	VZEROUPPER
	RET

// func denseTN32x4FZ(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int)
//
// dst[p·ds : +32] += a[i·as+p]·g[i·gs : +32] for p < k, over the listed
// rows i (nr a multiple of 4) in order, four at a time (a row of dst
// loaded and stored once for the four).
TEXT ·denseTN32x4FZ(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), DI
	MOVQ ds+8(FP), R8
	SHLQ $3, R8
	MOVQ a+16(FP), SI
	MOVQ as+24(FP), R9
	SHLQ $3, R9
	MOVQ rows+32(FP), R13
	MOVQ nr+40(FP), CX
	SHRQ $2, CX
	MOVQ gr+56(FP), BX
	MOVQ gs+64(FP), R11
	SHLQ $3, R11
	TESTQ CX, CX
	JE donedenseTN32x4FZ
	MOVQ k+48(FP), R12
	TESTQ R12, R12
	JE donedenseTN32x4FZ
groupdenseTN32x4FZ:
	MOVQ 0(R13), AX
	MOVQ AX, DX
	IMULQ R11, DX
	ADDQ BX, DX
	VMOVUPD 0(DX), Z0
	VMOVUPD 64(DX), Z1
	VMOVUPD 128(DX), Z2
	VMOVUPD 192(DX), Z3
	IMULQ R9, AX
	ADDQ SI, AX
	MOVQ 8(R13), R10
	MOVQ R10, DX
	IMULQ R11, DX
	ADDQ BX, DX
	VMOVUPD 0(DX), Z4
	VMOVUPD 64(DX), Z5
	VMOVUPD 128(DX), Z6
	VMOVUPD 192(DX), Z7
	IMULQ R9, R10
	ADDQ SI, R10
	MOVQ 16(R13), R14
	MOVQ R14, DX
	IMULQ R11, DX
	ADDQ BX, DX
	VMOVUPD 0(DX), Z8
	VMOVUPD 64(DX), Z9
	VMOVUPD 128(DX), Z10
	VMOVUPD 192(DX), Z11
	IMULQ R9, R14
	ADDQ SI, R14
	MOVQ 24(R13), R15
	MOVQ R15, DX
	IMULQ R11, DX
	ADDQ BX, DX
	VMOVUPD 0(DX), Z12
	VMOVUPD 64(DX), Z13
	VMOVUPD 128(DX), Z14
	VMOVUPD 192(DX), Z15
	IMULQ R9, R15
	ADDQ SI, R15
	MOVQ DI, DX
	MOVQ k+48(FP), R12
termdenseTN32x4FZ:
	VMOVUPD 0(DX), Z16
	VMOVUPD 64(DX), Z17
	VMOVUPD 128(DX), Z18
	VMOVUPD 192(DX), Z19
	VBROADCASTSD (AX), Z20
	VMULPD Z0, Z20, Z22
	VADDPD Z22, Z16, Z16
	VMULPD Z1, Z20, Z23
	VADDPD Z23, Z17, Z17
	VMULPD Z2, Z20, Z24
	VADDPD Z24, Z18, Z18
	VMULPD Z3, Z20, Z25
	VADDPD Z25, Z19, Z19
	VBROADCASTSD (R10), Z21
	VMULPD Z4, Z21, Z26
	VADDPD Z26, Z16, Z16
	VMULPD Z5, Z21, Z27
	VADDPD Z27, Z17, Z17
	VMULPD Z6, Z21, Z28
	VADDPD Z28, Z18, Z18
	VMULPD Z7, Z21, Z29
	VADDPD Z29, Z19, Z19
	VBROADCASTSD (R14), Z20
	VMULPD Z8, Z20, Z30
	VADDPD Z30, Z16, Z16
	VMULPD Z9, Z20, Z31
	VADDPD Z31, Z17, Z17
	VMULPD Z10, Z20, Z22
	VADDPD Z22, Z18, Z18
	VMULPD Z11, Z20, Z23
	VADDPD Z23, Z19, Z19
	VBROADCASTSD (R15), Z21
	VMULPD Z12, Z21, Z24
	VADDPD Z24, Z16, Z16
	VMULPD Z13, Z21, Z25
	VADDPD Z25, Z17, Z17
	VMULPD Z14, Z21, Z26
	VADDPD Z26, Z18, Z18
	VMULPD Z15, Z21, Z27
	VADDPD Z27, Z19, Z19
	VMOVUPD Z16, 0(DX)
	VMOVUPD Z17, 64(DX)
	VMOVUPD Z18, 128(DX)
	VMOVUPD Z19, 192(DX)
	ADDQ $8, AX
	ADDQ $8, R10
	ADDQ $8, R14
	ADDQ $8, R15
	ADDQ R8, DX
	DECQ R12
	JNE termdenseTN32x4FZ
	ADDQ $32, R13
	DECQ CX
	JNE groupdenseTN32x4FZ
donedenseTN32x4FZ:
	VZEROUPPER
	RET

