#include "textflag.h"

// The kernels of the mixed-precision solver (mixed.go), blocks of 16
// right-hand sides: in float32 a row is 64 bytes, two YMM registers of
// eight, so one cache line gathered serves 16 sides (the float64 kernels of
// block8_amd64.s serve 8 per line); the float64 residual's row is 128
// bytes, four registers. As there, every product is rounded and then
// subtracted, never fused, so the bits are those of the Go loops.

// Prefetching. A gather kernel's loads go to rows at random over vectors
// of n·64 bytes, far beyond the caches, and the processor alone keeps too
// few of them in flight: each term also prefetches the row named
// PREFETCH_AHEAD index entries further on (128 entries, 512 bytes of
// indices: on the 10⁶-node SBM one core's product with L took 45 ms
// instead of 79; 8 and 16 entries were slower than none, 256 slower than
// 128). Each sweep reads a triangle of its own (solver.go's triangle), so
// every entry ahead is one it will read. The index arrays are padded with
// that many zeros at both ends (padded), so the read ahead stays inside
// them. Prefetches change no result.
#define PREFETCH_AHEAD 512

// PREFETCH64(off, reg): prefetch the 64-byte row of the vector at SI named
// by the index entry off bytes from the current one (adj R9, p R10),
// through the free register reg. PREFETCH128: the same for 128-byte rows,
// both lines.
#define PREFETCH64(off, reg) \
	MOVLQSX    off(R9)(R10*4), reg; \
	SHLQ       $6, reg; \
	PREFETCHT0 (SI)(reg*1)

#define PREFETCH128(off, reg) \
	MOVLQSX    off(R9)(R10*4), reg; \
	SHLQ       $7, reg; \
	PREFETCHT0 (SI)(reg*1); \
	PREFETCHT0 64(SI)(reg*1)

// TERM16: Y0:Y1 −= fac_p ⊙ z_{adj_p}, p = R10 (fac DX, adj R9, z SI; the
// product rounded, then subtracted). SCALESTORE16: the row Y0:Y1 times
// finv (BX), stored at DI. SWEEPARGS: the sweeps' arguments.
#define TERM16 \
	VBROADCASTSS (DX)(R10*4), Y4; \
	MOVLQSX      (R9)(R10*4), AX; \
	SHLQ         $6, AX; \
	VMULPS       (SI)(AX*1), Y4, Y5; \
	VMULPS       32(SI)(AX*1), Y4, Y6; \
	VSUBPS       Y5, Y0, Y0; \
	VSUBPS       Y6, Y1, Y1

#define SCALESTORE16 \
	VBROADCASTSS (BX), Y7; \
	VMULPS       Y7, Y0, Y0; \
	VMULPS       Y7, Y1, Y1; \
	VMOVUPS      Y0, (DI); \
	VMOVUPS      Y1, 32(DI)

#define SWEEPARGS \
	MOVQ z+0(FP), SI; \
	MOVQ start+8(FP), R8; \
	MOVQ mid+16(FP), R13; \
	MOVQ adj+24(FP), R9; \
	MOVQ fac+32(FP), DX; \
	MOVQ finv+40(FP), BX; \
	MOVQ n+48(FP), CX

// CVT4: a row of 16 float32 at src, converted exactly to float64 in four
// registers. ZERO4 clears four registers; STORE4 stores four at dst.
#define CVT4(src, r0, r1, r2, r3) \
	VCVTPS2PD (src), r0; \
	VCVTPS2PD 16(src), r1; \
	VCVTPS2PD 32(src), r2; \
	VCVTPS2PD 48(src), r3

#define ZERO4(r0, r1, r2, r3) \
	VXORPD r0, r0, r0; \
	VXORPD r1, r1, r1; \
	VXORPD r2, r2, r2; \
	VXORPD r3, r3, r3

#define STORE4(dst, r0, r1, r2, r3) \
	VMOVUPD r0, (dst); \
	VMOVUPD r1, 32(dst); \
	VMOVUPD r2, 64(dst); \
	VMOVUPD r3, 96(dst)

// func apply16F32(y, x, deg *float32, start *int, adj *int32, n int)
TEXT ·apply16F32(SB), NOSPLIT, $0-48
	MOVQ  y+0(FP), DI
	MOVQ  x+8(FP), SI
	MOVQ  deg+16(FP), DX
	MOVQ  start+24(FP), R8
	MOVQ  adj+32(FP), R9
	MOVQ  n+40(FP), CX
	TESTQ CX, CX
	JE    adone
	MOVQ  SI, R11
	MOVQ  (R8), R10

arow:
	VBROADCASTSS (DX), Y4
	VMULPS       (R11), Y4, Y0
	VMULPS       32(R11), Y4, Y1
	MOVQ         8(R8), R12
	CMPQ         R10, R12
	JGE          astore

