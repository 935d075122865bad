package timing_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// libmFunc is one kernel of testdata/libm20/lmb.cu: k_<name> calls the
// function on x (lane l's typical or slow-path input) and y in a dependent
// chain.
type libmFunc struct {
	name string
	f64  bool
	x, y func(l int) float64 // typical input, second operand
}

func f32c(v float32) float64 { return float64(v) }

// libmFuncs are lmb.cu's FUNCS, in its order (typical inputs: the model's
// cost does not depend on the inputs, and the slow-path set is compared with
// the same model run).
var libmFuncs = func() []libmFunc {
	lin := func(a, b float32) func(int) float64 {
		return func(l int) float64 { return f32c(a + b*float32(l)) }
	}
	c := func(v float32) func(int) float64 { return func(int) float64 { return f32c(v) } }
	lin64 := func(a, b float64) func(int) float64 { return func(l int) float64 { return a + b*float64(l) } }
	c64 := func(v float64) func(int) float64 { return func(int) float64 { return v } }
	fs := []libmFunc{
		{"none", false, lin(0.5, 0.03), c(0.7)},
		{"expf", false, lin(0.5, 0.03), c(0.7)},
		{"exp2f", false, lin(0.5, 0.03), c(0.7)},
		{"exp10f", false, lin(0.5, 0.03), c(0.7)},
		{"logf", false, lin(1.5, 0.1), c(0.7)},
		{"log2f", false, lin(1.5, 0.1), c(0.7)},
		{"log10f", false, lin(1.5, 0.1), c(0.7)},
		{"log1pf", false, lin(0.3, 0.01), c(0.7)},
		{"expm1f", false, lin(0.2, 0.01), c(0.7)},
		{"powf", false, lin(1.5, 0.05), c(2.3)},
		{"sinf", false, lin(0.5, 0.1), c(0.7)},
		{"cosf", false, lin(0.5, 0.1), c(0.7)},
		{"tanf", false, lin(0.5, 0.1), c(0.7)},
		{"atanf", false, lin(0.5, 0.1), c(0.7)},
		{"asinf", false, lin(0.1, 0.02), c(0.7)},
		{"acosf", false, lin(0.1, 0.02), c(0.7)},
		{"atan2f", false, lin(0.5, 0.1), c(0.7)},
		{"sinhf", false, lin(0.3, 0.05), c(0.7)},
		{"coshf", false, lin(0.3, 0.05), c(0.7)},
		{"tanhf", false, lin(0.3, 0.05), c(0.7)},
		{"erff", false, lin(0.3, 0.05), c(0.7)},
		{"erfcf", false, lin(0.3, 0.05), c(0.7)},
		{"cbrtf", false, lin(2.5, 0.3), c(0.7)},
		{"hypotf", false, lin(0.5, 0.1), c(1.7)},
		{"fmodf", false, lin(5.3, 1), c(1.7)},
		{"sinpif", false, lin(0.3, 0.05), c(0.7)},
		{"normcdff", false, lin(0.3, 0.05), c(0.7)},
		{"sqrtf", false, lin(2.5, 1), c(0.7)},
		{"rsqrtf", false, lin(2.5, 1), c(0.7)},
		{"fast_expf", false, lin(0.5, 0.03), c(0.7)},
		{"fast_logf", false, lin(1.5, 0.1), c(0.7)},
		{"fast_sinf", false, lin(0.5, 0.1), c(0.7)},
		{"fast_fdividef", false, lin(1.5, 0.1), c(0.7)},
		{"none64", true, lin64(0.5, 0.03), c64(0.7)},
		{"exp", true, lin64(0.5, 0.03), c64(0.7)},
		{"log", true, lin64(1.5, 0.1), c64(0.7)},
		{"sin", true, lin64(0.5, 0.1), c64(0.7)},
		{"cos", true, lin64(0.5, 0.1), c64(0.7)},
		{"pow", true, lin64(1.5, 0.05), c64(2.3)},
		{"tanh", true, lin64(0.3, 0.05), c64(0.7)},
		{"erf", true, lin64(0.3, 0.05), c64(0.7)},
		{"atan", true, lin64(0.5, 0.1), c64(0.7)},
		{"log1p", true, lin64(0.3, 0.01), c64(0.7)},
		{"cbrt", true, lin64(2.5, 0.3), c64(0.7)},
		{"sqrt", true, lin64(2.5, 1), c64(0.7)},
	}
	return fs
}()

// libmRecord is one function's H200 figures (testdata/libm20/h200,
// lmb.<compiler>.h200.txt): the one-warp chain's cycles (third run) and an
// SM's cycles per warp-call with 16 warps an SM (median over the SMs).
type libmRecord struct{ lat, thr float64 }

