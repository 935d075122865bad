#!/usr/bin/env python3
"""Makes P.clang.ptx for record.sh: clang 22's PTX of each programs9 program,
as `warpsim cc` runs it (`warpsim compile --std c++17 P.cu`), with the
libdevice functions clang leaves as calls that ptxas cannot resolve without
libdevice defined in PTX as libdevice computes them at nvcc's default
precision (__nv_fmaf: fma.rn.f32; __nv_rsqrtf: rsqrt.approx.f32;
__nv_sqrtf: sqrt.rn.f32). A program calling another libdevice function
(__nv_powf, __nv_cosf, __nv_expf) gets no clang build. (testdata/programs8/
clangptx.py, unchanged.)
Usage: clangptx.py WARPSIM OUTDIR P.cu..."""
import os, re, subprocess, sys

BODIES = {
    "__nv_fmaf": ("\t.reg .f32 %f<5>;\n\tld.param.f32 %f1, [__nv_fmaf_param_0];\n\tld.param.f32 %f2, [__nv_fmaf_param_1];\n"
                  "\tld.param.f32 %f3, [__nv_fmaf_param_2];\n\tfma.rn.f32 %f4, %f1, %f2, %f3;\n\tst.param.f32 [func_retval0], %f4;\n\tret;\n"),
    "__nv_sqrtf": ("\t.reg .f32 %f<3>;\n\tld.param.f32 %f1, [__nv_sqrtf_param_0];\n\tsqrt.rn.f32 %f2, %f1;\n"
                   "\tst.param.f32 [func_retval0], %f2;\n\tret;\n"),
    "__nv_rsqrtf": ("\t.reg .f32 %f<3>;\n\tld.param.f32 %f1, [__nv_rsqrtf_param_0];\n\trsqrt.approx.f32 %f2, %f1;\n"
                    "\tst.param.f32 [func_retval0], %f2;\n\tret;\n"),
}


def main():
    w, out, srcs = sys.argv[1], sys.argv[2], sys.argv[3:]
    for src in srcs:
        name = os.path.basename(src)[:-3]
        dst = os.path.join(out, name + ".clang.ptx")
        subprocess.run([w, "compile", "--std", "c++17", src, "-o", dst], check=True)
        text = open(dst).read()
        for fn in re.findall(r"\.extern \.func\s+\([^)]*\)\s+(\w+)", text):
            if fn not in BODIES:
                print(f"{name}: calls {fn}: no clang build", file=sys.stderr)
                os.remove(dst)
                break
            text = re.sub(r"\.extern (\.func\s+\([^)]*\)\s+" + fn + r"\s*\([^)]*\))\s*;",
                          lambda m: m.group(1) + "\n{\n" + BODIES[fn] + "}", text)
        else:
            open(dst, "w").write(text)


main()
