// Package hostmem says how much memory the host can give this process now,
// so that allocations the host cannot back fail cleanly instead of crashing
// the simulator, and maps fresh buffers the way their use wants (at once:
// Populate; in huge pages: Slab).
package hostmem

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Available is how many bytes the host can give this process now: the
// kernel's MemAvailable, and no more than the memory cgroup's limit leaves
// (cgroup v2 memory.max − memory.current, or v1's limit − usage). A
// reserve of 256 MiB stays for the simulator and the program themselves.
func Available() uint64 {
	avail := memAvailable()
	if c, ok := cgroupAvailable(); ok {
		avail = min(avail, c)
	}
	const reserve = 256 << 20
	if avail < reserve {
		return 0
	}
	return avail - reserve
}

func memAvailable() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 1 << 62 // unknown: the device's size decides
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 1 << 62
}

// cgroupAvailable reads this process's memory cgroup, v2 then v1.
func cgroupAvailable() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir := "/sys/fs/cgroup" + parts[2]
			if v, ok := limitLeft(dir+"/memory.max", dir+"/memory.current"); ok {
				return v, true
			}
			if v, ok := limitLeft("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"); ok {
				return v, true
			}
		case strings.Contains(","+parts[1]+",", ",memory,"):
			dir := "/sys/fs/cgroup/memory" + parts[2]
			if v, ok := limitLeft(dir+"/memory.limit_in_bytes", dir+"/memory.usage_in_bytes"); ok {
				return v, true
			}
			if v, ok := limitLeft("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"); ok {
				return v, true
			}
		}
	}
	return 0, false
}

func limitLeft(limitFile, usageFile string) (uint64, bool) {
	l, err := os.ReadFile(limitFile)
	if err != nil {
		return 0, false
	}
	limit, err := strconv.ParseUint(string(bytes.TrimSpace(l)), 10, 64)
	if err != nil { // "max": no limit
		return 0, false
	}
	u, err := os.ReadFile(usageFile)
	if err != nil {
		return 0, false
	}
	usage, err := strconv.ParseUint(string(bytes.TrimSpace(u)), 10, 64)
	if err != nil {
		return 0, false
	}
	if usage >= limit {
		return 0, true
	}
	return limit - usage, true
}
