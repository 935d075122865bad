#!/usr/bin/env python3
"""Writes pipe.ptx: mb.cu's tensor-pipe loops in hand-written PTX, for
warpsim's timing model (internal/timing TestTensorPipeMicrobenchmarks).

One kernel per mb.cu kernel and ILP (1, 2, 4, 8), named <mb.cu name>_ilp<ILP>:
per warp, p_iters iterations of ILP mma.sync in independent accumulator
chains (ILP 1: one dependent chain), the same instruction as mb.cu's inline
asm; lane 0 of each warp stores the %clock64 cycles of its loop at
p_out[warp]. Usage: python3 gen_pipe.py > pipe.ptx
"""

# name: (instruction, D registers per MMA and their type, A count, B count,
# A/B register type and initial value)
KERNELS = [
    ("mma_f16_f32_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, ".f32", 4, 2, ".b32"),
    ("mma_bf16_f32_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 4, ".f32", 4, 2, ".b32"),
    ("mma_f16_f16_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 2, ".b32", 4, 2, ".b32"),
    ("mma_f16_f32_m16n8k8", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 4, ".f32", 2, 1, ".b32"),
    ("mma_tf32_f32_m16n8k8", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 4, ".f32", 4, 2, ".b32"),
    ("mma_s8_s32_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 4, ".b32", 4, 2, ".b32"),
    ("mma_f64_m8n8k4", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 2, ".f64", 1, 1, ".f64"),
]

ZERO = {".f32": "0f00000000", ".b32": "0", ".f64": "0d0000000000000000"}
ONE = {".b32": "0x3c003c00", ".f64": "0d3FF0000000000000"}  # mb.cu's inputs: f16 1.0 pairs, f64 1.0


def kernel(name, inst, nd, dt, na, nb, abt, ilp):
    out = [f".visible .entry {name}_ilp{ilp}(.param .u64 p_out, .param .u32 p_iters)", "{"]
    out += [f"\t.reg {abt} %a<{na}>;", f"\t.reg {abt} %b<{nb}>;", f"\t.reg {dt} %d<{nd * ilp}>;",
            "\t.reg .b64 %t<3>;", "\t.reg .b64 %o;", "\t.reg .b32 %i, %n, %tid, %w, %f;",
            "\t.reg .pred %p, %q;", "\t.reg .b64 %off;"]
    mov = "mov" + abt
    out += [f"\t{mov} %a{i}, {ONE[abt]};" for i in range(na)]
    out += [f"\t{mov} %b{i}, {ONE[abt]};" for i in range(nb)]
    out += [f"\tmov{dt} %d{i}, {ZERO[dt]};" for i in range(nd * ilp)]
    out += ["\tld.param.u32 %n, [p_iters];", "\tmov.u32 %i, 0;", "\tbar.sync 0;",
            "\tmov.u64 %t0, %clock64;", "$L_loop:"]
    a = ",".join(f"%a{i}" for i in range(na))
    b = ",".join(f"%b{i}" for i in range(nb))
    for j in range(ilp):
        d = ",".join(f"%d{j * nd + r}" for r in range(nd))
        out.append(f"\t{inst} {{{d}}}, {{{a}}}, {{{b}}}, {{{d}}};")
    out += ["\tadd.u32 %i, %i, 1;", "\tsetp.lt.u32 %p, %i, %n;", "\t@%p bra $L_loop;",
            "\tmov.u64 %t1, %clock64;", "\tsub.s64 %t2, %t1, %t0;", "\tmov.u32 %tid, %tid.x;",
            "\tand.b32 %f, %tid, 31;", "\tsetp.eq.u32 %q, %f, 0;", "\tshr.u32 %w, %tid, 5;",
            "\tld.param.u64 %o, [p_out];", "\tmul.wide.u32 %off, %w, 8;", "\tadd.s64 %o, %o, %off;",
            "\t@%q st.global.u64 [%o], %t2;", "\tret;", "}", ""]
    return "\n".join(out)


def ldmatrix(ilp):
    """mb.cu's ldmatrix_x4<ILP>: per iteration ILP ldmatrix.x4 from shared
    memory (lane l's row address: (l + 32j) * 16), each result folded into
    an accumulator (acc ^= r0 + r3), the loads ahead of their uses as ptxas
    schedules them."""
    out = [f".visible .entry ldmatrix_x4_ilp{ilp}(.param .u64 p_out, .param .u32 p_iters)", "{",
           f"\t.shared .align 16 .b8 sm[{2048 * ilp}];",
           f"\t.reg .b32 %r<{4 * ilp}>;", f"\t.reg .b32 %addr<{ilp}>;",
           "\t.reg .b32 %acc, %s, %lane, %base;",
           "\t.reg .b64 %t<3>;", "\t.reg .b64 %o;", "\t.reg .b32 %i, %n, %tid, %w, %f;",
           "\t.reg .pred %p, %q;", "\t.reg .b64 %off;",
           "\tmov.u32 %tid, %tid.x;", "\tand.b32 %lane, %tid, 31;", "\tmov.u32 %base, sm;",
           "\tshl.b32 %s, %lane, 4;", "\tadd.u32 %base, %base, %s;"]
    out += [f"\tadd.u32 %addr{j}, %base, {512 * j};" for j in range(ilp)]
    out += ["\tmov.u32 %acc, 0;", "\tld.param.u32 %n, [p_iters];", "\tmov.u32 %i, 0;", "\tbar.sync 0;",
            "\tmov.u64 %t0, %clock64;", "$L_loop:"]
    # The loads first, then their uses: the order ptxas schedules them in
    # (an in-order model runs the PTX as written).
    for j in range(ilp):
        r = ",".join(f"%r{4 * j + k}" for k in range(4))
        out.append(f"\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{r}}}, [%addr{j}];")
    for j in range(ilp):
        out += [f"\tadd.u32 %s, %r{4 * j}, %r{4 * j + 3};", "\txor.b32 %acc, %acc, %s;"]
    out += ["\tadd.u32 %i, %i, 1;", "\tsetp.lt.u32 %p, %i, %n;", "\t@%p bra $L_loop;",
            "\tmov.u64 %t1, %clock64;", "\tsub.s64 %t2, %t1, %t0;",
            "\tadd.u32 %s, %acc, 0;",
            "\tsetp.eq.u32 %q, %lane, 0;", "\tshr.u32 %w, %tid, 5;",
            "\tld.param.u64 %o, [p_out];", "\tmul.wide.u32 %off, %w, 8;", "\tadd.s64 %o, %o, %off;",
            "\t@%q st.global.u64 [%o], %t2;", "\tret;", "}", ""]
    return "\n".join(out)


def main():
    print("// Tensor-pipe microbenchmarks for warpsim's timing model (hand-written PTX,")
    print("// the loops of mb.cu; written by gen_pipe.py): per warp, p_iters iterations of")
    print("// ILP mma.sync in independent accumulator chains (ILP 1: one dependent chain);")
    print("// lane 0 of each warp stores the %clock64 cycles of its loop at p_out[warp].")
    print(".version 8.0\n.target sm_90\n.address_size 64\n")
    for k in KERNELS:
        for ilp in (1, 2, 4, 8):
            print(kernel(*k, ilp))
    for ilp in (1, 2, 4, 8):
        print(ldmatrix(ilp))


if __name__ == "__main__":
    main()
