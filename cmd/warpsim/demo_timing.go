package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/examples/lessons"
)

// demoClockMHz is the SM clock Nsight Compute locks an H100 at by default
// (--clock-control base), at which the H100 figures below were measured:
// the timing lesson simulates at the same clock to compare like with like.
const demoClockMHz = 1589

// h100Times are Nsight Compute's gpu__time_duration.sum, in ns, for the
// configurations the timing lesson runs, from
// testdata/timing/h100/calibration.csv (TestDemoH100Times checks the copy).
var h100Times = map[string]float64{
	"lesson_reduceNeighbored_n65536_b512":     5056,
	"lesson_reduceNeighboredLess_n65536_b512": 4000,
	"lesson_reduceInterleaved_n65536_b512":    3936,
	"occ_stream_r1":                           39328,
	"occ_stream_r2":                           22272,
	"occ_stream_r4":                           14048,
	"occ_stream_r8":                           11744,
	"occ_stream_r16":                          12192,
	"lesson_matmulCoarse_T16_CF1_n128":        7840,
	"lesson_matmulCoarse_T16_CF2_n128":        11968,
	"lesson_matmulCoarse_T16_CF4_n128":        21824,
	"lesson_matmulCoarse_T16_CF8_n128":        44064,
	"lesson_matmulCoarse_T16_CF1_n256":        13760,
	"lesson_matmulCoarse_T16_CF2_n256":        21760,
}

// demoCoarsenSizes are the matrix sizes the timing lesson's coarsening rows
// run: 256×256 (1.9 M warp instructions in two launches, more than the
// rest of the lesson together) only with --full.
func demoCoarsenSizes(full bool) []uint32 {
	if full {
		return []uint32{128, 256}
	}
	return []uint32{128}
}

// occStreamShared is the dynamic shared memory that leaves R blocks of the
// copy kernel resident per SM (the calibration's occ_stream_rR).
var occStreamShared = map[int]uint32{1: 232448, 2: 115712, 4: 57344, 8: 28160, 16: 13568}

func timingDevice(a *arch.Arch, lesson string) (*warpsim.Device, *warpsim.Module, error) {
	dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ClockMHz: demoClockMHz}})
	src, err := lessons.FS.ReadFile(lesson + ".sm90.ptx")
	if err != nil {
		return nil, nil, err
	}
	mod, err := dev.LoadModule(lesson+".sm90.ptx", src)
	return dev, mod, err
}

func timedLaunch(dev *warpsim.Device, mod *warpsim.Module, kernel string, cfg warpsim.LaunchConfig, params ...[]byte) (*warpsim.LaunchResult, error) {
	k, err := mod.Kernel(kernel)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, k.ParamBytes())
	for i, p := range k.Params() {
		if i < len(params) {
			copy(buf[p.Offset:], params[i])
		}
	}
	res, err := dev.Launch(k, cfg, buf)
	if err != nil {
		var fault *warpsim.Fault
		if errors.As(err, &fault) {
			return nil, kernelFault(err)
		}
		return nil, err
	}
	return res, nil
}

func occupancyOf(res *warpsim.LaunchResult) float64 {
	t := res.Grids[0].Timing
	if t == nil || t.ActiveSMCycles == 0 {
		return 0
	}
	return 100 * float64(t.WarpCycles) / float64(t.ActiveSMCycles) / float64(t.MaxWarpsPerSM)
}

func dim(x, y uint32) warpsim.Dim3 { return warpsim.Dim3{X: x, Y: y, Z: 1} }

