package ir

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestLowerTMA: the TMA forms lower (a tensor map named by parameter, by
// register, in shared or global memory; tile and im2col modes), and the
// ones not simulated yet or malformed say so at their line.
func TestLowerTMA(t *testing.T) {
	const head = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 k_p, .param .align 64 .b8 k_tmap[128])
{
	.reg .pred %p<4>; .reg .b16 %rs<4>; .reg .b32 %r<80>; .reg .b64 %rd<8>;
`
	for _, c := range []struct{ instr, err string }{
		{`cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2}], [%r4];`, ""},
		{`cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [k_tmap, {%r2, %r3, %r5, %r6, %r7}], [%r4];`, ""},
		{`cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1, {%r2, %r3}], [%r4], %rs1;`, ""},
		{`cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1, {%r2, %r3}], [%r4], %rd2;`, ""},
		{`cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%rd1, {%r2, %r3, %r4}], [%r1];`, ""},
		{`cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.L2::cache_hint [%rd1, {%r2, %r3}], [%r1], %rd2;`, ""},
		{`cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd1, {%r2, %r3}], [%r1];`, ""},
		{`cp.reduce.async.bulk.tensor.1d.global.shared::cta.xor.bulk_group [%rd1, {%r2}], [%r1];`, ""},
		{`cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd1, {%r2, %r3}];`, ""},
		{`tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%r1], %rd1;`, ""},
		{`tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 1, %r2;`, ""},
		{`tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%r1], 0, %rd2;`, ""},
		{`tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%r1], 1;`, ""},
		{`tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [%r1], 128;`, ""},
		{`fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;`, ""},
		{`cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3, %r5}], [%r4], {%rs1};`, ""},
		{`cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [k_tmap, {%r2, %r3, %r5, %r6, %r7}], [%r4], {%rs1, %rs2, %rs3}, %rs1;`, ""},
		{`cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1, {%r2, %r3, %r5, %r6}], [%r4], {%rs1, %rs2}, %rd2;`, ""},
		{`cp.async.bulk.prefetch.tensor.4d.L2.global.im2col [%rd1, {%r2, %r3, %r5, %r6}], {%rs1, %rs2};`, ""},
		{`cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3, %r5, %r6}], [%r4], {%rs1};`,
			"expected {2 im2col offsets} after the mbarrier"},
		{`cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4], {%rs1};`,
			"im2col mode needs a .3d to .5d tensor"},
		{`cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%rd1, {%r2, %r3, %r4}], [%r1];`,
			"is not supported yet (im2col_no_offs, im2col::w and gather modes)"},
		{`cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2}], [%r4];`,
			"expected [tensor-map, {2 coordinates}]"},
		{`tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [%r1], 64;`,
			"expected [global], [shared], 128"},
		{`tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 5, %r2;`, "the ordinal must be a constant 0 to 4"},
	} {
		m, err := ptx.Parse("k.ptx", []byte(head+"\t"+c.instr+"\n\tret;\n}\n"))
		if err != nil {
			t.Fatalf("%s: parse: %v", c.instr, err)
		}
		if errs := Check(m); len(errs) > 0 {
			t.Fatalf("%s: check: %v", c.instr, errs)
		}
		_, err = Lower(m, nil)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.instr, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "k.ptx:7:2: ")):
			t.Errorf("%s: error %v, want k.ptx:7:2: … %q", c.instr, err, c.err)
		}
	}
}
