package ir

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// lowerOne lowers a one-kernel PTX body (the kernel k with parameters p0
// and p1, two pointers).
func lowerOne(t *testing.T, body string) *Func {
	t.Helper()
	src := ".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry k(.param .u64 p0, .param .u64 p1)\n{\n" + body + "\n}\n"
	m, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Lower(m, func(string) bool { return false })
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return p.Funcs[0]
}

// streamBody is n unrolled copies of b[i] = a[i] through ld.global(.nc):
// each copy computes its address, loads, and stores, in that order.
func streamBody(n int, nc bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".reg .b32 %%r<%d>;\n.reg .b64 %%rd<%d>;\n.reg .f32 %%f<%d>;\n", 2*n+2, 4*n+4, n+1)
	b.WriteString("ld.param.u64 %rd0, [p0];\nld.param.u64 %rd1, [p1];\nmov.u32 %r0, %tid.x;\n")
	ld := "ld.global.f32"
	if nc {
		ld = "ld.global.nc.f32"
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "add.s32 %%r%d, %%r0, %d;\nmul.wide.u32 %%rd%d, %%r%d, 4;\n", i+1, 32*i, 4*i+2, i+1)
		fmt.Fprintf(&b, "add.s64 %%rd%d, %%rd0, %%rd%d;\n%s %%f%d, [%%rd%d];\n", 4*i+3, 4*i+2, ld, i, 4*i+3)
		fmt.Fprintf(&b, "add.s64 %%rd%d, %%rd1, %%rd%d;\nst.global.f32 [%%rd%d], %%f%d;\n", 4*i+4, 4*i+2, 4*i+4, i)
	}
	b.WriteString("ret;")
	return b.String()
}

// TestRegEstimateScheduling: ptxas's scheduler hoists loads that no store
// can change (ld.global.nc) above the stores before them, so four unrolled
// copies keep their loaded values and addresses live together; plain loads
// after a store to memory they may read stay in place; the hoisting stops
// at regTarget; the estimate never falls below the PTX's own order.
func TestRegEstimateScheduling(t *testing.T) {
	plain := func(f *Func) int { return estimateRegs(f, f.slotWidths) }
	nc4, ld4 := lowerOne(t, streamBody(4, true)), lowerOne(t, streamBody(4, false))
	if p, got := plain(nc4), nc4.RegEstimate; got < p+6 {
		t.Errorf("4 nc copies: %d registers, the PTX's order %d: the loads were not hoisted", got, p)
	}
	// Plain loads stay after the stores before them: only the address
	// arithmetic moves up, not the four loaded values with it.
	if got, nc := ld4.RegEstimate, nc4.RegEstimate; got+4 > nc {
		t.Errorf("4 plain copies: %d registers, as many as the nc copies' %d: a load passed a store it may read", got, nc)
	}
	nc16 := lowerOne(t, streamBody(16, true))
	if p, got := plain(nc16), nc16.RegEstimate; p > regTarget || got != regTarget {
		t.Errorf("16 nc copies: %d registers, want the target %d (the PTX's order %d)", got, regTarget, p)
	}
}

// TestRegEstimateIfConversion: a store skipped by a short forward branch
// (if (i < n) b[i] = v, unrolled four times) is predicated by ptxas and
// scheduled with the copies around it, so the four copies' addresses are
// live together; a branch over a barrier is left alone.
func TestRegEstimateIfConversion(t *testing.T) {
	body := func(bar bool) string {
		var b strings.Builder
		b.WriteString(".reg .pred %p<5>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<20>;\n")
		b.WriteString("ld.param.u64 %rd0, [p0];\nld.param.u64 %rd1, [p1];\nmov.u32 %r0, %tid.x;\nld.global.nc.u32 %r10, [%rd1];\n")
		for i := 0; i < 4; i++ {
			fmt.Fprintf(&b, "add.s32 %%r%d, %%r0, %d;\nsetp.ge.u32 %%p%d, %%r%d, %%r10;\n@%%p%d bra L%d;\n", i+1, 128*i, i, i+1, i, i)
			fmt.Fprintf(&b, "mul.wide.u32 %%rd%d, %%r%d, 4;\nadd.s64 %%rd%d, %%rd0, %%rd%d;\nld.global.nc.u32 %%r%d, [%%rd%d];\n", 2*i+2, i+1, 2*i+3, 2*i+2, i+5, 2*i+3)
			fmt.Fprintf(&b, "st.global.u32 [%%rd%d], %%r%d;\n", 2*i+3, i+5)
			if bar {
				b.WriteString("bar.sync 0;\n")
			}
			fmt.Fprintf(&b, "L%d:\n", i)
		}
		b.WriteString("ret;")
		return b.String()
	}
	guarded := func(f *Func) (n int) {
		for _, in := range scheduleForRegs(f).Code {
			if in.Op == OpBra && in.Guard >= 0 {
				n++
			}
		}
		return n
	}
	conv, kept := lowerOne(t, body(false)), lowerOne(t, body(true))
	if n := guarded(conv); n != 0 {
		t.Errorf("guarded copies: %d conditional branches left, want 0", n)
	}
	if p, got := estimateRegs(conv, conv.slotWidths), conv.RegEstimate; got < p+4 {
		t.Errorf("guarded copies: %d registers, the PTX's order %d: not scheduled together", got, p)
	}
	if n := guarded(kept); n != 4 {
		t.Errorf("copies with a barrier: %d conditional branches left, want 4", n)
	}
}

