package timing

import (
	"testing"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
)

// hoistPTX is a kernel whose arithmetic consumes loads in the PTX's order:
// an f64 load and the FMA on it, then a wmma fragment load and the MMA on
// it, as nvcc writes wmma_f64's and the f16 GEMMs' unrolled loops.
const hoistPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p0)
{
.reg .b64 %rd<4>;
.reg .f64 %fd<4>;
.reg .b32 %r<20>;
.reg .f32 %f<10>;
ld.param.u64 %rd1, [p0];
ld.global.f64 %fd1, [%rd1];
fma.rn.f64 %fd2, %fd1, %fd1, %fd3;
mov.u32 %r1, 16;
wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9}, [%rd1], %r1;
wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, [%rd1], %r1;
wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9}, {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, {%f9, %f9, %f9, %f9, %f9, %f9, %f9, %f9};
st.global.f64 [%rd1], %fd2;
st.global.f32 [%rd1], %f1;
ret;
}
`

// TestHoldLoads: an instruction issued ahead of the loads it consumes
// (HoistLoads) holds their registers until they return — an f64 load's
// two, a wmma fragment's eight (not only the registers the scoreboard
// watches), a loaded accumulator's eight as well, a shuffle's result as a load's (HoistShfl) — and not those
// of arithmetic issued ahead before it, nor of loads already back.
func TestHoldLoads(t *testing.T) {
	m, err := ptx.Parse("k.ptx", []byte(hoistPTX))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := ir.Lower(m, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	f := prog.Funcs[0]
	find := func(op ir.Op, mode uint8) *ir.Inst {
		for pc := range f.Code {
			if in := &f.Code[pc]; in.Op == op && (op != ir.OpTensor || in.Mode == mode) {
				return in
			}
		}
		t.Fatalf("no %v in the lowered kernel", op)
		return nil
	}
	fma, mma := find(ir.OpFma, 0), find(ir.OpTensor, ir.TensorWmmaMMA)
	to := &f.TensorOps[mma.Imm]
	for _, tc := range []struct {
		name  string
		in    *ir.Inst
		set   func(w *warpT)
		words uint16
	}{
		{"an FMA on a loaded f64", fma, func(w *warpT) { w.regReady[fma.A[0]], w.regKind[fma.A[0]] = 400, prodLong }, 2},
		{"an FMA on a shuffle's result (HoistShfl)", fma, func(w *warpT) { w.regReady[fma.A[0]], w.regKind[fma.A[0]] = 400, prodShfl }, 2},
		{"an FMA on a hoisted FMA's result", fma, func(w *warpT) { w.regReady[fma.A[0]], w.regKind[fma.A[0]] = 400, prodHoisted }, 0},
		{"an FMA on a load already back", fma, func(w *warpT) { w.regReady[fma.A[0]], w.regKind[fma.A[0]] = 5, prodLong }, 0},
		{"an MMA on a loaded A fragment", mma, func(w *warpT) { w.regReady[to.A[0]], w.regKind[to.A[0]] = 400, prodLong }, 8},
		{"an MMA on both fragments loaded", mma, func(w *warpT) {
			w.regReady[to.A[0]], w.regKind[to.A[0]] = 400, prodLong
			w.regReady[to.B[0]], w.regKind[to.B[0]] = 420, prodLong
		}, 16},
		{"an MMA on an accumulator loaded (wmma.load.c)", mma, func(w *warpT) { w.regReady[to.C[0]], w.regKind[to.C[0]] = 400, prodLong }, 8},
		{"an MMA on its fragments and accumulator loaded", mma, func(w *warpT) {
			w.regReady[to.A[0]], w.regKind[to.A[0]] = 400, prodLong
			w.regReady[to.B[0]], w.regKind[to.B[0]] = 420, prodLong
			w.regReady[to.C[0]], w.regKind[to.C[0]] = 410, prodLong
		}, 24},
		{"an MMA on an accumulator an MMA made", mma, func(w *warpT) { w.regReady[to.C[0]], w.regKind[to.C[0]] = 400, prodFixed }, 0},
	} {
		sm := &smT{now: 10}
		w := &warpT{regReady: make([]uint64, f.NumSlots), regKind: make([]uint8, f.NumSlots)}
		tc.set(w)
		holdLoads(sm, w, tc.in, f, 420)
		got := uint16(0)
		for i := 0; i < w.heldN; i++ {
			got += w.heldWords[i]
		}
		if got != tc.words {
			t.Errorf("%s: %d registers held, want %d", tc.name, got, tc.words)
		}
		if got > 0 && w.heldUntil[0] != 420 {
			t.Errorf("%s: held until %d, want 420 (when the instruction starts)", tc.name, w.heldUntil[0])
		}
	}
	// An entry whose loads are back is reused; with every entry in use the
	// latest takes the new registers too.
	sm := &smT{now: 10}
	w := &warpT{regReady: make([]uint64, f.NumSlots), regKind: make([]uint8, f.NumSlots)}
	w.regReady[fma.A[0]], w.regKind[fma.A[0]] = 4000, prodLong
	for i := 0; i < maxHeld; i++ {
		holdLoads(sm, w, fma, f, uint64(100+i))
	}
	holdLoads(sm, w, fma, f, 50)
	if w.heldN != maxHeld || w.heldWords[maxHeld-1] != 4 || w.heldUntil[maxHeld-1] != 100+maxHeld-1 {
		t.Errorf("full: %d entries, the latest %d registers until %d; want %d, 4 until %d", w.heldN, w.heldWords[maxHeld-1], w.heldUntil[maxHeld-1], maxHeld, 100+maxHeld-1)
	}
	sm.now = 102
	holdLoads(sm, w, fma, f, 700)
	if w.heldUntil[0] != 700 || w.heldWords[0] != 2 {
		t.Errorf("an entry whose loads are back: %d registers until %d, want 2 until 700", w.heldWords[0], w.heldUntil[0])
	}
}

// TestHeldGate: a load hoisted above the consumers of earlier loads waits
// until the registers live at it in the PTX's order and those still held
// fit the kernel's, the earliest held released first; a future when it
// must wait for one that waits for the L2 side's answer.
func TestHeldGate(t *testing.T) {
	fut := futBit | 7
	for _, tc := range []struct {
		name         string
		until        []uint64
		words        []uint16
		live, budget int
		want         uint64
	}{
		{"nothing held", nil, nil, 20, 30, 0},
		{"room for all", []uint64{400, 420, 440}, []uint16{2, 2, 2}, 10, 16, 0},
		{"one to release", []uint64{400, 420, 440}, []uint16{2, 2, 2}, 10, 14, 400},
		{"two to release", []uint64{440, 400, 420}, []uint16{2, 2, 2}, 10, 12, 420},
		{"all to release", []uint64{440, 400, 420}, []uint16{2, 2, 2}, 10, 10, 440},
		{"a fragment's eight", []uint64{400, 420}, []uint16{8, 2}, 20, 24, 400},
		{"cycles before futures", []uint64{fut, 400}, []uint16{2, 2}, 10, 12, 400},
		{"a future needed", []uint64{fut, 400}, []uint16{2, 2}, 10, 10, fut},
	} {
		w := &warpT{heldN: len(tc.until)}
		copy(w.heldUntil[:], tc.until)
		copy(w.heldWords[:], tc.words)
		if got := heldGate(w, tc.live, tc.budget); got != tc.want {
			t.Errorf("%s: the load issues at %#x, want %#x", tc.name, got, tc.want)
		}
	}
}

// TestHoistWords: a kernel hoists every load (no bound) when its registers
// hold them all, within an eighth (the estimate's own error); otherwise
// its loads are bounded by its registers less the two ptxas counts beyond
// its values, never below what its PTX's order needs.
func TestHoistWords(t *testing.T) {
	for _, tc := range []struct {
		name            string
		live            []uint16
		hoistRegs, regs int
		want            int
	}{
		{"no liveness", nil, 64, 32, 0},
		{"all fit", []uint16{10, 20}, 30, 32, 0},
		{"within an eighth (mlp's p_dot)", []uint16{10, 27}, 36, 32, 0},
		{"past an eighth (dgemm_wmma)", []uint16{10, 19}, 39, 32, 30},
		{"the PTX's order needs more", []uint16{10, 40}, 80, 32, 40},
	} {
		f := &ir.Func{LiveWords: tc.live, HoistRegs: tc.hoistRegs}
		if got := hoistWords(f, tc.regs, false, 0); got != tc.want {
			t.Errorf("%s: %d registers for hoisted loads, want %d", tc.name, got, tc.want)
		}
	}
}

// TestWmmaLoadWords: the hoisting bound counts a wmma.load's registers as
// ptxas holds them while its data comes, a register a SASS load — an s8
// m16n16k16 B stored row-major, read a byte an element, eight LDG.E.U8
// for a two-register fragment (testdata/programs3/wmmagemm, wg.sass: gg
// of s8 issues no load of the next k step above the step's IMMAs) — and
// no more than its fragment's where a load fills a register or more.
func TestWmmaLoadWords(t *testing.T) {
	for _, tc := range []struct {
		name, load string
		want       int
	}{
		{"s8 b row-major: 8 LDG.E.U8, 2 registers", "wmma.load.b.sync.aligned.row.m16n16k16.global.s8 {%r0, %r1}, [%rd0], 64;", 6},
		{"s8 b column-major: 2 LDG.E", "wmma.load.b.sync.aligned.col.m16n16k16.global.s8 {%r0, %r1}, [%rd0], 64;", 0},
		{"f16 a row-major: 4 LDG.E, 8 registers", "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd0], 64;", 0},
	} {
		src := ".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry k(.param .u64 p0)\n{\n" +
			".reg .b32 %r<8>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd0, [p0];\n" + tc.load + "\nst.global.u32 [%rd0], %r1;\nret;\n}\n"
		m, err := ptx.Parse("k.ptx", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		p, err := ir.Lower(m, func(string) bool { return false })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		f := p.Funcs[0]
		got := -1
		for _, in := range f.Code {
			if in.Op == ir.OpTensor && in.Mode == ir.TensorWmmaLoad {
				got = wmmaLoadWords(f, &f.TensorOps[in.Imm])
			}
		}
		if got != tc.want {
			t.Errorf("%s: %d registers more than the fragment's, want %d", tc.name, got, tc.want)
		}
	}
}
