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
