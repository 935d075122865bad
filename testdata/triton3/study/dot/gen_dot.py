#!/usr/bin/env python3
"""Microbenchmarks for the fourteenth round (issue 19): the instruction forms of Triton's f32 `tl.dot` (tf32
mma.sync and wgmma, the 3xTF32 split, the FFMA chains of input_precision="ieee") and of argmin (min, setp+selp
with an index, shfl.sync butterflies). Not shaped after any kernel: one PTX form a case, one warp (a warpgroup
for wgmma), as launch files that warpsim runs and that ../../time_triton3.py times through the CUDA driver under
Nsight Compute (run_dot.sh).

  <form>_ind   K independent operations a lane (the issue slots and the pipe's rate)
  <form>_dep   K dependent operations (each takes the last one's result: the dependent latency)
  none_<fam>_<ind|dep>   the same kernels with mov in place of the operation (loads, stores, launch)

    gen_dot.py OUTDIR [long|shfl]     writes OUTDIR/<case>/{k.ptx,a.bin,b.bin,launch.json,meta.json}"""
import json, os, struct, sys

HEAD = """.version 8.0
.target sm_90a
.address_size 64
"""
K = 32  # operations a lane
S = 1  # the scalar families' register numbers: 100S+i, 200S+i, ...
N = 32 * K

PRO = """.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 po)
{
	.reg .b32 %r<RMAX>;
	.reg .b64 %rd<64>;
	.reg .pred %q<400>;
	.shared .align 1024 .b8 sm[16384];
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [po];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 31;
	mul.wide.u32 %rd4, %r2, 8;
	add.s64 %rd5, %rd1, %rd4;
	add.s64 %rd6, %rd2, %rd4;
	mul.wide.u32 %rd4, %r1, 8;
	add.s64 %rd7, %rd3, %rd4;
"""

def loads(n, base="%rd5", first=100, stride=256):
    return "".join("\tld.global.b32 %%r%d, [%s+%d];\n" % (first + i, base, stride * (i % K)) for i in range(n))

def stores(regs):
    return "".join("\tst.global.b32 [%%rd7+%d], %%r%d;\n" % (256 * (i % K), r) for i, r in enumerate(regs))

# Scalar f32 families. Each form: fn(i, dep, none) -> PTX lines of step i; the values live in
#   ind: x_i = %r(100+i) (loaded), b_i = %r(200+i) (loaded), result %r(300+i) [idx %r(400+i)]
#   dep: x = %r(300+i) from %r(300+i-1) (%r299 loaded), b = %r200, idx %r(400+i) from %r(400+i-1)
def src(i, dep):
    return "%%r%d" % ((S * 300 - 1) + i if dep else S * 100 + i)

def isrc(i, dep):
    return "%%r%d" % ((S * 400 - 1) + i if dep else S * 500 + i)

def f_fma(i, dep, none):
    if none:
        return "\tmov.b32 %%r%d, %s;\n" % (S * 300 + i, src(i, dep))
    b = "%%r%d" % (S * 200) if dep else "%%r%d" % (S * 200 + i)
    return "\tfma.rn.f32 %%r%d, %s, %s, %s;\n" % (S * 300 + i, src(i, dep), b, b)

def f_min(i, dep, none):
    if none:
        return "\tmov.b32 %%r%d, %s;\n" % (S * 300 + i, src(i, dep))
    b = "%%r%d" % (S * 200) if dep else "%%r%d" % (S * 200 + i)
    return "\tmin.f32 %%r%d, %s, %s;\n" % (S * 300 + i, src(i, dep), b)

def f_cvt_tf32(i, dep, none):
    if none:
        return "\tmov.b32 %%r%d, %s;\n" % (S * 300 + i, src(i, dep))
    return "\tcvt.rna.tf32.f32 %%r%d, %s;\n" % (S * 300 + i, src(i, dep))

def f_split_tf32(i, dep, none):
    # the 3xTF32 split of one value: big = tf32(x), small = tf32(x - big), as Triton's PTX: sub, cvt.rna
    if none:
        return "\tmov.b32 %%r%d, %s;\n" % (S * 300 + i, src(i, dep))
    return ("\tcvt.rna.tf32.f32 %%r%d, %s;\n\tsub.f32 %%r%d, %s, %%r%d;\n\tcvt.rna.tf32.f32 %%r%d, %%r%d;\n"
            % (S * 600 + i, src(i, dep), S * 700 + i, src(i, dep), S * 600 + i, S * 300 + i, S * 700 + i))

