package ir

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestTensorTypeFormsLowering: the forms testdata/tensor/wgmmatypes recorded
// lower (PTX 8.7's fp8 mma.sync shapes and f16 accumulators, m16n8k32 s4/u4,
// fp8 wgmma with f16 accumulators, sub-byte wmma; testdata/tensor/mma884's
// m8n8k4 f16 layouts), and the neighbouring forms
// warpsim does not simulate or the ISA lacks are positioned errors naming the
// instruction.
func TestTensorTypeFormsLowering(t *testing.T) {
	const head = ".version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<40>; .reg .f32 %f<40>; .reg .b64 %rd<8>; .reg .pred p;\n"
	for _, c := range []struct{ instr, err string }{
		{`mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e5m2.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, {%f5, %f6, %f7, %f8};`, ""},
		{`mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e4m3.f16 {%r1, %r2}, {%r3, %r4}, {%r5}, {%r6, %r7};`, ""},
		{`mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 {%r1, %r2}, {%r3, %r4, %r5, %r6}, {%r7, %r8}, {%r9, %r10};`, ""},
		{`mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7}, {%r9, %r10, %r11, %r12};`, ""},
		{`wgmma.mma_async.sync.aligned.m64n8k32.f16.e5m2.e4m3 {%r1, %r2}, %rd1, %rd2, p, 1, -1;`, ""},
		{`wmma.mma.sync.aligned.row.col.m8n8k32.s32.u4.u4.s32.satfinite {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};`, ""},
		{`wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};`, ""},
		{`wmma.load.a.sync.aligned.row.m8n8k128.global.b1 {%r1}, [%rd1], %r2;`, ""},
		// m8n8k4 with f16 inputs (testdata/tensor/mma884): every layout, f16
		// or f32 D and C except f16 D with f32 C (ptxas refuses it)
		{`mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2}, {%r3, %r4}, {%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16};`, ""},
		{`mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7, %r8}, {%r9, %r10, %r11, %r12};`, ""},
		{`mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2}, {%r3, %r4}, {%r9, %r10, %r11, %r12};`, ""},
		{`mma.sync.aligned.m8n8k4.col.col.f16.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7, %r8}, {%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16};`,
			"k.ptx:7:2: mma.sync.aligned.m8n8k4.col.col.f16.f16.f16.f32 is not a valid mma.sync"},
		{`mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3, %r4}, {%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16};`,
			"fragment 0 has 4 registers, mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 takes 8"},
		{`mma.sync.aligned.m8n8k4.col.row.f64.f64.f64.f64 {%rd1, %rd2}, {%rd3}, {%rd4}, {%rd5, %rd6};`,
			"k.ptx:7:2: mma.sync.aligned.m8n8k4.col.row.f64.f64.f64.f64 is not a valid mma.sync (this shape and type take only .row.col)"},
		{`mma.sync.aligned.m16n8k16.col.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};`,
			"is not a valid mma.sync (this shape and type take only .row.col)"},
		{`mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f16 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, {%r4, %r5};`,
			"k.ptx:7:2: mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f16 is not supported yet"},
		{`wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 {%r1, %r2}, %rd1, %rd2, p, 1, 1, 0, 0;`,
			"k.ptx:7:2: wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 is not supported yet"},
		{`wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};`,
			"k.ptx:7:2: wmma.mma.sync.aligned.m8n8k128.s32.b1.b1.s32 is not a valid wmma.mma"},
		{`wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.u4.s32 {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};`,
			"k.ptx:7:2: wmma.mma.sync.aligned.m8n8k32.s32.s4.u4.s32 is not a valid wmma.mma"},
		{`wmma.load.c.sync.aligned.row.m8n8k32.global.s4 {%r1}, [%rd1], %r2;`,
			"wmma .m8n8k32 .s4 fragments are not supported yet"},
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
