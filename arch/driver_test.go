package arch

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

// driverFiles are the ground truth: what
// cudaOccupancyMaxActiveBlocksPerMultiprocessor and
// cudaOccupancyMaxPotentialBlockSize answered on a real H100 and a real
// H200 (testdata/timing/h200/devprops.cu), recorded with the driver and
// committed verbatim; kernels and occ are how many KERNEL lines and OCC
// entries each file holds.
var driverFiles = []struct {
	preset, file  string
	kernels, occs int
}{
	{"h100", "testdata/h100_occupancy_driver.txt", 6, 11 * (32 + 32 + 24 + 12 + 32 + 32)},
	{"h200", "testdata/h200_occupancy_driver.txt", 6, 11 * (32 + 32 + 28 + 12 + 32 + 32)},
}

func readDriverFile(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fields parses "key=value" words into a map.
func fields(words []string) map[string]string {
	m := map[string]string{}
	for _, w := range words {
		if k, v, ok := strings.Cut(w, "="); ok {
			m[k] = v
		}
	}
	return m
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("bad number %q in the driver file", s)
	}
	return v
}

// TestPresetMatchesDriver checks each recorded GPU's preset against its
// driver file's DEVICE and CLOCKS lines, field by field.
func TestPresetMatchesDriver(t *testing.T) {
	for _, f := range driverFiles {
		t.Run(f.preset, func(t *testing.T) { checkPresetMatchesDriver(t, MustLookup(f.preset), readDriverFile(t, f.file)) })
	}
}

func checkPresetMatchesDriver(t *testing.T, a *Arch, data []byte) {
	var sawDevice, sawClocks bool
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "DEVICE "):
			sawDevice = true
			name, rest, _ := strings.Cut(strings.TrimPrefix(line, "DEVICE name="), " cc=")
			if a.FullName != name {
				t.Errorf("FullName = %q, driver %q", a.FullName, name)
			}
			f := fields(strings.Fields("cc=" + rest))
			if got, want := strconv.Itoa(a.Major)+"."+strconv.Itoa(a.Minor), f["cc"]; got != want {
				t.Errorf("cc = %s, driver %s", got, want)
			}
			for key, got := range map[string]int{
				"sms": a.SMs, "maxThreadsPerSM": a.MaxThreadsPerSM, "maxBlocksPerSM": a.MaxBlocksPerSM,
				"regsPerSM": a.RegsPerSM, "regsPerBlock": a.RegsPerBlock, "smemPerSM": a.SharedPerSM,
				"smemPerBlock": a.SharedPerBlock, "smemPerBlockOptin": a.SharedPerBlockOptin,
				"reservedSmemPerBlock": a.ReservedSharedPerBlock, "warpSize": a.WarpSize,
				"l2": a.L2Bytes, "memBusWidth": a.MemBusWidth,
			} {
				v, ok := f[key]
				if !ok {
					t.Errorf("DEVICE line has no %s", key)
					continue
				}
				if want := atoi(t, v); got != want {
					t.Errorf("%s = %d, driver %d", key, got, want)
				}
			}
		case strings.HasPrefix(line, "CLOCKS "):
			sawClocks = true
			f := fields(strings.Fields(line))
			if want := atoi(t, f["sm_khz"]); a.ClockKHz != want {
				t.Errorf("ClockKHz = %d, driver %d", a.ClockKHz, want)
			}
			if want := atoi(t, f["mem_khz"]); a.MemClockKHz != want {
				t.Errorf("MemClockKHz = %d, driver %d", a.MemClockKHz, want)
			}
		}
	}
	if !sawDevice || !sawClocks {
		t.Fatal("driver file lacks its DEVICE or CLOCKS line")
	}
	if a.MaxWarpsPerSM*a.WarpSize != a.MaxThreadsPerSM {
		t.Errorf("MaxWarpsPerSM %d × %d != MaxThreadsPerSM %d", a.MaxWarpsPerSM, a.WarpSize, a.MaxThreadsPerSM)
	}
}

