package arch

import (
	"strings"
	"testing"
)

// TestPresetsConsistent checks relations every real part satisfies, so a
// typo in the table shows.
func TestPresetsConsistent(t *testing.T) {
	want := []string{"g80", "gt200", "c2050", "k40", "gtx980", "p100", "v100", "t4", "a100", "rtx3090", "rtx4090", "h100", "h200"}
	if got := strings.Join(Names(), " "); got != strings.Join(want, " ") {
		t.Fatalf("presets = %s, want %s", got, strings.Join(want, " "))
	}
	prev := 0
	for _, a := range All() {
		t.Run(a.Name, func(t *testing.T) {
			if a.ComputeCapability() < prev {
				t.Errorf("presets out of compute-capability order")
			}
			prev = a.ComputeCapability()
			if a.WarpSize != 32 || a.MaxWarpsPerSM*a.WarpSize != a.MaxThreadsPerSM {
				t.Errorf("warps %d × %d != threads %d", a.MaxWarpsPerSM, a.WarpSize, a.MaxThreadsPerSM)
			}
			if a.RegsPerBlock > a.RegsPerSM || a.SharedPerBlock > a.SharedPerBlockOptin || a.SharedPerBlockOptin+a.ReservedSharedPerBlock > a.SharedPerSM {
				t.Errorf("per-block limits exceed per-SM ones")
			}
			if a.RegAllocUnit == 0 || a.SharedAllocUnit == 0 || a.SubPartitions == 0 || a.WarpAllocGranularity == 0 {
				t.Errorf("allocation rule missing")
			}
			if n := len(a.SharedCarveoutsKiB); (n > 0) != (a.Major >= 7) || n > 0 && a.SharedCarveoutsKiB[n-1]*kib != a.SharedPerSM {
				t.Errorf("carveouts %v do not end at SharedPerSM %d", a.SharedCarveoutsKiB, a.SharedPerSM)
			}
			if (a.ReservedSharedPerBlock == 1024) != (a.Major >= 8) {
				t.Errorf("reserved shared memory %d: 1 KiB from 8.0 on, none before", a.ReservedSharedPerBlock)
			}
			if a.DynamicParallelism() != (a.DevRuntimeMaxDepth == 24 && a.DevRuntimePendingLaunches == 2048 && a.DevRuntimeSyncDepth == 2) {
				t.Errorf("device-runtime limits wrong for %s", a.SMName())
			}
			if a.SMs == 0 || a.ClockKHz == 0 || a.MemClockKHz == 0 || a.MemBusWidth == 0 || a.TotalGlobalMem == 0 || a.FullName == "" || a.Family == "" {
				t.Errorf("board figures missing")
			}
		})
	}
}

// TestMemBandwidth checks the bandwidth formula against advertised figures
// (GB/s, from the datasheets; the H200's from its driver's memory clock and
// bus width, testdata/timing/h200/h200/props.txt: the datasheet rounds it
// to 4.8 TB/s).
func TestMemBandwidth(t *testing.T) {
	for name, gbs := range map[string]float64{"g80": 86.4, "k40": 288.4, "v100": 898.0, "a100": 1555.2, "rtx3090": 936.0, "h100": 3352.3, "h200": 4814.3} {
		got := MustLookup(name).MemBandwidth() / 1e9
		if got < gbs*0.999 || got > gbs*1.001 {
			t.Errorf("%s: %.1f GB/s, want %.1f", name, got, gbs)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"h100", "h100"}, {"H100", "h100"}, {"sm_90", "h100"}, {"SM_90a", "h100"}, {"compute_90", "h100"},
		{"9.0", "h100"}, {"hopper", "h100"}, {"NVIDIA H100 80GB HBM3", "h100"}, {"sm_10", "g80"}, {"1.3", "gt200"},
		{"fermi", "c2050"}, {"Tesla K40c", "k40"}, {"sm_52", "gtx980"}, {"GeForce GTX 980", "gtx980"},
		{"pascal", "p100"}, {"v100", "v100"}, {"sm_75", "t4"}, {"a100", "a100"}, {"sm_86", "rtx3090"},
		{"RTX-3090", "rtx3090"}, {"ada", "rtx4090"}, {"sm_89", "rtx4090"}, {"h200", "h200"}, {"NVIDIA H200", "h200"},
	} {
		a, err := Lookup(c.in)
		if err != nil || a.Name != c.want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", c.in, a, err, c.want)
		}
	}
	for _, bad := range []string{"", "h300", "sm_99", "sm_", "0.5", "-1"} {
		if _, err := Lookup(bad); err == nil || !strings.Contains(err.Error(), "known: g80, gt200") {
			t.Errorf("Lookup(%q): error %v, want one listing the presets", bad, err)
		}
	}
}

