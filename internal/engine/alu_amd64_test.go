//go:build amd64 && !race && !purego

package engine

import (
	"math/rand"
	"testing"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// TestALUKernels runs every fast form (those with no AVX2 kernel run their
// Go form both times) and any kernel (alu_amd64.s),
// and setp with every comparison, signed and unsigned, on registers and
// on a constant, through fastRun with the kernels and with the Go forms
// (hasAVX2 off), on random lanes (high words set, shift amounts around 32
// and 64, equal and extreme values), for a whole warp and for part of one,
// and wants the same registers and predicate masks.
func TestALUKernels(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 on this CPU: the kernels never run")
	}
	defer func(h bool) { hasAVX2 = h }(hasAVX2)
	type form struct {
		f    ir.Fast
		cmp  uint8
		sign bool
	}
	var forms []form
	for f := ir.FastNone + 1; f <= ir.FastSetp32Imm; f++ { // every form, the last declared last
		if !f.IsSetp32() {
			forms = append(forms, form{f: f})
		}
	}
	for _, f := range []ir.Fast{ir.FastSetp32, ir.FastSetp32Imm} {
		for _, cmp := range []uint8{ir.CmpEq, ir.CmpNe, ir.CmpLt, ir.CmpLe, ir.CmpGt, ir.CmpGe, ir.CmpLo, ir.CmpLs, ir.CmpHi, ir.CmpHs} {
			forms = append(forms, form{f, cmp, false}, form{f, cmp, true})
		}
	}
	special := []uint64{0, 1, 2, 31, 32, 33, 63, 64, 65, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 1 << 32, 1<<32 + 5, ^uint64(0), 1 << 63}
	rng := rand.New(rand.NewSource(3))
	val := func() uint64 {
		if rng.Intn(3) == 0 {
			return special[rng.Intn(len(special))] ^ uint64(rng.Intn(2))<<40
		}
		return rng.Uint64()
	}
	for i := 0; i < 400; i++ {
		var in [4][32]uint64
		for s := 1; s < 4; s++ {
			for l := range in[s] {
				in[s][l] = val()
			}
		}
		if rng.Intn(2) == 0 { // equal operands in some lanes
			for l := range in[1] {
				if rng.Intn(2) == 0 {
					in[2][l] = in[1][l] ^ uint64(rng.Intn(2))<<33
				}
			}
		}
		k := in[2][0]
		for l := range in[2] { // an immediate's slot: every lane the same
			in[3][l] = k
		}
		for _, fm := range forms {
			imm := fm.f >= ir.FastAdd32Imm
			code := []ir.Inst{{Fast: fm.f, Cmp: fm.cmp, Guard: -1, D: [4]int32{0, -1, -1, -1}, A: [5]int32{1, 2, 2, -1, -1}}}
			code[0].Type2 = ptxtype.U32
			if fm.sign {
				code[0].Type2 = ptxtype.S32
			}
			if imm {
				code[0].A[1] = 3
			}
			for _, exec := range []uint32{fullMask, uint32(rng.Uint32()) | 1} {
				var regs [2][]uint64
				var masks [2]uint32
				for v, on := range []bool{true, false} {
					hasAVX2 = on
					wp := &warp{regs: make([]uint64, 4*32)}
					for s := range in {
						copy(wp.regs[s*32:], in[s][:])
					}
					_, _, masks[v] = wp.fastRun(code, 0, 1, 1, exec)
					regs[v] = wp.regs
				}
				for l := 0; l < 4*32; l++ {
					if regs[0][l] != regs[1][l] {
						t.Fatalf("fast form %d cmp %d signed %v exec %#x: slot %d lane %d is %#x with AVX2, %#x without (a %#x b %#x)",
							fm.f, fm.cmp, fm.sign, exec, l/32, l%32, regs[0][l], regs[1][l], in[1][l%32], in[code[0].A[1]][l%32])
					}
				}
				if masks[0] != masks[1] {
					t.Fatalf("fast form %d cmp %d signed %v: mask %#x with AVX2, %#x without", fm.f, fm.cmp, fm.sign, masks[0], masks[1])
				}
			}
		}
	}
}
