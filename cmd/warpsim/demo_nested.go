package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/examples/lessons"
)

// demoNested is the dynamic-parallelism lesson: nestedHelloWorld at grids 1
// and 2 on the H100 (nvcc's PTX), in the H100's order; then the lesson's
// four reductions of 2^20 ones on a K40, where CDP1's device-side
// cudaDeviceSynchronize exists, and on the H100, which refuses it.
func demoNested(w io.Writer, h100 *arch.Arch, _ ncuData) error {
	for _, grid := range []uint32{1, 2} {
		fmt.Fprintf(w, "== Lesson 4: dynamic parallelism (nested.cu), nestedHelloWorld<<<%d, 8>>>(8, 0) on the %s ==\n", grid, h100.Name)
		var printed bytes.Buffer
		dev, mod, err := demoDevice(&printed, h100, "nested")
		if err == nil {
			_, err = demoLaunch(dev, mod, "nestedHelloWorld", grid, 8, u32(8), u32(0))
		}
		if err != nil {
			return err
		}
		w.Write(printed.Bytes())
		want := h100NestedHello(int(grid))
		got := strings.Split(strings.TrimSuffix(printed.String(), "\n"), "\n")
		check := fmt.Sprintf("OK, the %d lines the H100 printed, in its order", len(want))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			check = fmt.Sprintf("MISMATCH: the H100 printed these %d lines in another order or others (examples/lessons/h100/h100_seed_runs.txt)", len(want))
		}
		fmt.Fprintf(w, "%s\n\n", check)
	}
	fmt.Fprintf(w, "Lesson: a kernel can launch kernels. Child grids start in launch order across the parent grid,\n"+
		"breadth first (both depth-1 markers before the children's lines), and a parent grid completes only\n"+
		"when its children have.\n\n")
	return nil
}

// nestedReduceRow is one of the lesson's reductions: what the K40 measured
// (the lesson's nvprof run: seconds, device calls).
type nestedReduceRow struct {
	kernel      string
	k40Time     string
	k40DevCalls int
	launch      func(dev *warpsim.Device, mod *warpsim.Module, in, out uint64) (*warpsim.LaunchResult, error)
}

var nestedReduceRows = []nestedReduceRow{
	{"reduceNeighbored", "0.000532 s", 0, func(dev *warpsim.Device, mod *warpsim.Module, in, out uint64) (*warpsim.LaunchResult, error) {
		return demoLaunch(dev, mod, "reduceNeighbored", 2048, 512, u64(in), u64(out), u32(1<<20))
	}},
	{"gpuRecursiveReduce", "0.172 s", 16384, func(dev *warpsim.Device, mod *warpsim.Module, in, out uint64) (*warpsim.LaunchResult, error) {
		return demoLaunch(dev, mod, "gpuRecursiveReduce", 2048, 512, u64(in), u64(out), u32(512))
	}},
	{"gpuRecursiveReduceNosync", "0.059 s", 16384, func(dev *warpsim.Device, mod *warpsim.Module, in, out uint64) (*warpsim.LaunchResult, error) {
		return demoLaunch(dev, mod, "gpuRecursiveReduceNosync", 2048, 512, u64(in), u64(out), u32(512))
	}},
	{"gpuRecursiveReduce2", "0.000797 s", 8, func(dev *warpsim.Device, mod *warpsim.Module, in, out uint64) (*warpsim.LaunchResult, error) {
		return demoLaunch(dev, mod, "gpuRecursiveReduce2", 2048, 256, u64(in), u64(out), u32(256), u32(512))
	}},
}

