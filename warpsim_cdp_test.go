package warpsim

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/examples/lessons"
)

// cdpArgs packs kernel arguments (uint32 or uint64 values) at the kernel's
// parameter offsets.
func cdpArgs(t *testing.T, k *Kernel, args ...any) []byte {
	t.Helper()
	ps := k.Params()
	if len(ps) != len(args) {
		t.Fatalf("%s takes %d parameters, got %d", k.Name(), len(ps), len(args))
	}
	buf := make([]byte, k.ParamBytes())
	for i, p := range ps {
		switch v := args[i].(type) {
		case int:
			binary.LittleEndian.PutUint32(buf[p.Offset:], uint32(v))
		case uint64:
			binary.LittleEndian.PutUint64(buf[p.Offset:], v)
		}
	}
	return buf
}

func cdpLaunch(t *testing.T, d *Device, m *Module, name string, grid, block uint32, args ...any) (*LaunchResult, error) {
	t.Helper()
	k, err := m.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return d.Launch(k, LaunchConfig{Grid: Dim3{grid, 1, 1}, Block: Dim3{block, 1, 1}}, cdpArgs(t, k, args...))
}

func cdpInts(t *testing.T, d *Device, addr uint64, n int) []int32 {
	t.Helper()
	b := make([]byte, 4*n)
	if err := d.Read(addr, b); err != nil {
		t.Fatal(err)
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// h100Hello is what `nested G` printed on the H100 for
// nestedHelloWorld<<<G, 8>>>(8, 0), in its order.
func h100Hello(t *testing.T, grid int) string {
	runs, err := lessons.FS.ReadFile("h100/h100_seed_runs.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(runs), fmt.Sprintf("== nestedHelloWorld grid %d block 8\n", grid))
	if !ok {
		t.Fatalf("no grid %d run in h100_seed_runs.txt", grid)
	}
	var b strings.Builder
	for _, l := range strings.Split(after, "\n") {
		if !strings.HasPrefix(l, "Recursion=") && !strings.HasPrefix(l, "------->") {
			break
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// TestNestedHelloH100Order runs the nested lesson's nestedHelloWorld (nvcc
// 13's PTX) at grids 1 and 2 and compares the output, line for line and in
// order, with what the H100 printed: at grid 2 both depth-1 markers come
// after both blocks' lines, then both children's lines (breadth first).
// Each worker count and every repetition must give the same output and the
// same grids.
func TestNestedHelloH100Order(t *testing.T) {
	src, err := lessons.PTX("nested")
	if err != nil {
		t.Fatal(err)
	}
	for _, grid := range []uint32{1, 2} {
		want := h100Hello(t, int(grid))
		var first []GridResult
		for _, workers := range []int{1, 2, 8} {
			for rep := 0; rep < 5; rep++ {
				var out bytes.Buffer
				d := NewDevice(arch.MustLookup("h100"), Options{Stdout: &out, Workers: workers})
				m, err := d.LoadModule("nested.sm90.ptx", src)
				if err != nil {
					t.Fatal(err)
				}
				res, err := cdpLaunch(t, d, m, "nestedHelloWorld", grid, 8, 8, 0)
				if err != nil {
					t.Fatal(err)
				}
				if out.String() != want {
					t.Fatalf("grid %d, %d workers, run %d:\n%s\nthe H100 printed:\n%s", grid, workers, rep, out.String(), want)
				}
				grids := append([]GridResult(nil), res.Grids...)
				for i := range grids {
					if grids[i].Kernel.Name() != "_Z16nestedHelloWorldii" {
						t.Fatalf("Grids[%d] runs %s", i, grids[i].Kernel.Name())
					}
					grids[i].Elapsed, grids[i].Kernel = 0, nil
				}
				if first == nil {
					first = grids
				} else if !reflect.DeepEqual(grids, first) {
					t.Fatalf("grid %d, %d workers, run %d: the grids differ from the first run's:\n%+v\n%+v", grid, workers, rep, grids, first)
				}
			}
		}
		// Breadth first: all depth-d grids before any depth-d+1 grid.
		for i := 1; i < len(first); i++ {
			if first[i].Depth < first[i-1].Depth {
				t.Errorf("grid %d: Grids[%d] at depth %d follows one at depth %d", grid, i, first[i].Depth, first[i-1].Depth)
			}
		}
		if n := len(first); n != 1+3*int(grid) {
			t.Errorf("grid %d: %d grids ran, want %d", grid, n, 1+3*int(grid))
		}
	}
}

// cdpNvcc loads the PTX nvcc 13 emitted for testdata/cdp/cdp_probe.cu with
// -arch=sm_80 -DCUDA_FORCE_CDP1_IF_SUPPORTED (CDP1) on an arch.
func cdpNvcc(t *testing.T, file, archName string, workers int) (*Device, *Module, *bytes.Buffer) {
	t.Helper()
	src, err := os.ReadFile("testdata/cdp/h100/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	d := NewDevice(arch.MustLookup(archName), Options{Stdout: &out, Workers: workers})
	m, err := d.LoadModule(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return d, m, &out
}

// TestCDP1NvccProbes runs nvcc's CDP1 build of the probes on an A100
// preset. CDP1 cannot run on the H100 the team has, so the oracle is the
// CUDA 11 programming guide's rules (Appendix D, "CUDA Dynamic
// Parallelism") and the runtime API's error descriptions:
//   - cudaDeviceSynchronize in device code waits for the work the block
//     launched: the quicksort's parent reads its children's results only
//     through that, and the data must come out sorted;
//   - "cudaLimitDevRuntimeSyncDepth … the default is 2 levels of grids":
//     a sync in a grid at depth ≥ the limit returns cudaErrorSyncDepthExceeded
//     (68), settable with cudaDeviceSetLimit;
//   - "the maximum nesting depth is limited in hardware to 24": the launch
//     from depth 23 fails with cudaErrorLaunchMaxDepthExceeded (65);
//   - "cudaLimitDevRuntimePendingLaunchCount … default 2048": the 2049th
//     launch not yet started fails with cudaErrorLaunchPendingCountExceeded (69);
//   - device streams and events order the launches into them; errors are
//     per thread: cudaPeekAtLastError keeps, cudaGetLastError clears.
func TestCDP1NvccProbes(t *testing.T) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprintf("workers%d", workers), func(t *testing.T) {
			d, m, _ := cdpNvcc(t, "cdp_probe.cdp1.sm80.ptx", "a100", workers)
			// Quicksort of 2048 values, checked against Go's sort.
			const n = 2048
			vals := make([]uint32, n)
			s := uint32(2463534242)
			raw := make([]byte, 4*n)
			for i := range vals {
				s ^= s << 13
				s ^= s >> 17
				s ^= s << 5
				vals[i] = s % 10007
				binary.LittleEndian.PutUint32(raw[4*i:], vals[i])
			}
			data, _ := d.Malloc(4 * n)
			d.Write(data, raw)
			if err := d.SetLimit(LimitDevRuntimeSyncDepth, 16); err != nil {
				t.Fatal(err)
			}
			res, err := cdpLaunch(t, d, m, "_Z9quicksortPjiii", 1, 1, data, 0, n-1, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := cdpInts(t, d, data, n)
			sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
			for i := range vals {
				if uint32(got[i]) != vals[i] {
					t.Fatalf("quicksort: element %d is %d, want %d", i, got[i], vals[i])
				}
			}
			if addr, _, ok := m.Global("qsSyncErrors"); !ok || cdpInts(t, d, addr, 1)[0] != 0 {
				t.Errorf("quicksort: device-side syncs failed with the sync depth set to 16")
			}
			if len(res.Grids) < 3 {
				t.Errorf("quicksort ran %d grids", len(res.Grids))
			}

			// Sync depth: default 2, then 4.
			for _, c := range []struct {
				limit int
				want  []int32
			}{{2, []int32{0, 0, 68, 68, 68, 68}}, {4, []int32{0, 0, 0, 0, 68, 68}}} {
				d.SetLimit(LimitDevRuntimeSyncDepth, uint64(c.limit))
				codes, _ := d.Malloc(32)
				if _, err := cdpLaunch(t, d, m, "_Z9syncProbeiiPi", 1, 1, 0, 6, codes); err != nil {
					t.Fatal(err)
				}
				if got := cdpInts(t, d, codes, 6); !reflect.DeepEqual(got, c.want) {
					t.Errorf("syncProbe, sync depth %d: codes by depth %v, want %v", c.limit, got, c.want)
				}
			}

			// Nesting depth.
			reached, _ := d.Malloc(4)
			fd, _ := d.Malloc(4)
			fc, _ := d.Malloc(4)
			d.Memset(fd, 0xff, 4)
			if _, err := cdpLaunch(t, d, m, "_Z10depthProbeiiPiS_S_", 1, 1, 0, 30, reached, fd, fc); err != nil {
				t.Fatal(err)
			}
			if r, f, c := cdpInts(t, d, reached, 1)[0], cdpInts(t, d, fd, 1)[0], cdpInts(t, d, fc, 1)[0]; r != 23 || f != 23 || c != 65 {
				t.Errorf("depthProbe to 30: reached %d, first failure at depth %d code %d; want 23, 23, 65", r, f, c)
			}

			// Pending launches.
			for _, c := range []struct{ n, ran, failed int32 }{{2048, 2048, 0}, {2049, 2048, 1}, {5000, 2048, 2952}} {
				ran, _ := d.Malloc(4)
				failed, _ := d.Malloc(4)
				first, _ := d.Malloc(4)
				if _, err := cdpLaunch(t, d, m, "_Z5floodiPiS_S_", 1, 1, int(c.n), ran, failed, first); err != nil {
					t.Fatal(err)
				}
				r, f, fc := cdpInts(t, d, ran, 1)[0], cdpInts(t, d, failed, 1)[0], cdpInts(t, d, first, 1)[0]
				wantCode := int32(0)
				if c.failed > 0 {
					wantCode = 69
				}
				if r != c.ran || f != c.failed || fc != wantCode {
					t.Errorf("flood %d: ran %d failed %d code %d; want %d %d %d", c.n, r, f, fc, c.ran, c.failed, wantCode)
				}
			}

			// Streams, events and the last error: the H100 printed the same
			// codes for its CDP2 build (TestCDP2NvccProbesH100).
			x, _ := d.Malloc(4)
			y, _ := d.Malloc(4)
			codes, _ := d.Malloc(13 * 4)
			if _, err := cdpLaunch(t, d, m, "_Z13streamsEventsPiS_S_", 1, 1, x, y, codes); err != nil {
				t.Fatal(err)
			}
			if got, want := cdpInts(t, d, codes, 13), []int32{0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 9, 9, 0}; cdpInts(t, d, y, 1)[0] != 42 || !reflect.DeepEqual(got, want) {
				t.Errorf("streamsEvents: y=%d codes %v, want 42 %v", cdpInts(t, d, y, 1)[0], got, want)
			}
		})
	}
}

// TestCDP2NvccProbesH100 runs nvcc's sm_90 (CDP2) build of the probes as an
// H100 and compares with what the H100 did (testdata/cdp/h100/run_probe_cdp2_sm90.txt):
// no nesting or pending-launch error at depth 30 or 5000 children.
func TestCDP2NvccProbesH100(t *testing.T) {
	rec, err := os.ReadFile("testdata/cdp/h100/run_probe_cdp2_sm90.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"depthProbe to 30: sync=cudaSuccess reached 30 first failing launch at depth -1 code 0",
		"flood 5000: sync=cudaSuccess ran 5000 failed 0 first code 0",
		"streamsEvents: sync=cudaSuccess y=42 codes 0 0 0 0 0 0 0 0 0 9 9 9 0",
	} {
		if !strings.Contains(string(rec), line+"\n") {
			t.Fatalf("the recording lacks %q", line)
		}
	}
	d, m, _ := cdpNvcc(t, "cdp_probe.cdp2.sm90.ptx", "h100", 2)
	reached, _ := d.Malloc(4)
	fd, _ := d.Malloc(4)
	fc, _ := d.Malloc(4)
	d.Memset(fd, 0xff, 4)
	if _, err := cdpLaunch(t, d, m, "_Z10depthProbeiiPiS_S_", 1, 1, 0, 30, reached, fd, fc); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("reached %d first failing launch at depth %d code %d", cdpInts(t, d, reached, 1)[0], cdpInts(t, d, fd, 1)[0], cdpInts(t, d, fc, 1)[0]); got != "reached 30 first failing launch at depth -1 code 0" {
		t.Errorf("depthProbe to 30: %s", got)
	}
	ran, _ := d.Malloc(4)
	failed, _ := d.Malloc(4)
	first, _ := d.Malloc(4)
	if _, err := cdpLaunch(t, d, m, "_Z5floodiPiS_S_", 1, 1, 5000, ran, failed, first); err != nil {
		t.Fatal(err)
	}
	if r, f := cdpInts(t, d, ran, 1)[0], cdpInts(t, d, failed, 1)[0]; r != 5000 || f != 0 {
		t.Errorf("flood 5000: ran %d failed %d", r, f)
	}
	x, _ := d.Malloc(4)
	y, _ := d.Malloc(4)
	codes, _ := d.Malloc(13 * 4)
	if _, err := cdpLaunch(t, d, m, "_Z13streamsEventsPiS_S_", 1, 1, x, y, codes); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(cdpInts(t, d, codes, 13))
	if y := cdpInts(t, d, y, 1)[0]; y != 42 || got != "[0 0 0 0 0 0 0 0 0 9 9 9 0]" {
		t.Errorf("streamsEvents: y=%d codes %s", y, got)
	}
}

// TestCDP1NestedReduce runs nvcc's sm_80 build of the lesson's
// gpuRecursiveReduce (device-side cudaDeviceSynchronize) on A100 and RTX 3090
// presets over 64 blocks of 512 ones: each block's sum is 512 and each
// block launches the 8-level chain 256, 128, …, 2 (8 device launches). On
// the H100 preset every kernel of the module is refused with
// cudaErrorUnsupportedDevSideSync, as the H100 refused nvcc's build
// (testdata/cdp/h100/run_nested4_sm80.txt).
func TestCDP1NestedReduce(t *testing.T) {
	const blocks = 64
	ones := make([]byte, 4*512*blocks)
	for i := 0; i < len(ones); i += 4 {
		ones[i] = 1
	}
	for _, a := range []string{"a100", "rtx3090", "h100"} {
		d, m, _ := cdpNvcc(t, "nested4.cdp1.sm80.ptx", a, 4)
		in, _ := d.Malloc(uint64(len(ones)))
		out, _ := d.Malloc(4 * blocks)
		d.Write(in, ones)
		res, err := cdpLaunch(t, d, m, "_Z18gpuRecursiveReducePiS_j", blocks, 512, in, out, 512)
		if a == "h100" {
			var ue *DevSideSyncError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "cudaDeviceSynchronize") || !strings.Contains(err.Error(), "--arch k40") {
				t.Fatalf("h100: %v, want the module refused", err)
			}
			if _, err := cdpLaunch(t, d, m, "_Z16reduceNeighboredPiS_j", blocks, 512, in, out, 512*blocks); !errors.As(err, &ue) {
				t.Fatalf("h100: reduceNeighbored of the same module: %v, want it refused too", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		for i, v := range cdpInts(t, d, out, blocks) {
			if v != 512 {
				t.Fatalf("%s: block %d sum %d, want 512", a, i, v)
			}
		}
		if got := res.Counters.DeviceLaunches; got != 8*blocks {
			t.Errorf("%s: %d device launches, want %d", a, got, 8*blocks)
		}
	}
}

// TestCDPTimingDriver runs the same launches under the timing driver: the
// grids a CDP1 sync runs go through it from inside a step (their cycles
// reach the syncing warp as StepRecord.SyncCycles), the nested Hello World
// keeps the H100's order, and the device-synchronizing reduction of 8
// blocks is right.
func TestCDPTimingDriver(t *testing.T) {
	var out bytes.Buffer
	d := NewDevice(arch.MustLookup("h100"), Options{Mode: ModeTiming, Stdout: &out, Workers: 2})
	src, err := lessons.PTX("nested")
	if err != nil {
		t.Fatal(err)
	}
	m, err := d.LoadModule("nested.sm90.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cdpLaunch(t, d, m, "nestedHelloWorld", 2, 8, 8, 0); err != nil {
		t.Fatal(err)
	}
	if want := h100Hello(t, 2); out.String() != want {
		t.Errorf("timing driver:\n%s\nthe H100 printed:\n%s", out.String(), want)
	}

	d = NewDevice(arch.MustLookup("k40"), Options{Mode: ModeTiming, Workers: 2})
	src, err = lessons.FS.ReadFile("nested4.sm35.ptx")
	if err != nil {
		t.Fatal(err)
	}
	if m, err = d.LoadModule("nested4.sm35.ptx", src); err != nil {
		t.Fatal(err)
	}
	const blocks = 8
	ones := make([]byte, 4*512*blocks)
	for i := 0; i < len(ones); i += 4 {
		ones[i] = 1
	}
	in, _ := d.Malloc(uint64(len(ones)))
	sums, _ := d.Malloc(4 * blocks)
	d.Write(in, ones)
	res, err := cdpLaunch(t, d, m, "gpuRecursiveReduce", blocks, 512, in, sums, 512)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range cdpInts(t, d, sums, blocks) {
		if v != 512 {
			t.Fatalf("block %d sum %d, want 512", i, v)
		}
	}
	if len(res.Grids) != 1+8*blocks || res.DurationNS <= 0 {
		t.Errorf("%d grids, %.0f ns", len(res.Grids), res.DurationNS)
	}
	for i, g := range res.Grids {
		if g.Timing == nil {
			t.Fatalf("Grids[%d] was not timed", i)
		}
	}
}

// TestDeviceStreamOrder: testdata/cdp/order.cu (clang's PTX). A launch into
// a block's NULL stream waits for the previous one's whole tree; a launch
// into a stream of its own does not (the programming guide's rules). The
// log is the same for every worker count.
func TestDeviceStreamOrder(t *testing.T) {
	src, err := os.ReadFile("testdata/cdp/order.sm90.ptx")
	if err != nil {
		t.Fatal(err)
	}
	var first []int32
	for _, workers := range []int{1, 4} {
		d := NewDevice(arch.MustLookup("h100"), Options{Workers: workers})
		m, err := d.LoadModule("order.sm90.ptx", src)
		if err != nil {
			t.Fatal(err)
		}
		log, _ := d.Malloc(4 * 8)
		if _, err := cdpLaunch(t, d, m, "_Z3topPi", 1, 1, log); err != nil {
			t.Fatal(err)
		}
		got := cdpInts(t, d, log, 6)
		pos := map[int32]int{}
		for i, v := range got[1:] {
			pos[v] = i
		}
		if got[0] != 5 || len(pos) != 5 {
			t.Fatalf("log %v: want 5 distinct entries", got)
		}
		if !(pos[1] < pos[10] && pos[10] < pos[2] && pos[3] < pos[30]) {
			t.Errorf("log %v: 1, 10 must precede 2, and 3 precede 30", got[1:])
		}
		if pos[3] > pos[2] {
			t.Errorf("log %v: C (3) waited for the NULL stream's B (2)", got[1:])
		}
		if first == nil {
			first = got
		} else if !reflect.DeepEqual(got, first) {
			t.Errorf("%d workers: log %v, with 1 worker %v", workers, got, first)
		}
	}
}

// TestDeviceLaunchBadBlock: a device launch of 2048 threads per block gets
// cudaErrorInvalidConfiguration and does not run; 1024 threads run
// (testdata/cdp/badlaunch.cu, clang's PTX; the arch's block limit).
func TestDeviceLaunchBadBlock(t *testing.T) {
	src, err := os.ReadFile("testdata/cdp/badlaunch.sm90.ptx")
	if err != nil {
		t.Fatal(err)
	}
	d := NewDevice(arch.MustLookup("h100"), Options{})
	m, err := d.LoadModule("badlaunch.sm90.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	codes, _ := d.Malloc(8)
	ran, _ := d.Malloc(4)
	res, err := cdpLaunch(t, d, m, "_Z6parentPiS_", 1, 1, codes, ran)
	if err != nil {
		t.Fatal(err)
	}
	if c, r := cdpInts(t, d, codes, 2), cdpInts(t, d, ran, 1)[0]; c[0] != 9 || c[1] != 0 || r != 1 || len(res.Grids) != 2 {
		t.Errorf("codes %v, %d children ran, %d grids; want [9 0], 1, 2", c, r, len(res.Grids))
	}
}

// TestSyncDepthLimitNeedsDeviceSideSync: cudaLimitDevRuntimeSyncDepth is
// refused (ErrLimitUnsupported, the runtime's cudaErrorUnsupportedLimit)
// where the device has no device-side synchronization — sm_90, as CUDA 13
// answered on the H100 for sm_90, compute_80 and -rdc builds alike
// (testdata/programs7/diag/limits_probe) — and kept where CDP1 has it; the
// pending-launch limit is kept on both.
func TestSyncDepthLimitNeedsDeviceSideSync(t *testing.T) {
	for _, c := range []struct {
		arch string
		want error
	}{
		{"h100", ErrLimitUnsupported},
		{"a100", nil},
		{"k40", nil},
	} {
		t.Run(c.arch, func(t *testing.T) {
			d := NewDevice(arch.MustLookup(c.arch), Options{Workers: 1})
			if err := d.SetLimit(LimitDevRuntimeSyncDepth, 4); !errors.Is(err, c.want) {
				t.Errorf("SetLimit: %v, want %v", err, c.want)
			}
			v, err := d.GetLimit(LimitDevRuntimeSyncDepth)
			if !errors.Is(err, c.want) || (c.want == nil && v != 4) {
				t.Errorf("GetLimit: %d, %v; want 4, %v", v, err, c.want)
			}
			if err := d.SetLimit(LimitDevRuntimePendingLaunchCount, 4096); err != nil {
				t.Errorf("pending launch count: %v", err)
			}
		})
	}
}
