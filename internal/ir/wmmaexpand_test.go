package ir

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/tensor"
	"github.com/warpsim/warpsim/ptx"
)

// TestWmmaAccessesAsPtxas checks the expansion against nvcc 13's SASS of
// every fragment kind (testdata/programs3/wmmamem/h100/mb3.P.sass.gz,
// expand.py; s8 B row-major: testdata/programs3/wmmagemm): the loads or stores ptxas makes of one wmma.load/store, the
// MOVMs, and the lines (rows of the tile) each one touches.
func TestWmmaAccessesAsPtxas(t *testing.T) {
	cases := []struct {
		name       string
		use        byte
		shape      string
		elem       tensor.Elem
		col        bool
		space      ptx.Space
		load       bool
		insts      int // SASS loads or stores
		movm       int
		rowsPerReq int // storage rows (lines, at a 64-element stride) a request touches
	}{
		{"f16 a row global: 4 LDG.E", 'a', "m16n16k16", tensor.F16, false, ptx.SpaceGlobal, true, 4, 0, 8},
		{"f16 a col global: 4 LDG.E, 4 MOVM", 'a', "m16n16k16", tensor.F16, true, ptx.SpaceGlobal, true, 4, 4, 8},
		{"f16 b row global: 4 LDG.E, 4 MOVM", 'b', "m16n16k16", tensor.F16, false, ptx.SpaceGlobal, true, 4, 4, 8},
		{"f16 b col global: 4 LDG.E", 'b', "m16n16k16", tensor.F16, true, ptx.SpaceGlobal, true, 4, 0, 8},
		{"f16 a row shared: 1 LDSM.x4", 'a', "m16n16k16", tensor.F16, false, ptx.SpaceShared, true, 1, 0, 8},
		{"f16 a col shared: 1 LDSM.MT88.x4", 'a', "m16n16k16", tensor.F16, true, ptx.SpaceShared, true, 1, 0, 8},
		{"f16 a m32n8k16 global: 8 LDG.E", 'a', "m32n8k16", tensor.F16, false, ptx.SpaceGlobal, true, 8, 0, 8},
		{"f16 b m8n32k16 shared: 2 LDSM.x4", 'b', "m8n32k16", tensor.F16, true, ptx.SpaceShared, true, 2, 0, 8},
		{"bf16 a row generic: 4 LD.E", 'a', "m16n16k16", tensor.BF16, false, ptx.SpaceGeneric, true, 4, 0, 8},
		{"tf32 a row generic: 4 LD.E", 'a', "m16n16k8", tensor.TF32, false, ptx.SpaceGeneric, true, 4, 0, 8},
		{"tf32 a col generic: 4 LD.E of 4 lines", 'a', "m16n16k8", tensor.TF32, true, ptx.SpaceGeneric, true, 4, 0, 4},
		{"tf32 b row generic: 4 LD.E of 4 lines", 'b', "m16n16k8", tensor.TF32, false, ptx.SpaceGeneric, true, 4, 0, 4},
		{"s8 a row global: 2 LDG.E", 'a', "m16n16k16", tensor.S8, false, ptx.SpaceGlobal, true, 2, 0, 8},
		{"s8 b col shared: 1 LDSM.x2", 'b', "m16n16k16", tensor.S8, true, ptx.SpaceShared, true, 1, 0, 8},
		// testdata/programs3/wmmagemm/h100/wg.sass.gz (gg, gs of s8):
		// MOVM and LDSM move 16-bit elements, so an s8 operand the other
		// way round is a byte load an element.
		{"s8 b row global: 8 LDG.E.U8", 'b', "m16n16k16", tensor.S8, false, ptx.SpaceGlobal, true, 8, 0, 4},
		{"s8 b row shared: 8 LDS.U8", 'b', "m16n16k16", tensor.S8, false, ptx.SpaceShared, true, 8, 0, 4},
		{"f64 a row generic: 1 LD.E.64", 'a', "m8n8k4", tensor.F64, false, ptx.SpaceGeneric, true, 1, 0, 8},
		{"f64 c row generic: 1 LD.E.128", 'c', "m8n8k4", tensor.F64, false, ptx.SpaceGeneric, true, 1, 0, 8},
		{"f16 c row shared: 4 LDS", 'c', "m16n16k16", tensor.F16, false, ptx.SpaceShared, true, 4, 0, 8},
		{"f32 c row global: 4 LDG.E.64", 'c', "m16n16k16", tensor.F32, false, ptx.SpaceGlobal, true, 4, 0, 8},
		{"f32 c col global: 8 LDG.E", 'c', "m16n16k16", tensor.F32, true, ptx.SpaceGlobal, true, 8, 0, 4},
		{"s32 c row shared: 4 LDS.64", 'c', "m16n16k16", tensor.S32, false, ptx.SpaceShared, true, 4, 0, 8},
		{"f16 d col store global: 4 STG.E, MOVM", 'd', "m16n16k16", tensor.F16, true, ptx.SpaceGlobal, false, 4, 4, 8},
		{"f32 d row store shared: 4 STS.64", 'd', "m16n16k16", tensor.F32, false, ptx.SpaceShared, false, 4, 0, 8},
		{"f32 d col store global: 8 STG.E", 'd', "m16n16k16", tensor.F32, true, ptx.SpaceGlobal, false, 8, 0, 4},
		{"f64 d row store generic: 1 ST.E.128", 'd', "m8n8k4", tensor.F64, false, ptx.SpaceGeneric, false, 1, 0, 8},
	}
	for _, c := range cases {
		kind := c.use
		if kind == 'd' {
			kind = 'c'
		}
		f, err := tensor.WMMAFrag(kind, c.shape, c.elem)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		to := TensorOperands{Frag: f, Use: c.use, Trans: c.col, DstSpace: c.space}
		a := WmmaAccesses(&to, c.load)
		if a.Insts != c.insts || a.Movm != c.movm || a.BlockRows != c.rowsPerReq {
			t.Errorf("%s: %d instructions, %d MOVM, %d rows a request; want %d, %d, %d", c.name, a.Insts, a.Movm, a.BlockRows, c.insts, c.movm, c.rowsPerReq)
		}
		if got := a.Blocks() * a.BlockRows * a.BlockBytes; got != a.TileRows*a.TileRowBytes {
			t.Errorf("%s: blocks cover %d bytes of a %d-byte tile", c.name, got, a.TileRows*a.TileRowBytes)
		}
	}
}

