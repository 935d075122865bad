package launchfile

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warpsim/warpsim"
)

// manyPTX is a kernel that stores its block index.
const manyPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p, .param .u32 v)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [p];
	ld.param.u32 %r1, [v];
	cvta.to.global.u64 %rd2, %rd1;
	st.global.u32 [%rd2], %r1;
	ret;
}
`

// TestManyLaunches (issue 16 #21): a file of 20,000 launches loads and runs
// in linear time, and with ExecOptions.Discard keeps no memory per launch
// beyond its arguments (80,000 launches took 28.6 s and 2 GB: each result
// was kept, and each launch's line was counted from the file's start).
func TestManyLaunches(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString(`{"module": "k.ptx", "buffers": {"a": {"u32": [0]}}, "launches": [` + "\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"kernel": "k", "grid": [1], "block": [32], "args": [{"buffer": "a"}, {"u32": %d}]}`, i+1)
	}
	b.WriteString("\n]}\n")
	data := []byte(b.String())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "k.ptx"), []byte(manyPTX), 0o644); err != nil {
		t.Fatal(err)
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start, startCPU := time.Now(), processCPU(t)
	f, err := Parse("many.json", dir, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Launches) != n || f.Launches[n-1].Line != n+1 {
		t.Fatalf("%d launches, the last on line %d; want %d on line %d", len(f.Launches), f.Launches[n-1].Line, n, n+1)
	}
	loaded := time.Since(start)
	seen := 0
	out, err := f.Execute(newDevice(), ExecOptions{Discard: true, AfterLaunch: func(i int, res *warpsim.LaunchResult) {
		if i == seen && res != nil {
			seen++
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	elapsed, cpu := time.Since(start), processCPU(t)-startCPU
	runtime.GC()
	runtime.ReadMemStats(&after)
	growth := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d launches: load %v, load and run %v (%v of CPU), heap growth %d KB (%d bytes a launch)", n, loaded, elapsed, cpu, growth>>10, growth/n)
	if seen != n || len(out.Launches) != 0 {
		t.Errorf("AfterLaunch saw %d of %d in order; Outcome kept %d results with Discard", seen, n, len(out.Launches))
	}
	if got := binary.LittleEndian.Uint32(mustBuffer(t, out, "a")); got != n {
		t.Errorf("buffer after the last launch: %d, want %d", got, n)
	}
	// CPU time, not wall time: on a machine that other work loads, the wall
	// clock measures the load (11.7 s at a load average of 33 on 2 cores).
	if cpu > 10*time.Second {
		t.Errorf("%d launches took %v of CPU, want under 10 s", n, cpu)
	}
	if growth > 200<<20 {
		t.Errorf("heap grew %d MB over %d launches, want under 200 MB", growth>>20, n)
	}
	runtime.KeepAlive(f)
}

// processCPU is the user and system CPU time this process has used.
func processCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