aterm:
	PREFETCH64(PREFETCH_AHEAD, BX)
	MOVLQSX (R9)(R10*4), AX
	SHLQ    $6, AX
	VSUBPS  (SI)(AX*1), Y0, Y0
	VSUBPS  32(SI)(AX*1), Y1, Y1
	INCQ    R10
	CMPQ    R10, R12
	JL      aterm

astore:
	MOVQ    R12, R10
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ    $64, DI
	ADDQ    $64, R11
	ADDQ    $4, DX
	ADDQ    $8, R8
	DECQ    CX
	JNE     arow

adone:
	VZEROUPPER
	RET

// func forward16F32(z *float32, start, mid *int, adj *int32, fac, finv *float32, n int)
TEXT ·forward16F32(SB), NOSPLIT, $0-56
	SWEEPARGS
	TESTQ CX, CX
	JE    fdone
	MOVQ  SI, DI

frow:
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	MOVQ    (R8), R10
	MOVQ    (R13), R12
	CMPQ    R10, R12
	JGE     fscale

fterm:
	PREFETCH64(PREFETCH_AHEAD, R11)
	TERM16
	INCQ         R10
	CMPQ         R10, R12
	JL           fterm

fscale:
	SCALESTORE16
	ADDQ         $64, DI
	ADDQ         $8, R8
	ADDQ         $8, R13
	ADDQ         $4, BX
	DECQ         CX
	JNE          frow

fdone:
	VZEROUPPER
	RET

// func backward16F32(z *float32, start, mid *int, adj *int32, fac, finv *float32, n int)
TEXT ·backward16F32(SB), NOSPLIT, $0-56
	SWEEPARGS
	TESTQ CX, CX
	JE    bdone
	MOVQ  CX, AX
	DECQ  AX
	MOVQ  AX, R11
	SHLQ  $6, R11
	LEAQ  (SI)(R11*1), DI
	LEAQ  (R8)(AX*8), R8
	LEAQ  (R13)(AX*8), R13
	LEAQ  (BX)(AX*4), BX

brow:
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	MOVQ    8(R8), R10
	MOVQ    (R13), R12
	CMPQ    R10, R12
	JLE     bscale

bterm:
	DECQ         R10
	PREFETCH64(-PREFETCH_AHEAD, R11)
	TERM16
	CMPQ         R10, R12
	JG           bterm

bscale:
	SCALESTORE16
	SUBQ         $64, DI
	SUBQ         $8, R8
	SUBQ         $8, R13
	SUBQ         $4, BX
	DECQ         CX
	JNE          brow

bdone:
	VZEROUPPER
	RET

// func laplacian16AVX(y, x, deg *float64, start *int, adj *int32, n int)
TEXT ·laplacian16AVX(SB), NOSPLIT, $0-48
	MOVQ  y+0(FP), DI
	MOVQ  x+8(FP), SI
	MOVQ  deg+16(FP), DX
	MOVQ  start+24(FP), R8
	MOVQ  adj+32(FP), R9
	MOVQ  n+40(FP), CX
	TESTQ CX, CX
	JE    ldone
	MOVQ  SI, R11
	MOVQ  (R8), R10

lrow:
	VBROADCASTSD (DX), Y4
	VMULPD       (R11), Y4, Y0
	VMULPD       32(R11), Y4, Y1
	VMULPD       64(R11), Y4, Y2
	VMULPD       96(R11), Y4, Y3
	MOVQ         8(R8), R12
	CMPQ         R10, R12
	JGE          lstore

lterm:
	PREFETCH128(PREFETCH_AHEAD, BX)
	MOVLQSX (R9)(R10*4), AX
	SHLQ    $7, AX
	VSUBPD  (SI)(AX*1), Y0, Y0
	VSUBPD  32(SI)(AX*1), Y1, Y1
	VSUBPD  64(SI)(AX*1), Y2, Y2
	VSUBPD  96(SI)(AX*1), Y3, Y3
	INCQ    R10
	CMPQ    R10, R12
	JL      lterm

lstore:
	MOVQ    R12, R10
	STORE4(DI, Y0, Y1, Y2, Y3)
	ADDQ    $128, DI
	ADDQ    $128, R11
	ADDQ    $8, DX
	ADDQ    $8, R8
	DECQ    CX
	JNE     lrow

ldone:
	VZEROUPPER
	RET


