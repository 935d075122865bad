package ir

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestVideoLowering: the scalar video instructions lower in the forms the
// H100 was checked in (testdata/programs6/video_insns, compared by
// scalar.TestVideoMatchesH100); the forms whose H100 results warpsim does
// not model, byte selectors, merges and malformed types are errors naming
// the instruction and its line.
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
		{`vshl.u32.u32.u32.wrap.max %r1, %r2, %r3, %r4;`, "k.ptx:7:2: vshl.u32.u32.u32.wrap.max is not supported yet (a shift with a secondary .min or .max other than vshl.s32.s32.u32)"},
		{`vadd.u32.u32.u32.max %r1, %r2, %r3, %r4;`, "is not supported yet (an unsigned secondary .min or .max after vadd, vsub or vabsdiff)"},
		{`vadd.u32.u32.s32.sat %r1, %r2, %r3;`, ""},
		{`vadd.u32.s32.u32.sat %r1, %r2, %r3;`, "is not supported yet (an unsigned saturated result from a signed source)"},
		{`vsub.u32.u32.s32.sat %r1, %r2, %r3;`, "is not supported yet (an unsigned saturated result from a signed source)"},
		{`vadd.u32.u32.u32 %r1, %r2, %r3, %r4;`, "with a merge into c (d.dsel) is not supported yet"},
		{`vshl.u32.u32.s32.clamp %r1, %r2, %r3;`, "vshl and vshr a .u32 btype"},
		{`vadd.u32.u32 %r1, %r2, %r3;`, "needs .dtype.atype.btype"},
		{`vadd4.u32.u32.u32 %r1, %r2, %r3, %r4;`, "k.ptx:7:2: vadd4.u32.u32.u32 is not supported yet"},
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