// wmmaStep is one k step of a wmma GEMM as nvcc writes it (wg.cu's gg):
// load a, load b, an optional conversion of each element (tf32's
// __float_to_tf32: mov to an f32 register, cvt.rna.tf32.f32, mov back),
// then the MMA. typ is the wmma type and shape suffix, acc the
// accumulators' type, frag the registers of a and of b.
func wmmaStep(shape, typ, acc string, fa, fb int, bLayout string, convert bool) string {
	var b strings.Builder
	regs := func(from, n int) string {
		var r []string
		for i := range n {
			r = append(r, fmt.Sprintf("%%r%d", from+i))
		}
		return "{" + strings.Join(r, ", ") + "}"
	}
	nacc := 8
	accRegs := func() string {
		var r []string
		for i := range nacc {
			if acc == "s32" {
				r = append(r, fmt.Sprintf("%%r%d", 40+i))
			} else {
				r = append(r, fmt.Sprintf("%%f%d", 40+i))
			}
		}
		return "{" + strings.Join(r, ", ") + "}"
	}
	b.WriteString(".reg .b32 %r<64>;\n.reg .f32 %f<64>;\n.reg .b64 %rd<4>;\n")
	b.WriteString("ld.param.u64 %rd0, [p0];\nld.param.u64 %rd1, [p1];\n")
	fmt.Fprintf(&b, "wmma.load.a.sync.aligned.row.%s.global.%s %s, [%%rd0], 64;\n", shape, typ, regs(0, fa))
	fmt.Fprintf(&b, "wmma.load.b.sync.aligned.%s.%s.global.%s %s, [%%rd1], 64;\n", bLayout, shape, typ, regs(16, fb))
	a, bb := regs(0, fa), regs(16, fb)
	if convert {
		var ca, cb []string
		for i := range fa + fb {
			src := i
			if i >= fa {
				src = 16 + i - fa
			}
			fmt.Fprintf(&b, "mov.b32 %%f%d, %%r%d;\ncvt.rna.tf32.f32 %%r%d, %%f%d;\n", i, src, 24+i, i)
			if i < fa {
				ca = append(ca, fmt.Sprintf("%%r%d", 24+i))
			} else {
				cb = append(cb, fmt.Sprintf("%%r%d", 24+i))
			}
		}
		a, bb = "{"+strings.Join(ca, ", ")+"}", "{"+strings.Join(cb, ", ")+"}"
	}
	fmt.Fprintf(&b, "wmma.mma.sync.aligned.row.%s.%s.%s.%s %s, %s, %s, %s;\n", bLayout, shape, acc, mmaTypes(typ, acc), accRegs(), a, bb, accRegs())
	fmt.Fprintf(&b, "wmma.store.d.sync.aligned.row.%s.global.%s [%%rd0], %s, 64;\nret;", shape, acc, accRegs())
	return b.String()
}

