//go:build unix

package cli

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) this process has used
// so far, every thread counted, and false where the system cannot say.
// O(1): one getrusage call.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
