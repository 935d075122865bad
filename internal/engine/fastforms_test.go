package engine

import (
	"math"
	"math/rand"
	"strings"
	"testing"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// TestFmaRnF32Inline: fma.rn.f32's fast form (its common case inline) gives scalar.FmaRnF32's bits
// on random operands, on operands with short mantissas (whose sums land
// exactly halfway between two f32 values, the case that needs round to
// odd), near f32's subnormal range, and on specials.
func TestFmaRnF32Inline(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	short := func() uint32 { // a few significant bits, exponent near 1
		return uint32(rng.Intn(2))<<31 | uint32(120+rng.Intn(16))<<23 | uint32(rng.Intn(1<<6))<<17
	}
	specials := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800000}
	halfway := 0
	// A warp whose slots 0, 1, 2 are a, b, c and 3 the result, run 32
	// operand triples at a time through the fast form.
	wp := &warp{regs: make([]uint64, 4*32)}
	in := &ir.Inst{Op: ir.OpFma, Type: ptxtype.F32, Rnd: ir.RndRN, Fast: ir.FastFmaF32, Guard: -1, D: [4]int32{3, -1, -1, -1}, A: [5]int32{0, 1, 2, -1, -1}}
	if ir.FastFmaF32 != in.Fast {
		t.Fatal("no fast form")
	}
	n := 0
	flush := func() {
		t.Helper()
		wp.fast(in, fullMask)
		for l := 0; l < n; l++ {
			a, b, c := uint32(wp.r(0)[l]), uint32(wp.r(1)[l]), uint32(wp.r(2)[l])
			if got, want := uint32(wp.r(3)[l]), scalar.FmaRnF32(a, b, c); got != want {
				t.Fatalf("fma(%#x, %#x, %#x) = %#x, want %#x", a, b, c, got, want)
			}
		}
		n = 0
	}
	check := func(a, b, c uint32) {
		t.Helper()
		wp.r(0)[n], wp.r(1)[n], wp.r(2)[n] = uint64(a), uint64(b), uint64(c)
		if n++; n == 32 {
			flush()
		}
		s := float64(math.Float32frombits(a))*float64(math.Float32frombits(b)) + float64(math.Float32frombits(c))
		if math.Float64bits(s)&(1<<29-1) == 1<<28 {
			halfway++
		}
	}
	for i := 0; i < 200000; i++ {
		check(rng.Uint32(), rng.Uint32(), rng.Uint32())
		check(short(), short(), short()|uint32(rng.Intn(1<<17)))
		// Small products: results around and below 2^-126.
		check(uint32(rng.Intn(2))<<31|uint32(40+rng.Intn(30))<<23|uint32(rng.Intn(1<<23)),
			uint32(rng.Intn(2))<<31|uint32(40+rng.Intn(30))<<23|uint32(rng.Intn(1<<23)), uint32(rng.Intn(1<<24)))
	}
	for _, a := range specials {
		for _, b := range specials {
			for _, c := range specials {
				check(a, b, c)
			}
		}
	}
	// Sums whose float64 rounding lands exactly halfway between two f32
	// values while the exact sum is not: plain float32 conversion gets
	// these wrong (checked below), round to odd gets them right. In the
	// normal range: c = 1+2^-23 (odd), a*b = 2^-24 - 2^-60; at the top of
	// the subnormal range: c = 2^-126 - 2^-149 (odd), a*b = 2^-150 - 2^-182.
	f := func(m float64, e int) uint32 { return math.Float32bits(float32(math.Ldexp(m, e))) }
	hard := [][3]uint32{{f(1-0x1p-16, -75), f(1+0x1p-16, -75), f(1-0x1p-23, -126)}}
	for e := 0; e < 40; e++ { // the normal-range case at 40 scales
		hard = append(hard, [3]uint32{f(1+0x1p-18, e-12), f(1-0x1p-18, -12), f(1+0x1p-23, e)})
	}
	for _, h := range hard {
		for _, sign := range []uint32{0, 1 << 31} {
			a, b, c := h[0]^sign, h[1], h[2]^sign
			s := float64(math.Float32frombits(a))*float64(math.Float32frombits(b)) + float64(math.Float32frombits(c))
			if math.Float32bits(float32(s)) == scalar.FmaRnF32(a, b, c) {
				t.Fatalf("fma(%#x, %#x, %#x): the case does not need round to odd", a, b, c)
			}
			check(a, b, c)
		}
	}
	for n != 0 {
		check(0, 0, 0)
	}
	if halfway < 100 {
		t.Errorf("only %d sums fell halfway between two f32 values: the test misses the round-to-odd case", halfway)
	}
}

