#!/usr/bin/env python3
"""Writes wgmma.ptx: warpgroup-MMA and TMA/bulk-copy microbenchmarks, the
same PTX run on the H100 (mb.cu loads it with the driver API) and by
internal/timing TestWgmmaMicrobenchmarks / TestBulkCopyMicrobenchmarks.

wg_<type>_n<N>_lat: per iteration one wgmma.mma_async m64nNkK (A and B from
  shared memory through descriptors), commit_group, wait_group 0: a dependent
  chain (cycles per iteration = the wgmma's latency).
wg_<type>_n<N>_thr: per iteration 4 wgmma on the same accumulators, one
  commit_group, wait_group 1: the pipe's throughput.
Lane 0 of each warp stores the %clock64 cycles of its loop at p_out[warp].

bulk: thread 0 times p_iters rounds of mbarrier.arrive.expect_tx +
  cp.async.bulk (global -> shared, p_bytes) + mbarrier.try_wait.parity;
  p_out[2b] = the first round's cycles, p_out[2b+1] = the others' sum, for
  block b (a grid of them: many SMs copying at once).
tile: the same with cp.async.bulk.tensor.2d of one box of the tensor map.
cpmbar: 32 threads' cp.async.cg of 16 bytes each, completed on an mbarrier
  by cp.async.mbarrier.arrive.noinc, then mbarrier.try_wait.parity.
"""
import sys

TYPES = [  # name, K, accumulator, instruction tail, extra operands
    ("f16", 16, "f32", "f32.f16.f16", ", 1, 1, 0, 0"),
    ("bf16", 16, "f32", "f32.bf16.bf16", ", 1, 1, 0, 0"),
    ("tf32", 8, "f32", "f32.tf32.tf32", ", 1, 1"),
    ("e4m3", 32, "f32", "f32.e4m3.e4m3", ", 1, 1"),
    ("s8", 32, "s32", "s32.s8.s8", ""),
]
NS = [8, 64, 128, 256]
THR = 4  # wgmma per group in the throughput kernels

out = []
w = out.append
w("// Written by gen_wgmma.py: wgmma and TMA/bulk-copy microbenchmarks (see there).")
w(".version 8.0\n.target sm_90a\n.address_size 64\n")
w(".shared .align 128 .b8 wsm[16384];")
w(".shared .align 8 .b64 mbar;")
w(".extern .shared .align 128 .b8 dsm[];\n")


def wg_kernel(t, n, mode):
    name, k, acc, tail, extra = t
    nd = n // 2
    regs = ",".join("%%d%d" % i for i in range(nd))
    mma = "\twgmma.mma_async.sync.aligned.m64n%dk%d.%s {%s}, %%da, %%da, %%sd%s;" % (n, k, tail, regs, extra)
    w(".visible .entry wg_%s_n%d_%s(.param .u64 p_out, .param .u32 p_iters)\n{" % (name, n, mode))
    w("\t.reg .%s %%d<%d>;" % ("f32" if acc == "f32" else "b32", nd))
    w("\t.reg .b64 %t<3>;\n\t.reg .b64 %o, %da, %off;")
    w("\t.reg .b32 %i, %n, %tx, %nt, %w, %a, %s, %z;\n\t.reg .pred %p, %sd;")
    w("\tmov.u32 %tx, %tid.x;\n\tmov.u32 %nt, %ntid.x;\n\tshl.b32 %nt, %nt, 4;")
    w("\tmov.u32 %a, wsm;\n\tmov.u32 %z, 0;\n\tshl.b32 %s, %tx, 4;")
    w("$Z:\n\tsetp.lt.u32 %p, %s, 16384;\n\t@!%p bra $ZD;\n\tadd.u32 %w, %a, %s;")
    w("\tst.shared.v4.u32 [%w], {%z, %z, %z, %z};\n\tadd.u32 %s, %s, %nt;\n\tbra $Z;\n$ZD:")
    w("\tbar.sync 0;\n\tfence.proxy.async.shared::cta;")
    # descriptor: start address >> 4, LBO 128, SBO 256, no swizzle
    w("\tcvt.u64.u32 %da, %a;\n\tshr.u64 %da, %da, 4;\n\tand.b64 %da, %da, 16383;")
    w("\tor.b64 %da, %da, 68720001024;")  # (16 << 32) | (8 << 16)
    for i in range(nd):
        w("\tmov.%s %%d%d, %s;" % ("f32" if acc == "f32" else "b32", i, "0f00000000" if acc == "f32" else "0"))
    w("\tld.param.u32 %n, [p_iters];\n\tsetp.eq.u32 %sd, %n, %n;\n\tmov.u32 %i, 0;")
    w("\twgmma.fence.sync.aligned;\n\tbar.sync 0;\n\tmov.u64 %t0, %clock64;\n$L_loop:")
    if mode == "lat":
        w(mma)
        w("\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;")
    else:
        for _ in range(THR):
            w(mma)
        w("\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 1;")
    w("\tadd.u32 %i, %i, 1;\n\tsetp.lt.u32 %p, %i, %n;\n\t@%p bra $L_loop;")
    w("\twgmma.wait_group.sync.aligned 0;\n\tmov.u64 %t1, %clock64;\n\tsub.s64 %t2, %t1, %t0;")
    w("\tld.param.u64 %o, [p_out];\n\tshr.u32 %w, %tx, 5;\n\tmul.wide.u32 %off, %w, 8;\n\tadd.u64 %o, %o, %off;")
    w("\tand.b32 %w, %tx, 31;\n\tsetp.eq.u32 %p, %w, 0;\n\t@%p st.global.u64 [%o], %t2;")
    if acc == "f32":
        w("\tsetp.eq.f32 %p, %d0, 0f4640E400;")
    else:
        w("\tsetp.eq.s32 %p, %d0, 12345;")
    w("\t@%p st.global.u32 [%o+256], %tx;\n\tret;\n}\n")