def f_argmin(i, dep, none):
    # running argmin of a value and its index: setp.lt + selp.f32 + selp.b32
    b = "%%r%d" % (S * 200) if dep else "%%r%d" % (S * 200 + i)
    if none:
        return "\tmov.b32 %%r%d, %s;\n\tmov.b32 %%r%d, %s;\n" % (S * 300 + i, src(i, dep), S * 400 + i, isrc(i, dep))
    return ("\tsetp.lt.f32 %%q%d, %s, %s;\n\tselp.f32 %%r%d, %s, %s, %%q%d;\n\tselp.b32 %%r%d, %s, %d, %%q%d;\n"
            % (i, src(i, dep), b, S * 300 + i, src(i, dep), b, i, S * 400 + i, isrc(i, dep), i, i))

def f_shfl(i, dep, none):
    if none:
        return "\tmov.b32 %%r%d, %s;\n" % (S * 300 + i, src(i, dep))
    return "\tshfl.sync.bfly.b32 %%r%d, %s, %d, 31, -1;\n" % (S * 300 + i, src(i, dep), 1 << (i % 5))

def f_shfl_reg(i, dep, none):
    # the butterfly's mask from a register (the loaded b), not an immediate
    b = "%%r%d" % (S * 200) if dep else "%%r%d" % (S * 200 + i)
    return "\tshfl.sync.bfly.b32 %%r%d, %s, %s, 31, -1;\n" % (S * 300 + i, src(i, dep), b)

def f_shfl_idx_data(i, dep, none):
    # shfl.idx with its lane from the data (the last result), as testdata/timing/DERIVATION.md section 1 measured
    return "\tshfl.sync.idx.b32 %%r%d, %s, %s, 31, -1;\n" % (S * 300 + i, src(i, dep), src(i, dep))

def f_shfl_idx_reg(i, dep, none):
    # shfl.idx with its lane from a register off the chain (the loaded b)
    b = "%%r%d" % (S * 200) if dep else "%%r%d" % (S * 200 + i)
    return "\tshfl.sync.idx.b32 %%r%d, %s, %s, 31, -1;\n" % (S * 300 + i, src(i, dep), b)

def f_shfl_argmin(i, dep, none):
    # one butterfly step of an argmin across lanes, as Triton's: shfl of the value and of the index, then
    # lt, eq, index tie-break (setp.lt.s32, and.pred, or.pred), selp of each
    if none:
        return "\tmov.b32 %%r%d, %s;\n\tmov.b32 %%r%d, %s;\n" % (S * 300 + i, src(i, dep), S * 400 + i, isrc(i, dep))
    m = 1 << (i % 5)
    v, x = "%%r%d" % (S * 800 + i), src(i, dep)
    j, ix = "%%r%d" % (S * 900 + i), isrc(i, dep)
    return ("\tshfl.sync.bfly.b32 %s, %s, %d, 31, -1;\n\tshfl.sync.bfly.b32 %s, %s, %d, 31, -1;\n" % (v, x, m, j, ix, m) +
            "\tsetp.lt.f32 %%q%d, %s, %s;\n\tsetp.eq.f32 %%q%d, %s, %s;\n\tsetp.lt.s32 %%q%d, %s, %s;\n"
            % (10 * i % 400, v, x, (10 * i + 1) % 400, v, x, (10 * i + 2) % 400, j, ix) +
            "\tand.pred %%q%d, %%q%d, %%q%d;\n\tor.pred %%q%d, %%q%d, %%q%d;\n"
            % ((10 * i + 3) % 400, (10 * i + 1) % 400, (10 * i + 2) % 400, (10 * i + 4) % 400, 10 * i % 400, (10 * i + 3) % 400) +
            "\tselp.f32 %%r%d, %s, %s, %%q%d;\n\tselp.b32 %%r%d, %s, %s, %%q%d;\n"
            % (S * 300 + i, v, x, (10 * i + 4) % 400, S * 400 + i, j, ix, (10 * i + 4) % 400))

SCALAR = {"fma_f32": f_fma, "min_f32": f_min, "cvt_rna_tf32": f_cvt_tf32, "split_tf32": f_split_tf32,
          "argmin_step": f_argmin, "shfl_bfly": f_shfl, "shfl_argmin": f_shfl_argmin}
INDEXED = ("argmin_step", "shfl_argmin")

def scalar_kernel(fn, dep, none, indexed):
    s = HEAD + PRO.replace("RMAX", "2000" if S == 1 else "10000")
    if dep:
        s += loads(1, first=S * 300 - 1) + loads(1, "%rd6", first=S * 200)
        if indexed:
            s += "\tmov.b32 %%r%d, %%r1" % (S * 400 - 1) + ";\n"
    else:
        s += loads(K) + loads(K, "%rd6", first=S * 200)
        if indexed:
            s += "".join("\tadd.s32 %%r%d, %%r1, %d;\n" % (S * 500 + i, i) for i in range(K))
    if none == "bare":
        # no operation and no mov: the SASS ptxas makes of the none_ twin (its movs coalesced away)
        out = ([(S * 300 - 1)] + ([(S * 400 - 1)] if indexed else [])) if dep else (
            [S * 100 + i for i in range(K)] + ([S * 500 + i for i in range(K)] if indexed else []))
        return s + stores(out) + "\tret;\n}\n"
    for i in range(K):
        s += fn(i, dep, none)
    if dep:
        out = [S * 300 + K - 1] + ([S * 400 + K - 1] if indexed else [])
    else:
        out = [S * 300 + i for i in range(K)] + ([S * 400 + i for i in range(K)] if indexed else [])
    return s + stores(out) + "\tret;\n}\n"

