#include "textflag.h"

// func gather16AVX(dst *float64, idx *int, v *float64, n int, src *float64, ss int)
//
// dst[0:16] = Σ_{q<n} v[q]·src[idx[q]·ss : idx[q]·ss+16], each column summed
// from zero in order q = 0, 1, … with a multiply and then an add (VMULPD,
// VADDPD: no fused multiply-add), so each column gets the bits of the scalar
// loop a += v[q]·s.
TEXT ·gather16AVX(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ idx+8(FP), SI
	MOVQ v+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ src+32(FP), BX
	MOVQ ss+40(FP), R8
	SHLQ $3, R8
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	TESTQ CX, CX
	JE done16

loop16:
	MOVQ (SI), AX
	IMULQ R8, AX
	ADDQ BX, AX
	VBROADCASTSD (DX), Y4
	VMULPD (AX), Y4, Y5
	VMULPD 32(AX), Y4, Y6
	VMULPD 64(AX), Y4, Y7
	VMULPD 96(AX), Y4, Y8
	VADDPD Y5, Y0, Y0
	VADDPD Y6, Y1, Y1
	VADDPD Y7, Y2, Y2
	VADDPD Y8, Y3, Y3
	ADDQ $8, SI
	ADDQ $8, DX
	DECQ CX
	JNE  loop16

done16:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VZEROUPPER
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv0() (eax, edx uint32)
TEXT ·xgetbv0(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func axpyAVX(d *float64, a float64, s *float64, n int)
//
// d[k] += a·s[k] for k < n, n a multiple of 4: a multiply then an add
// (VMULPD, VADDPD), the bits of the scalar d[k] += a*s[k].
TEXT ·axpyAVX(SB), NOSPLIT, $0-32
	MOVQ         d+0(FP), DI
	VBROADCASTSD a+8(FP), Y0
	MOVQ         s+16(FP), SI
	MOVQ         n+24(FP), CX
	SHRQ         $2, CX
	JE           doneaxpy

loopaxpy:
	VMULPD  (SI), Y0, Y1
	VADDPD  (DI), Y1, Y1
	VMOVUPD Y1, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNE     loopaxpy

doneaxpy:
	VZEROUPPER
	RET

// func adamAVX(th, grad, m, v *float64, n int, c *[8]float64)
//
// Adam's update of n entries (n a multiple of 4) with the constants
// c = {wd, β1, 1−β1, β2, 1−β2, 1/√(1−β2ᵗ), ε, lr/(1−β1ᵗ)}, operation by
// operation as Adam.Step's loop (no fused multiply-add; VSQRTPD and VDIVPD
// round correctly, as math.Sqrt and / do):
//
//	gk = g + wd·θ;  mk = β1·m + (1−β1)·gk;  vk = β2·v + ((1−β2)·gk)·gk
//	m, v = mk, vk;  θ = θ − (step·mk) / (√vk·inv2 + ε)
TEXT ·adamAVX(SB), NOSPLIT, $0-48
	MOVQ         th+0(FP), DI
	MOVQ         grad+8(FP), SI
	MOVQ         m+16(FP), R8
	MOVQ         v+24(FP), R9
	MOVQ         n+32(FP), CX
	MOVQ         c+40(FP), AX
	VBROADCASTSD 0(AX), Y8   // wd
	VBROADCASTSD 8(AX), Y9   // β1
	VBROADCASTSD 16(AX), Y10 // 1−β1
	VBROADCASTSD 24(AX), Y11 // β2
	VBROADCASTSD 32(AX), Y12 // 1−β2
	VBROADCASTSD 40(AX), Y13 // inv2
	VBROADCASTSD 48(AX), Y14 // ε
	VBROADCASTSD 56(AX), Y15 // step
	SHRQ         $2, CX
	JE           doneadam

loopadam:
	VMOVUPD (DI), Y0        // θ
	VMULPD  Y0, Y8, Y1      // wd·θ
	VADDPD  (SI), Y1, Y1    // gk = g + wd·θ
	VMULPD  (R8), Y9, Y2    // β1·m
	VMULPD  Y1, Y10, Y3     // (1−β1)·gk
	VADDPD  Y3, Y2, Y2      // mk
	VMULPD  (R9), Y11, Y4   // β2·v
	VMULPD  Y1, Y12, Y5     // (1−β2)·gk
	VMULPD  Y1, Y5, Y5      // ((1−β2)·gk)·gk
	VADDPD  Y5, Y4, Y4      // vk
	VMOVUPD Y2, (R8)
	VMOVUPD Y4, (R9)
	VSQRTPD Y4, Y6          // √vk
	VMULPD  Y13, Y6, Y6     // √vk·inv2
	VADDPD  Y14, Y6, Y6     // + ε
	VMULPD  Y2, Y15, Y7     // step·mk
	VDIVPD  Y6, Y7, Y7      // (step·mk) / den
	VSUBPD  Y7, Y0, Y0      // θ − …
	VMOVUPD Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, R8
	ADDQ    $32, R9
	DECQ    CX
	JNE     loopadam

doneadam:
	VZEROUPPER
	RET

// func scatterAVX(dst *float64, stride int, idx *int, v *float64, n int, s *float64, w int)
//
// For q = 0 … n−1 in order: dst[idx[q]·stride : …+w] += v[q]·s[0:w], w a
// multiple of 4, each entry a rounded multiply then a rounded add (VMULPD,
// VADDPD): the bits of axpy term by term.
TEXT ·scatterAVX(SB), NOSPLIT, $0-56
	MOVQ  dst+0(FP), DI
	MOVQ  stride+8(FP), R8
	SHLQ  $3, R8
	MOVQ  idx+16(FP), SI
	MOVQ  v+24(FP), DX
	MOVQ  n+32(FP), CX
	MOVQ  s+40(FP), BX
	MOVQ  w+48(FP), R9
	SHRQ  $2, R9
	TESTQ CX, CX
	JE    donescatter
	TESTQ R9, R9
	JE    donescatter

rowsscatter:
	MOVQ         (SI), AX
	IMULQ        R8, AX
	ADDQ         DI, AX
	VBROADCASTSD (DX), Y0
	MOVQ         BX, R10
	MOVQ         R9, R11

colsscatter:
	VMULPD  (R10), Y0, Y1
	VADDPD  (AX), Y1, Y1
	VMOVUPD Y1, (AX)
	ADDQ    $32, R10
	ADDQ    $32, AX
	DECQ    R11
	JNE     colsscatter
	ADDQ    $8, SI
	ADDQ    $8, DX
	DECQ    CX
	JNE     rowsscatter

donescatter:
	VZEROUPPER
	RET

// func gather8AVX(dst *float64, idx *int, v *float64, n int, src *float64, ss int, mask *[8]int64)
//
// dst[0:8] = Σ_q v[q]·src[idx[q]·ss : …+8] like gather16AVX, reading only
// the lanes whose mask entry is negative (VMASKMOVPD: the others read as
// zero and never touch memory), for the narrow outputs (≤ 8 columns).
TEXT ·gather8AVX(SB), NOSPLIT, $0-56
	MOVQ    dst+0(FP), DI
	MOVQ    idx+8(FP), SI
	MOVQ    v+16(FP), DX
	MOVQ    n+24(FP), CX
	MOVQ    src+32(FP), BX
	MOVQ    ss+40(FP), R8
	SHLQ    $3, R8
	MOVQ    mask+48(FP), AX
	VMOVDQU (AX), Y10
	VMOVDQU 32(AX), Y11
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	TESTQ   CX, CX
	JE      done8

loop8:
	MOVQ         (SI), AX
	IMULQ        R8, AX
	ADDQ         BX, AX
	VBROADCASTSD (DX), Y4
	VMASKMOVPD   (AX), Y10, Y5
	VMASKMOVPD   32(AX), Y11, Y6
	VMULPD       Y5, Y4, Y5
	VMULPD       Y6, Y4, Y6
	VADDPD       Y5, Y0, Y0
	VADDPD       Y6, Y1, Y1
	ADDQ         $8, SI
	ADDQ         $8, DX
	DECQ         CX
	JNE          loop8

done8:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET
