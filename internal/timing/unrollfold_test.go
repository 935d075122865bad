package timing_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// TestUnrollOverheadOncePerBody: a loop ptxas unrolls again (here nvcc's
// form of mix_f's, testdata/timing/fp64pipe: four FFMA chains, the counter
// stepped down by 4 to 0) issues its counter step, compare and back edge
// once for ptxas.loop_unroll PTX bodies with ptxas.unroll_overhead on: one
// warp through 16 PTX bodies issues 3 × 12 warp instructions fewer than
// with it off (bodies 1-3, 5-7, 9-11 and 13-15 fold theirs); with
// ptxas.unroll_free off the loop, which has no global load, is not
// unrolled, and every body pays them again. The time answers: fewer
// cycles with the overhead folded.
func TestUnrollOverheadOncePerBody(t *testing.T) {
	var fmas strings.Builder
	for k := range 16 {
		fmt.Fprintf(&fmas, "fma.rn.f32 %%f%d, %%f%d, %%f4, %%f5;\n", k%4, k%4)
	}
	src := `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p0, .param .u32 p1)
{
.reg .pred %p<2>;
.reg .b32 %r<4>;
.reg .b64 %rd<2>;
.reg .f32 %f<8>;
ld.param.u64 %rd0, [p0];
ld.param.u32 %r1, [p1];
and.b32 %r0, %r1, -4;
mov.f32 %f0, 0f3F800000;
mov.f32 %f1, 0f3F800000;
mov.f32 %f2, 0f3F800000;
mov.f32 %f3, 0f3F800000;
mov.f32 %f4, 0f3F7FFFFF;
mov.f32 %f5, 0f3A800000;
LOOP:
` + fmas.String() + `add.s32 %r0, %r0, -4;
setp.ne.s32 %p0, %r0, 0;
@%p0 bra LOOP;
add.f32 %f0, %f0, %f1;
add.f32 %f2, %f2, %f3;
add.f32 %f0, %f0, %f2;
st.global.f32 [%rd0], %f0;
ret;
}
`
	run := func(sets ...string) (issued, cycles uint64) {
		a, err := arch.Resolve("h100", "", sets)
		if err != nil {
			t.Fatal(err)
		}
		dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
		mod, err := dev.LoadModule("k.ptx", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("k")
		if err != nil {
			t.Fatal(err)
		}
		out, err := dev.Malloc(4)
		if err != nil {
			t.Fatal(err)
		}
		res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}},
			params(uint64(out), uint32(64)))
		if err != nil {
			t.Fatal(err)
		}
		tm := res.Grids[0].Timing
		if tm == nil {
			t.Fatal("no timing account")
		}
		return tm.IssueCycles, tm.Cycles
	}
	on, onCycles := run()
	off, offCycles := run("ptxas.unroll_overhead=0")
	plain, _ := run("ptxas.unroll_free=0")
	if off-on != 36 {
		t.Errorf("ptxas.unroll_overhead folds %d warp instructions of 16 bodies, want 36 (3 for each of 12)", int64(off)-int64(on))
	}
	if plain != off {
		t.Errorf("ptxas.unroll_free off: %d warp instructions, want %d (a loop with no global load not unrolled: nothing folded)", plain, off)
	}
	if onCycles >= offCycles {
		t.Errorf("with the overhead folded %d cycles, without %d: want fewer", onCycles, offCycles)
	}
	t.Logf("16 bodies: %d warp instructions, %d cycles; overhead every body %d, %d", on, onCycles, off, offCycles)
}