// TestDriverOccupancy checks, for each recorded GPU's preset, every OCC
// entry (block size × dynamic shared memory) and every KERNEL line's
// maxThreadsPerBlock, potentialBlockSize and minGrid.
func TestDriverOccupancy(t *testing.T) {
	for _, f := range driverFiles {
		t.Run(f.preset, func(t *testing.T) {
			checkDriverOccupancy(t, MustLookup(f.preset), readDriverFile(t, f.file), f.kernels, f.occs)
		})
	}
}

func checkDriverOccupancy(t *testing.T, a *Arch, data []byte, wantKernels, wantOcc int) {
	type kernel struct{ regs, static int }
	kernels := map[string]kernel{}
	var nOcc, nKernel int
	sc := bufio.NewScanner(bytes.NewReader(data))
	for lineNo := 1; sc.Scan(); lineNo++ {
		w := strings.Fields(sc.Text())
		if len(w) == 0 {
			continue
		}
		switch w[0] {
		case "KERNEL":
			// KERNEL name regs R static_smem S local L maxThreadsPerBlock M potentialBlockSize B minGrid G
			if len(w) != 14 {
				t.Fatalf("line %d: malformed KERNEL line", lineNo)
			}
			name := w[1]
			k := kernel{regs: atoi(t, w[3]), static: atoi(t, w[5])}
			kernels[name] = k
			nKernel++
			t.Run(name+"/line:"+strconv.Itoa(lineNo), func(t *testing.T) {
				if got, want := a.MaxThreadsPerBlockFor(k.regs), atoi(t, w[9]); got != want {
					t.Errorf("MaxThreadsPerBlockFor(%d) = %d, driver %d", k.regs, got, want)
				}
				p, err := a.MaxPotentialBlockSize(OccupancyInput{RegsPerThread: k.regs, StaticShared: k.static}, nil, 0)
				if err != nil {
					t.Fatal(err)
				}
				if want := atoi(t, w[11]); p.BlockSize != want {
					t.Errorf("potentialBlockSize = %d, driver %d", p.BlockSize, want)
				}
				if want := atoi(t, w[13]); p.MinGridSize != want {
					t.Errorf("minGrid = %d, driver %d", p.MinGridSize, want)
				}
			})
		case "OCC":
			// OCC name regs=R bs=N dyn:blocks …
			name := w[1]
			k, ok := kernels[name]
			if !ok {
				t.Fatalf("line %d: OCC row for %s before its KERNEL line", lineNo, name)
			}
			f := fields(w[2:4])
			if atoi(t, f["regs"]) != k.regs {
				t.Fatalf("line %d: regs differ from the KERNEL line", lineNo)
			}
			bs := atoi(t, f["bs"])
			for _, entry := range w[4:] {
				dynS, blocksS, ok := strings.Cut(entry, ":")
				if !ok {
					t.Fatalf("line %d: malformed entry %q", lineNo, entry)
				}
				dyn, want := atoi(t, dynS), atoi(t, blocksS)
				nOcc++
				t.Run(name+"/line:"+strconv.Itoa(lineNo)+"/bs="+strconv.Itoa(bs)+"/dyn="+dynS, func(t *testing.T) {
					r := a.Occupancy(OccupancyInput{BlockSize: bs, RegsPerThread: k.regs, StaticShared: k.static, DynamicShared: dyn})
					if want < 0 {
						if r.Launchable() || r.Reason == "" {
							t.Errorf("driver rejects this launch; got %d blocks, reason %q", r.BlocksPerSM, r.Reason)
						}
						return
					}
					if r.BlocksPerSM != want {
						t.Errorf("blocks per SM = %d, driver %d (limits: warps %d regs %d smem %d blocks %d; %s)",
							r.BlocksPerSM, want, r.BlockLimitWarps, r.BlockLimitRegs, r.BlockLimitShared, r.BlockLimitBlocks, r.Reason)
					}
				})
			}
		}
	}
	// The file as recorded: its kernels, 11 dynamic sizes per OCC row.
	if nKernel != wantKernels || nOcc != wantOcc {
		t.Errorf("read %d kernels and %d OCC entries; the file has %d and %d", nKernel, nOcc, wantKernels, wantOcc)
	}
}
