//go:build !amd64

package axpy

const useAVXRows = false

func addScaledRows32(y *float64, groups int, f *float64, m int, x *float64, stride int) {
	panic("axpy: no AVX kernel on this architecture")
}
