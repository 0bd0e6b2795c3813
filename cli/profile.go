package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"

	"github.com/ohmgnn/ohm/internal/atomicfile"
)

// startProfiles checks that the profiles can be written, starts the CPU
// profile and returns a function that stops it and writes the heap
// profile. Each is written whole or not at all: the CPU profile streams to
// a temporary file beside its target, renamed into place at the end. A
// command that fails (not one interrupted: profiling a long run and
// stopping it is what the flags are for) writes neither: stop(false)
// discards them.
func (g *Globals) startProfiles() (stop func(keep bool) error, err error) {
	if err := checkOutput("--cpuprofile", g.CPUProfile); err != nil {
		return nil, err
	}
	if err := checkOutput("--memprofile", g.MemProfile); err != nil {
		return nil, err
	}
	var cpu *atomicfile.Pending
	if g.CPUProfile != "" {
		if cpu, err = atomicfile.Create(g.CPUProfile); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err = pprof.StartCPUProfile(cpu); err != nil {
			cpu.Discard()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	return func(keep bool) error {
		if cpu != nil {
			pprof.StopCPUProfile()
			if !keep {
				cpu.Discard()
			} else if err := cpu.Commit(); err != nil {
				return fmt.Errorf("--cpuprofile: %w", err)
			}
		}
		if g.MemProfile != "" && keep {
			runtime.GC()
			if err := atomicfile.WriteFile(g.MemProfile, func(w io.Writer) error { return pprof.WriteHeapProfile(w) }); err != nil {
				return fmt.Errorf("--memprofile: %w", err)
			}
		}
		return nil
	}, nil
}

// keepProfiles says whether a command that returned err writes its
// profiles: when it succeeded or was interrupted.
func keepProfiles(err error) bool { return err == nil || errors.Is(err, errInterrupted) }
