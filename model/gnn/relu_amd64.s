#include "textflag.h"

// The ReLU and dropout passes of model.go in AVX-512, 8 or 16 entries at a
// time, with the bits of the Go loops: the mask is all ones where pre > 0
// (an ordered compare: false for NaN) and zeroes the entry elsewhere (+0);
// relu(z) is max(0, z) + 0, which is Go's max(z, 0) on every input (NaN
// stays NaN, −0 becomes +0); a draw keeps its entry when its 32-bit half is
// at least the threshold, as keepPair does.

// func reluGrad512(d, pre *float64, n int)
//
// d[k] = +0 where !(pre[k] > 0), for k < n (n a multiple of 8).
TEXT ·reluGrad512(SB), NOSPLIT, $0-24
	MOVQ   d+0(FP), DI
	MOVQ   pre+8(FP), SI
	MOVQ   n+16(FP), CX
	SHRQ   $3, CX
	JE     donerg
	VPXORQ Z0, Z0, Z0

looprg:
	VMOVUPD   (SI), Z1
	VCMPPD    $0x1e, Z0, Z1, K1
	VMOVUPD.Z (DI), K1, Z2
	VMOVUPD   Z2, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	DECQ      CX
	JNE       looprg

donerg:
	VZEROUPPER
	RET

// func reluDropGrad512(d, pre, mask *float64, n int)
//
// d[k] = d[k]·mask[k] where pre[k] > 0, +0 elsewhere, for k < n (n a
// multiple of 8).
TEXT ·reluDropGrad512(SB), NOSPLIT, $0-32
	MOVQ   d+0(FP), DI
	MOVQ   pre+8(FP), SI
	MOVQ   mask+16(FP), DX
	MOVQ   n+24(FP), CX
	SHRQ   $3, CX
	JE     donerdg
	VPXORQ Z0, Z0, Z0

looprdg:
	VMOVUPD  (SI), Z1
	VCMPPD   $0x1e, Z0, Z1, K1
	VMOVUPD  (DI), Z2
	VMULPD.Z (DX), Z2, K1, Z2
	VMOVUPD  Z2, (DI)
	ADDQ     $64, SI
	ADDQ     $64, DI
	ADDQ     $64, DX
	DECQ     CX
	JNE      looprdg

donerdg:
	VZEROUPPER
	RET

// func reluDrop512(h, mask, z *float64, words *uint64, n int, thr uint64, scale float64)
//
// For k < n (n a multiple of 16): mask[k] = scale when the 32-bit half
// (low for even k) of words[k/2] is ≥ thr, else 0; h[k] = relu(z[k])·mask[k].
TEXT ·reluDrop512(SB), NOSPLIT, $0-56
	MOVQ         h+0(FP), DI
	MOVQ         mask+8(FP), DX
	MOVQ         z+16(FP), SI
	MOVQ         words+24(FP), BX
	MOVQ         n+32(FP), CX
	SHRQ         $4, CX
	JE           donerd
	MOVQ         thr+40(FP), AX
	VPBROADCASTD AX, Z14
	VBROADCASTSD scale+48(FP), Z15
	VPXORQ       Z13, Z13, Z13

looprd:
	VMOVDQU32 (BX), Z0
	VPCMPUD   $5, Z14, Z0, K1
	KSHIFTRW  $8, K1, K2
	VMOVAPD.Z Z15, K1, Z1
	VMOVAPD.Z Z15, K2, Z2
	VMOVUPD   Z1, (DX)
	VMOVUPD   Z2, 64(DX)
	VMOVUPD   (SI), Z3
	VMOVUPD   64(SI), Z4
	VMAXPD    Z3, Z13, Z3
	VMAXPD    Z4, Z13, Z4
	VADDPD    Z13, Z3, Z3
	VADDPD    Z13, Z4, Z4
	VMULPD    Z1, Z3, Z3
	VMULPD    Z2, Z4, Z4
	VMOVUPD   Z3, (DI)
	VMOVUPD   Z4, 64(DI)
	ADDQ      $64, BX
	ADDQ      $128, DX
	ADDQ      $128, SI
	ADDQ      $128, DI
	DECQ      CX
	JNE       looprd

donerd:
	VZEROUPPER
	RET
