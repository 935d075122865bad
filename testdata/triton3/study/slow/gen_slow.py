#!/usr/bin/env python3
"""Microbenchmarks for the tenth round (issue 19), shaped after the study half's clamp_nan_f32: the slow paths of
div.rn.f32 and sqrt.rn.f32 (ptxas's FCHK or range check, then a CALL of a subroutine after the EXIT), and the
f16 atomics of atomic_f16_bf16 with several warps on the same words. As launch files that warpsim runs and that
../../time_triton3.py times through the CUDA driver under Nsight Compute (run_slow.sh).

  div_<cls>   one warp: 32 loads, 16 independent div.rn.f32 and 16 stores a lane; lane 0's operands of class <cls>
              in all 16 divisions (all32_*: every lane's), the other lanes' normal (1.25..2 / 1.5..3)
  sqrt_<cls>  the same with 16 sqrt.rn.f32
  div_mix_*   two lanes' operands of two kinds (zz: 0/0)
  div_*_w4/w8 4 or 8 warps, lane 0 of each with 0/0 (norm: none)
  f16_<w>     8 atom.global.gpu.acq_rel.add.noftz.f16, lane l of every warp on word l (w1..w8: warps of one block,
              b2, b4: blocks of one warp), as ../gen_mb.py's f16_s2 with more warps on the same words

    gen_slow.py OUTDIR      writes OUTDIR/<case>/{k.ptx,a.bin,b.bin,launch.json,meta.json}"""
import json, os, struct, sys

HEAD = """.version 8.0
.target sm_90
.address_size 64
"""
K = 16  # operations a lane

def bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]

INF, NAN = 0x7F800000, 0x7FC00000
DEN = 0x000B5E3F          # a subnormal (about 1.0e-39)
P = lambda e: (127 + e) << 23   # 2^e

# class -> (a, b) bit patterns for the special lane
DIV = {
    "norm": None,
    "num_zero": (0, bits(1.5)),
    "den_zero": (bits(1.5), 0),
    "zero_zero": (0, 0),
    "nan": (NAN, bits(1.5)),
    "inf_num": (INF, bits(1.5)),
    "inf_den": (bits(1.5), INF),
    "sub_den": (bits(1.5), DEN),
    "sub_num": (DEN, bits(1.5)),
    "ovf": (P(120), P(-10)),         # quotient 2^130: overflows
    "unf": (P(-120), P(10)),         # quotient 2^-130: subnormal
    "q_hi": (P(100), P(-20)),        # quotient 2^120, operands and result normal
    "q_lo": (P(-100), P(20)),        # quotient 2^-120
    "big_den": (bits(1.5), P(127)),  # divisor 2^127: its reciprocal subnormal
    "tiny_num": (P(-125), bits(1.5)),
    "all32_zero_zero": (0, 0),
}
SQRT = {
    "norm": None,
    "zero": 0,
    "neg": bits(-2.0),
    "sub": DEN,
    "inf": INF,
    "nan": NAN,
    "tiny": P(-103),                 # below 2^-101: ptxas's range check
    "small": P(-99),                 # above it
    "all32_neg": bits(-2.0),
}

def kernel(op, threads=32):
    s = HEAD + """.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 po)
{
	.reg .b32 %r<400>;
	.reg .b64 %rd<16>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [po];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd1, %rd4;
	add.s64 %rd6, %rd2, %rd4;
	add.s64 %rd7, %rd3, %rd4;
"""
    for i in range(K):
        s += "\tld.global.b32 %%r%d, [%%rd5+%d];\n" % (100 + i, 4 * threads * i)
        if op == "div":
            s += "\tld.global.b32 %%r%d, [%%rd6+%d];\n" % (200 + i, 4 * threads * i)
    for i in range(K):
        if op == "div":
            s += "\tdiv.rn.f32 %%r%d, %%r%d, %%r%d;\n" % (300 + i, 100 + i, 200 + i)
        else:
            s += "\tsqrt.rn.f32 %%r%d, %%r%d;\n" % (300 + i, 100 + i)
    for i in range(K):
        s += "\tst.global.b32 [%%rd7+%d], %%r%d;\n" % (4 * threads * i, 300 + i)
    return s + "\tret;\n}\n"

