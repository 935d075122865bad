package ir

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestAsyncExtLowering: st.async, red.async, the shared-to-cluster bulk
// copy, cp.reduce.async.bulk, remote mbarrier arrivals, min/max.xorsign.abs
// and cvt.pack.sat lower; the forms the PTX ISA lacks or warpsim does not
// run are errors naming the instruction and its line.
func TestAsyncExtLowering(t *testing.T) {
	const head = ".version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<20>; .reg .b64 %rd<8>; .reg .b16 %rs<4>; .reg .f32 %f<4>;\n"
	for _, c := range []struct{ instr, err string }{
		{`st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%r1], {%r2, %r3, %r4, %r5}, [%r6];`, ""},
		{`st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b64 [%r1], {%rd2, %rd3}, [%r6];`, ""},
		{`red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%r1], %r2, [%r6];`, ""},
		{`red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%r1], %rd2, [%r6];`, ""},
		{`cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r1], [%r2], 256, [%r6];`, ""},
		{`cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%rd1], [%r2], 256;`, ""},
		{`cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.s32 [%r1], [%r2], 256, [%r6];`, ""},
		{`mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1], 2;`, ""},
		{`mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%r1], 16;`, ""},
		{`max.NaN.xorsign.abs.bf16x2 %r1, %r2, %r3;`, ""},
		{`cvt.pack.sat.s4.s32.b32 %r1, %r2, %r3, %r4;`, ""},
		{`red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.f32 [%r1], %f1, [%r6];`,
			"red.async does not take this operation on this type"},
		{`cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.xor.b64 [%r1], [%r2], 256, [%r6];`,
			"cp.reduce.async.bulk does not take this operation on this type"},
		{`cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.u32 [%rd1], [%r2], 256, %rd3;`,
			"k.ptx:7:2: cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.u32 is not supported yet (L2::cache_hint)"},
		{`mbarrier.try_wait.parity.shared::cluster.b64 %r1, [%r2], 0;`,
			"k.ptx:7:2: mbarrier.try_wait.parity.shared::cluster.b64 is not supported yet"},
		{`cvt.pack.u8.s32.b32 %r1, %r2, %r3, %r4;`, "expected cvt.pack.sat"},
		{`add.abs.f32 %f1, %f2, %f3;`, "k.ptx:7:2: add.abs.f32 is not supported yet"},
		{`min.abs.f32 %f1, %f2, %f3;`, "k.ptx:7:2: min.abs.f32 is not supported yet"},
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
