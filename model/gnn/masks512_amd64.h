// KMASKS32(width) sets K1–K4 to the lanes of the first width ≤ 32
// columns of a 32-column block (eight a ZMM register), for the AVX-512
// kernels' masked loads and stores; it clobbers CX and AX.
#define KMASKS32(width) \
	MOVQ  width, CX; \
	MOVQ  $1, AX; \
	SHLQ  CX, AX; \
	DECQ  AX; \
	KMOVW AX, K1; \
	SHRQ  $8, AX; \
	KMOVW AX, K2; \
	SHRQ  $8, AX; \
	KMOVW AX, K3; \
	SHRQ  $8, AX; \
	KMOVW AX, K4
