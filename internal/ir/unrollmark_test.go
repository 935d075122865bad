package ir

import (
	"slices"
	"testing"
)

// sumLoop is a loop summing p0[i] for i stepping by step (an immediate or
// a register) up to the bound in p1's low word; pragma, when set, is the
// nvcc pragma line at the loop's head.
func sumLoop(step, pragma string) string {
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
` + pragma + `
mul.wide.u32 %rd2, %r0, 4;
add.s64 %rd3, %rd0, %rd2;
ld.global.f32 %f1, [%rd3];
add.f32 %f0, %f0, %f1;
add.s32 %r0, %r0, ` + step + `;
setp.lt.u32 %p0, %r0, %r1;
@%p0 bra LOOP;
st.global.f32 [%rd0], %f0;
ret;`
}

// TestUnrolledLoopBackEdges: the back edge of a loop ptxas unrolls again is
// marked BraUnrolled — a counted loop (its induction variable stepped by an
// immediate) with a global load and no nounroll pragma; a loop stepped by
// a register (blockDim.x, testdata/timing/mechanisms' reread, one LDG a
// body in the H100's SASS) or under nvcc's nounroll pragma is not.
func TestUnrolledLoopBackEdges(t *testing.T) {
	for _, c := range []struct {
		name, step, pragma string
		want               bool
	}{
		{"counted", "4", "", true},
		{"stepped by a register", "%r4", "", false},
		{"nounroll pragma", "1", `.pragma "nounroll";`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := lowerOne(t, sumLoop(c.step, c.pragma))
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
