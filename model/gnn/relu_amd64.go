package gnn

// The AVX-512 ReLU and dropout passes (relu_amd64.s), with the bits of the
// Go loops of model.go. The callers check the bounds; each costs O(n).

// reluGrad512 is reluGrad on n entries, n a multiple of 8.
//
//go:noescape
func reluGrad512(d, pre *float64, n int)

// reluDropGrad512 is reluDropGrad on n entries, n a multiple of 8.
//
//go:noescape
func reluDropGrad512(d, pre, mask *float64, n int)

// reluDrop512 is reluDrop on n entries (n a multiple of 16) with the
// threshold and scale of dropThreshold.
//
//go:noescape
func reluDrop512(h, mask, z *float64, words *uint64, n int, thr uint64, scale float64)
