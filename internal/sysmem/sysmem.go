// Package sysmem measures the memory a process can still use — the
// machine's free memory, the cgroup's limit, the address-space limit
// (ulimit -v) and the OHM_MEMORY budget, less what the process holds
// already — and refuses an allocation that would not fit with an *Error
// naming the need, what is available and where that figure comes from, so
// that a command fails with a clear message instead of Go's fatal
// out-of-memory error.
package sysmem

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Error reports that a computation would need more memory than the
// process can give it. It is returned before anything large is allocated,
// so a command can refuse at once instead of crashing.
type Error struct {
	What   string // what would be allocated, e.g. "dense L⁺ of 100000 nodes"
	Need   uint64 // bytes it needs
	Have   uint64 // bytes available (see Available)
	Source string // where Have comes from, e.g. "OHM_MEMORY=1G, 3.2 MiB of it in use"; may be empty
	Hint   string // what to do instead; may be empty
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s needs %s of memory, only %s is available", e.What, FormatBytes(e.Need), FormatBytes(e.Have))
	if e.Source != "" {
		s += " (" + e.Source + ")"
	}
	if e.Hint != "" {
		s += ": " + e.Hint
	}
	return s
}

// FormatBytes writes a byte count with a binary unit (B, KiB, MiB, GiB, TiB).
func FormatBytes(b uint64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := uint64(unit), 0
	for n := b / unit; n >= unit && exp < 3; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGT"[exp])
}

// ParseBytes reads a byte count such as "4096", "512M", "16G", "16 GiB"
// or "1.5GiB" (units K, M, G, T are powers of 1024, with or without "iB"
// or "B"; case and spaces do not matter).
func ParseBytes(s string) (uint64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "IB"), "B")
	mult := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult != 1 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v < 0 || v*mult >= 1<<63 || v != v {
		return 0, fmt.Errorf("invalid byte count %q (a number of bytes, or with a unit: 512M, 16G, 1.5GiB)", s)
	}
	return uint64(v * mult), nil
}

// EnvVar is the environment variable that sets the memory budget of the
// process (a byte count, ParseBytes).
const EnvVar = "OHM_MEMORY"

// Env returns the budget OHM_MEMORY sets: ok is false when it is unset or
// empty; err says when it is set but not a byte count above zero (Available
// then ignores it: a command should refuse it first, see CheckEnv).
func Env() (budget uint64, ok bool, err error) {
	s := os.Getenv(EnvVar)
	if strings.TrimSpace(s) == "" {
		return 0, false, nil
	}
	v, err := ParseBytes(s)
	if err == nil && v == 0 {
		err = fmt.Errorf("invalid byte count %q: zero", s)
	}
	if err != nil {
		return 0, false, fmt.Errorf("%s: %w", EnvVar, err)
	}
	return v, true, nil
}

// CheckEnv returns Env's error: nil when OHM_MEMORY is unset or parses.
func CheckEnv() error {
	_, _, err := Env()
	return err
}

// override, when non-zero, replaces the measured budget (tests).
var override uint64

// Available returns the number of bytes this process can still allocate:
// the smallest of the OHM_MEMORY budget less what the process holds
// already (InUse), the kernel's MemAvailable (/proc/meminfo), the cgroup's
// limit less what the process holds, and a third of what the
// address-space limit (RLIMIT_AS, as `ulimit -v` sets it) leaves of the
// address space (addressSpaceLeft). When nothing can be measured it
// returns 1<<62. Cost: a few small file reads.
func Available() uint64 {
	have, _ := available()
	return have
}

// available is Available and where its figure comes from.
func available() (uint64, string) {
	if override != 0 {
		return override, ""
	}
	have, src := uint64(1)<<62, ""
	if b, ok, _ := Env(); ok {
		used := InUse()
		have, src = 0, fmt.Sprintf("%s=%s, %s of it in use", EnvVar, os.Getenv(EnvVar), FormatBytes(used))
		if used < b {
			have = b - used
		}
	}
	if v, ok := memInfo("MemAvailable:"); ok && v < have {
		have, src = v, "the machine's free memory"
	}
	if v, lim, ok := cgroupLeft(); ok && v < have {
		have, src = v, "the cgroup's limit of "+FormatBytes(lim)
	}
	if v, lim, mapped, ok := addressSpaceLeft(); ok && v < have {
		have, src = v, fmt.Sprintf("the address-space limit (ulimit -v) of %s, %s of it mapped already, a third of the rest for data", FormatBytes(lim), FormatBytes(mapped))
	}
	return have, src
}

// Check returns an *Error when need bytes exceed what Available reports,
// and nil otherwise.
func Check(what string, need uint64, hint string) error {
	have, src := available()
	if need > have {
		return &Error{What: what, Need: need, Have: have, Source: src, Hint: hint}
	}
	return nil
}

// Limit returns the memory this process may use in all — OHM_MEMORY, else
// the smallest of the cgroup's limit and the address-space limit less the
// address space mapped but not in use (the runtime's reservations) — and
// false when none is set (the machine's free memory is no limit of the
// process: other processes change it).
func Limit() (uint64, bool) {
	if b, ok, _ := Env(); ok {
		return b, true
	}
	lim, ok := uint64(1)<<62, false
	if v, _, ok2 := cgroupLeft(); ok2 {
		lim, ok = min(lim, v+InUse()), true
	}
	if v, _, _, ok2 := addressSpaceLeft(); ok2 {
		lim, ok = min(lim, v*addressSpaceFactor+InUse()), true
	}
	return lim, ok
}

// SetSoftLimit sets Go's soft memory limit (debug.SetMemoryLimit) to
// Limit, so that the collector works harder before the process reaches
// the budget the checks use; with no limit known it sets none (Go's
// default). GOMEMLIMIT, the user's choice, is left alone. It returns the
// limit set (0: none).
func SetSoftLimit() uint64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	lim, ok := Limit()
	if !ok {
		debug.SetMemoryLimit(math.MaxInt64)
		return 0
	}
	debug.SetMemoryLimit(int64(min(lim, 1<<62)))
	return lim
}

// MinAddressSpace is the address space a command needs beyond what the Go
// runtime maps at its start: its threads' stacks, the heap's first
// arenas and small data. Below it the runtime itself fails (exit status
// 2) before any allocation ohm could estimate.
const MinAddressSpace = 256 << 20

// CheckAddressSpace returns an error when an address-space limit (ulimit
// -v) leaves this process less than MinAddressSpace beyond what it maps
// already: no command can run then, so it is refused at the start with
// the figures. nil without a limit.
func CheckAddressSpace() error {
	left, lim, mapped, ok := addressSpaceLeft()
	if !ok || left*addressSpaceFactor >= MinAddressSpace {
		return nil
	}
	return fmt.Errorf("the address-space limit (ulimit -v) of %s leaves %s beyond the %s the Go runtime mapped at its start; "+
		"ohm needs %s more at least: raise the limit (the runtime reserves about 1.3 GiB when it may; 2 GiB runs small graphs)",
		FormatBytes(lim), FormatBytes(left*addressSpaceFactor), FormatBytes(mapped), FormatBytes(MinAddressSpace))
}