// func lower16F32(r *float64, d *float32, sc, deg *float64, start *int, adj *int32, n int)
// r_i −= sc ⊙ (deg_i·d_i − Σ_p d_{adj_p}): d's float32 rows (one 64-byte
// line gathered per term) converted exactly to float64, the sums float64.
TEXT ·lower16F32(SB), NOSPLIT, $0-56
	MOVQ    r+0(FP), DI
	MOVQ    d+8(FP), SI
	MOVQ    sc+16(FP), AX
	MOVQ    deg+24(FP), DX
	MOVQ    start+32(FP), R8
	MOVQ    adj+40(FP), R9
	MOVQ    n+48(FP), CX
	VMOVUPD (AX), Y8
	VMOVUPD 32(AX), Y9
	VMOVUPD 64(AX), Y10
	VMOVUPD 96(AX), Y11
	TESTQ   CX, CX
	JE      lodone
	MOVQ    SI, R11
	MOVQ    (R8), R10

lorow:
	VBROADCASTSD (DX), Y4
	CVT4(R11, Y0, Y1, Y2, Y3)
	VMULPD       Y4, Y0, Y0
	VMULPD       Y4, Y1, Y1
	VMULPD       Y4, Y2, Y2
	VMULPD       Y4, Y3, Y3
	MOVQ         8(R8), R12
	CMPQ         R10, R12
	JGE          lostore

loterm:
	PREFETCH64(PREFETCH_AHEAD, BX)
	MOVLQSX (R9)(R10*4), AX
	SHLQ    $6, AX
	ADDQ    SI, AX
	CVT4(AX, Y12, Y13, Y14, Y15)
	VSUBPD  Y12, Y0, Y0
	VSUBPD  Y13, Y1, Y1
	VSUBPD  Y14, Y2, Y2
	VSUBPD  Y15, Y3, Y3
	INCQ    R10
	CMPQ    R10, R12
	JL      loterm

lostore:
	MOVQ    R12, R10
	VMULPD  Y8, Y0, Y0
	VMULPD  Y9, Y1, Y1
	VMULPD  Y10, Y2, Y2
	VMULPD  Y11, Y3, Y3
	VMOVUPD (DI), Y12
	VMOVUPD 32(DI), Y13
	VMOVUPD 64(DI), Y14
	VMOVUPD 96(DI), Y15
	VSUBPD  Y0, Y12, Y12
	VSUBPD  Y1, Y13, Y13
	VSUBPD  Y2, Y14, Y14
	VSUBPD  Y3, Y15, Y15
	STORE4(DI, Y12, Y13, Y14, Y15)
	ADDQ    $128, DI
	ADDQ    $64, R11
	ADDQ    $8, DX
	ADDQ    $8, R8
	DECQ    CX
	JNE     lorow

lodone:
	VZEROUPPER
	RET

// The vector steps of the float32 conjugate gradients, rows of 16 float32
// (64 bytes), n rows; per-side coefficients are 16 float32 (two
// registers), sums are 16 float64 (four registers, the float32 entries
// converted exactly and multiplied exactly: the Go loops' sums).

// func step16F32(d, r, p, ap, alpha *float32, n int)
// d_i += alpha⊙p_i, r_i −= alpha⊙ap_i.
TEXT ·step16F32(SB), NOSPLIT, $0-48
	MOVQ    d+0(FP), DI
	MOVQ    r+8(FP), SI
	MOVQ    p+16(FP), DX
	MOVQ    ap+24(FP), BX
	MOVQ    alpha+32(FP), AX
	MOVQ    n+40(FP), CX
	VMOVUPS (AX), Y14
	VMOVUPS 32(AX), Y15
	TESTQ   CX, CX
	JE      stdone

