// Package bench holds ohm's benchmarks on the real datasets, the ones that
// compare a fast path with the exact or naive one and with memory bandwidth.
// Kernel micro-benchmarks live beside their kernels; this package measures
// whole operations on Cora, CiteSeer, Cornell and Texas (found through
// $OHM_DATA; without it the benchmarks skip).
//
//	OHM_DATA=../shared/data go test -run '^$' -bench . -benchmem ./bench
package bench