# mma.sync: a lane's fragments A (4 regs tf32 m16n8k8; 4 f16x2 m16n8k16), B (2), C/D (4 f32).
MMA = {"mma_tf32": "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
       "mma_f16": "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"}
KM = 16  # mma instructions a lane

def mma_kernel(op, dep, none):
    s = HEAD + PRO.replace("RMAX", "2000") + loads(6) + loads(4, "%rd6", first=200)
    a, b = "{%r100,%r101,%r102,%r103}", "{%r104,%r105}"
    out = []
    if none == "bare":
        out = [200, 201, 202, 203] * (1 if dep else KM)
        return s + stores(out) + "\tret;\n}\n"
    for i in range(KM):
        c = "{%r200,%r201,%r202,%r203}" if i == 0 or not dep else "{%%r%d,%%r%d,%%r%d,%%r%d}" % tuple(
            300 + 4 * (i - 1) + j for j in range(4))
        d = "{%%r%d,%%r%d,%%r%d,%%r%d}" % tuple(300 + 4 * i + j for j in range(4))
        if none:
            cs = c.strip("{}").split(",")
            s += "".join("\tmov.b32 %%r%d, %s;\n" % (300 + 4 * i + j, cs[j]) for j in range(4))
        else:
            s += "\t%s %s, %s, %s, %s;\n" % (op, d, a, b, c)
        out += [300 + 4 * i + j for j in range(4)] if not dep or i == KM - 1 else []
    return s + stores(out) + "\tret;\n}\n"

# wgmma m64n64k8 tf32, A from registers (as Triton's 3xTF32 and tf32 dots on sm_90), B from a descriptor of
# zeroed shared memory (no swizzle); KW wgmma into one accumulator (the chain), committed and waited once.
KW = 16

def wgmma_kernel(n_wg, none):
    s = HEAD + PRO.replace("RMAX", "2000")
    s += loads(4) + "".join("\tmov.b32 %%r%d, 0;\n" % (1000 + j) for j in range(32))
    # zero the shared tile: 128 threads x 16 x 8 bytes = 16 KiB
    s += "\tmov.u32 %r10, sm;\n\tshl.b32 %r11, %r1, 3;\n\tadd.u32 %r12, %r10, %r11;\n"
    s += "".join("\tst.shared.b64 [%%r12+%d], 0;\n" % (1024 * i) for i in range(16))
    s += "\tbar.sync 0;\n\tfence.proxy.async.shared::cta;\n"
    # descriptor: start address >> 4 (bits 0-13), leading byte offset 128 >> 4 (16-29), stride 256 >> 4 (32-45)
    s += "\tshr.u32 %r13, %r10, 4;\n\tand.b32 %r13, %r13, 16383;\n\tcvt.u64.u32 %rd10, %r13;\n"
    s += "\tor.b64 %rd10, %rd10, 4503599629467648;\n"  # (16 << 32) | (8 << 16)
    acc = "{" + ",".join("%%r%d" % (1000 + j) for j in range(32)) + "}"
    a = "{%r100,%r101,%r102,%r103}"
    s += "\twgmma.fence.sync.aligned;\n"
    for i in range(KW):
        if none == "bare":
            continue
        if none:
            s += "\tadd.u32 %%r%d, %%r%d, %%r100;\n" % (1000 + i % 32, 1000 + i % 32)
        else:
            s += "\twgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 %s, %s, %%rd10, 1, 1, 1;\n" % (acc, a)
    s += "\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;\n"
    return s + stores([1000, 1031]) + "\tret;\n}\n"

def write(out, name, ptx, bufs, block=32):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "k.ptx"), "w").write(ptx)
    lb = {}
    for bn, data in bufs.items():
        if isinstance(data, int):
            lb[bn] = {"bytes": data}
        else:
            open(os.path.join(d, bn + ".bin"), "wb").write(data)
            lb[bn] = {"file": bn + ".bin"}
    lf = {"module": "k.ptx", "arch": "h100", "buffers": lb,
          "launches": [{"kernel": "k", "grid": [1, 1, 1], "block": [block, 1, 1], "shared_bytes": 0,
                        "args": [{"buffer": b} for b in ("a", "b", "o")]}]}
    json.dump(lf, open(os.path.join(d, "launch.json"), "w"), indent=1)
    json.dump({"kernel": "k", "outputs": ["o"], "description": name}, open(os.path.join(d, "meta.json"), "w"), indent=1)