// TestSetpFastForm: setp on 32-bit integers runs as ir.FastSetp32 and
// agrees with the general comparison for every comparison and sign; the
// lane mask it returns for the next instruction's guard is the predicates'.
func TestSetpFastForm(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	vals := []uint64{0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 1 << 40}
	for i := 0; i < 24; i++ {
		vals = append(vals, uint64(rng.Uint32()))
	}
	for _, t2 := range []ptxtype.Type{ptxtype.S32, ptxtype.U32, ptxtype.B32} {
		for _, cmp := range []uint8{ir.CmpEq, ir.CmpNe, ir.CmpLt, ir.CmpLe, ir.CmpGt, ir.CmpGe, ir.CmpLo, ir.CmpLs, ir.CmpHi, ir.CmpHs} {
			in := ir.Inst{Op: ir.OpSetp, Type: ptxtype.Pred, Type2: t2, Cmp: cmp}
			var a, b, d [32]uint64
			for k := 0; k < len(vals)*len(vals); k += 32 {
				for l := range a {
					a[l], b[l] = vals[(k+l)/len(vals)%len(vals)], vals[(k+l)%len(vals)]
				}
				m, ok := setpMask32(in.Cmp, t2 == ptxtype.S32, &a, &b, &d)
				if !ok {
					t.Fatalf("%v cmp %d: not handled", t2, cmp)
				}
				var want uint32
				for l := range d {
					want |= uint32(d[l]&1) << l
				}
				if m != want {
					t.Fatalf("setp %d.%v: lane mask %#x, the predicates say %#x", cmp, t2, m, want)
				}
				for l := range d {
					if want := b2u(compare(cmp, t2, a[l]&0xffffffff, b[l]&0xffffffff)); d[l] != want {
						t.Fatalf("setp %d.%v %#x, %#x = %d, want %d", cmp, t2, a[l], b[l], d[l], want)
					}
				}
			}
		}
	}
}

// TestCvtIntFastForm: cvt between integer types without .sat, as the
// engine runs it (extendFrom twice, then the register mask), agrees with
// scalar.CvtIntToInt for every pair of integer types and values at each
// width's edges.
func TestCvtIntFastForm(t *testing.T) {
	types := []ptxtype.Type{ptxtype.U8, ptxtype.S8, ptxtype.B8, ptxtype.U16, ptxtype.S16, ptxtype.B16,
		ptxtype.U32, ptxtype.S32, ptxtype.B32, ptxtype.U64, ptxtype.S64, ptxtype.B64}
	vals := []uint64{0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
		0x100000000, 0x7fffffffffffffff, 0x8000000000000000, ^uint64(0), 0xdeadbeefcafef00d}
	for _, st := range types {
		for _, dt := range types {
			ssh, dsh, ok := cvtIntShifts(st, dt)
			if !ok {
				t.Fatalf("cvt.%v.%v: no fast form", dt, st)
			}
			m := cvtIntMask(dt)
			for _, v := range vals {
				got := extendFrom(extendFrom(v, ssh, ir.IsSigned(st)), dsh, ir.IsSigned(dt)) & m
				if want := scalar.CvtIntToInt(v, st, dt, false) & m; got != want {
					t.Errorf("cvt.%v.%v %#x = %#x, want %#x", dt, st, v, got, want)
				}
			}
		}
	}
}

