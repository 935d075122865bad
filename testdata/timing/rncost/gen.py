#!/usr/bin/env python3
"""Writes the PTX microbenchmarks of this folder (rncost: what the reduce
lesson's reduceNeighbored costs on the H100 that the model missed) and
their launch files.

    gen.py OUTDIR

One kernel `rn` a configuration (NAME.ptx, NAME.json). A block of W warps
(G blocks, each on its own 1024 + 64 ints) first loads its ints (so their
lines are in the SM's L1; stored to shared memory to keep the loads), a
bar.sync, then lane 0 of each warp writes %clock64 to stamps[gwarp][0] and
after every step's bar.sync to stamps[gwarp][1+i]; stamps[gwarp][15] is
%smid. The steps are the lesson's (testdata/timing/bench/lessons_small.ptx,
nvcc 13's PTX, kept instruction for instruction):
  nb   reduceNeighbored: for stride = 1, 2, .. < blockDim:
         if (tid % (2*stride) == 0) idata[tid] += idata[tid+stride]; bar.sync
       OP rem: nvcc's `rem.u32` (ptxas: I2F, MUFU.RCP, F2I and IMADs);
       OP mask: clang's `add -1; and`.
  less reduceNeighboredLess: index = 2*stride*tid; if (index < blockDim)
         idata[index] += idata[index+stride]; bar.sync
  fs   one step of nb repeated R = 8 times at a fixed divisor D = 2*stride
       (a kernel parameter, so that ptxas cannot fold the remainder; D = 1:
       every lane active), S = D/2 (1 for D = 1); MEM 0: the body is a
       register add instead of the loads and the store.
  sh   nb with idata in shared memory (the same loop, ld/st.shared).
The same PTX runs on the H100 (through the driver, run.py) and on warpsim
(TestRncostMicrobenchmarks)."""
import json, os, sys

SLOTS = 16
INTS = 1024 + 64  # a block's ints (padding for fs's tid+S)

CONFIGS = [
    # name, kind, op, W, G, D, mem
    ("nb_rem_w1", "nb", "rem", 1, 1, 0, 1),
    ("nb_rem_w8", "nb", "rem", 8, 1, 0, 1),
    ("nb_rem_w32", "nb", "rem", 32, 1, 0, 1),
    ("nb_rem_w32_g264", "nb", "rem", 32, 264, 0, 1),
    ("nb_mask_w1", "nb", "mask", 1, 1, 0, 1),
    ("nb_mask_w8", "nb", "mask", 8, 1, 0, 1),
    ("nb_mask_w32", "nb", "mask", 32, 1, 0, 1),
    ("nb_mask_w32_g264", "nb", "mask", 32, 264, 0, 1),
    ("less_w1", "less", "", 1, 1, 0, 1),
    ("less_w8", "less", "", 8, 1, 0, 1),
    ("less_w32", "less", "", 32, 1, 0, 1),
    ("less_w32_g264", "less", "", 32, 264, 0, 1),
    ("sh_rem_w32", "sh", "rem", 32, 1, 0, 1),
    ("sh_mask_w32", "sh", "mask", 32, 1, 0, 1),
    ("fs_rem_d1", "fs", "rem", 32, 1, 1, 1),
    ("fs_rem_d2", "fs", "rem", 32, 1, 2, 1),
    ("fs_rem_d32", "fs", "rem", 32, 1, 32, 1),
    ("fs_mask_d1", "fs", "mask", 32, 1, 1, 1),
    ("fs_mask_d2", "fs", "mask", 32, 1, 2, 1),
    ("fs_mask_d8", "fs", "mask", 32, 1, 8, 1),
    ("fs_mask_d32", "fs", "mask", 32, 1, 32, 1),
    ("fs_rem_d2_nomem", "fs", "rem", 32, 1, 2, 0),
    ("fs_rem_d32_nomem", "fs", "rem", 32, 1, 32, 0),
    ("fs_mask_d1_nomem", "fs", "mask", 32, 1, 1, 0),
    ("fs_mask_d2_nomem", "fs", "mask", 32, 1, 2, 0),
    ("fs_mask_d32_nomem", "fs", "mask", 32, 1, 32, 0),
    ("fs_rem_d2_w1", "fs", "rem", 1, 1, 2, 1),
    ("fs_mask_d2_w1", "fs", "mask", 1, 1, 2, 1),
    ("fs_mask_d2_g264", "fs", "mask", 32, 264, 2, 1),
    ("fs_rem_d2_g264", "fs", "rem", 32, 264, 2, 1),
]
R = 8  # fs's steps