// demoTiming is the timing lesson: the time each lesson's kernels take on
// the simulated H100, beside what the real one measured; the coarsening
// rows at 256×256 only when full (--full).
func demoTiming(w io.Writer, a *arch.Arch, _ ncuData, full bool) error {
	fmt.Fprintf(w, "== Lesson 5: time (the timing model), at %d MHz as Nsight Compute clocks an H100 ==\n", demoClockMHz)
	fmt.Fprintf(w, "%-44s %12s %12s\n", "", "warpsim", "H100")

	// Reduce: the three kernels ranked.
	dev, mod, err := timingDevice(a, "reduce")
	if err != nil {
		return err
	}
	const n = 1 << 16
	host := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		host[4*i] = byte(i)
	}
	in, _ := dev.Malloc(4 * n)
	out, _ := dev.Malloc(4 * n / 512)
	fmt.Fprintf(w, "reduce, 2^16 ints, blocks of 512\n")
	for _, k := range []string{"reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved"} {
		if err := dev.Write(in, host); err != nil {
			return err
		}
		res, err := timedLaunch(dev, mod, k, warpsim.LaunchConfig{Grid: dim(n/512, 1), Block: dim(512, 1)}, u64(in), u64(out), u32(n))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %-42s %9.2f µs %9.2f µs\n", k, res.DurationNS/1000, h100Times["lesson_"+k+"_n65536_b512"]/1000)
	}
	fmt.Fprintf(w, "Lesson: fewer divergent warps (Less) and contiguous accesses (Interleaved) each save time.\n\n")

	// Latency hiding: one copy kernel at 1..16 resident blocks per SM.
	dev, mod, err = timingDevice(a, "occ")
	if err != nil {
		return err
	}
	const threads = 2112 * 128 * 16
	src, _ := dev.Malloc(4 * threads)
	dst, _ := dev.Malloc(4 * threads)
	fmt.Fprintf(w, "latency hiding: copy kernel, 2112 blocks of 128, R blocks resident per SM\n")
	for _, r := range []int{1, 2, 4, 8, 16} {
		res, err := timedLaunch(dev, mod, "occ_stream", warpsim.LaunchConfig{Grid: dim(2112, 1), Block: dim(128, 1), SharedBytes: occStreamShared[r]}, u64(src), u64(dst))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  R = %-2d (achieved occupancy %5.1f%%)%12s %9.2f µs %9.2f µs\n", r, occupancyOf(res), "", res.DurationNS/1000, h100Times[fmt.Sprintf("occ_stream_r%d", r)]/1000)
	}
	fmt.Fprintf(w, "Lesson: more resident warps keep more loads in flight and hide DRAM latency, up to the bandwidth.\n\n")

	// Coarsening: time against the factor at two sizes.
	dev, mod, err = timingDevice(a, "coarsen")
	if err != nil {
		return err
	}
	for _, size := range demoCoarsenSizes(full) {
		m, _ := dev.Malloc(uint64(4 * size * size))
		nn, _ := dev.Malloc(uint64(4 * size * size))
		p, _ := dev.Malloc(uint64(4 * size * size))
		fmt.Fprintf(w, "coarsening: matmulCoarse<16, CF>, %d×%d\n", size, size)
		factors := []uint32{1, 2, 4, 8}
		if size == 256 {
			factors = factors[:2] // enough to show the trend; the demo stays quick
		}
		for _, cf := range factors {
			kernel := fmt.Sprintf("_Z12matmulCoarseILi16ELi%dEEvPKfS1_Pfi", cf)
			res, err := timedLaunch(dev, mod, kernel, warpsim.LaunchConfig{Grid: dim(size/(16*cf), size/16), Block: dim(16, 16)}, u64(m), u64(nn), u64(p), u32(size))
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "  CF = %d (%3d blocks)%24s %9.2f µs %9.2f µs\n", cf, (size/(16*cf))*(size/16), "", res.DurationNS/1000, h100Times[fmt.Sprintf("lesson_matmulCoarse_T16_CF%d_n%d", cf, size)]/1000)
		}
	}
	fmt.Fprintf(w, "Lesson: coarsening saves loads only if enough blocks remain to fill 132 SMs; at these sizes it does not.\n\n")
	return nil
}
