package ir

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestVideoLowering: the video instructions lower in the forms the H100
// was checked in (testdata/video, compared by TestVideoProbeMatchesH100 at
// the repository root; testdata/programs6/video_insns) and the forms that
// follow the same rules; malformed types, modifiers, selectors, masks and
// operand counts are errors naming the instruction and its line, and so is
// vmad negating both the product and c, which ptxas refuses
// (testdata/video/heldout/diag/ptxas_negation.log); an unknown video
// instruction is not supported yet.
func TestVideoLowering(t *testing.T) {
	const head = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<20>;\n"
	for _, c := range []struct{ instr, err string }{
		{`vshr.u32.u32.u32.clamp.add %r1, %r2, %r3, %r4;`, ""},
		{`vshl.u32.u32.u32.clamp.add %r1, %r2, 5, %r4;`, ""},
		{`vshr.s32.s32.u32.wrap %r1, %r2, %r3;`, ""},
		{`vadd.s32.s32.s32.sat.add %r1, %r2, %r3, %r4;`, ""},
		{`vabsdiff.u32.s32.s32.add %r1, %r2, %r3, %r4;`, ""},
		{`vmax.u32.u32.u32.min %r1, %r2, %r3, %r4;`, ""},
		{`vmin.u32.s32.u32.sat %r1, %r2, %r3;`, ""},
		{`vshl.u32.u32.u32.clamp.sat %r1, %r2, %r3;`, ""},
		{`vshl.s32.s32.u32.wrap.max %r1, %r2, %r3, %r4;`, ""},
		{`vshl.u32.u32.u32.wrap.max %r1, %r2, %r3, %r4;`, ""},
		{`vadd.u32.u32.u32.max %r1, %r2, %r3, %r4;`, ""},
		{`vadd.u32.u32.s32.sat %r1, %r2, %r3;`, ""},
		{`vadd.u32.s32.u32.sat %r1, %r2, %r3;`, ""},
		{`vsub.u32.u32.s32.sat %r1, %r2, %r3;`, ""},
		{`vadd.u32.u32.u32 %r1, %r2, %r3, %r4;`, "a fourth operand c needs a secondary operation or a merge (d.dsel)"},
		{`vshl.u32.u32.s32.clamp %r1, %r2, %r3;`, "vshl needs a .u32 btype"},
		{`vadd.u32.u32 %r1, %r2, %r3;`, "vadd needs 3 types"},
		{`vadd.u32.u32.u32.wrap %r1, %r2, %r3;`, "vshl and vshr (and only they) take .clamp or .wrap"},
		// selectors, merges, vset, vmad and the SIMD forms
		{`vadd.s32.s32.s32 %r1, %r2.b1, %r3.h1;`, ""},
		{`vadd.u32.u32.u32.sat %r1.h1, %r2, %r3, %r4;`, ""},
		{`vadd.s32.s32.s32.sat %r1.b0, %r2, %r3, %r4;`, ""},
		{`vmax.s32.u32.u32.min %r1, %r2, %r3, %r4;`, ""},
		{`vadd.u32.u32.u32.add %r1.h1, %r2, %r3, %r4;`, "a merge into c (d.dsel) takes no secondary operation"},
		{`vadd.u32.u32.u32 %r1, %r2.b4, %r3;`, "bad selector .b4 on a"},
		{`vset.s32.u32.lt.max %r1, %r2, %r3, %r4;`, ""},
		{`vset.s32.u32 %r1, %r2, %r3;`, "vset needs a comparison"},
		{`vset.s32.u32.lt.sat %r1, %r2, %r3;`, "vset takes no .sat"},
		{`vmad.s32.u32.s32.sat.shr15 %r1, %r2.h0, -%r3, %r4;`, ""},
		{`vmad.u32.u32.u32.po %r1, %r2, %r3, %r4;`, ""},
		{`vmad.u32.u32.u32 %r1, -%r2, -%r3, -%r4;`, ""},
		{`vmad.u32.u32.u32 %r1, -%r2, %r3, -%r4;`, "k.ptx:7:2: vmad.u32.u32.u32: the product (-a xor -b) or c may be negated, not both (ptxas: Operand negation limited to either (source A xor source B) or source C)"},
		{`vmad.s32.s32.s32.sat %r1, %r2, -%r3, -%r4;`, "the product (-a xor -b) or c may be negated, not both"},
		{`vmad.u32.u32.u32.po %r1, %r2, %r3, -%r4;`, "a negated operand (-%r4) is only allowed in vmad without .po"},
		{`vmad.u32.u32.u32.add %r1, %r2, %r3, %r4;`, "vmad takes no secondary operation"},
		{`vadd.u32.u32.u32 %r1, -%r2, %r3;`, "a negated operand (-%r2) is only allowed in vmad"},
		{`add.u32 %r1, -%r2, %r3;`, "a negated register (-%r2) is only allowed in vmad"},
		{`vadd4.u32.u32.u32 %r1, %r2, %r3, %r4;`, ""},
		{`vavrg2.s32.s32.s32.sat %r1.h0, %r2.h21, %r3.h03, %r4;`, ""},
		{`vset4.u32.s32.ge.add %r1.b310, %r2.b7654, %r3.b0123, %r4;`, ""},
		{`vmin2.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;`, "vmin2 cannot saturate with a secondary accumulate"},
		{`vmax4.u32.u32.u32.min %r1, %r2, %r3, %r4;`, "vmax4 takes .add as its only secondary operation"},
		{`vadd2.u32.u32.u32 %r1, %r2, %r3;`, "takes 4 operands, found 3"},
		{`vadd2.u32.u32.u32 %r1.h01, %r2, %r3, %r4;`, "bad selector .h01 on d"},
		{`vadd2.u32.u32.u32 %r1, %r2.h4, %r3, %r4;`, "bad selector .h4 on a"},
		{`vadd4.u32.u32.u32 %r1, %r2, %r3.b8765, %r4;`, "bad selector .b8765 on b"},
		{`vadd4.u32.u32.u32 %r1, %r2, %r3, %r4.b0;`, "c takes no selector"},
		{`vadd8.u32.u32.u32 %r1, %r2, %r3, %r4;`, "k.ptx:7:2: vadd8.u32.u32.u32 is not supported yet"},
	} {
		m, err := ptx.Parse("k.ptx", []byte(head+"\t"+c.instr+"\n\tret;\n}\n"))
		if err != nil {
			if c.err != "" && strings.Contains(err.Error(), c.err) {
				continue
			}
			t.Fatalf("%s: parse: %v", c.instr, err)
		}
		_, err = Lower(m, nil)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.instr, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.instr, err, c.err)
		}
	}
}
