#include "textflag.h"

// AddScaledRows' kernel (axpy.go): 32 entries of y at a time in eight YMM
// registers (eight independent chains of additions), to which every term
// f_j·x_j is added in the order of j, a rounded multiply (VMULPD) and then
// a rounded add (VADDPD), never fused, so the bits are those of the Go
// loop.

// func addScaledRows32(y *float64, groups int, f *float64, m int, x *float64, stride int)
TEXT ·addScaledRows32(SB), NOSPLIT, $0-48
	MOVQ  y+0(FP), DI
	MOVQ  groups+8(FP), CX
	MOVQ  f+16(FP), DX
	MOVQ  m+24(FP), R8
	MOVQ  x+32(FP), SI
	MOVQ  stride+40(FP), R9
	SHLQ  $3, R9
	TESTQ CX, CX
	JE    done

group:
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VMOVUPD 128(DI), Y4
	VMOVUPD 160(DI), Y5
	VMOVUPD 192(DI), Y6
	VMOVUPD 224(DI), Y7
	MOVQ    SI, R10
	MOVQ    DX, R11
	MOVQ    R8, R12

term:
	VBROADCASTSD (R11), Y8
	VMULPD       (R10), Y8, Y9
	VMULPD       32(R10), Y8, Y10
	VMULPD       64(R10), Y8, Y11
	VMULPD       96(R10), Y8, Y12
	VADDPD       Y9, Y0, Y0
	VADDPD       Y10, Y1, Y1
	VADDPD       Y11, Y2, Y2
	VADDPD       Y12, Y3, Y3
	VMULPD       128(R10), Y8, Y13
	VMULPD       160(R10), Y8, Y14
	VMULPD       192(R10), Y8, Y15
	VMULPD       224(R10), Y8, Y9
	VADDPD       Y13, Y4, Y4
	VADDPD       Y14, Y5, Y5
	VADDPD       Y15, Y6, Y6
	VADDPD       Y9, Y7, Y7
	ADDQ         R9, R10
	ADDQ         $8, R11
	DECQ         R12
	JNE          term

	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	ADDQ    $256, DI
	ADDQ    $256, SI
	DECQ    CX
	JNE     group

done:
	VZEROUPPER
	RET