def ptx(kind, op, w, d, mem):
    sp = "shared" if kind == "sh" else "global"
    L = [".version 8.0", ".target sm_90", ".address_size 64", "",
         ".visible .entry rn(", "\t.param .u64 rn_param_0,", "\t.param .u64 rn_param_1,",
         "\t.param .u32 rn_param_2,", "\t.param .u32 rn_param_3", ")", ".reqntid %d" % (32 * w), "{",
         "\t.reg .pred \t%p<8>;", "\t.reg .b32 \t%r<40>;", "\t.reg .b64 \t%rd<24>;",
         "\t.shared .align 16 .b8 sbuf[%d];" % (4 * INTS),
         "\tld.param.u64 \t%rd3, [rn_param_0];", "\tld.param.u64 \t%rd4, [rn_param_1];",
         "\tld.param.u32 \t%r25, [rn_param_2];", "\tld.param.u32 \t%r26, [rn_param_3];",
         "\tcvta.to.global.u64 \t%rd5, %rd3;", "\tcvta.to.global.u64 \t%rd14, %rd4;",
         "\tmov.u32 \t%r1, %ntid.x;", "\tmov.u32 \t%r2, %ctaid.x;", "\tmov.u32 \t%r3, %tid.x;",
         "\tmul.lo.s32 \t%%r7, %%r2, %d;" % INTS, "\tmul.wide.u32 \t%rd6, %r7, 4;", "\tadd.s64 \t%rd1, %rd5, %rd6;",
         "\tmul.wide.u32 \t%rd7, %r3, 4;", "\tadd.s64 \t%rd2, %rd1, %rd7;",
         "\tshr.u32 \t%r20, %r3, 5;", "\tand.b32 \t%r21, %r3, 31;", "\tsetp.eq.u32 \t%p0, %r21, 0;",
         "\tmad.lo.s32 \t%%r22, %%r2, %d, %%r20;" % w, "\tmul.wide.u32 \t%%rd8, %%r22, %d;" % (8 * SLOTS),
         "\tadd.s64 \t%rd15, %rd14, %rd8;", "\tadd.s64 \t%rd16, %rd15, 8;",
         "\tmov.u32 \t%r23, sbuf;", "\tshl.b32 \t%r24, %r3, 2;", "\tadd.s32 \t%r24, %r23, %r24;",
         # the preload: the block's ints into L1 (and shared memory)
         "\tld.global.u32 \t%r11, [%rd2];", "\tst.shared.u32 \t[%r24], %r11;",
         "\tsetp.lt.u32 \t%p5, %r3, 64;", "@%p5\tld.global.u32 \t%r12, [%rd2+4096];",
         "@%p5\tst.shared.u32 \t[%r24+4096], %r12;",
         "\tmov.u32 \t%r13, 0;",
         "\tbar.sync \t0;",
         "\tmov.u32 \t%r27, %smid;", "\tcvt.u64.u32 \t%rd17, %r27;",
         "\t@%p0 st.global.u64 \t[%rd15+120], %rd17;",
         "\tmov.u64 \t%rd10, %clock64;", "\t@%p0 st.global.u64 \t[%rd15], %rd10;"]

    def stamp():
        return ["\tmov.u64 \t%rd10, %clock64;", "\t@%p0 st.global.u64 \t[%rd16], %rd10;",
                "\tadd.s64 \t%rd16, %rd16, 8;"]

    def cond(div):  # %r9 = tid % div
        if op == "rem":
            return ["\trem.u32 \t%%r9, %%r3, %s;" % div]
        return ["\tadd.s32 \t%%r8, %s, -1;" % div, "\tand.b32 \t%r9, %r8, %r3;"]

    def body(stride):
        if kind == "sh":
            return ["\tadd.s32 \t%%r10, %s, %%r3;" % stride, "\tshl.b32 \t%r14, %r10, 2;",
                    "\tadd.s32 \t%r14, %r23, %r14;",
                    "\tld.shared.u32 \t%r11, [%r24];", "\tld.shared.u32 \t%r12, [%r14];",
                    "\tadd.s32 \t%r13, %r11, %r12;", "\tst.shared.u32 \t[%r24], %r13;"]
        if not mem:
            return ["\tadd.s32 \t%%r10, %s, %%r3;" % stride, "\tadd.s32 \t%r13, %r13, %r10;"]
        return ["\tadd.s32 \t%%r10, %s, %%r3;" % stride, "\tmul.wide.u32 \t%rd8, %r10, 4;",
                "\tadd.s64 \t%rd9, %rd1, %rd8;",
                "\tld.global.u32 \t%r11, [%rd2];", "\tld.global.u32 \t%r12, [%rd9];",
                "\tadd.s32 \t%r13, %r11, %r12;", "\tst.global.u32 \t[%rd2], %r13;"]

    if kind in ("nb", "sh"):
        L += ["\tmov.u32 \t%r15, 1;", "$L__BB0_3:", "\tshl.b32 \t%r5, %r15, 1;"] + cond("%r5") + \
             ["\tsetp.ne.s32 \t%p3, %r9, 0;", "\t@%p3 bra \t$L__BB0_5;", ""] + body("%r15") + \
             ["", "$L__BB0_5:", "\tbar.sync \t0;"] + stamp() + \
             ["\tsetp.lt.u32 \t%p4, %r5, %r1;", "\tmov.u32 \t%r15, %r5;", "\t@%p4 bra \t$L__BB0_3;"]
    elif kind == "less":
        L += ["\tmov.u32 \t%r16, 1;", "$L__BB0_3:", "\tshl.b32 \t%r6, %r16, 1;",
              "\tmul.lo.s32 \t%r7, %r6, %r3;", "\tsetp.ge.u32 \t%p3, %r7, %r1;", "\t@%p3 bra \t$L__BB0_5;", "",
              "\tadd.s32 \t%r11, %r7, %r16;", "\tmul.wide.s32 \t%rd6, %r11, 4;", "\tadd.s64 \t%rd7, %rd1, %rd6;",
              "\tmul.wide.s32 \t%rd8, %r7, 4;", "\tadd.s64 \t%rd9, %rd1, %rd8;",
              "\tld.global.u32 \t%r12, [%rd9];", "\tld.global.u32 \t%r13, [%rd7];",
              "\tadd.s32 \t%r14, %r12, %r13;", "\tst.global.u32 \t[%rd9], %r14;", "",
              "$L__BB0_5:", "\tbar.sync \t0;"] + stamp() + \
             ["\tsetp.lt.u32 \t%p4, %r6, %r1;", "\tmov.u32 \t%r16, %r6;", "\t@%p4 bra \t$L__BB0_3;"]
    else:  # fs: D = %r25, S = %r26, R steps
        L += ["\tmov.u32 \t%r15, 0;", "$L__BB0_3:"] + cond("%r25") + \
             ["\tsetp.ne.s32 \t%p3, %r9, 0;", "\t@%p3 bra \t$L__BB0_5;", ""] + body("%r26") + \
             ["", "$L__BB0_5:", "\tbar.sync \t0;"] + stamp() + \
             ["\tadd.s32 \t%r15, %r15, 1;", "\tsetp.lt.u32 \t%%p4, %%r15, %d;" % R, "\t@%p4 bra \t$L__BB0_3;"]
    if kind == "sh" or not mem:
        L += ["\tst.global.u32 \t[%rd2], %r13;"]
    L += ["\tret;", "}", ""]
    return "\n".join(L)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, kind, op, w, g, d, mem in CONFIGS:
        open(os.path.join(out, name + ".ptx"), "w").write(ptx(kind, op, w, d, mem))
        lf = {"module": name + ".ptx", "arch": "h100",
              "buffers": {"data": {"bytes": g * INTS * 4}, "stamps": {"bytes": g * w * SLOTS * 8}},
              "launches": [{"kernel": "rn", "grid": [g, 1, 1], "block": [32 * w, 1, 1], "shared_bytes": 0,
                            "args": [{"buffer": "data"}, {"buffer": "stamps"}, {"s32": d}, {"s32": max(d // 2, 1)}]}]}
        json.dump(lf, open(os.path.join(out, name + ".json"), "w"), indent=1)


if __name__ == "__main__":
    main()
