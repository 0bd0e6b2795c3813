package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles starts the CPU profile and returns a function that stops it
// and writes the heap profile.
func (g *Globals) startProfiles() (stop func() error, err error) {
	var cpu *os.File
	if g.CPUProfile != "" {
		if cpu, err = os.Create(g.CPUProfile); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err = pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	return func() error {
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				return fmt.Errorf("--cpuprofile: %w", err)
			}
		}
		if g.MemProfile != "" {
			f, err := os.Create(g.MemProfile)
			if err != nil {
				return fmt.Errorf("--memprofile: %w", err)
			}
			runtime.GC()
			if err := pprof.WriteHeapProfile(f); err != nil {
				f.Close()
				return fmt.Errorf("--memprofile: %w", err)
			}
			return f.Close()
		}
		return nil
	}, nil
}
