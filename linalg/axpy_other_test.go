//go:build !amd64

package linalg

func setAVXRows(bool) {}