// TestRegEstimateFoldsAddresses: 64-bit addresses that are a pointer plus
// a constant, used only as addresses, take no registers of their own (the
// constant goes into the load's immediate); the same sums also stored as
// values do.
func TestRegEstimateFoldsAddresses(t *testing.T) {
	body := func(storeSums bool) string {
		var b strings.Builder
		b.WriteString(".reg .b32 %r<10>;\n.reg .b64 %rd<10>;\nld.param.u64 %rd0, [p0];\nld.param.u64 %rd9, [p1];\n")
		for i := 1; i <= 8; i++ {
			fmt.Fprintf(&b, "add.s64 %%rd%d, %%rd0, %d;\n", i, 128*i)
		}
		for i := 1; i <= 8; i++ {
			fmt.Fprintf(&b, "ld.global.u32 %%r%d, [%%rd%d];\n", i, i)
		}
		for i := 1; i <= 8; i++ {
			if storeSums {
				fmt.Fprintf(&b, "st.global.u64 [%%rd9+%d], %%rd%d;\n", 8*i, i)
			}
			fmt.Fprintf(&b, "st.global.u32 [%%rd9+%d], %%r%d;\n", 4*i+64, i)
		}
		b.WriteString("ret;")
		return b.String()
	}
	folded, kept := lowerOne(t, body(false)), lowerOne(t, body(true))
	// The eight sums take 16 registers where they are values; folded,
	// only their base (2) is live in their place.
	if folded.RegEstimate+14 > kept.RegEstimate {
		t.Errorf("8 folded addresses: %d registers, the same kept as values %d: want at least 14 fewer", folded.RegEstimate, kept.RegEstimate)
	}
}

// TestRegEstimateImmediates: constants the PTX moves into registers first
// (mov.b32 %r, 0f...; Triton's polynomial coefficients) cost what the same
// constants written as immediates cost — ptxas folds them into the FFMAs —
// unless a reader takes no immediate (a store of the constant).
func TestRegEstimateImmediates(t *testing.T) {
	const k = 12
	body := func(form string) string {
		var b strings.Builder
		fmt.Fprintf(&b, ".reg .b32 %%r<%d>;\n.reg .b64 %%rd<4>;\nld.param.u64 %%rd0, [p0];\nld.param.u64 %%rd1, [p1];\n", 2*k+4)
		if form != "imm" {
			for i := 0; i < k; i++ {
				fmt.Fprintf(&b, "mov.b32 %%r%d, 0f3F8%05X;\n", k+i, i+1)
			}
		}
		b.WriteString("ld.global.f32 %r0, [%rd0];\nmov.b32 %r1, %r0;\n")
		for i := 0; i < k; i++ {
			if form == "imm" {
				fmt.Fprintf(&b, "fma.rn.f32 %%r1, %%r1, %%r0, 0f3F8%05X;\n", i+1)
			} else {
				fmt.Fprintf(&b, "fma.rn.f32 %%r1, %%r1, %%r0, %%r%d;\n", k+i)
			}
		}
		if form == "stored" {
			for i := 0; i < k; i++ {
				fmt.Fprintf(&b, "st.global.f32 [%%rd1+%d], %%r%d;\n", 4*i+4, k+i)
			}
		}
		b.WriteString("st.global.f32 [%rd1], %r1;\nret;")
		return b.String()
	}
	imm, reg, stored := lowerOne(t, body("imm")), lowerOne(t, body("reg")), lowerOne(t, body("stored"))
	if reg.RegEstimate != imm.RegEstimate {
		t.Errorf("%d constants in registers: %d registers, as immediates %d: want the same", k, reg.RegEstimate, imm.RegEstimate)
	}
	if stored.RegEstimate < imm.RegEstimate+k-2 {
		t.Errorf("%d constants also stored: %d registers, as immediates %d: want about %d more", k, stored.RegEstimate, imm.RegEstimate, k)
	}
}

