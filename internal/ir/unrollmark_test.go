package ir

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sumLoop is a loop summing p0[i] for i stepping by step (an immediate or
// a register) while `setp.ne` finds it short of the bound in p1's low
// word; pragma, when set, is the nvcc pragma line at the loop's head.
func sumLoop(step, pragma string) string {
	return loopOf(loopShape{step: step, pragma: pragma, cmp: "ne", bound: "%r1", loads: 1})
}

// loopShape is a summing loop's variations: its induction variable %r0
// starts at 0 and steps by step; the back edge compares it (cmp) with
// bound; the body loads loads floats (p0[i], p0[i+1], …) and adds them,
// and then runs extra.
type loopShape struct {
	step, pragma, cmp, bound, extra string
	loads                           int
}

func loopOf(l loopShape) string {
	var b strings.Builder
	for k := range l.loads {
		fmt.Fprintf(&b, "ld.global.f32 %%f1, [%%rd3+%d];\nadd.f32 %%f0, %%f0, %%f1;\n", 4*k)
	}
	return `.reg .pred %p<2>;
.reg .b32 %r<6>;
.reg .b64 %rd<6>;
.reg .f32 %f<4>;
ld.param.u64 %rd0, [p0];
ld.param.u64 %rd1, [p1];
cvt.u32.u64 %r1, %rd1;
mov.u32 %r4, %ntid.x;
mov.u32 %r0, 0;
mov.f32 %f0, 0f00000000;
LOOP:
` + l.pragma + `
mul.wide.u32 %rd2, %r0, 4;
add.s64 %rd3, %rd0, %rd2;
` + b.String() + l.extra + `
add.s32 %r0, %r0, ` + l.step + `;
setp.` + l.cmp + `.u32 %p0, %r0, ` + l.bound + `;
@%p0 bra LOOP;
st.global.f32 [%rd0], %f0;
ret;`
}

// TestUnrolledLoopBackEdges: the back edge of a loop ptxas unrolls again is
// marked BraUnrolled — a counted loop (its induction variable stepped by an
// immediate up to an exact count: setp.ne) of one block with a global load
// and no nounroll pragma, at most 48 instructions, or, its trip count a
// constant, at most 53 and 16 loads. Not: a loop stepped by a register
// (blockDim.x, testdata/timing/mechanisms' reread, one LDG a body in the
// H100's SASS), one left when i < n (programs3's k_dot, 8 LDG a body as
// the PTX), one under nvcc's nounroll pragma, one with an IEEE division
// (ptxas's slow-path call: programs9's adi_kernel3), one of a constant
// count with 17 loads (programs9's bicg_kernel2, 32 loads, keeps them).
func TestUnrolledLoopBackEdges(t *testing.T) {
	for _, c := range []struct {
		name string
		l    loopShape
		want bool
	}{
		{"counted", loopShape{step: "4", cmp: "ne", bound: "%r1", loads: 1}, true},
		{"stepped by a register", loopShape{step: "%r4", cmp: "ne", bound: "%r1", loads: 1}, false},
		{"left when i < n", loopShape{step: "128", cmp: "lt", bound: "%r1", loads: 8}, false},
		{"nounroll pragma", loopShape{step: "1", pragma: `.pragma "nounroll";`, cmp: "ne", bound: "%r1", loads: 1}, false},
		{"IEEE division", loopShape{step: "2", cmp: "ne", bound: "510", loads: 7, extra: "div.rn.f32 %f0, %f0, %f1;"}, false},
		{"approximate division", loopShape{step: "2", cmp: "ne", bound: "510", loads: 7, extra: "div.full.f32 %f0, %f0, %f1;"}, true},
		{"runtime count, 51 instructions", loopShape{step: "4", cmp: "ne", bound: "%r1", loads: 23}, false},
		{"constant count, 16 loads in 37 instructions", loopShape{step: "16", cmp: "ne", bound: "160", loads: 16}, true},
		{"constant count, 17 loads", loopShape{step: "16", cmp: "ne", bound: "160", loads: 17}, false},
		{"constant count, 16 loads in 54 instructions", loopShape{step: "16", cmp: "ne", bound: "160", loads: 16,
			extra: strings.Repeat("add.f32 %f2, %f2, %f1;\n", 17)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := lowerOne(t, loopOf(c.l))
			got := slices.ContainsFunc(f.Code, func(in Inst) bool { return in.Op == OpBra && in.Mode == BraUnrolled })
			if got != c.want {
				t.Errorf("back edge marked BraUnrolled: %v, want %v", got, c.want)
			}
		})
	}
}

// TestLiveWordsLeaveConstantBankValues: the liveness without constant-bank
// values (Func.LiveWordsConst) does not count a parameter, or its
// cvta.to.global, live through a loop that does not read it (ptxas reads
// the constant bank again after the loop: testdata/programs9's mm3_kernel
// SASS); the PTX order's liveness (Func.LiveWords) and the register
// estimate still do.
func TestLiveWordsLeaveConstantBankValues(t *testing.T) {
	body := func(keep bool) string {
		use := "st.global.f32 [%rd0], %f0;"
		if keep {
			// p1's pointer, read after the loop.
			use = "cvta.to.global.u64 %rd5, %rd1;\nst.global.f32 [%rd5], %f0;"
		}
		s := sumLoop("4", "")
		return s[:len(s)-len("st.global.f32 [%rd0], %f0;\nret;")] + use + "\nret;"
	}
	without, with := lowerOne(t, body(false)), lowerOne(t, body(true))
	loopMax := func(f *Func, live []uint16) int {
		m := 0
		for pc, in := range f.Code {
			if in.Op == OpLd && in.Class == ClassLdGlobal {
				m = max(m, int(live[pc]))
			}
		}
		return m
	}
	if without.LiveWordsConst == nil || with.LiveWordsConst == nil {
		t.Fatal("no LiveWordsConst for a kernel with parameters")
	}
	if a, b := loopMax(without, without.LiveWordsConst), loopMax(with, with.LiveWordsConst); a != b {
		t.Errorf("live words without constant-bank values at the loop's load: %d with p1's pointer read after the loop, %d without; want equal", b, a)
	}
	if a, b := loopMax(without, without.LiveWords), loopMax(with, with.LiveWords); b <= a {
		t.Errorf("live words in the PTX's order at the loop's load: %d with p1's pointer read after the loop, %d without; want more", b, a)
	}
	if with.RegEstimate < without.RegEstimate {
		t.Errorf("register estimate %d with p1's pointer live, %d without: the estimate must keep it", with.RegEstimate, without.RegEstimate)
	}
}

// freeLoop is nvcc's form of a counted loop of register arithmetic (its
// count n & ~3, stepped down by 4 to 0: testdata/timing/fp64pipe's mix_f):
// fmas FFMAs on four chains, then extra, then the counter's step, compare
// and back edge.
func freeLoop(fmas int, pragma, step, extra string) string {
	var b strings.Builder
	for k := range fmas {
		fmt.Fprintf(&b, "fma.rn.f32 %%f%d, %%f%d, %%f4, %%f5;\n", k%4, k%4)
	}
	return `.reg .pred %p<2>;
.reg .b32 %r<6>;
.reg .b64 %rd<6>;
.reg .f32 %f<8>;
ld.param.u64 %rd0, [p0];
ld.param.u64 %rd1, [p1];
cvt.u32.u64 %r1, %rd1;
and.b32 %r0, %r1, -4;
mov.u32 %r4, %ntid.x;
mov.f32 %f4, 0f3F800000;
mov.f32 %f5, 0f3F000000;
LOOP:
` + pragma + `
` + b.String() + extra + `
add.s32 %r0, %r0, ` + step + `;
setp.ne.s32 %p0, %r0, 0;
@%p0 bra LOOP;
st.global.f32 [%rd0], %f0;
ret;`
}

// TestUnrolledFreeLoopBackEdges: the back edge of a counted loop of
// register arithmetic with no global load is marked BraUnrolledFree when
// ptxas unrolls it again (fp64pipe's and rowwalk's SASS: bodies of 7 to 21
// instructions four PTX bodies long, 35 and more not), its counter step
// and compare UnrollStep; a loop with a global load keeps BraUnrolled, its
// step and compare marked too. Not: a body of 33 instructions, one under
// the nounroll pragma, one stepped by a register, one with a store, an
// atomic or a clock read.
func TestUnrolledFreeLoopBackEdges(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		want uint8
	}{
		{"mix_f's loop, 19 instructions", freeLoop(16, "", "-4", ""), BraUnrolledFree},
		{"one chain, 7 instructions", freeLoop(4, "", "-4", ""), BraUnrolledFree},
		{"32 instructions", freeLoop(29, "", "-4", ""), BraUnrolledFree},
		{"33 instructions", freeLoop(30, "", "-4", ""), 0},
		{"mix_df's loop, 35 instructions", freeLoop(32, "", "-4", ""), 0},
		{"nounroll pragma", freeLoop(4, `.pragma "nounroll";`, "-1", ""), 0},
		{"stepped by a register", freeLoop(16, "", "%r4", ""), 0},
		{"a store", freeLoop(8, "", "-4", "st.global.f32 [%rd0], %f1;\n"), 0},
		{"an atomic", freeLoop(8, "", "-4", "red.global.add.f32 [%rd0], %f1;\n"), 0},
		{"a clock read", freeLoop(8, "", "-4", "mov.u32 %r3, %clock;\n"), 0},
		{"a global load", freeLoop(8, "", "-4", "ld.global.f32 %f6, [%rd0];\nadd.f32 %f1, %f1, %f6;\n"), BraUnrolled},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := lowerOne(t, c.src)
			var got uint8
			var steps []Op
			for pc, in := range f.Code {
				if in.Op == OpBra && in.Backward {
					got = in.Mode
					for q := int(in.Target); q < pc; q++ {
						if r := &f.Code[q]; r.Mode == UnrollStep && (r.Op == OpAdd || r.Op == OpSub || r.Op == OpSetp) {
							steps = append(steps, r.Op)
						}
					}
				}
			}
			if got != c.want {
				t.Fatalf("back edge Mode %d, want %d", got, c.want)
			}
			if want := []Op{OpAdd, OpSetp}; c.want != 0 && !slices.Equal(steps, want) {
				t.Errorf("UnrollStep on %v, want the counter's add and the compare", steps)
			} else if c.want == 0 && len(steps) > 0 {
				t.Errorf("UnrollStep on %v in a loop ptxas keeps", steps)
			}
		})
	}
}
