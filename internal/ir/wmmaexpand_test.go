package ir

import (
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