// readLibmRecord reads lmb's output: set ("typ", "slow") -> name -> figures.
func readLibmRecord(t *testing.T, path string) map[string]map[string]libmRecord {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := map[string]map[string]libmRecord{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 10 || (f[0] != "lat" && f[0] != "thr") {
			continue
		}
		if rec[f[1]] == nil {
			rec[f[1]] = map[string]libmRecord{}
		}
		r := rec[f[1]][f[2]]
		var v float64
		if f[0] == "lat" {
			fmt.Sscan(f[7], &v)
			r.lat = v
		} else {
			fmt.Sscan(f[9], &v)
			r.thr = v
		}
		rec[f[1]][f[2]] = r
	}
	return rec
}

const (
	libmN       = 64  // calls a thread, as lmb.cu's main
	libmBlocks  = 4   // throughput: blocks an SM
	libmThreads = 128 // threads a block
)

// libmModel runs each of lmb's kernels (clang's PTX, the libdevice calls
// run natively) through the timing model as lmb's main does: the one-warp
// chain (its cycles) and 4 blocks of 128 threads on one SM (cycles per
// warp-call). set: arch timing overrides (--set) or nil.
func libmModel(t *testing.T, set map[string]float64) map[string]libmRecord {
	t.Helper()
	a := *arch.MustLookup("h100")
	a.SMs = 1
	if set != nil {
		a.Base = "h100"
		a.Timing = set
	}
	src, err := os.ReadFile("../../testdata/libm20/lmb.clang.ptx")
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(&a, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("lmb.clang.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	din, _ := dev.Malloc(64 * 8)
	dout, _ := dev.Malloc(libmBlocks * libmThreads * 8)
	dt, _ := dev.Malloc(libmBlocks * 3 * 8)
	out := map[string]libmRecord{}
	for _, f := range libmFuncs {
		k, err := mod.Kernel("k_" + f.name)
		if err != nil {
			t.Fatal(err)
		}
		in := make([]byte, 64*8)
		for l := range 32 {
			if f.f64 {
				binary.LittleEndian.PutUint64(in[8*l:], math.Float64bits(f.x(l)))
				binary.LittleEndian.PutUint64(in[8*(32+l):], math.Float64bits(f.y(l)))
			} else {
				binary.LittleEndian.PutUint32(in[4*l:], math.Float32bits(float32(f.x(l))))
				binary.LittleEndian.PutUint32(in[4*(32+l):], math.Float32bits(float32(f.y(l))))
			}
		}
		if err := dev.Write(din, in); err != nil {
			t.Fatal(err)
		}
		stamps := func(blocks, threads int) []int64 {
			cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: uint32(blocks), Y: 1, Z: 1}, Block: warpsim.Dim3{X: uint32(threads), Y: 1, Z: 1}}
			if _, err := dev.Launch(k, cfg, params(din, dout, dt, uint32(libmN))); err != nil {
				t.Fatal(err)
			}
			b := make([]byte, blocks*3*8)
			if err := dev.Read(dt, b); err != nil {
				t.Fatal(err)
			}
			v := make([]int64, blocks*3)
			for i := range v {
				v[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
			}
			return v
		}
		var r libmRecord
		s := stamps(1, 32)
		r.lat = float64(s[1] - s[0])
		s = stamps(libmBlocks, libmThreads)
		lo, hi := s[0], s[1]
		for b := range libmBlocks {
			lo, hi = min(lo, s[3*b]), max(hi, s[3*b+1])
		}
		r.thr = float64(hi-lo) / float64(libmBlocks*libmThreads/32*libmN)
		out[f.name] = r
	}
	return out
}

// libmHeldOut are the functions kept out of the model's table before the
// device call (testdata/libm20/PREDICTIONS.md: FNV-1a of "__nv_"+name is 0
// mod 3); the rule for functions not in the table costs them.
var libmHeldOut = map[string]bool{
	"exp10f": true, "expm1f": true, "atanf": true, "coshf": true, "tanhf": true, "erff": true,
	"cbrtf": true, "hypotf": true, "exp": true, "tanh": true, "atan": true, "cbrt": true,
}

// libmBase is the chain without a call of the function's precision.
func libmBase(f libmFunc) string {
	if f.f64 {
		return "none64"
	}
	return "none"
}

// TestLibmCalls runs clang's PTX of testdata/libm20/lmb.cu (each kernel a
// chain of calls of one libdevice function, which warpsim runs natively)
// through the timing model and compares it with an H200 (the H100's SM)
// running the same PTX through ptxas with libdevice's code as nvcc
// compiles it (h200/lmb.clang.h200.txt): a call's latency (one warp's
// chain, less the chain without a call, over its 64 calls) and an SM's
// cycles per warp-call with 16 warps an SM. The study functions' costs
// were read from these recordings (the preset's [LIBCALL]: Nsight
// Compute's SASS instructions and pipe counts a call, and the latency less
// the model's 45 cycles for the rest of the call), so their latency must
// be within 5% (sinf and sqrtf, fitted jointly with TestLibcallStamps's
// sections, -3.5% and +4.3%; the rest under 1.5%) and their throughput,
// not fitted, within 20% each and 12% on average (2026-11-29: mean 8.7%,
// worst powf -18.5%: the model is fast at 16 warps an SM, its call holding
// the warp for a fixed time where the GPU's routine also waits for the
// issue slots other warps take). The held-out functions (PREDICTIONS.md,
// chosen by a hash before the device call) are costed by the rule for
// functions not measured (the study functions' median per precision) and
// are checked against looser bounds: latency mean 25%, each 60% (measured
// 20.0%, worst f64 exp +52%), throughput mean 20%, each 50% (14.9%, f64
// tanh -42%). Before this round (24 slots and the class latency,
// sinf/cosf/sqrtf held 109/130/97 cycles) the study functions' latency was
// 56.4% off on average and their throughput 42.6%; the held-out ones'
// 60.1% and 40.0%. The slow-path inputs (lmb's second set: sinf's
// Payne-Hanek reduction, subnormal sqrtf …) are logged against the typical
// path the model costs, not checked.
func TestLibmCalls(t *testing.T) {
	rec := readLibmRecord(t, "../../testdata/libm20/h200/lmb.clang.h200.txt")
	got := libmModel(t, nil)
	type acc struct {
		sum, worst float64
		n          int
	}
	var lat, thr [2]acc // study, held out
	for _, f := range libmFuncs {
		b := libmBase(f)
		if f.name == b {
			continue
		}
		w, g := rec["typ"][f.name], got[f.name]
		if w.lat == 0 || w.thr == 0 {
			t.Fatalf("lmb.clang.h200.txt: no figures for %s", f.name)
		}
		wl, gl := (w.lat-rec["typ"][b].lat)/libmN, (g.lat-got[b].lat)/libmN
		el, et := (gl-wl)/wl, (g.thr-w.thr)/w.thr
		slow := rec["slow"][f.name]
		msg := fmt.Sprintf("%-13s latency a call H200 %6.1f model %6.1f (%+6.1f%%), cycles a warp-call H200 %6.2f model %6.2f (%+6.1f%%); slow-path inputs H200 %6.1f, %6.2f",
			f.name, wl, gl, 100*el, w.thr, g.thr, 100*et, (slow.lat-rec["slow"][b].lat)/libmN, slow.thr)
		if strings.HasPrefix(f.name, "fast_") {
			t.Log("inline (no call): " + msg)
			continue
		}
		h := 0
		if libmHeldOut[f.name] {
			h = 1
			msg = "held out: " + msg
		}
		for _, c := range []struct {
			a *acc
			e float64
		}{{&lat[h], el}, {&thr[h], et}} {
			c.a.sum += math.Abs(c.e)
			c.a.worst = max(c.a.worst, math.Abs(c.e))
			c.a.n++
		}
		t.Log(msg)
	}
	for h, b := range []struct{ lat, latWorst, thr, thrWorst float64 }{{0.05, 0.05, 0.12, 0.20}, {0.25, 0.60, 0.20, 0.50}} {
		name := []string{"study", "held out"}[h]
		ml, mt := lat[h].sum/float64(lat[h].n), thr[h].sum/float64(thr[h].n)
		t.Logf("%s (%d functions): latency mean |error| %.1f%% (worst %.1f%%), throughput %.1f%% (worst %.1f%%)", name, lat[h].n, 100*ml, 100*lat[h].worst, 100*mt, 100*thr[h].worst)
		if lat[h].n != []int{27, 12}[h] {
			t.Errorf("%s: %d functions, want %d", name, lat[h].n, []int{27, 12}[h])
		}
		if ml > b.lat || lat[h].worst > b.latWorst {
			t.Errorf("%s: latency mean %.1f%%, worst %.1f%%: want under %.0f%% and %.0f%%", name, 100*ml, 100*lat[h].worst, 100*b.lat, 100*b.latWorst)
		}
		if mt > b.thr || thr[h].worst > b.thrWorst {
			t.Errorf("%s: throughput mean %.1f%%, worst %.1f%%: want under %.0f%% and %.0f%%", name, 100*mt, 100*thr[h].worst, 100*b.thr, 100*b.thrWorst)
		}
	}
}