// TestRegEstimateSinksAddresses: a loop that first computes 24 addresses
// (24 loop-invariant pointers plus one offset) and then loads through them
// needs, once short of registers, what the same loop computing each address
// right before its load needs: ptxas computes them where they are used.
func TestRegEstimateSinksAddresses(t *testing.T) {
	const k = 24
	body := func(ahead bool) string {
		var b strings.Builder
		fmt.Fprintf(&b, ".reg .pred %%p<2>;\n.reg .b32 %%r<%d>;\n.reg .b64 %%rd<%d>;\n", k+8, 2*k+8)
		b.WriteString("ld.param.u64 %rd0, [p0];\nld.param.u64 %rd1, [p1];\nmov.u32 %r0, %tid.x;\nmov.b64 %rd2, 0;\nmov.b32 %r1, 0;\nmov.b32 %r2, 0;\n")
		for i := 0; i < k; i++ {
			fmt.Fprintf(&b, "add.s32 %%r%d, %%r0, %d;\nmad.wide.s32 %%rd%d, %%r%d, 4, %%rd0;\n", i+4, 97*i, i+4, i+4)
		}
		b.WriteString("LOOP:\n")
		addr := func(i int) string { return fmt.Sprintf("add.s64 %%rd%d, %%rd%d, %%rd2;\n", k+4+i, i+4) }
		if ahead {
			for i := 0; i < k; i++ {
				b.WriteString(addr(i))
			}
		}
		for i := 0; i < k; i++ {
			if !ahead {
				b.WriteString(addr(i))
			}
			fmt.Fprintf(&b, "ld.global.u32 %%r3, [%%rd%d];\nadd.s32 %%r1, %%r1, %%r3;\n", k+4+i)
		}
		b.WriteString("add.s64 %rd2, %rd2, 4096;\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p0, %r2, 64;\n@%p0 bra LOOP;\nst.global.u32 [%rd1], %r1;\nret;")
		return b.String()
	}
	ahead, next := lowerOne(t, body(true)), lowerOne(t, body(false))
	if p := estimateRegs(ahead, ahead.slotWidths); p < next.RegEstimate+2*k-4 {
		t.Fatalf("the PTX's order: %d registers with the addresses ahead, %d each before its load: the test needs the first to hold them all", p, next.RegEstimate)
	}
	if ahead.RegEstimate > regSqueezeMax && ahead.RegEstimate > next.RegEstimate+2 {
		t.Errorf("%d addresses ahead of their loads: %d registers, each before its load %d: want them computed where used", k, ahead.RegEstimate, next.RegEstimate)
	}
	if next.RegEstimate <= regSqueezeMax {
		t.Errorf("each address before its load: %d registers, want above %d (the test needs a kernel short of registers)", next.RegEstimate, regSqueezeMax)
	}
}

// wgmmaBody is a kernel issuing wgmma.mma_async m64nNk16 (f32 += f16 ×
// f16, A and B from shared-memory descriptors) in a loop, its N/2
// accumulators set to zero before it and only the first read after
// wgmma.wait_group 0.
func wgmmaBody(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".reg .f32 %%d<%d>;\n.reg .b64 %%rd<4>;\n.reg .b32 %%r<4>;\n.reg .pred %%p<2>;\n", n/2)
	b.WriteString("ld.param.u64 %rd0, [p0];\nmov.b64 %rd1, 4611686293305294848;\nmov.b64 %rd2, 4611686293305295360;\n")
	for i := 0; i < n/2; i++ {
		fmt.Fprintf(&b, "mov.f32 %%d%d, 0f00000000;\n", i)
	}
	b.WriteString("mov.u32 %r0, 0;\nwgmma.fence.sync.aligned;\nLOOP:\n")
	fmt.Fprintf(&b, "wgmma.mma_async.sync.aligned.m64n%dk16.f32.f16.f16 {", n)
	for i := 0; i < n/2; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%%d%d", i)
	}
	b.WriteString("}, %rd1, %rd2, 1, 1, 1, 0, 0;\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n")
	b.WriteString("add.u32 %r0, %r0, 1;\nsetp.lt.u32 %p0, %r0, 8;\n@%p0 bra LOOP;\nst.global.f32 [%rd0], %d0;\nret;")
	return b.String()
}

