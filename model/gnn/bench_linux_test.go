package gnn

import "syscall"

// threadSeconds returns the calling thread's user and system CPU time in
// seconds (getrusage RUSAGE_THREAD).
func threadSeconds() float64 {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
