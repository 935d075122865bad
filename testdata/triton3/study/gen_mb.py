#!/usr/bin/env python3
"""Microbenchmarks for the ninth round's atomics mechanisms (issue 18), shaped after the study half's
splitk_f16_atomic and atomic_f16_bf16: one warp's acq_rel gpu-scope atomics, as launch files that warpsim runs and
that ../time_triton3.py times through the CUDA driver under Nsight Compute (run_mb.sh).

  vec_v4      16 atom.global.gpu.acq_rel.add.v4.f32, 16 bytes a lane (sm_90's form)
  vec_scalar  the same 64 words as 64 scalar atom.global.gpu.acq_rel.add.f32 (sm_80's form)
  f16_s2      8 atom.global.gpu.acq_rel.add.noftz.f16, each lane on a 4-byte word of its own
  f16_s1      the same with two lanes on each word (a CAS loop's second round)

    gen_mb.py OUTDIR      writes OUTDIR/<case>/{k.ptx,launch.json,meta.json}"""
import json, os, sys

HEAD = """.version 8.0
.target sm_90
.address_size 64
"""

def vec(n, v4):
    s = HEAD + """.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<16>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 16;
	add.s64 %rd3, %rd1, %rd2;
	mov.f32 %f1, 0f3F800000;
"""
    for i in range(n):
        if v4:
            s += "\tatom.global.gpu.acq_rel.add.v4.f32 {%f4, %f5, %f6, %f7}, [%rd3], {%f1, %f1, %f1, %f1};\n"
        else:
            for e in range(4):
                s += "\tatom.global.gpu.acq_rel.add.f32 %%f%d, [%%rd3+%d], %%f1;\n" % (4 + e, 4 * e)
    return s + "\tret;\n}\n"

def f16(n):
    s = HEAD + """.visible .entry k(.param .u64 p, .param .u32 s)
{
	.reg .b16 %h<4>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	ld.param.u32 %r2, [s];
	mov.u32 %r1, %tid.x;
	mul.lo.u32 %r3, %r1, %r2;
	mul.wide.u32 %rd2, %r3, 2;
	add.s64 %rd3, %rd1, %rd2;
	mov.b16 %h1, 0x3C00;
"""
    for i in range(n):
        s += "\tatom.global.gpu.acq_rel.add.noftz.f16 %h2, [%rd3], %h1;\n"
    return s + "\tret;\n}\n"

def case(out, name, ptx, args, nbytes):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "k.ptx"), "w").write(ptx)
    lf = {"module": "k.ptx", "arch": "h100", "buffers": {"buf": {"bytes": nbytes}},
          "launches": [{"kernel": "k", "grid": [1, 1, 1], "block": [32, 1, 1], "shared_bytes": 0,
                        "args": [{"buffer": "buf"}] + args}]}
    json.dump(lf, open(os.path.join(d, "launch.json"), "w"), indent=1)
    json.dump({"kernel": "k", "outputs": ["buf"], "description": name}, open(os.path.join(d, "meta.json"), "w"), indent=1)

def main():
    out = sys.argv[1]
    case(out, "vec_v4", vec(16, True), [], 512)
    case(out, "vec_scalar", vec(16, False), [], 512)
    case(out, "f16_s2", f16(8), [{"s32": 2}], 256)
    case(out, "f16_s1", f16(8), [{"s32": 1}], 256)

if __name__ == "__main__":
    main()