def values(first, step):
    return b"".join(struct.pack("<fI", first + (i % 7) * step, 0) for i in range(N))

def main_long(out):
    """The dependent chains again, long enough to stand above the launch's run-to-run spread (±50 ns): 256
    operations a lane (mma.sync and wgmma 64)."""
    global K, N, S, KM, KW
    K, S, KM, KW = 256, 10, 64, 64
    N = 32 * 32  # the chains load one value a lane
    bufs = lambda: {"a": values(1.25, 0.125), "b": values(1.0009765625, 0.0), "o": 8 * 4 * N}
    for name, fn in SCALAR.items():
        write(out, "%s_dep" % name, scalar_kernel(fn, True, False, name in INDEXED), bufs())
    write(out, "none_f32_dep", scalar_kernel(f_fma, True, True, False), bufs())
    write(out, "none_idx_dep", scalar_kernel(f_argmin, True, True, True), bufs())
    write(out, "bare_f32_dep", scalar_kernel(f_fma, True, "bare", False), bufs())
    write(out, "bare_idx_dep", scalar_kernel(f_argmin, True, "bare", True), bufs())
    for name, op in MMA.items():
        write(out, "%s_dep" % name, mma_kernel(op, True, False), bufs())
    write(out, "none_mma_dep", mma_kernel(None, True, True), bufs())
    write(out, "bare_mma_dep", mma_kernel(None, True, "bare"), bufs())
    write(out, "wgmma_tf32_dep", wgmma_kernel(1, False), bufs(), block=128)
    write(out, "none_wgmma_dep", wgmma_kernel(1, True), bufs(), block=128)
    write(out, "bare_wgmma_dep", wgmma_kernel(1, "bare"), bufs(), block=128)

def main_shfl(out):
    """The third call: which of a shuffle's operands sets its latency (256 dependent shuffles a lane)."""
    global K, N, S
    K, S = 256, 10
    N = 32 * 32
    bufs = lambda: {"a": values(1.25, 0.125), "b": values(1.0009765625, 0.0), "o": 8 * 4 * N}
    for name, fn in (("shfl_bfly", f_shfl), ("shfl_bfly_reg", f_shfl_reg), ("shfl_idx_data", f_shfl_idx_data),
                     ("shfl_idx_reg", f_shfl_idx_reg)):
        write(out, "%s_dep" % name, scalar_kernel(fn, True, False, False), bufs())
    write(out, "none_f32_dep", scalar_kernel(f_fma, True, True, False), bufs())
    write(out, "bare_f32_dep", scalar_kernel(f_fma, True, "bare", False), bufs())

def main():
    out = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "long":
        return main_long(out)
    if len(sys.argv) > 2 and sys.argv[2] == "shfl":
        return main_shfl(out)
    # b just above 1 with x*b+b growing slowly; values stay normal through every chain
    bufs = lambda: {"a": values(1.25, 0.125), "b": values(1.0009765625, 0.0), "o": 8 * 4 * N}
    for name, fn in SCALAR.items():
        for kind in ("ind", "dep"):
            write(out, "%s_%s" % (name, kind), scalar_kernel(fn, kind == "dep", False, name in INDEXED), bufs())
    for kind in ("ind", "dep"):
        write(out, "none_f32_%s" % kind, scalar_kernel(f_fma, kind == "dep", True, False), bufs())
        write(out, "none_idx_%s" % kind, scalar_kernel(f_argmin, kind == "dep", True, True), bufs())
        for name, op in MMA.items():
            write(out, "%s_%s" % (name, kind), mma_kernel(op, kind == "dep", False), bufs())
        write(out, "none_mma_%s" % kind, mma_kernel(None, kind == "dep", True), bufs())
    write(out, "wgmma_tf32_dep", wgmma_kernel(1, False), bufs(), block=128)
    # warpsim's baselines, not run on the H100: the none_ twins without their movs, which ptxas's SASS of the
    # none_ twins does not have either (h100/sass.tgz: no MOV)
    for kind in ("ind", "dep"):
        write(out, "bare_f32_%s" % kind, scalar_kernel(f_fma, kind == "dep", "bare", False), bufs())
        write(out, "bare_idx_%s" % kind, scalar_kernel(f_argmin, kind == "dep", "bare", True), bufs())
        write(out, "bare_mma_%s" % kind, mma_kernel(None, kind == "dep", "bare"), bufs())
    write(out, "bare_wgmma_dep", wgmma_kernel(1, "bare"), bufs(), block=128)
    write(out, "none_wgmma_dep", wgmma_kernel(1, True), bufs(), block=128)

if __name__ == "__main__":
    main()
