//go:build !amd64

package axpy

func setAVXRows(bool) {}
