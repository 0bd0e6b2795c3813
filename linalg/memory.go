package linalg

import (
	"bufio"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
)

// MemoryError reports that a computation would need more memory than the
// machine can give it. It is returned before anything large is allocated, so
// a command can refuse at once instead of crashing with an out-of-memory
// error.
type MemoryError struct {
	What string // what would be allocated, e.g. "dense L⁺ of 100000 nodes"
	Need uint64 // bytes it needs
	Have uint64 // bytes available (see AvailableMemory)
	Hint string // what to do instead; may be empty
}

func (e *MemoryError) Error() string {
	s := fmt.Sprintf("%s needs %s of memory, only %s is available", e.What, FormatBytes(e.Need), FormatBytes(e.Have))
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

// memoryOverride, when non-zero, replaces the measured available memory
// (tests; the OHM_MEMORY environment variable).
var memoryOverride uint64

// AvailableMemory returns the number of bytes this process can still
// allocate: the smallest of the kernel's MemAvailable (/proc/meminfo), the
// cgroup memory limit (cgroup v2 memory.max or v1 limit_in_bytes) and what
// the address-space limit (RLIMIT_AS, as `ulimit -v` sets it) leaves of the
// address space (addressSpaceLeft). The environment
// variable OHM_MEMORY (bytes, or with a suffix K, M, G) overrides the
// measurement, so a user can cap ohm below the machine. When nothing can be
// measured it returns 1<<62 (no limit known). Cost: a few small file reads.
func AvailableMemory() uint64 {
	if memoryOverride != 0 {
		return memoryOverride
	}
	if s := os.Getenv("OHM_MEMORY"); s != "" {
		if v, err := ParseBytes(s); err == nil && v > 0 {
			return v
		}
	}
	have := uint64(1) << 62
	if v, ok := memInfoAvailable(); ok && v < have {
		have = v
	}
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(f); err == nil {
			if v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil && v < have {
				have = v
			}
		}
	}
	if v, ok := addressSpaceLeft(); ok && v < have {
		have = v
	}
	return have
}

// addressSpaceLeft returns what the address-space limit (RLIMIT_AS)
// leaves this process: the limit less the address space it maps already
// (VmSize, which counts the runtime's reservations, about 1 GiB for any Go
// process, and the graph already read), plus the heap the runtime maps but
// holds free (it reuses that before it maps more), less 64 MiB for stacks
// and the runtime's own growth. false when there is no limit or VmSize
// cannot be read.
func addressSpaceLeft() (uint64, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur == ^uint64(0) || rl.Cur == 0 {
		return 0, false
	}
	used, ok := statusBytes("VmSize:")
	if !ok {
		return 0, false
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(sample)
	free := uint64(0)
	for _, s := range sample {
		if s.Value.Kind() == metrics.KindUint64 {
			free += s.Value.Uint64()
		}
	}
	const reserve = 64 << 20
	lim := uint64(rl.Cur) + free
	if lim < used+reserve {
		return 0, true
	}
	return lim - used - reserve, true
}

// statusBytes reads a "kB" field of /proc/self/status (VmSize:) in bytes.
func statusBytes(field string) (uint64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == field {
			v, err := strconv.ParseUint(f[1], 10, 64)
			return v << 10, err == nil
		}
	}
	return 0, false
}

// ParseBytes reads a byte count such as "4096", "512M", "16G" or "1.5GiB".
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
	if err != nil || v < 0 {
		return 0, fmt.Errorf("invalid byte count %q", s)
	}
	return uint64(v * mult), nil
}

func memInfoAvailable() (uint64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			v, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil {
				return 0, false
			}
			return v << 10, true
		}
	}
	return 0, false
}

// CheckMemory returns a *MemoryError when need bytes exceed what
// AvailableMemory reports, and nil otherwise.
func CheckMemory(what string, need uint64, hint string) error {
	have := AvailableMemory()
	if need > have {
		return &MemoryError{What: what, Need: need, Have: have, Hint: hint}
	}
	return nil
}

// MaxNodes is the largest node count ohm accepts: node ids must fit in an
// int32 (as PyTorch Geometric's int64 ids of real graphs always do), so
// that a count read from a file is a clear error, not an allocation of
// gigabytes.
const MaxNodes = 1<<31 - 1

// GraphBytes estimates the peak memory of building a Graph with n nodes and
// m edges (arcs when directed): the neighbour lists (8 bytes an entry, both
// ends of every edge), their slice headers, the self-loop flags and the
// membership hash set (about 48 bytes an entry), doubled for the garbage
// collector's headroom and the arc list being read. O(1).
func GraphBytes(n, m int, directed bool) uint64 {
	lists := uint64(1)
	if directed {
		lists = 2
	}
	return 2 * (lists*uint64(n)*24 + uint64(n) + 2*uint64(m)*8 + uint64(m)*48)
}

// CheckGraphSize returns an error when a graph of n nodes and m edges cannot
// be built: n beyond MaxNodes, or more memory than is available.
func CheckGraphSize(n, m int, directed bool) error {
	if n > MaxNodes {
		return fmt.Errorf("%d nodes: more than ohm's limit of %d (node ids must fit in an int32)", n, MaxNodes)
	}
	return CheckMemory(fmt.Sprintf("a graph of %d nodes and %d edges", n, m), GraphBytes(n, m, directed),
		"check num_nodes in the file, or use a machine with more memory")
}
