//go:build !unix

package cli

import "time"

// processCPU reports false: no process CPU time off Unix.
func processCPU() (time.Duration, bool) { return 0, false }