// demoNestedReduce runs the four reductions from nested4.cu's PTX (clang
// for sm_35 with -rdc=true, embedded) on a K40 and on the H100.
func demoNestedReduce(w io.Writer, h100 *arch.Arch) error {
	k40 := arch.MustLookup("k40")
	fmt.Fprintf(w, "== Lesson 4b: nested reductions (nested4.cu), 2^20 ones in blocks of 512, on the %s and the %s ==\n", k40.Name, h100.Name)
	src, err := lessons.FS.ReadFile("nested4.sm35.ptx")
	if err != nil {
		return err
	}
	ones := make([]byte, 4<<20)
	for i := 0; i < len(ones); i += 4 {
		ones[i] = 1
	}
	type cell struct{ sum, calls, time string }
	results := map[string][]cell{}
	for _, a := range []*arch.Arch{k40, h100} {
		// The K40 runs on the timing model: its times answer the lesson's
		// "what did each launch cost" beside the K40's own.
		opts := warpsim.Options{Stdout: io.Discard}
		if a == k40 {
			opts.Mode = warpsim.ModeTiming
		}
		dev := warpsim.NewDevice(a, opts)
		mod, err := dev.LoadModule("nested4.sm35.ptx", src)
		if err != nil {
			return fmt.Errorf("loading nested4.sm35.ptx: %w", err)
		}
		in, _ := dev.Malloc(uint64(len(ones)))
		out, _ := dev.Malloc(4 * 2048)
		for _, row := range nestedReduceRows {
			dev.Write(in, ones)
			dev.Memset(out, 0, 4*2048)
			res, err := row.launch(dev, mod, in, out)
			var refused *warpsim.DevSideSyncError
			switch {
			case errors.As(err, &refused):
				results[row.kernel] = append(results[row.kernel], cell{"refused", "-", "-"})
				continue
			case err != nil:
				return err
			}
			sums := make([]byte, 4*2048)
			dev.Read(out, sums)
			var sum int64
			for i := 0; i < len(sums); i += 4 {
				sum += int64(int32(uint32(sums[i]) | uint32(sums[i+1])<<8 | uint32(sums[i+2])<<16 | uint32(sums[i+3])<<24))
			}
			device := 0
			for _, g := range res.Grids {
				if g.FromDevice {
					device++
				}
			}
			tm := "-"
			if res.DurationNS > 0 {
				tm = fmt.Sprintf("%.6f s", res.DurationNS/1e9)
			}
			results[row.kernel] = append(results[row.kernel], cell{fmt.Sprint(sum), fmt.Sprintf("1/%d", device), tm})
		}
	}
	fmt.Fprintf(w, "%-26s %-9s %-14s %-12s %-9s %-14s %s\n", "kernel", "k40 sum", "calls host/dev", "k40 model", "h100 sum", "calls host/dev", "the lesson's K40: time, device calls")
	for _, row := range nestedReduceRows {
		c := results[row.kernel]
		check := ""
		if c[0].sum != "1048576" || c[0].calls != fmt.Sprintf("1/%d", row.k40DevCalls) {
			check = "  MISMATCH on the k40"
		}
		fmt.Fprintf(w, "%-26s %-9s %-14s %-12s %-9s %-14s %s, %d%s\n", row.kernel, c[0].sum, c[0].calls, c[0].time, c[1].sum, c[1].calls, row.k40Time, row.k40DevCalls, check)
	}
	fmt.Fprintf(w, "Every sum should be 1048576. \"k40 model\" is warpsim's timing model of the K40 (device-launched\n"+
		"grids of different parents run concurrently, up to 32, one started every 3.6 us; internal/timing).\n"+
		"The h100 refuses the whole module: gpuRecursiveReduce calls\n"+
		"cudaDeviceSynchronize from the device (CDP1), which sm_90 GPUs cannot run; an H100 given nvcc's sm_80\n"+
		"build failed every launch with cudaErrorUnsupportedDevSideSync (testdata/cdp/h100/).\n"+
		"Lesson: a device-side synchronization per level is what made nested 300x slower than the plain\n"+
		"reduction on the K40; nested2 launches 8 grids instead of 16384.\n\n")
	return nil
}

// h100NestedHello is what `nested G` printed on the H100 for
// nestedHelloWorld<<<G, 8>>>(8, 0), in its order.
func h100NestedHello(grid int) []string {
	runs, err := lessons.FS.ReadFile("h100/h100_seed_runs.txt")
	if err != nil {
		panic("warpsim internal error: " + err.Error())
	}
	_, after, _ := strings.Cut(string(runs), fmt.Sprintf("== nestedHelloWorld grid %d block 8\n", grid))
	var lines []string
	for _, l := range strings.Split(after, "\n") {
		if !strings.HasPrefix(l, "Recursion=") && !strings.HasPrefix(l, "------->") {
			break
		}
		lines = append(lines, l)
	}
	return lines
}