// TestCarveoutChoice: with no preference the driver configures the smallest
// carveout holding the active blocks. light (10 registers) at 256 threads
// runs 8 blocks of 1 KiB reserved shared memory each on H100: 8 KiB. With 12
// KiB dynamic each: 8 blocks × 13 KiB = 104 KiB → the 132 KiB step.
func TestCarveoutChoice(t *testing.T) {
	h := MustLookup("h100")
	for _, c := range []struct{ dyn, blocks, capacity int }{{0, 8, 8 * kib}, {12 * kib, 8, 132 * kib}, {100000, 2, 228 * kib}} {
		r := h.Occupancy(OccupancyInput{BlockSize: 256, RegsPerThread: 10, DynamicShared: c.dyn})
		if r.BlocksPerSM != c.blocks || r.SharedCapacity != c.capacity {
			t.Errorf("dyn %d: %d blocks, carveout %d; want %d, %d", c.dyn, r.BlocksPerSM, r.SharedCapacity, c.blocks, c.capacity)
		}
	}
	// A preference too small for one block: the smallest that holds it.
	r := h.Occupancy(OccupancyInput{BlockSize: 256, RegsPerThread: 10, DynamicShared: 20 * kib, Carveout: CarveoutPercent(0)})
	if r.BlocksPerSM != 1 || r.SharedCapacity != 32*kib || len(r.Notes) == 0 {
		t.Errorf("0%% preference: %d blocks, carveout %d, notes %v; want 1 block in 32 KiB with a note", r.BlocksPerSM, r.SharedCapacity, r.Notes)
	}
}

// TestMaxPotentialBlockSize covers what the driver file does not: the
// 1.x rules and a block-size-dependent dynamic shared memory.
func TestMaxPotentialBlockSize(t *testing.T) {
	// G80, 10 registers: 512 threads (16 warps, 5120 registers) → 1 block;
	// 480, 448, 416 → 1 block each (fewer threads); 384 (12 warps, 3840
	// registers) → 2 blocks = 768 threads, the SM's maximum: stop.
	p, err := MustLookup("g80").MaxPotentialBlockSize(OccupancyInput{RegsPerThread: 10}, nil, 0)
	if err != nil || p.BlockSize != 384 || p.MinGridSize != 2*16 {
		t.Errorf("g80: %+v, %v; want block 384, grid 32", p, err)
	}
	// H100, 10 registers, 200000 bytes of dynamic shared memory above 512
	// threads: 1024…544 give one block; 512 (no dynamic) gives 4 = 2048
	// threads.
	dyn := func(bs int) int {
		if bs > 512 {
			return 200000
		}
		return 0
	}
	p, err = MustLookup("h100").MaxPotentialBlockSize(OccupancyInput{RegsPerThread: 10}, dyn, 0)
	if err != nil || p.BlockSize != 512 || p.MinGridSize != 4*132 {
		t.Errorf("h100 with dynamic shared memory: %+v, %v; want block 512, grid 528", p, err)
	}
	// A block size limit of 100 (not a warp multiple) is tried as is first.
	p, err = MustLookup("h100").MaxPotentialBlockSize(OccupancyInput{RegsPerThread: 10}, nil, 100)
	if err != nil || p.BlockSize != 64 || p.BlocksPerSM != 32 {
		t.Errorf("h100 limit 100: %+v, %v; want block 64 (32 blocks = 2048 threads)", p, err)
	}
	if _, err := MustLookup("h100").MaxPotentialBlockSize(OccupancyInput{RegsPerThread: 10, StaticShared: 300000}, nil, 0); err == nil {
		t.Error("300000 bytes of static shared memory: want an error")
	}
}
