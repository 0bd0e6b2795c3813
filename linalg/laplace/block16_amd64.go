package laplace

// apply16F32 sets y_i = deg_i·x_i − Σ_{p in [start_i, start_{i+1})} x_{adj_p}
// for the n rows of 16 float32 (node-major) in AVX (block16_amd64.s), bit
// for bit the Go loop of apply32. The caller guarantees the bounds.
// O(n + nnz).
//
//go:noescape
func apply16F32(y, x, deg *float32, start *int, adj *int32, n int)

// forward16F32 solves F w = z in place for a block of 16 float32: row i,
// ascending, becomes (z_i − Σ_{p in [start_i, mid_i)} fac_p·z_{adj_p})·finv_i,
// bit for bit the first sweep of precondition32. O(n + nnz/2).
//
//go:noescape
func forward16F32(z *float32, start, mid *int, adj *int32, fac, finv *float32, n int)

// backward16F32 solves Fᵀ z = w in place for a block of 16 float32, row by
// row from the last: z_i = (z_i − Σ fac_p·z_{adj_p})·finv_i over the upper
// part p = start_{i+1}−1 down to mid_i (Fᵀ), bit for bit the second sweep
// of precondition32. O(n + nnz/2).
//
//go:noescape
func backward16F32(z *float32, start, mid *int, adj *int32, fac, finv *float32, n int)

// laplacian16AVX sets y_i = deg_i·x_i − Σ_{p in [start_i, start_{i+1})}
// x_{adj_p} for the n rows of 16 float64 (node-major), bit for bit the Go
// loop of laplacian. O(n + nnz).
//
//go:noescape
func laplacian16AVX(y, x, deg *float64, start *int, adj *int32, n int)

// lower16F32 sets r_i −= sc ⊙ (deg_i·d_i − Σ_{p in [start_i, start_{i+1})}
// d_{adj_p}) for n rows of 16: r float64, d float32 converted exactly to
// float64, the sums and products float64 (each product rounded, then
// subtracted), bit for bit lower's Go loop. O(n + nnz), one 64-byte line
// gathered per term where the float64 product gathers two.
//
//go:noescape
func lower16F32(r *float64, d *float32, sc, deg *float64, start *int, adj *int32, n int)

// step16F32 sets d_i += alpha⊙p_i and r_i −= alpha⊙ap_i for n rows of 16
// float32, bit for bit stepF32's Go loop. O(n).
//
//go:noescape
func step16F32(d, r, p, ap, alpha *float32, n int)

// direction16F32 sets p_i = a⊙z_i + beta⊙p_i for n rows of 16 float32,
// bit for bit directionF32's Go loop. O(n).
//
//go:noescape
func direction16F32(p, z, a, beta *float32, n int)

// dot16F32 sets out_q = Σ_i a_iq·b_iq, summed in float64 in the order of
// i, bit for bit dotsF32's Go loop. O(n).
//
//go:noescape
func dot16F32(out *float64, a, b *float32, n int)

// dots216F32 sets out1_q = Σ_i a_iq·b_iq and out2_q = Σ_i a_iq², summed in
// float64 in the order of i, bit for bit dots2F32's Go loop. O(n).
//
//go:noescape
func dots216F32(out1, out2 *float64, a, b *float32, n int)

// sum16F32 sets out_q = Σ_i a_iq, summed in float64 in the order of i.
// O(n).
//
//go:noescape
func sum16F32(out *float64, a *float32, n int)

// shift16F32 sets a_i −= m for n rows of 16 float32. O(n).
//
//go:noescape
func shift16F32(a, m *float32, n int)
