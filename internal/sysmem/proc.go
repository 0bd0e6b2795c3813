package sysmem

import (
	"bufio"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
)

// InUse returns the memory the Go runtime holds for this process: the
// heap's live objects plus everything it maps besides the heap (stacks,
// its own metadata); heap held free or returned to the system is not
// counted. When the heap holds more than 64 MiB beyond the live data of
// the last collection (garbage, or data allocated since), it collects
// first, so that garbage is not counted. Cost: a runtime/metrics read,
// and then perhaps a collection.
func InUse() uint64 {
	live, objects, other := heapUse()
	if objects > live+64<<20 {
		runtime.GC()
		_, objects, other = heapUse()
	}
	return objects + other
}

// heapUse returns the live heap of the last collection, the heap's
// objects now (live and garbage) and the runtime's memory beyond the heap.
func heapUse() (live, objects, other uint64) {
	names := []string{
		"/gc/heap/live:bytes",
		"/memory/classes/total:bytes",
		"/memory/classes/heap/free:bytes",
		"/memory/classes/heap/objects:bytes",
		"/memory/classes/heap/released:bytes",
		"/memory/classes/heap/unused:bytes",
	}
	s := make([]metrics.Sample, len(names))
	for i, n := range names {
		s[i].Name = n
	}
	metrics.Read(s)
	v := make([]uint64, len(s))
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = s[i].Value.Uint64()
		}
	}
	heap := v[2] + v[3] + v[4] + v[5]
	if v[1] > heap {
		other = v[1] - heap
	}
	return v[0], v[3], other
}

// heapIdle is the heap the runtime maps but holds free: it reuses that
// before it maps more.
func heapIdle() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	free := uint64(0)
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			free += x.Value.Uint64()
		}
	}
	return free
}

// addressSpaceReserve is what addressSpaceLeft keeps back for stacks,
// threads and the runtime's own growth.
const addressSpaceReserve = 16 << 20

// addressSpaceLeft returns what the address-space limit (RLIMIT_AS)
// leaves this process for new data: the limit less the address space it
// maps already (VmSize, which counts the runtime's reservations, about
// 1.2 GiB, and the data read so far), plus the heap the runtime maps but
// holds free, less addressSpaceReserve, divided by addressSpaceFactor; and
// the limit and VmSize. ok is false when there is no limit or VmSize
// cannot be read.
func addressSpaceLeft() (left, limit, mapped uint64, ok bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur == ^uint64(0) || rl.Cur == 0 {
		return 0, 0, 0, false
	}
	used, ok := statusBytes("VmSize:")
	if !ok {
		return 0, 0, 0, false
	}
	lim := uint64(rl.Cur) + heapIdle()
	if lim < used+addressSpaceReserve {
		return 0, uint64(rl.Cur), used, true
	}
	return (lim - used - addressSpaceReserve) / addressSpaceFactor, uint64(rl.Cur), used, true
}

// addressSpaceFactor is the address space the Go heap maps for each byte
// of data a computation holds at its peak: the collector's headroom (the
// garbage of the last cycle is still mapped) and the arenas that large
// blocks leave scattered are address space even when returned to the
// system. Measured: the dense engine on Cora holds 237 MiB resident and
// maps 640 MiB beyond the runtime's start.
const addressSpaceFactor = 3

// cgroupLeft returns the cgroup's memory limit (v2 memory.max, or v1's
// limit_in_bytes) less what this process holds (InUse), and the limit;
// ok is false without a limit. The cgroup's own usage is not subtracted:
// it counts the page cache, which the kernel reclaims.
func cgroupLeft() (left, limit uint64, ok bool) {
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		lim, ok := readUint(f)
		if !ok || lim >= 1<<62 {
			continue
		}
		used := InUse()
		if used >= lim {
			return 0, lim, true
		}
		return lim - used, lim, true
	}
	return 0, 0, false
}

func readUint(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return v, err == nil
}

// statusBytes reads a "kB" field of /proc/self/status (VmSize:) in bytes.
func statusBytes(field string) (uint64, bool) {
	return kBField("/proc/self/status", field)
}

// memInfo reads a "kB" field of /proc/meminfo in bytes.
func memInfo(field string) (uint64, bool) {
	return kBField("/proc/meminfo", field)
}

func kBField(path, field string) (uint64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) >= 2 && fs[0] == field {
			v, err := strconv.ParseUint(fs[1], 10, 64)
			return v << 10, err == nil
		}
	}
	return 0, false
}
