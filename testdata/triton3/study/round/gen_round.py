#!/usr/bin/env python3
"""Microbenchmarks for the fourteenth round (issue 19): what ptxas makes of PTX's rounding forms of division,
reciprocal and square root (.rn, .rm, .rz; .rp is .rm mirrored; f32 and f64) and of the conversions with a rounding mode. Not shaped
after any kernel: one PTX instruction a case, on operands the inline sequences serve (normal, no slow path). As launch
files that warpsim runs and that ../../time_triton3.py times through the CUDA driver under Nsight Compute
(run_round.sh).

  <op>_ind   one warp: 16 (or 32) loads, 16 independent <op> and 16 stores a lane (the issue slots: ptxas's SASS
             instructions, Nsight Compute's smsp__inst_executed)
  <op>_dep   one warp: one or two loads, 16 dependent <op> (x = op(x, b), x = op(x)) and one store a lane (the
             sequence's dependent latency)
  none_*     the same kernels with mov.b32/mov.b64 in place of the operation (the loads, stores and launch)

    gen_round.py OUTDIR      writes OUTDIR/<case>/{k.ptx,a.bin,b.bin,launch.json,meta.json}"""
import json, os, struct, sys

HEAD = """.version 8.0
.target sm_90
.address_size 64
"""
K = 16  # operations a lane

# name -> (ptx opcode, bits of its operands, bits of its result, operands, source kind)
OPS = {}
for w, t in ((32, "f32"), (64, "f64")):
    for r in ("rn", "rm", "rz"):
        OPS["div_%s_%s" % (r, t)] = ("div.%s.%s" % (r, t), w, w, 2, t)
        OPS["rcp_%s_%s" % (r, t)] = ("rcp.%s.%s" % (r, t), w, w, 1, t)
        OPS["sqrt_%s_%s" % (r, t)] = ("sqrt.%s.%s" % (r, t), w, w, 1, t)
    OPS["add_rm_%s" % t] = ("add.rm.%s" % t, w, w, 2, t)
    OPS["none_%s" % t] = ("mov.b%d" % w, w, w, 1, t)
OPS["div_full_f32"] = ("div.full.f32", 32, 32, 2, "f32")
CVT = {
    "cvt_rm_f32_f64": ("cvt.rm.f32.f64", 64, 32, "f64"),
    "cvt_rn_f32_f64": ("cvt.rn.f32.f64", 64, 32, "f64"),
    "cvt_rz_f32_s64": ("cvt.rz.f32.s64", 64, 32, "s64"),
    "cvt_rz_f32_s32": ("cvt.rz.f32.s32", 32, 32, "s32"),
    "cvt_rzi_s64_f32": ("cvt.rzi.s64.f32", 32, 64, "f32"),
    "cvt_rmi_s32_f32": ("cvt.rmi.s32.f32", 32, 32, "f32"),
    "cvt_rni_u32_f32": ("cvt.rni.u32.f32", 32, 32, "f32"),
}

def reg(w):
    return "%r" if w == 32 else "%rd"

def ind_kernel(op, wa, wd, nops):
    a, d = reg(wa), reg(wd)
    s = HEAD + """.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 po)
{
	.reg .b32 %r<400>;
	.reg .b64 %rd<400>;
	.reg .b64 %p<16>;
	ld.param.u64 %p1, [pa];
	ld.param.u64 %p2, [pb];
	ld.param.u64 %p3, [po];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %p4, %r1, 8;
	add.s64 %p5, %p1, %p4;
	add.s64 %p6, %p2, %p4;
	add.s64 %p7, %p3, %p4;
"""
    for i in range(K):
        s += "\tld.global.b%d %s%d, [%%p5+%d];\n" % (wa, a, 100 + i, 256 * i)
        if nops == 2:
            s += "\tld.global.b%d %s%d, [%%p6+%d];\n" % (wa, a, 200 + i, 256 * i)
    for i in range(K):
        srcs = "%s%d" % (a, 100 + i) + (", %s%d" % (a, 200 + i) if nops == 2 else "")
        s += "\t%s %s%d, %s;\n" % (op, d, 300 + i, srcs)
    for i in range(K):
        s += "\tst.global.b%d [%%p7+%d], %s%d;\n" % (wd, 256 * i, d, 300 + i)
    return s + "\tret;\n}\n"

def dep_kernel(op, w, nops):
    a = reg(w)
    s = HEAD + """.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 po)
{
	.reg .b32 %r<400>;
	.reg .b64 %rd<400>;
	.reg .b64 %p<16>;
	ld.param.u64 %p1, [pa];
	ld.param.u64 %p2, [pb];
	ld.param.u64 %p3, [po];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %p4, %r1, 8;
	add.s64 %p5, %p1, %p4;
	add.s64 %p6, %p2, %p4;
	add.s64 %p7, %p3, %p4;
"""
    s += "\tld.global.b%d %s100, [%%p5];\n" % (w, a)
    if nops == 2:
        s += "\tld.global.b%d %s200, [%%p6];\n" % (w, a)
    for i in range(K):
        srcs = "%s%d" % (a, 100 + i) + (", %s200" % a if nops == 2 else "")
        s += "\t%s %s%d, %s;\n" % (op, a, 101 + i, srcs)
    s += "\tst.global.b%d [%%p7], %s%d;\n" % (w, a, 100 + K)
    return s + "\tret;\n}\n"

def write(out, name, ptx, bufs, args):
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
          "launches": [{"kernel": "k", "grid": [1, 1, 1], "block": [32, 1, 1], "shared_bytes": 0,
                        "args": [{"buffer": b} for b in args]}]}
    json.dump(lf, open(os.path.join(d, "launch.json"), "w"), indent=1)
    json.dump({"kernel": "k", "outputs": ["o"], "description": name}, open(os.path.join(d, "meta.json"), "w"), indent=1)

N = 32 * K  # values a buffer: 16 rows of 32 lanes, 8 bytes apart (a 256-byte row)

def values(kind, first, step):
    v = [first + (i % 7) * step for i in range(N)]
    if kind == "f32":
        return b"".join(struct.pack("<fI", x, 0) for x in v)
    if kind == "f64":
        return b"".join(struct.pack("<d", x) for x in v)
    if kind == "s64":
        return b"".join(struct.pack("<q", int(x * 123456789012)) for x in v)
    return b"".join(struct.pack("<iI", int(x * 12345678), 0) for x in v)

def main():
    out = sys.argv[1]
    for name, (op, wa, wd, nops, kind) in OPS.items():
        a, b = values(kind, 1.25, 0.125), values(kind, 1.5, 0.25)
        write(out, name + "_ind", ind_kernel(op, wa, wd, nops), {"a": a, "b": b, "o": 8 * N}, ["a", "b", "o"])
        # The chains: a divisor just above 1, a value a reciprocal or square root keeps normal.
        write(out, name + "_dep", dep_kernel(op, wa, nops), {"a": a, "b": values(kind, 1.0009765625, 0.0),
              "o": 8 * N}, ["a", "b", "o"])
    for name, (op, wa, wd, kind) in CVT.items():
        write(out, name + "_ind", ind_kernel(op, wa, wd, 1), {"a": values(kind, 1.25, 0.375), "b": 8, "o": 8 * N},
              ["a", "b", "o"])

if __name__ == "__main__":
    main()