for t in TYPES:
    for n in NS:
        for mode in ("lat", "thr"):
            wg_kernel(t, n, mode)


def copy_kernel(name, params, issue):
    w(".visible .entry %s(.param .u64 p_out, %s, .param .u32 p_iters, .param .u32 p_bytes)\n{" % (name, params))
    w("\t.reg .b64 %t<3>;\n\t.reg .b64 %o, %src, %sum;\n\t.reg .b32 %i, %n, %tx, %bar, %dst, %bytes, %ph, %c0;\n\t.reg .pred %p;")
    w("\tmov.u32 %tx, %tid.x;\n\tsetp.ne.u32 %p, %tx, 0;\n\t@%p bra $END;")
    w("\tmov.u32 %bar, mbar;\n\tmov.u32 %dst, dsm;\n\tmov.u32 %c0, 0;")
    w("\tmbarrier.init.shared::cta.b64 [%bar], 1;\n\tfence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;")
    w("\tld.param.u32 %n, [p_iters];\n\tld.param.u32 %bytes, [p_bytes];\n\tld.param.u64 %o, [p_out];")
    w("\tmov.u32 %i, %ctaid.x;\n\tmul.wide.u32 %sum, %i, 16;\n\tadd.u64 %o, %o, %sum;")
    w("\tmov.u32 %i, 0;\n\tmov.u32 %ph, 0;\n\tmov.u64 %sum, 0;\n$L_loop:")
    w("\tmov.u64 %t0, %clock64;")
    w("\tmbarrier.arrive.expect_tx.shared::cta.b64 _, [%bar], %bytes;")
    w(issue)
    w("$W:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p, [%bar], %ph;\n\t@!%p bra $W;")
    w("\tmov.u64 %t1, %clock64;\n\tsub.s64 %t2, %t1, %t0;\n\txor.b32 %ph, %ph, 1;")
    w("\tsetp.eq.u32 %p, %i, 0;\n\t@%p st.global.u64 [%o], %t2;\n\t@!%p add.u64 %sum, %sum, %t2;")
    w("\tadd.u32 %i, %i, 1;\n\tsetp.lt.u32 %p, %i, %n;\n\t@%p bra $L_loop;")
    w("\tst.global.u64 [%o+8], %sum;\n$END:\n\tret;\n}\n")


copy_kernel("bulk", ".param .u64 p_src",
            "\tld.param.u64 %src, [p_src];\n\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%dst], [%src], %bytes, [%bar];")
copy_kernel("tile", ".param .align 64 .b8 p_map[128]",
            "\tmov.b64 %src, p_map;\n\tcvta.param.u64 %src, %src;\n\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%dst], [%src, {%c0, %c0}], [%bar];")

# cpmbar: each of the block's 32 threads cp.async.cg's 16 bytes (512 in all)
# per round, then cp.async.mbarrier.arrive.noinc on a barrier of 32 and
# mbarrier.try_wait.parity; thread 0 stores the rounds' cycles as bulk does.
w(""".visible .entry cpmbar(.param .u64 p_out, .param .u64 p_src, .param .u32 p_iters)
{
\t.reg .b64 %t<3>;
\t.reg .b64 %o, %src, %sum, %off;
\t.reg .b32 %i, %n, %tx, %bar, %dst, %ph;
\t.reg .pred %p, %z;
\tmov.u32 %tx, %tid.x;
\tsetp.eq.u32 %z, %tx, 0;
\tmov.u32 %bar, mbar;
\t@%z mbarrier.init.shared::cta.b64 [%bar], 32;
\tbar.sync 0;
\tmov.u32 %dst, dsm;
\tshl.b32 %n, %tx, 4;
\tadd.u32 %dst, %dst, %n;
\tld.param.u64 %src, [p_src];
\tcvt.u64.u32 %off, %n;
\tadd.u64 %src, %src, %off;
\tld.param.u32 %n, [p_iters];
\tld.param.u64 %o, [p_out];
\tmov.u32 %i, %ctaid.x;
\tmul.wide.u32 %sum, %i, 16;
\tadd.u64 %o, %o, %sum;
\tmov.u32 %i, 0;
\tmov.u32 %ph, 0;
\tmov.u64 %sum, 0;
$L_loop:
\tmov.u64 %t0, %clock64;
\tcp.async.cg.shared.global [%dst], [%src], 16;
\tcp.async.mbarrier.arrive.noinc.shared::cta.b64 [%bar];
$W:
\tmbarrier.try_wait.parity.shared::cta.b64 %p, [%bar], %ph;
\t@!%p bra $W;
\tmov.u64 %t1, %clock64;
\tsub.s64 %t2, %t1, %t0;
\txor.b32 %ph, %ph, 1;
\tsetp.eq.u32 %p, %i, 0;
\t@%p bra $FIRST;
\tadd.u64 %sum, %sum, %t2;
\tbra $NEXT;
$FIRST:
\t@%z st.global.u64 [%o], %t2;
$NEXT:
\tadd.u32 %i, %i, 1;
\tsetp.lt.u32 %p, %i, %n;
\t@%p bra $L_loop;
\t@%z st.global.u64 [%o+8], %sum;
\tret;
}
""")

sys.stdout.write("\n".join(out) + "\n")