def f16_kernel():
    return HEAD + """.visible .entry k(.param .u64 p)
{
	.reg .b16 %h<4>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 31;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	mov.b16 %h1, 0x3C00;
""" + "\tatom.global.gpu.acq_rel.add.noftz.f16 %h2, [%rd3], %h1;\n" * 8 + "\tret;\n}\n"

def write(out, name, ptx, bufs, args, grid, block, outputs):
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
          "launches": [{"kernel": "k", "grid": grid, "block": block, "shared_bytes": 0,
                        "args": [{"buffer": b} for b in args]}]}
    json.dump(lf, open(os.path.join(d, "launch.json"), "w"), indent=1)
    json.dump({"kernel": "k", "outputs": outputs, "description": name}, open(os.path.join(d, "meta.json"), "w"), indent=1)

def pack(v):
    return struct.pack("<%dI" % len(v), *v)

def main():
    out = sys.argv[1]
    def div_case(name, lanes, threads=32):
        a = [bits(1.25 + (i % 7) / 8) for i in range(threads * K)]
        b = [bits(1.5 + (i % 5) / 3) for i in range(threads * K)]
        for i in range(K):
            for l, ab in lanes.items():
                a[threads * i + l], b[threads * i + l] = ab
        write(out, name, kernel("div", threads), {"a": pack(a), "b": pack(b), "o": 4 * threads * K}, ["a", "b", "o"],
              [1, 1, 1], [threads, 1, 1], ["o"])
    def sqrt_case(name, lanes, threads=32):
        a = [bits(1.25 + (i % 7) / 8) for i in range(threads * K)]
        for i in range(K):
            for l, x in lanes.items():
                a[threads * i + l] = x
        write(out, name, kernel("sqrt", threads), {"a": pack(a), "b": 4, "o": 4 * threads * K}, ["a", "b", "o"],
              [1, 1, 1], [threads, 1, 1], ["o"])
    for cls, ab in DIV.items():
        div_case("div_" + cls, {} if ab is None else {l: ab for l in (range(32) if cls.startswith("all32") else [0])})
    for cls, x in SQRT.items():
        sqrt_case("sqrt_" + cls, {} if x is None else {l: x for l in (range(32) if cls.startswith("all32") else [0])})
    # Two lanes on two paths (the subroutine's paths one after another), and four warps each with lane 0 on a path
    # (the sub-partitions' subroutines side by side).
    div_case("div_mix_nan_subnum", {0: DIV["nan"], 1: DIV["sub_num"]})
    div_case("div_mix_zz_ovf", {0: DIV["zero_zero"], 1: DIV["ovf"]})
    div_case("div_mix_zz_zz", {0: DIV["zero_zero"], 1: DIV["zero_zero"]})
    sqrt_case("sqrt_mix_neg_sub", {0: SQRT["neg"], 1: SQRT["sub"]})
    div_case("div_norm_w4", {}, 128)
    div_case("div_zero_zero_w4", {32 * w: DIV["zero_zero"] for w in range(4)}, 128)
    div_case("div_zero_zero_w8", {32 * w: DIV["zero_zero"] for w in range(8)}, 256)
    div_case("div_norm_w8", {}, 256)
    for name, grid, block in (("f16_w1", 1, 32), ("f16_w2", 1, 64), ("f16_w4", 1, 128), ("f16_w8", 1, 256),
                              ("f16_b2", 2, 32), ("f16_b4", 4, 32)):
        write(out, name, f16_kernel(), {"buf": 128}, ["buf"], [grid, 1, 1], [block, 1, 1], ["buf"])

if __name__ == "__main__":
    main()
