package timing_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// TestSharedStoreMicrobenchmarks runs nvcc's PTX of testdata/timing/
// stsconf2/stsconf2_mb.cu through the timing model as its main() does and
// compares warp 0's cycles a step with the H200's (the H100's SM; clock64
// in the kernel). A warp's shared accesses reach the SM's pipe in order,
// each one's wavefronts SharedWarpCycles (2) apart, while the pipe takes
// one wavefront a cycle from all warps: one warp's 32-way conflicted
// stores take 63.4 cycles each, four warps' 127.7 for four, and a load
// behind one warp's 32-way store comes 62 cycles later than behind a
// conflict-free one. Before SharedWarpCycles the model gave one warp's
// 8- and 32-way stores 7.5 and 31.5 cycles and the load behind a 32-way
// store 60.4 cycles a step (the H200 15.9, 63.4 and 95.75). Checked within
// 10% on the rows where a warp's conflicts bind (conflict-free rows are
// the loop's own instructions: bare 3.38 on the H200, 1.88 in the model).
func TestSharedStoreMicrobenchmarks(t *testing.T) {
	dir := "../../testdata/timing/stsconf2/h200/"
	rec, err := os.ReadFile(dir + "stsconf2.txt")
	if err != nil {
		t.Fatal(err)
	}
	h200 := map[string]float64{}
	for _, l := range strings.Split(string(rec), "\n") {
		f := strings.Fields(l)
		if len(f) != 4 || f[0] == "mode" {
			continue
		}
		v, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			t.Fatal(err)
		}
		h200[f[0]+" "+f[1]+" "+f[2]] = v
	}
	dev, mod := timingModule(t, dir+"stsconf2_mb.nvcc.ptx")
	modes := map[string]int{"war": 0, "indep": 1, "vol": 2, "lddep": 3, "ldind": 4, "v4": 5}
	c := rowChecker{t: t}
	for _, r := range []struct {
		mode          string
		stride, warps int
	}{
		{"war", 8, 1}, {"war", 32, 1}, {"war", 32, 4},
		{"indep", 32, 1}, {"vol", 32, 1},
		{"lddep", 8, 1}, {"lddep", 32, 1}, {"lddep", 32, 4},
		{"ldind", 32, 1}, {"v4", 2, 1}, {"v4", 8, 1},
	} {
		cfg := fmt.Sprintf("%s %d %d", r.mode, r.stride, r.warps)
		want, ok := h200[cfg]
		if !ok {
			t.Fatalf("%s: not in the recording", cfg)
		}
		k, err := mod.Kernel(fmt.Sprintf("_Z8stsconf2ILi%dEEviPxPj", modes[r.mode]))
		if err != nil {
			t.Fatal(err)
		}
		cyc, _ := dev.Malloc(8)
		out, _ := dev.Malloc(4096)
		lc := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: uint32(32 * r.warps), Y: 1, Z: 1}}
		if _, err := dev.Launch(k, lc, params(uint32(r.stride), cyc, out)); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 8)
		if err := dev.Read(cyc, b); err != nil {
			t.Fatal(err)
		}
		n := int64(binary.LittleEndian.Uint64(b))
		c.check(cfg+" cycles a step", float64(n)/(256*8), want, 0.10)
	}
}

// fencePTX: one warp's 16 shared stores, 32-way conflicted (lane l at
// byte 128*l), between two clock reads, with fence.proxy.async after them
// (fenced) or not (unfenced).
const fencePTX = `.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .b32 fs[1024];
.visible .entry fenced(.param .u64 out) { FENCED }
.visible .entry unfenced(.param .u64 out) { UNFENCED }
`

const fenceBody = `
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 7;
	mov.u32 %r3, fs;
	add.u32 %r3, %r3, %r2;
	mov.u64 %rd1, %clock64;
	st.shared.u32 [%r3+0], %r1;
	st.shared.u32 [%r3+4], %r1;
	st.shared.u32 [%r3+8], %r1;
	st.shared.u32 [%r3+12], %r1;
	st.shared.u32 [%r3+16], %r1;
	st.shared.u32 [%r3+20], %r1;
	st.shared.u32 [%r3+24], %r1;
	st.shared.u32 [%r3+28], %r1;
	st.shared.u32 [%r3+32], %r1;
	st.shared.u32 [%r3+36], %r1;
	st.shared.u32 [%r3+40], %r1;
	st.shared.u32 [%r3+44], %r1;
	st.shared.u32 [%r3+48], %r1;
	st.shared.u32 [%r3+52], %r1;
	st.shared.u32 [%r3+56], %r1;
	st.shared.u32 [%r3+60], %r1;
	FENCE
	mov.u64 %rd2, %clock64;
	sub.s64 %rd3, %rd2, %rd1;
	ld.param.u64 %rd4, [out];
	cvta.to.global.u64 %rd5, %rd4;
	st.global.u64 [%rd5], %rd3;
	ret;
`

// TestSharedStoresBeforeFence checks that a fence waits for the warp's
// shared stores to be done: ptxas makes fence.proxy.async.shared::cta
// MEMBAR.ALL.CTA and FENCE.VIEW.ASYNC.S (testdata/triton3/study/sched/
// h200/held's dot_tf32x3_f32 SASS, after its 32 STS of a k step, before
// the barrier and the wgmma reading them), and a MEMBAR waits for the
// warp's memory accesses. One warp's 16 stores of 32 wavefronts, each
// SharedWarpCycles (2) apart on the H200 (stsconf2), are done 1,024
// cycles after the first; without the fence the clock read does not wait
// for them.
func TestSharedStoresBeforeFence(t *testing.T) {
	body := func(fence string) string { return strings.Replace(fenceBody, "FENCE", fence, 1) }
	src := strings.NewReplacer("FENCED", body("fence.proxy.async.shared::cta;"), "UNFENCED", body("")).Replace(fencePTX)
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("fence.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cycles := map[string]int64{}
	for _, name := range []string{"fenced", "unfenced"} {
		k, err := mod.Kernel(name)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := dev.Malloc(8)
		lc := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}
		if _, err := dev.Launch(k, lc, params(out)); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 8)
		if err := dev.Read(out, b); err != nil {
			t.Fatal(err)
		}
		cycles[name] = int64(binary.LittleEndian.Uint64(b))
	}
	t.Logf("16 stores of 32 wavefronts: %d cycles to the clock read with the fence, %d without", cycles["fenced"], cycles["unfenced"])
	if cycles["fenced"] < 16*32*2 {
		t.Errorf("with the fence %d cycles, want at least %d (16 stores of 32 wavefronts, 2 cycles each)", cycles["fenced"], 16*32*2)
	}
	if cycles["unfenced"] >= 16*32 {
		t.Errorf("without the fence %d cycles, want under %d: the clock read does not wait for the stores", cycles["unfenced"], 16*32)
	}
}
