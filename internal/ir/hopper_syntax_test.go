package ir

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// hopperSyntax are instructions in the generic syntax of Hopper's
// asynchronous, cluster and tensor-core instructions (brace vectors, "::"
// qualifiers, tensor coordinates inside an address, descriptors as 64-bit
// operands, sinks): the parser must take every one, and lowering must either
// lower it or refuse it as "<instruction> is not supported yet" at its line,
// never with another error, so the instructions' semantics are all that
// lowering has to add.
var hopperSyntax = []string{
	`mov.u32 %r7, %cluster_ctarank;`,
	`mov.u32 %r7, %clusterid.x;`,
	`mov.u32 %r7, %is_explicit_cluster;`,
	`mbarrier.init.shared::cta.b64 [bar], 1;`,
	`mbarrier.init.shared.b64 [%r1], %r2;`,
	`fence.mbarrier_init.release.cluster;`,
	`fence.proxy.async.shared::cta;`,
	`mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], %r2;`,
	`mbarrier.arrive.expect_tx.release.cta.shared::cluster.b64 _, [%r1], 16;`,
	`mbarrier.arrive.shared::cta.b64 %rd2, [%r1];`,
	`mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;`,
	`mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 %p1, [%r1], %r2, 1000;`,
	`mbarrier.test_wait.shared::cta.b64 %p1, [%r1], %rd2;`,
	`mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 16;`,
	`mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 16;`,
	`mbarrier.pending_count.b64 %r3, %rd2;`,
	`mbarrier.inval.shared::cta.b64 [%r1];`,
	`cp.async.ca.shared.global [%r1], [%rd1], 4, %r2;`,
	`cp.async.cg.shared.global.L2::128B [%r1], [%rd1], 16, %r2;`,
	`cp.async.cg.shared.global [ %r1 + 0 ], [ %rd1 + 0 ], 0x10, %r2;`,
	`cp.async.commit_group;`,
	`cp.async.wait_group 2;`,
	`cp.async.wait_all;`,
	`cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r1];`,
	`cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3];`,
	`cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], %r2;`,
	`cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];`,
	`cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1, {%r2, %r3}], [%r4], %rs1;`,
	`cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%rd1, {%r2, %r3, %r4}], [%r1];`,
	`cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd1, {%r2, %r3}], [%r1];`,
	`cp.async.bulk.commit_group;`,
	`cp.async.bulk.wait_group.read 0;`,
	`prefetch.tensormap [%rd1];`,
	`prefetch.param.tensormap [k_tmap];`,
	`mapa.shared::cluster.u32 %r5, %r1, %r2;`,
	`ld.shared::cluster.u32 %r6, [%r5];`,
	`ld.shared::cta.u32 %r6, [%r5];`,
	`st.shared::cluster.u32 [%r5], %r6;`,
	`atom.shared::cluster.add.u32 %r6, [%r5], 1;`,
	`red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r5], 1, [%r1];`,
	`barrier.cluster.wait.aligned;`,
	`barrier.cluster.arrive.relaxed.aligned;`,
	`st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r5], %r6, [%r1];`,
	`ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r5];`,
	`ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {%r1, %r2}, [%r5];`,
	`stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r5], {%r1, %r2, %r3, %r4};`,
	`movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;`,
	`mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};`,
	`mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r11, %r12, %r13, %r14};`,
	`mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%f5, %f6, %f7, %f8}, %r9, 0x0;`,
	`wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], %r9;`,
	`wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};`,
	`wgmma.fence.sync.aligned;`,
	`wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, %rd1, %rd2, %p1, 1, 1, 0, 1;`,
	`wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, %rd2, p, 1, 1, 1;`,
	`wgmma.commit_group.sync.aligned;`,
	`wgmma.wait_group.sync.aligned 0;`,
	`elect.sync %r1|%p1, -1;`,
	`elect.sync _|%p1, 0xffffffff;`,
	`setmaxnreg.inc.sync.aligned.u32 240;`,
	`setmaxnreg.dec.sync.aligned.u32 40;`,
	`griddepcontrol.wait;`,
	`griddepcontrol.launch_dependents;`,
	`tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%r1], %rd1;`,
	`fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;`,
}

func TestHopperSyntax(t *testing.T) {
	const head = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 k_p, .param .align 64 .b8 k_tmap[128])
.explicitcluster
.reqnctapercluster 2, 1, 1
{
	.reg .pred %p<4>; .reg .pred p; .reg .b16 %rs<4>; .reg .b32 %r<80>; .reg .f32 %f<80>; .reg .b64 %rd<8>;
	.shared .align 8 .b64 bar;
`
	for i, instr := range hopperSyntax {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			m, err := ptx.Parse("k.ptx", []byte(head+"\t"+instr+"\n\tret;\n}\n"))
			if err != nil {
				t.Fatalf("%s: parse: %v", instr, err)
			}
			if errs := Check(m); len(errs) > 0 {
				t.Fatalf("%s: check: %v", instr, errs)
			}
			_, err = Lower(m, nil)
			if err == nil {
				return
			}
			name := instr[:strings.IndexAny(instr, " ;")]
			if strings.HasPrefix(instr, "mov.u32 %r7, ") {
				name = "special register " + strings.TrimSuffix(instr[len("mov.u32 %r7, "):], ";")
			}
			// "... is not supported yet", optionally followed by " (why)".
			want := "k.ptx:10:2: " + name + " is not supported yet"
			if msg := err.Error(); msg != want && !strings.HasPrefix(msg, want+" (") || strings.Contains(msg, "\n") {
				t.Errorf("%s: lowering says %q, want nil or %q", instr, err, want)
			}
		})
	}
}