func mmaTypes(typ, acc string) string {
	if typ == "tf32" || typ == "bf16" {
		return typ + "." + typ + "." + acc
	}
	if typ == "s8" {
		return "s8.s8.s32"
	}
	return acc
}

// TestWmmaRoundsAsPtxas checks ptxas's order inside a wmma k step, read
// from nvcc 13's SASS of testdata/programs3/wmmagemm's gg loops
// (h100/wg.sass.gz): the round trips the step's MMA waits for a
// fragment's loads (ir.WmmaAccess.Rounds). f16 and bf16 issue every load
// of the step before the first HMMA.16816 (one); tf32 converted in place
// goes a k-slice of HMMA.1684 at a time (five LD.E, four FSETP+IADD, two
// HMMA, then the rest: two); s8 with B row-major loads half of B's bytes,
// packs them, the other half, packs, and only then A (three for B, one for
// A; two of B's three are its own halves, sent one after the other, which
// WmmaGroupRounds takes through the memory system: ir.WmmaAccess.Groups).
func TestWmmaRoundsAsPtxas(t *testing.T) {
	for _, c := range []struct {
		name                  string
		shape, typ, acc, bLay string
		fa, fb                int
		convert               bool
		wantA, wantB          int
		wantGroupsA           int
		wantGroupsB           int
	}{
		{"f16, B row-major", "m16n16k16", "f16", "f32", "row", 8, 8, false, 1, 1, 1, 1},
		{"bf16, B row-major", "m16n16k16", "bf16", "f32", "row", 4, 4, false, 1, 1, 1, 1},
		{"tf32 converted", "m16n16k8", "tf32", "f32", "row", 4, 4, true, 2, 2, 2, 1},
		{"tf32 as loaded", "m16n16k8", "tf32", "f32", "row", 4, 4, false, 1, 1, 1, 1},
		{"s8, B row-major", "m16n16k16", "s8", "s32", "row", 2, 2, false, 1, 3, 1, 2},
		{"s8, B column-major", "m16n16k16", "s8", "s32", "col", 2, 2, false, 1, 1, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := lowerOne(t, wmmaStep(c.shape, c.typ, c.acc, c.fa, c.fb, c.bLay, c.convert))
			got, groups := map[byte]int{}, map[byte]int{}
			for _, in := range f.Code {
				if in.Op == OpTensor && in.Mode == TensorWmmaLoad {
					to := f.TensorOps[in.Imm]
					got[to.Use], groups[to.Use] = to.Access.Rounds, to.Access.Groups
				}
			}
			if got['a'] != c.wantA || got['b'] != c.wantB {
				t.Errorf("rounds A %d, B %d; want %d, %d", got['a'], got['b'], c.wantA, c.wantB)
			}
			if groups['a'] != c.wantGroupsA || groups['b'] != c.wantGroupsB {
				t.Errorf("groups of its own loads A %d, B %d; want %d, %d", groups['a'], groups['b'], c.wantGroupsA, c.wantGroupsB)
			}
		})
	}
}