strow:
	VMULPS  (DX), Y14, Y0
	VMULPS  32(DX), Y15, Y1
	VADDPS  (DI), Y0, Y0
	VADDPS  32(DI), Y1, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMULPS  (BX), Y14, Y2
	VMULPS  32(BX), Y15, Y3
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VSUBPS  Y2, Y4, Y4
	VSUBPS  Y3, Y5, Y5
	VMOVUPS Y4, (SI)
	VMOVUPS Y5, 32(SI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, DX
	ADDQ    $64, BX
	DECQ    CX
	JNE     strow

stdone:
	VZEROUPPER
	RET

// func direction16F32(p, z, a, beta *float32, n int)
// p_i = a⊙z_i + beta⊙p_i.
TEXT ·direction16F32(SB), NOSPLIT, $0-40
	MOVQ    p+0(FP), DI
	MOVQ    z+8(FP), SI
	MOVQ    a+16(FP), AX
	MOVQ    beta+24(FP), BX
	MOVQ    n+32(FP), CX
	VMOVUPS (AX), Y12
	VMOVUPS 32(AX), Y13
	VMOVUPS (BX), Y14
	VMOVUPS 32(BX), Y15
	TESTQ   CX, CX
	JE      didone

dirow:
	VMULPS  (SI), Y12, Y0
	VMULPS  32(SI), Y13, Y1
	VMULPS  (DI), Y14, Y2
	VMULPS  32(DI), Y15, Y3
	VADDPS  Y2, Y0, Y0
	VADDPS  Y3, Y1, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	DECQ    CX
	JNE     dirow

didone:
	VZEROUPPER
	RET

// func dot16F32(out *float64, a, b *float32, n int)
// out_q = Σ_i a_iq·b_iq in float64, i ascending.
TEXT ·dot16F32(SB), NOSPLIT, $0-32
	MOVQ   out+0(FP), DI
	MOVQ   a+8(FP), SI
	MOVQ   b+16(FP), DX
	MOVQ   n+24(FP), CX
	ZERO4(Y0, Y1, Y2, Y3)
	TESTQ  CX, CX
	JE     dtstore

dtrow:
	CVT4(SI, Y4, Y5, Y6, Y7)
	CVT4(DX, Y8, Y9, Y10, Y11)
	VMULPD    Y8, Y4, Y4
	VMULPD    Y9, Y5, Y5
	VMULPD    Y10, Y6, Y6
	VMULPD    Y11, Y7, Y7
	VADDPD    Y4, Y0, Y0
	VADDPD    Y5, Y1, Y1
	VADDPD    Y6, Y2, Y2
	VADDPD    Y7, Y3, Y3
	ADDQ      $64, SI
	ADDQ      $64, DX
	DECQ      CX
	JNE       dtrow

dtstore:
	STORE4(DI, Y0, Y1, Y2, Y3)
	VZEROUPPER
	RET

// func dots216F32(out1, out2 *float64, a, b *float32, n int)
// out1_q = Σ_i a_iq·b_iq and out2_q = Σ_i a_iq² in float64, i ascending.
TEXT ·dots216F32(SB), NOSPLIT, $0-40
	MOVQ   out1+0(FP), DI
	MOVQ   out2+8(FP), R8
	MOVQ   a+16(FP), SI
	MOVQ   b+24(FP), DX
	MOVQ   n+32(FP), CX
	ZERO4(Y0, Y1, Y2, Y3)
	ZERO4(Y12, Y13, Y14, Y15)
	TESTQ  CX, CX
	JE     d2store

d2row:
	CVT4(SI, Y4, Y5, Y6, Y7)
	CVT4(DX, Y8, Y9, Y10, Y11)
	VMULPD    Y4, Y8, Y8
	VMULPD    Y5, Y9, Y9
	VMULPD    Y6, Y10, Y10
	VMULPD    Y7, Y11, Y11
	VADDPD    Y8, Y0, Y0
	VADDPD    Y9, Y1, Y1
	VADDPD    Y10, Y2, Y2
	VADDPD    Y11, Y3, Y3
	VMULPD    Y4, Y4, Y4
	VMULPD    Y5, Y5, Y5
	VMULPD    Y6, Y6, Y6
	VMULPD    Y7, Y7, Y7
	VADDPD    Y4, Y12, Y12
	VADDPD    Y5, Y13, Y13
	VADDPD    Y6, Y14, Y14
	VADDPD    Y7, Y15, Y15
	ADDQ      $64, SI
	ADDQ      $64, DX
	DECQ      CX
	JNE       d2row

d2store:
	STORE4(DI, Y0, Y1, Y2, Y3)
	STORE4(R8, Y12, Y13, Y14, Y15)
	VZEROUPPER
	RET

// func sum16F32(out *float64, a *float32, n int)
// out_q = Σ_i a_iq in float64, i ascending.
TEXT ·sum16F32(SB), NOSPLIT, $0-24
	MOVQ   out+0(FP), DI
	MOVQ   a+8(FP), SI
	MOVQ   n+16(FP), CX
	ZERO4(Y0, Y1, Y2, Y3)
	TESTQ  CX, CX
	JE     sustore

surow:
	CVT4(SI, Y4, Y5, Y6, Y7)
	VADDPD    Y4, Y0, Y0
	VADDPD    Y5, Y1, Y1
	VADDPD    Y6, Y2, Y2
	VADDPD    Y7, Y3, Y3
	ADDQ      $64, SI
	DECQ      CX
	JNE       surow

sustore:
	STORE4(DI, Y0, Y1, Y2, Y3)
	VZEROUPPER
	RET

// func shift16F32(a, m *float32, n int)
// a_i −= m.
TEXT ·shift16F32(SB), NOSPLIT, $0-24
	MOVQ    a+0(FP), DI
	MOVQ    m+8(FP), AX
	MOVQ    n+16(FP), CX
	VMOVUPS (AX), Y14
	VMOVUPS 32(AX), Y15
	TESTQ   CX, CX
	JE      shdone

shrow:
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VSUBPS  Y14, Y0, Y0
	VSUBPS  Y15, Y1, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ    $64, DI
	DECQ    CX
	JNE     shrow

shdone:
	VZEROUPPER
	RET
