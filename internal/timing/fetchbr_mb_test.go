package timing_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
)

// fetchBranchDir holds the eleventh round's instruction-fetch
// microbenchmarks (testdata/triton3/study/fetch: gen_fetch.py,
// run_fetch.sh; one device call, H100 under ncu --cache-control all).
const fetchBranchDir = "../../testdata/triton3/study/fetch/h100/"

// fetchBranchRecording is one line of fetch_mb's output under Nsight
// Compute: a kernel, its warps and mode, and warp 0's cycles in the first
// (cold) and second pass of its region, and the slowest warp's first.
type fetchBranchRecording struct {
	kernel                string
	warps, mode           int
	pass0, pass1, slowest float64
}

func readFetchBranchRecordings(t *testing.T) []fetchBranchRecording {
	t.Helper()
	b, err := os.ReadFile(fetchBranchDir + "ncu_all.out")
	if err != nil {
		t.Fatal(err)
	}
	var rs []fetchBranchRecording
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 3 || f[0] != "fetch" {
			continue
		}
		kv := map[string]float64{}
		for _, x := range f[2:] {
			if k, v, ok := strings.Cut(x, "="); ok {
				kv[k], _ = strconv.ParseFloat(v, 64)
			}
		}
		rs = append(rs, fetchBranchRecording{kernel: f[1], warps: int(kv["warps"]), mode: int(kv["mode"]),
			pass0: kv["pass0"], pass1: kv["pass1"], slowest: kv["first_max"]})
	}
	if len(rs) != 41 {
		t.Fatalf("%d recordings in %sncu_all.out, want 41", len(rs), fetchBranchDir)
	}
	return rs
}

// fetchBranchPasses runs fetch_mb's kernel name with one block of warps
// warps in mode, two passes, and returns warp 0's cycles in each pass and
// the slowest warp's first pass.
func fetchBranchPasses(t *testing.T, dev *warpsim.Device, mod *warpsim.Module, name string, warps, mode int) (p0, p1, slowest float64) {
	t.Helper()
	k, err := mod.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	const slots = 8
	n := warps * slots
	out, _ := dev.Malloc(uint64(8 * n))
	sink, _ := dev.Malloc(uint64(4 * warps * 32))
	args := params(out, sink, uint32(math.Float32bits(1e-7)), uint32(2), uint32(mode))
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: uint32(32 * warps), Y: 1, Z: 1}}
	if _, err := dev.Launch(k, cfg, args); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b := make([]byte, 8*n)
	if err := dev.Read(out, b); err != nil {
		t.Fatal(err)
	}
	at := func(w, i int) float64 { return float64(int64(binary.LittleEndian.Uint64(b[8*(slots*w+i):]))) }
	for w := range warps {
		slowest = max(slowest, at(w, 1)-at(w, 0))
	}
	return at(0, 1) - at(0, 0), at(0, 3) - at(0, 2), slowest
}

// TestFetchBranchMicrobenchmarks runs nvcc's PTX of the eleventh round's
// fetch microbenchmarks (gen_fetch.py: straight code, branches taken and
// not taken every two lines, jumps over 1 to 8 lines, warps slower than
// the stream, four warps on four pieces of code; near the kernel's entry
// and past its first 64 KB) through the timing model and compares the
// slowest warp's first (cold) pass with the H100's under ncu
// --cache-control all. The split (README.md) was written before the
// recording: the rows of far_s96, far_s256, far_nt2, far_t1 and far_t2
// could have set a parameter (none did: FetchAhead comes from the far
// stream's lines in flight), the others are held out. Each compared row
// within 30%, the fitted ones within 3.7% mean (was 37.5%: a branch cut
// the stream, one stream an SM), the held-out ones within 9.0% (was
// 55.9%; far_div4's four warps on four pieces of code +347%). Not
// compared: near code with four warps in lockstep, where the H100 fetches
// branchy code faster with four warps than with one (near_nt1: 1198
// cycles against 1531) and the model does not (+40-46%), and restarts of
// four warps at once slower (near_t4, near_t8: -14%, -19%), the contention
// TestFetchMicrobenchmarks leaves out too.
func TestFetchBranchMicrobenchmarks(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	const rowBound, fitMean, heldMean = 0.30, 0.045, 0.10
	fitted := map[string]bool{"far_s96": true, "far_s256": true, "far_nt2": true, "far_t1": true, "far_t2": true}
	dev, mod := fetchDevice(t, fetchBranchDir+"fetch_mb.nvcc.ptx.gz")
	var sum [2]float64
	var n [2]int
	for _, r := range readFetchBranchRecordings(t) {
		p0, p1, slowest := fetchBranchPasses(t, dev, mod, r.kernel, r.warps, r.mode)
		e := (slowest - r.slowest) / r.slowest
		msg := fmt.Sprintf("%-10s w=%d m=%d: first pass %6.0f, H100 %6.0f (%+5.1f%%); second %6.0f, H100 %6.0f; slowest %6.0f, H100 %6.0f (%+5.1f%%)",
			r.kernel, r.warps, r.mode, p0, r.pass0, 100*(p0-r.pass0)/r.pass0, p1, r.pass1, slowest, r.slowest, 100*e)
		if strings.HasPrefix(r.kernel, "near_") && r.warps > 1 {
			t.Logf("%s (not compared: four warps in lockstep)", msg)
			continue
		}
		h := 1
		if fitted[r.kernel] {
			h = 0
		}
		sum[h] += math.Abs(e)
		n[h]++
		if math.Abs(e) > rowBound {
			t.Errorf("%s: more than %.0f%% off", msg, 100*rowBound)
		} else {
			t.Log(msg)
		}
	}
	for h, name := range []string{"fitted", "held out"} {
		mean := sum[h] / float64(n[h])
		t.Logf("%s: mean |error| of the slowest warp's first pass %.1f%% over %d rows", name, 100*mean, n[h])
		if bound := []float64{fitMean, heldMean}[h]; mean > bound || n[h] < []int{10, 23}[h] {
			t.Errorf("%s: mean |error| %.1f%% over %d rows, want under %.1f%% over %d", name, 100*mean, n[h], 100*bound, []int{10, 23}[h])
		}
	}
}