// TestWmmaReuseAsPtxas checks which wmma.loads ptxas gives the registers
// of the step before (ir.WmmaAccess.Reuse), from nvcc 13's SASS of
// testdata/programs3/wmmagemm (h100/wg.sass.gz): in the k loops of gg
// (f16, bf16, tf32, s8; four steps a body) every step's LDG/LD writes the
// registers the previous step's HMMA or IMMA read, and issues after it;
// gs's LDSM of a sub-step follow the HMMAs that read their registers. In
// straight code (programs3's wmma_f64, its eight steps unrolled by nvcc)
// ten of the sixteen LD.E.64 are above the first DMMA, in registers of
// their own; an accumulator's load is not a step's fragment.
func TestWmmaReuseAsPtxas(t *testing.T) {
	loop := func(step string) string {
		step = strings.Replace(step, ".reg .b64 %rd<4>;\n", ".reg .b64 %rd<4>;\n.reg .pred %p<2>;\nmov.u32 %r63, 0;\n", 1)
		step = strings.Replace(step, "wmma.load.a", "$L_k:\nwmma.load.a", 1)
		return strings.Replace(step, "wmma.store", "add.s32 %r63, %r63, 1;\nsetp.lt.u32 %p1, %r63, 8;\n@%p1 bra $L_k;\nwmma.store", 1)
	}
	straight := func(step string) string {
		i, j := strings.Index(step, "wmma.load.a"), strings.Index(step, "wmma.store")
		return step[:j] + step[i:j] + step[j:]
	}
	accLoop := func(step string) string {
		step = loop(step)
		return strings.Replace(step, "$L_k:\n", "$L_k:\nwmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f40, %f41, %f42, %f43, %f44, %f45, %f46, %f47}, [%rd1], 64;\n", 1)
	}
	f16 := wmmaStep("m16n16k16", "f16", "f32", 8, 8, "row", false)
	s8 := wmmaStep("m16n16k16", "s8", "s32", 2, 2, "row", false)
	tf32 := wmmaStep("m16n16k8", "tf32", "f32", 4, 4, "row", true)
	for _, c := range []struct {
		name  string
		code  string
		wantA bool // every A and B load; C never
	}{
		{"gg f16 k loop", loop(f16), true},
		{"gg s8 k loop, B row-major", loop(s8), true},
		{"gg tf32 k loop, converted", loop(tf32), true},
		{"two steps in straight code", straight(f16), false},
		{"one step, no loop", f16, false},
		{"k loop loading its accumulator", accLoop(f16), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := lowerOne(t, c.code)
			n := 0
			for _, in := range f.Code {
				if in.Op != OpTensor || in.Mode != TensorWmmaLoad {
					continue
				}
				to := f.TensorOps[in.Imm]
				want := c.wantA && to.Use != 'c'
				if to.Access.Reuse != want {
					t.Errorf("load of %c: Reuse %v, want %v", to.Use, to.Access.Reuse, want)
				}
				n++
			}
			if n < 2 {
				t.Fatalf("%d wmma.loads", n)
			}
		})
	}
}

// TestWmmaSliceGroups checks which HMMA.1684 k-slice each request of a
// converted tf32 fragment is grouped with (WmmaAccess.Group, Slices): the
// k values a request reads, from its block's place in the tile — the
// block's columns for a tile stored the MMA's way round (A row-major, B
// column-major: k along each storage row), its storage rows for one
// stored the other way round (B row-major) — must be the group's slice,
// as ptxas issues them (testdata/timing/wmmatf32, wt.sass's gv of tf32:
// each slice's loads, conversions and HMMAs before the next slice's
// loads). A fragment as loaded (no conversion) has one group, and so has
// a converted B: ptxas's first group of a row-major B step already reads
// a line of its second slice (wg.sass's gg of tf32), which the model
// keeps as an L2 hit (WmmaRounds).
func TestWmmaSliceGroups(t *testing.T) {
	for _, bLay := range []string{"row", "col"} {
		for _, convert := range []bool{true, false} {
			f := lowerOne(t, wmmaStep("m16n16k8", "tf32", "f32", 4, 4, bLay, convert))
			aCol := convert && bLay == "row"
			if aCol {
				// A column-major: the same tile as B row-major's, its
				// storage rows the k values.
				f = lowerOne(t, strings.Replace(wmmaStep("m16n16k8", "tf32", "f32", 4, 4, bLay, convert), "wmma.load.a.sync.aligned.row", "wmma.load.a.sync.aligned.col", 1))
			}
			for _, in := range f.Code {
				if in.Op != OpTensor || in.Mode != TensorWmmaLoad {
					continue
				}
				to := f.TensorOps[in.Imm]
				a := to.Access
				name := fmt.Sprintf("%c (A col-major %v, B %s) convert=%v", to.Use, aCol, bLay, convert)
				if !convert || to.Use == 'b' {
					if a.Groups != 1 || a.Slices {
						t.Errorf("%s: groups %d, slices %v; want 1, false", name, a.Groups, a.Slices)
					}
					continue
				}
				if a.Groups != 2 || !a.Slices || a.Insts != a.Blocks() {
					t.Fatalf("%s: groups %d, slices %v, %d requests of %d blocks; want 2 slices, a request a block", name, a.Groups, a.Slices, a.Insts, a.Blocks())
				}
				kAlongRow := to.Use == 'a' && !aCol || to.Use == 'b' && bLay == "col"
				perRow := a.TileRowBytes / a.BlockBytes
				for i := range a.Insts {
					br, bc := i/perRow, i%perRow
					k := br * a.BlockRows // first k of the block: its storage row
					if kAlongRow {
						k = bc * a.BlockBytes / 4 // its first column
					}
					if g := a.Group(i, a.Insts, a.Groups); g != k/4 {
						t.Errorf("%s: request %d (k from %d) in group %d, want %d", name, i, k, g, k/4)
					}
				}
			}
		}
	}
}
