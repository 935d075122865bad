package ir

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestSparseMMALowering: the sparse forms lower with their metadata
// operand, and what the ISA does not allow or warpsim does not simulate is a
// positioned error naming the instruction.
func TestSparseMMALowering(t *testing.T) {
	const head = ".version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<40>; .reg .f32 %f<40>;\n"
	for _, c := range []struct{ instr, err string }{
		{`mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%f5, %f6, %f7, %f8}, %r9, 1;`, ""},
		{`mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r1, %r2}, {%r3, %r4}, {%r5, %r6}, {%r7, %r8}, %r9, 3;`, ""},
		{`mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.u8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10, %r11, %r12}, {%r13, %r14, %r15, %r16}, %r17, 0;`, ""},
		{`mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%f5, %f6, %f7, %f8}, %r9, 2;`,
			"k.ptx:7:2: mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32: sparsity selector 2 out of range (0…1 for this shape)"},
		{`mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%f5, %f6, %f7, %f8}, %r9, %r10;`,
			"e4m3.f32: the sparsity selector must be an integer constant"},
		{`mma.sp.sync.aligned.m16n8k128.row.col.s32.s4.s4.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10, %r11, %r12}, {%r13, %r14, %r15, %r16}, %r17, 0;`, ""},
		{`mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.s4.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r9, %r10}, {%r13, %r14, %r15, %r16}, %r17, 1;`, ""},
		{`mma.sp.sync.aligned.m16n8k128.row.col.s32.s4.s4.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10, %r11, %r12}, {%r13, %r14, %r15, %r16}, %r17, 1;`,
			"k.ptx:7:2: mma.sp.sync.aligned.m16n8k128.row.col.s32.s4.s4.s32: sparsity selector 1 out of range (0…0 for this shape)"},
		{`mma.sp.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {%r1, %r2, %r3, %r4}, {%r5}, {%r9}, {%r13, %r14, %r15, %r16}, %r17, 0;`,
			"k.ptx:7:2: mma.sp.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 is not supported yet"},
		{`mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8}, %r9, 0;`,
			"fragment 1 has 4 registers"},
	} {
		m, err := ptx.Parse("k.ptx", []byte(head+"\t"+c.instr+"\n\tret;\n}\n"))
		if err != nil {
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

// TestIntegerWGMMALowering: the integer and b1 wgmma forms lower; the forms
// the ISA lacks (b1 xor, satfinite b1, a wrong K) are errors naming them.
func TestIntegerWGMMALowering(t *testing.T) {
	const head = ".version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<40>; .reg .b64 %rd<8>; .reg .pred p;\n"
	for _, c := range []struct{ instr, err string }{
		{`wgmma.mma_async.sync.aligned.m64n16k32.satfinite.s32.u8.s8 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, %rd1, %rd2, p;`, ""},
		{`wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, %rd2, 1;`, ""},
		{`wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%r1, %r2, %r3, %r4}, %rd1, %rd2, p;`, ""},
		{`wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.xor.popc {%r1, %r2, %r3, %r4}, %rd1, %rd2, p;`,
			"wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.xor.popc is not a valid wgmma (b1 takes m64nNk256 and .and.popc)"},
		{`wgmma.mma_async.sync.aligned.m64n8k16.s32.s8.s8 {%r1, %r2, %r3, %r4}, %rd1, %rd2, p;`,
			"wgmma.mma_async.sync.aligned.m64n8k16.s32.s8.s8 is not a valid wgmma (s8/u8 take m64nNk32)"},
		{`wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, %rd2, p;`,
			"is not supported yet (b1 A from registers)"},
	} {
		m, err := ptx.Parse("k.ptx", []byte(head+"\t"+c.instr+"\n\tret;\n}\n"))
		if err != nil {
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
