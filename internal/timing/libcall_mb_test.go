package timing_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
)

// TestLibcallStamps runs clang's PTX of testdata/programs3/clangcode/stamps/
// h2stamps.cu (what warpsim cc runs: warpsim's cuda_fp16.h divides and
// takes square roots with div.rn.f32 and sqrt.rn.f32 and calls libdevice's
// __nv_sinf and __nv_cosf; sqrtf is a call of __nv_sqrtf) through the
// timing model three times, as its main() does, and compares each
// section's clock64 cycles of the third run with an H200's (the H100's SM;
// h2stamps.h200.txt, clang's PTX through ptxas, the same third run). The
// calls of sinf, cosf and sqrtf on normal operands must be within 5%: the
// preset's [LIBCALL] cycles of sinf and sqrtf are the joint fit of these
// sections and testdata/libm20's chains of calls (TestLibmCalls; 115 and
// 91 cycles: +3.5% and -4.4% here, -3.5% and +4.3% there), cosf's
// testdata/libm20's alone (-1.0% here); the same calls on h2math's
// operands (a NaN lane; not read: -8.8% and -0.5% on 2026-11-29) within
// 15%. The other sections are logged, not modelled here: the inline IEEE
// sequences on normal operands are 5-34% slow in the model, the divisions
// and square roots whose lanes take several of ptxas's slow paths 8-81%
// slow (the paths' costs add up in the model where the GPU's subroutine
// shares more of them), bf16's approximate square root 17% fast, and
// sqrtf's call with special lanes (438 cycles: __nv_sqrtf's own slow path)
// 70% fast.
func TestLibcallStamps(t *testing.T) {
	const dir = "../../testdata/programs3/clangcode/stamps/"
	rec, err := os.ReadFile(dir + "h2stamps.h200.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]float64{} // "h2math"/"normal" -> section -> cycles
	for _, line := range strings.Split(string(rec), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[1] != "rep" || f[2] != "2:" {
			continue
		}
		want[f[0]] = map[string]float64{}
		for i := 3; i+1 < len(f); i += 2 {
			var v float64
			fmt.Sscan(f[i+1], &v)
			want[f[0]][f[i]] = v
		}
	}
	dev, mod := timingModule(t, dir+"h2stamps.clang.ptx")
	k, err := mod.Kernel("_Z6stampsPKfPjPxi")
	if err != nil {
		t.Fatal(err)
	}
	// main()'s inputs: inf, NaN, zero and subnormal-half lanes.
	in := make([]byte, 32*4)
	for i := range 32 {
		v := float32(i-13) * 0.73
		if i%4 == 0 {
			v += 70000 * float32(map[bool]int{true: 1, false: -1}[i%8 != 0])
		}
		switch i {
		case 7:
			v = 1e-7
		case 9:
			v = 0
		case 10:
			v = -65504
		case 21:
			v = float32(math.NaN())
		}
		binary.LittleEndian.PutUint32(in[4*i:], math.Float32bits(v))
	}
	const ns = 9
	names := []string{"h2div", "h2sqrt", "hdiv3", "hsqrt", "bf16sqrt", "hsin", "hcos", "fdiv", "fsqrt"}
	din, _ := dev.Malloc(uint64(len(in)))
	dout, _ := dev.Malloc(32 * ns * 4)
	dt, _ := dev.Malloc(ns * 8)
	if err := dev.Write(din, in); err != nil {
		t.Fatal(err)
	}
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}
	checked := 0
	for normal, set := range []string{"h2math", "normal"} {
		var got [ns * 8]byte
		for range 3 {
			if _, err := dev.Launch(k, cfg, params(din, dout, dt, uint32(normal))); err != nil {
				t.Fatal(err)
			}
		}
		if err := dev.Read(dt, got[:]); err != nil {
			t.Fatal(err)
		}
		for s, name := range names {
			g := float64(binary.LittleEndian.Uint64(got[8*s:]))
			w := want[set][name]
			if w == 0 {
				t.Fatalf("h2stamps.h200.txt: no %s %s", set, name)
			}
			e := (g - w) / w
			msg := fmt.Sprintf("%s %-8s model %5.0f cycles, H200 %5.0f (%+.1f%%)", set, name, g, w, 100*e)
			bound := 0.0
			switch {
			case name == "hsin" || name == "hcos" || name == "fsqrt" && set == "normal":
				bound = 0.15
				if set == "normal" {
					bound = 0.05
				}
			}
			if bound > 0 {
				checked++
				if math.Abs(e) > bound {
					t.Errorf("%s: more than %.0f%% off", msg, 100*bound)
					continue
				}
			}
			t.Log(msg)
		}
	}
	if checked != 5 {
		t.Errorf("%d sections checked, want 5", checked)
	}
}