// TestRegEstimateWgmmaAccumulators: the accumulators of a wgmma.mma_async
// are live from their setup to the wgmma and around its loop, though the
// instruction holds more registers than Inst's slots and only one is read
// after the loop; and the kernel gets what ptxas gives it, the accumulator
// block from R24 (wgmmaFloor: wgmma.ptx's m64n8 to m64n256 kernels, 30 to
// 154 registers), not brought down to regTarget.
func TestRegEstimateWgmmaAccumulators(t *testing.T) {
	for _, c := range []struct{ n, acc int }{{8, 4}, {64, 32}, {128, 64}, {256, 128}} {
		f := lowerOne(t, wgmmaBody(c.n))
		if live := estimateRegs(foldAddresses(f), f.slotWidths); live < c.acc+4 || live > c.acc+12 {
			t.Errorf("m64n%dk16: %d registers live, want its %d accumulators, the descriptors and a few more (%d to %d)", c.n, live, c.acc, c.acc+4, c.acc+12)
		}
		if want := wgmmaAccBase + c.acc + 2; f.RegEstimate != want {
			t.Errorf("m64n%dk16: %d registers, want %d (the accumulators from R%d)", c.n, f.RegEstimate, want, wgmmaAccBase)
		}
	}
}

// TestRegEstimateFoldsAsyncAddresses: cp.async's shared and global
// addresses that are a base plus a constant — the shared one through a
// shared variable's address plus an offset, 32 bits wide — take no
// registers of their own (ldgsts_mb's SASS: LDGSTS [R9+0x4120],
// [R2.64+0x8]), where the same sums also stored as values do.
func TestRegEstimateFoldsAsyncAddresses(t *testing.T) {
	const k = 8
	body := func(storeSums bool) string {
		var b strings.Builder
		fmt.Fprintf(&b, ".shared .align 16 .b8 buf[8192];\n.reg .b32 %%r<%d>;\n.reg .b64 %%rd<%d>;\n", 3*k+8, 2*k+8)
		b.WriteString("ld.param.u64 %rd0, [p0];\nld.param.u64 %rd1, [p1];\nmov.u32 %r0, %tid.x;\nshl.b32 %r1, %r0, 4;\nmov.u32 %r2, buf;\n")
		b.WriteString("cvt.u64.u32 %rd2, %r1;\nadd.s64 %rd3, %rd1, %rd2;\n")
		for i := 0; i < k; i++ {
			fmt.Fprintf(&b, "add.s32 %%r%d, %%r2, %d;\nadd.s32 %%r%d, %%r1, %%r%d;\nadd.s64 %%rd%d, %%rd3, %d;\n", 8+i, 512*i, 8+k+i, 8+i, 8+i, 16*i+16)
		}
		b.WriteString("bar.sync 0;\n")
		for i := 0; i < k; i++ {
			fmt.Fprintf(&b, "cp.async.cg.shared.global [%%r%d], [%%rd%d], 16;\n", 8+k+i, 8+i)
		}
		b.WriteString("cp.async.wait_all;\nbar.sync 0;\n")
		if storeSums {
			for i := 0; i < k; i++ {
				fmt.Fprintf(&b, "st.global.u32 [%%rd0+%d], %%r%d;\nst.global.u64 [%%rd0+%d], %%rd%d;\n", 4*i, 8+k+i, 64+8*i, 8+i)
			}
		}
		b.WriteString("ret;")
		return b.String()
	}
	folded, kept := lowerOne(t, body(false)), lowerOne(t, body(true))
	if folded.RegEstimate+2*k > kept.RegEstimate {
		t.Errorf("%d folded cp.async address pairs: %d registers, the same kept as values %d: want at least %d fewer", k, folded.RegEstimate, kept.RegEstimate, 2*k)
	}
}

