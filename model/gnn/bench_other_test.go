//go:build !linux

package gnn

// threadSeconds returns 0: the thread's CPU time is read on Linux only.
func threadSeconds() float64 { return 0 }
