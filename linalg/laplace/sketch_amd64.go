package laplace

// sqdist4AVX sets out[j] = ‖a − b_j‖² over k coordinates (k a multiple of
// 4) for four points b_j, bit for bit Sketch.R's sums. O(k).
//
//go:noescape
func sqdist4AVX(out *[4]float64, a, b0, b1, b2, b3 *float64, k int)