// TestLiveWords: Func.LiveWords is, per pc, the 32-bit registers live
// right after the instruction in the PTX's order (a 64-bit value counts
// two), the liveness the register estimate starts from: two f64 loads
// through one pointer, their sum, its store.
func TestLiveWords(t *testing.T) {
	f := lowerOne(t, `.reg .b64 %rd<2>;
.reg .f64 %fd<4>;
ld.param.u64 %rd1, [p0];
ld.global.f64 %fd1, [%rd1];
ld.global.f64 %fd2, [%rd1+8];
add.f64 %fd3, %fd1, %fd2;
st.global.f64 [%rd1], %fd3;
ret;`)
	var text []string
	for pc := range f.Code {
		text = append(text, f.Text[pc])
	}
	want := []uint16{2, 4, 6, 4, 0, 0} // %rd1; +%fd1; +%fd2; %rd1, %fd3; nothing
	if len(f.LiveWords) != len(want) {
		t.Fatalf("LiveWords %v for %d instructions %q, want %v", f.LiveWords, len(f.Code), text, want)
	}
	for pc, w := range want {
		if f.LiveWords[pc] != w {
			t.Errorf("pc %d (%s): %d words live after it, want %d", pc, f.Text[pc], f.LiveWords[pc], w)
		}
	}
	if got := int(slices.Max(f.LiveWords)) + 2; got != estimateRegs(foldAddresses(f), f.slotWidths) {
		t.Errorf("the most live words + 2 = %d, the PTX order's estimate %d", got, estimateRegs(foldAddresses(f), f.slotWidths))
	}
}

// TestRegEstimateWmmaFragments: the estimate's liveness reads a wmma
// form's whole fragments (an f16 A fragment of m16n16k16 is eight
// registers, not the four an Inst holds), and its schedule moves the
// fragment loads of a later step above an earlier step's wmma.mma, as
// ptxas's SASS of wmma_sq and gemm_half_acc has them: the kernel needs
// more registers with its loads hoisted (HoistRegs) than in the PTX's
// order.
func TestRegEstimateWmmaFragments(t *testing.T) {
	var b strings.Builder
	b.WriteString(".reg .b64 %rd<2>;\n.reg .b32 %r<80>;\n.reg .f32 %f<40>;\nld.param.u64 %rd1, [p0];\nmov.u32 %r0, 16;\nmov.f32 %f0, 0f00000000;\n")
	acc := "%f0, %f0, %f0, %f0, %f0, %f0, %f0, %f0"
	frag := func(base int) string {
		var s []string
		for i := 0; i < 8; i++ {
			s = append(s, fmt.Sprintf("%%r%d", base+i))
		}
		return strings.Join(s, ", ")
	}
	for k := 0; k < 4; k++ {
		a, bb := frag(1+16*k), frag(9+16*k)
		fmt.Fprintf(&b, "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%s}, [%%rd1+%d], %%r0;\n", a, 32*k)
		fmt.Fprintf(&b, "wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%s}, [%%rd1+%d], %%r0;\n", bb, 1024+32*k)
		d := fmt.Sprintf("%%f%d, %%f%d, %%f%d, %%f%d, %%f%d, %%f%d, %%f%d, %%f%d", 8*k+1, 8*k+2, 8*k+3, 8*k+4, 8*k+5, 8*k+6, 8*k+7, 8*k+8)
		fmt.Fprintf(&b, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%s}, {%s}, {%s}, {%s};\n", d, a, bb, acc)
		acc = d
	}
	fmt.Fprintf(&b, "wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%%rd1], {%s}, %%r0;\nret;", acc)
	f := lowerOne(t, b.String())
	pc := -1
	for i := range f.Code {
		if f.Code[i].Op == OpTensor && f.Code[i].Mode == TensorWmmaLoad {
			pc = i
			break
		}
	}
	// After the first A fragment: %rd1, %r0, %f0 and its eight registers.
	if pc < 0 || f.LiveWords[pc] != 2+1+1+8 {
		t.Errorf("after the first wmma.load (pc %d): %v words live, want 12 (its whole fragment)", pc, f.LiveWords)
	}
	plain := int(slices.Max(f.LiveWords)) + 2
	if f.HoistRegs < plain+16 {
		t.Errorf("with the fragment loads hoisted %d registers, in the PTX's order %d: want the later steps' fragments (16 a step) above the MMAs", f.HoistRegs, plain)
	}
}