// TestCheckFastSlots: the fast forms read their registers without bounds
// checks (warp.ru), so Load refuses a function whose fast form names a
// slot outside its register file or lacks an operand it reads, with an
// error naming the instruction, and accepts every well-formed one.
func TestCheckFastSlots(t *testing.T) {
	m := testModule(t, aluLoopPTX+rmwPTX+memPTX+sharedReducePTX)
	fast := 0
	for _, f := range m.Prog.Funcs {
		if why := checkFastSlots(f); why != "" {
			t.Errorf("%s: %s", f.Name, why)
		}
		for i := range f.Code {
			if f.Code[i].Fast != ir.FastNone {
				fast++
			}
		}
	}
	if fast == 0 {
		t.Fatal("no fast forms to check")
	}
	mk := func(fast ir.Fast, d, a0, a1, a2 int32) *ir.Func {
		return &ir.Func{Name: "k", NumSlots: 4, Code: []ir.Inst{{Fast: fast, Guard: -1, D: [4]int32{d, -1, -1, -1}, A: [5]int32{a0, a1, a2, -1, -1}}}}
	}
	for _, tc := range []struct {
		name string
		f    *ir.Func
		bad  bool
	}{
		{"add in range", mk(ir.FastAdd32, 3, 0, 1, -1), false},
		{"mov without a second operand", mk(ir.FastMov, 3, 0, -1, -1), false},
		{"mad in range", mk(ir.FastMadLo32, 3, 0, 1, 2), false},
		{"destination past the file", mk(ir.FastAdd32, 4, 0, 1, -1), true},
		{"operand past the file", mk(ir.FastAdd32, 3, 0, 7, -1), true},
		{"negative first operand", mk(ir.FastMov, 3, -1, -1, -1), true},
		{"add lacks its second operand", mk(ir.FastAdd32, 3, 0, -1, -1), true},
		{"fma lacks its third operand", mk(ir.FastFmaF32, 3, 0, 1, -1), true},
		{"setp destination past the file", mk(ir.FastSetp32, 9, 0, 1, -1), true},
	} {
		why := checkFastSlots(tc.f)
		if got := why != ""; got != tc.bad {
			t.Errorf("%s: checkFastSlots = %q, want an error: %v", tc.name, why, tc.bad)
		}
		if tc.bad && !strings.Contains(why, "instruction 0") {
			t.Errorf("%s: %q does not name the instruction", tc.name, why)
		}
	}
}

// TestImmFastForms: the fast forms with a constant second operand (read
// once, from lane 0 of its slot) give each lane its definition, for the
// whole warp and, leaving the other lanes alone, for some of it; shifts by
// 32 or more give 0, as scalar's shifts do.
func TestImmFastForms(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	consts := []uint64{0, 1, 2, 3, 5, 31, 32, 33, 63, 64, 0x5555, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe,
		1 << 40, 0xffffffff00000001, ^uint64(0)}
	for i := 0; i < 8; i++ {
		consts = append(consts, rng.Uint64(), uint64(rng.Uint32()))
	}
	forms := []struct {
		fast ir.Fast
		def  func(a, c uint64) uint64
	}{
		{ir.FastAdd32Imm, func(a, c uint64) uint64 { return uint64(uint32(a) + uint32(c)) }},
		{ir.FastSub32Imm, func(a, c uint64) uint64 { return uint64(uint32(a) - uint32(c)) }},
		{ir.FastAdd64Imm, func(a, c uint64) uint64 { return a + c }},
		{ir.FastMulLo32Imm, func(a, c uint64) uint64 { return uint64(uint32(a) * uint32(c)) }},
		{ir.FastMulWideU32Imm, func(a, c uint64) uint64 { return uint64(uint32(a)) * uint64(uint32(c)) }},
		{ir.FastMulWideS32Imm, func(a, c uint64) uint64 { return uint64(int64(int32(a)) * int64(int32(c))) }},
		{ir.FastShl32Imm, func(a, c uint64) uint64 { return uint64(scalar.Shl32(uint32(a), uint32(c))) }},
		{ir.FastShrU32Imm, func(a, c uint64) uint64 { return uint64(scalar.ShrU32(uint32(a), uint32(c))) }},
		{ir.FastAnd32Imm, func(a, c uint64) uint64 { return uint64(uint32(a) & uint32(c)) }},
		{ir.FastOr32Imm, func(a, c uint64) uint64 { return uint64(uint32(a) | uint32(c)) }},
		{ir.FastXor32Imm, func(a, c uint64) uint64 { return uint64(uint32(a) ^ uint32(c)) }},
	}
	// Slots: 0 a, 1 the constant, 2 the result.
	wp := &warp{regs: make([]uint64, 3*32)}
	for _, f := range forms {
		in := &ir.Inst{Fast: f.fast, Guard: -1, D: [4]int32{2, -1, -1, -1}, A: [5]int32{0, 1, -1, -1, -1}}
		for _, c := range consts {
			for _, exec := range []uint32{fullMask, 0x5555aaaa} {
				old := [32]uint64{}
				for l := 0; l < 32; l++ {
					wp.r(0)[l] = rng.Uint64()
					if l < 4 {
						wp.r(0)[l] = []uint64{0, 0xffffffff, 0x80000000, 1 << 32}[l]
					}
					wp.r(1)[l] = c
					old[l] = rng.Uint64()
					wp.r(2)[l] = old[l]
				}
				wp.fast(in, exec)
				for l := 0; l < 32; l++ {
					want := old[l]
					if exec>>l&1 != 0 {
						want = f.def(wp.r(0)[l], c)
					}
					if got := wp.r(2)[l]; got != want {
						t.Fatalf("fast form %d, constant %#x, exec %#x: lane %d of %#x gives %#x, want %#x", f.fast, c, exec, l, wp.r(0)[l], got, want)
					}
				}
			}
		}
	}
}

