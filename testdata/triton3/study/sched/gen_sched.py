#!/usr/bin/env python3
"""Microbenchmarks for the fifteenth round (issue 19): does ptxas interleave independent dependent chains that the
PTX writes one after another, within one basic block? Not shaped after any kernel's figures: R independent chains a
lane, each of K dependent steps of one form, in two orders of the same instructions: seq (chain 0's K steps, then
chain 1's, ...: the order Triton writes a reduction of several rows) and il (step 0 of every chain, then step 1,
...). If ptxas schedules them alike, the H100 runs the two in the same time. One warp, launch files as ../dot's,
timed through ../../time_triton3.py (run_sched.sh).

  <form>_seq, <form>_il   R = 8 chains of K steps
  shfl_argmin_sched       il with each step's instructions grouped by kind across the chains (shuffles, compares,
                          and, or, selects): an order in-order issue overlaps as a list scheduler would
  <form>_one              one chain of K steps (its latency alone)
  bare                    the loads and stores alone

Forms: shfl_argmin (a butterfly argmin step: two shfl.sync.bfly, setp.lt/eq/lt.s32, and.pred, or.pred, two selp;
masks 16, 8, 4, 2, 1 in turn), fma (fma.rn.f32), ex2 (ex2.approx.f32, MUFU).

    gen_sched.py OUTDIR"""
import json, os, struct, sys

R, K = 8, 20
N = 32 * 32

HEAD = """.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 po)
{
	.reg .b32 %r<6000>;
	.reg .b64 %rd<64>;
	.reg .pred %q<8000>;
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

# chain c's value after step i: %r(1000 + 100c + i) (i = -1: loaded); its index %r(2000 + 100c + i); b: %r(3000+c)
def v(c, i):
    return "%%r%d" % (1000 + 100 * c + i + 1)

def ix(c, i):
    return "%%r%d" % (2000 + 100 * c + i + 1)

def step(form, c, i):
    if form == "fma":
        return "\tfma.rn.f32 %s, %s, %%r%d, %%r%d;\n" % (v(c, i), v(c, i - 1), 3000 + c, 3000 + c)
    if form == "ex2":
        return "\tex2.approx.f32 %s, %s;\n" % (v(c, i), v(c, i - 1))
    m = 16 >> (i % 5)
    q = 10 * (100 * c + i)
    t, j = "%%r%d" % (4000 + 100 * c + i), "%%r%d" % (5000 + 100 * c + i)
    x, y = v(c, i - 1), ix(c, i - 1)
    return ("\tshfl.sync.bfly.b32 %s, %s, %d, 31, -1;\n\tshfl.sync.bfly.b32 %s, %s, %d, 31, -1;\n" % (t, x, m, j, y, m) +
            "\tsetp.lt.f32 %%q%d, %s, %s;\n\tsetp.eq.f32 %%q%d, %s, %s;\n\tsetp.lt.s32 %%q%d, %s, %s;\n"
            % (q, t, x, q + 1, t, x, q + 2, j, y) +
            "\tand.pred %%q%d, %%q%d, %%q%d;\n\tor.pred %%q%d, %%q%d, %%q%d;\n"
            % (q + 3, q + 1, q + 2, q + 4, q, q + 3) +
            "\tselp.f32 %s, %s, %s, %%q%d;\n\tselp.b32 %s, %s, %s, %%q%d;\n"
            % (v(c, i), t, x, q + 4, ix(c, i), j, y, q + 4))

def kernel(form, order, rows):
    s = HEAD
    for c in range(rows):
        s += "\tld.global.b32 %s, [%%rd5+%d];\n" % (v(c, -1), 256 * c)
        s += "\tld.global.b32 %%r%d, [%%rd6+%d];\n" % (3000 + c, 256 * c)
        s += "\tadd.s32 %s, %%r1, %d;\n" % (ix(c, -1), c)
    if order == "seq":
        s += "".join(step(form, c, i) for c in range(rows) for i in range(K))
    elif order == "il":
        s += "".join(step(form, c, i) for i in range(K) for c in range(rows))
    elif order == "sched":
        # il with a step's instructions grouped by kind across the chains: every chain's shuffles, then every
        # chain's compares, ... (what an in-order issue of a list-scheduled block looks like)
        for i in range(K):
            steps = [step(form, c, i).splitlines(True) for c in range(rows)]
            groups = ((0, 1), (2, 3, 4), (5,), (6,), (7, 8)) if form == "shfl_argmin" else ((0,),)
            for g in groups:
                s += "".join(st[k] for k in g for st in steps)
    last = -1 if order == "bare" else K - 1
    for c in range(rows):
        s += "\tst.global.b32 [%%rd7+%d], %s;\n" % (512 * c, v(c, last))
        s += "\tst.global.b32 [%%rd7+%d], %s;\n" % (512 * c + 256, ix(c, last))
    return s + "\tret;\n}\n"

def write(out, name, ptx, bufs):
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
                        "args": [{"buffer": b} for b in ("a", "b", "o")]}]}
    json.dump(lf, open(os.path.join(d, "launch.json"), "w"), indent=1)
    json.dump({"kernel": "k", "outputs": ["o"], "description": name}, open(os.path.join(d, "meta.json"), "w"), indent=1)

def values(first, step):
    return b"".join(struct.pack("<fI", first + (i % 7) * step, 0) for i in range(N))

def main():
    out = sys.argv[1]
    # ex2 of values below 1 stays in (1, 2); x*b+b with b just above 1 grows slowly
    bufs = lambda: {"a": values(0.25, 0.0625), "b": values(1.0009765625, 0.0), "o": 8 * 4 * N}
    for form in ("shfl_argmin", "fma", "ex2"):
        write(out, form + "_seq", kernel(form, "seq", R), bufs())
        write(out, form + "_il", kernel(form, "il", R), bufs())
        write(out, form + "_one", kernel(form, "seq", 1), bufs())
    write(out, "shfl_argmin_sched", kernel("shfl_argmin", "sched", R), bufs())
    write(out, "bare", kernel("fma", "bare", R), bufs())

if __name__ == "__main__":
    main()