// TestSetpImmFastForm: setp on 32-bit integers against a constant
// (ir.FastSetp32Imm) agrees with the general comparison for every
// comparison and sign, on constants and lanes at the edges of both
// signs; its lane mask is the predicates'.
func TestSetpImmFastForm(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	vals := []uint64{0, 1, 2, 999, 1000, 1001, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe, 1 << 40, 0xffffffff00000000}
	for i := 0; i < 18; i++ {
		vals = append(vals, uint64(rng.Uint32()))
	}
	for _, t2 := range []ptxtype.Type{ptxtype.S32, ptxtype.U32, ptxtype.B32} {
		for _, cmp := range []uint8{ir.CmpEq, ir.CmpNe, ir.CmpLt, ir.CmpLe, ir.CmpGt, ir.CmpGe, ir.CmpLo, ir.CmpLs, ir.CmpHi, ir.CmpHs} {
			for _, c := range vals {
				var a, d [32]uint64
				for l := range a {
					a[l] = vals[l%len(vals)]
					if l >= len(vals) {
						a[l] = c + uint64(l%3) - 1 // c-1, c, c+1
					}
				}
				m := setpMask32Imm(cmp, t2 == ptxtype.S32, &a, c, &d)
				var want uint32
				for l := range d {
					want |= uint32(d[l]&1) << l
				}
				if m != want {
					t.Fatalf("setp %d.%v against %#x: lane mask %#x, the predicates say %#x", cmp, t2, c, m, want)
				}
				for l := range d {
					if want := b2u(compare(cmp, t2, a[l]&0xffffffff, c&0xffffffff)); d[l] != want {
						t.Fatalf("setp %d.%v %#x, %#x = %d, want %d", cmp, t2, a[l], c, d[l], want)
					}
				}
			}
		}
	}
}

// TestRegStagger: the register files of a block's warps start at distinct
// cache lines modulo 4 KiB (placeRegs), so the same slot of each warp
// does not fall in the same sets of the L1 data cache, and the stagger
// moves nothing else: the constant slots hold their values.
func TestRegStagger(t *testing.T) {
	m := testModule(t, sharedReducePTX)
	k := m.Prog.FuncByName["sred"]
	f := m.Prog.Funcs[k]
	if f.NumSlots*32*8 < 4096 {
		t.Fatalf("%d slots: a register file under 4 KiB does not show the aliasing", f.NumSlots)
	}
	in, _ := m.Mem.Alloc(4 * 256)
	out, _ := m.Mem.Alloc(4)
	l := &launch{mod: m, cfg: &Config{Kernel: k, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{256, 1, 1}, Params: u64p(in, out)},
		fn: f, nblocks: 1, sharedOff: m.Prog.SharedOffsets[k], shared: m.Prog.StaticShared[k], limit: DefaultStepLimit, allocs: m.Mem.snapshot(), stackMax: m.stackLimit(k, 0), stackTop: localWindowTop - m.localGap(k, nil)}
	w := newWorker(l)
	w.runBlock(0)
	if w.fault != nil {
		t.Fatal(w.fault)
	}
	seen := map[uintptr]int{}
	for _, wp := range w.blk.warps {
		at := uintptr(unsafe.Pointer(&wp.regs[0])) % 4096
		if at%64 != 0 {
			t.Errorf("warp %d: register file at %#x past a 4 KiB boundary, not on a cache line", wp.idx, at)
		}
		if o, ok := seen[at]; ok {
			t.Errorf("warps %d and %d: both register files at %#x past a 4 KiB boundary", o, wp.idx, at)
		}
		seen[at] = wp.idx
		for _, c := range f.Consts {
			for l, v := range wp.r(c.Slot) {
				if v != c.Value {
					t.Fatalf("warp %d: constant slot %d lane %d holds %#x, want %#x", wp.idx, c.Slot, l, v, c.Value)
				}
			}
		}
	}
	if len(seen) != 8 {
		t.Errorf("%d warps, want 8", len(seen))
	}
}
