#!/usr/bin/env python3
"""Writes video_simd.cu, the H100 probe of PTX's video instructions.

Every form is one inline-asm instruction in its own __noinline__ function
vfNNNN(a, b, c) (operands %0 = d, %1 = a, %2 = b, %3 = c), so cuobjdump
shows each form's SASS by name. The kernel runs every form on every operand
row and the program prints one line per row: "a b c: d0 d1 ..." in hex.

  gen_probe.py forms            the form list, one a line
  gen_probe.py cu [DROPPED]     the probe's source, leaving out the forms
                                listed (one a line, first tab-separated
                                field) in DROPPED
  gen_probe.py kept DROPPED     the forms the probe keeps, in its order
  gen_probe.py drop DROPPED PTX LOG
                                the forms ptxas refused in LOG (its errors
                                name lines of PTX, inside function vfNNNN),
                                "form<TAB>error" a line
"""
import re
import sys

U, S = "u32", "s32"
TYPES3 = [(d, a, b) for d in (U, S) for a in (U, S) for b in (U, S)]
OP2S = ["", ".add", ".min", ".max"]


def t3(t):
    return ".%s.%s.%s" % t


def forms():
    f = []
    # A. scalar vadd/vsub/vabsdiff/vmin/vmax: every type, .sat, secondary op
    for op in ("vadd", "vsub", "vabsdiff", "vmin", "vmax"):
        for t in TYPES3:
            for sat in ("", ".sat"):
                for op2 in OP2S:
                    if op2:
                        f.append("%s%s%s%s %%0, %%1, %%2, %%3;" % (op, t3(t), sat, op2))
                    else:
                        f.append("%s%s%s %%0, %%1, %%2;" % (op, t3(t), sat))
    # B. scalar operand selectors
    sels = [".b0", ".b1", ".b2", ".b3", ".h0", ".h1"]
    for t in ((U, U, U), (S, S, S), (S, U, S)):
        for s in sels:
            f.append("vadd%s %%0, %%1%s, %%2;" % (t3(t), s))
            f.append("vadd%s %%0, %%1, %%2%s;" % (t3(t), s))
        for sa, sb in ((".b1", ".h1"), (".h0", ".b3"), (".b2", ".b2"), (".h1", ".h0")):
            f.append("vadd%s %%0, %%1%s, %%2%s;" % (t3(t), sa, sb))
    for form in ("vmax.s32.s32.s32", "vsub.s32.u32.u32.sat", "vabsdiff.u32.s32.s32", "vmin.u32.s32.u32"):
        for sa, sb in ((".b0", ""), ("", ".b3"), (".h1", ""), ("", ".h0"), (".b2", ".h1"), (".h0", ".b1")):
            f.append("%s %%0, %%1%s, %%2%s;" % (form, sa, sb))
    for form in ("vadd.s32.s32.s32.add", "vmin.u32.u32.u32.max", "vsub.u32.s32.s32.sat.min"):
        for sa, sb in ((".b1", ".h0"), (".h1", ".b3"), (".b3", ".b0")):
            f.append("%s %%0, %%1%s, %%2%s, %%3;" % (form, sa, sb))
    # C. scalar merges into c (d.dsel), with saturation to the part's range
    for form in ("vadd.u32.u32.u32", "vadd.s32.s32.s32.sat", "vadd.u32.u32.u32.sat", "vsub.s32.s32.s32",
                 "vmax.u32.s32.s32.sat", "vabsdiff.s32.s32.s32.sat", "vadd.u32.s32.s32.sat", "vsub.s32.u32.u32.sat"):
        for s in sels:
            f.append("%s %%0%s, %%1, %%2, %%3;" % (form, s))
    for s, sa, sb in ((".b1", ".b0", ".h1"), (".h1", ".h0", ".b2"), (".b3", ".b3", ".b3"), (".h0", ".h1", ".h1")):
        f.append("vadd.s32.s32.s32.sat %%0%s, %%1%s, %%2%s, %%3;" % (s, sa, sb))
    # D. shifts: every d/a type, .clamp/.wrap, .sat, secondary op
    for op in ("vshl", "vshr"):
        for d in (U, S):
            for a in (U, S):
                for mode in (".clamp", ".wrap"):
                    for sat in ("", ".sat"):
                        for op2 in OP2S:
                            args = "%0, %1, %2, %3;" if op2 else "%0, %1, %2;"
                            f.append("%s.%s.%s.u32%s%s%s %s" % (op, d, a, mode, sat, op2, args))
    for s in (".b1", ".h1", ".b3"):
        f.append("vshr.u32.u32.u32.wrap %%0, %%1%s, %%2;" % s)
        f.append("vshr.s32.s32.u32.clamp %%0, %%1%s, %%2;" % s)
        f.append("vshl.u32.u32.u32.clamp %%0, %%1, %%2%s;" % s)
    for s in (".b0", ".b2", ".h1"):
        f.append("vshl.u32.u32.u32.wrap %%0%s, %%1, %%2, %%3;" % s)
        f.append("vshr.s32.s32.u32.clamp.sat %%0%s, %%1, %%2, %%3;" % s)
    # E. vset: every type, comparison, secondary op; selectors; merges
    cmps = [".eq", ".ne", ".lt", ".le", ".gt", ".ge"]
    for a in (U, S):
        for b in (U, S):
            for c in cmps:
                for op2 in OP2S:
                    args = "%0, %1, %2, %3;" if op2 else "%0, %1, %2;"
                    f.append("vset.%s.%s%s%s %s" % (a, b, c, op2, args))
    for sa, sb in ((".b0", ""), ("", ".b3"), (".h1", ""), ("", ".h0"), (".b2", ".h1"), (".h0", ".b1"), (".b3", ".b3"), (".h1", ".h1")):
        f.append("vset.s32.u32.lt %%0, %%1%s, %%2%s;" % (sa, sb))
    for s in sels:
        f.append("vset.s32.s32.gt %%0%s, %%1, %%2, %%3;" % s)
    # F. vmad: every type, .sat, scale, product/c negation, .po
    for t in TYPES3:
        for sat in ("", ".sat"):
            for scale in ("", ".shr7", ".shr15"):
                for neg in ("", "-a", "-c", "po"):
                    m = "vmad%s%s%s%s" % (t3(t), ".po" if neg == "po" else "", sat, scale)
                    a = "-%1" if neg == "-a" else "%1"
                    c = "-%3" if neg == "-c" else "%3"
                    f.append("%s %%0, %s, %%2, %s;" % (m, a, c))
    for t in ((U, U, U), (S, S, S), (S, U, S), (S, S, U)):
        f.append("vmad%s %%0, %%1, -%%2, %%3;" % t3(t))
        f.append("vmad%s %%0, -%%1, -%%2, %%3;" % t3(t))
    for sa, sb in ((".b0", ".b1"), (".h0", ".h1"), (".b3", ".h0"), (".h1", ".b2")):
        f.append("vmad.u32.u32.u32 %%0, %%1%s, %%2%s, %%3;" % (sa, sb))
        f.append("vmad.s32.s32.s32.shr7 %%0, %%1%s, %%2%s, %%3;" % (sa, sb))
        f.append("vmad.s32.u32.s32.sat %%0, %%1%s, %%2%s, -%%3;" % (sa, sb))
    # G. two-way SIMD: every op and type, merge, .sat, .add; selectors; masks
    simd2 = ["vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2"]
    for op in simd2:
        for t in TYPES3:
            for v in ("", ".sat", ".add"):
                f.append("%s%s%s %%0, %%1, %%2, %%3;" % (op, t3(t), v))
    hsel = [".h%d%d" % (x, y) for x in range(4) for y in range(4)]
    for s in hsel:
        f.append("vadd2.u32.u32.u32 %%0, %%1%s, %%2, %%3;" % s)
        f.append("vadd2.s32.s32.s32.sat %%0, %%1, %%2%s, %%3;" % s)
    for sa, sb in ((".h01", ".h23"), (".h33", ".h00"), (".h21", ".h30"), (".h12", ".h12")):
        f.append("vmax2.s32.s32.s32 %%0, %%1%s, %%2%s, %%3;" % (sa, sb))
        f.append("vsub2.u32.s32.u32.sat %%0, %%1%s, %%2%s, %%3;" % (sa, sb))
    for op in simd2:
        for form in ("%s.u32.u32.u32" % op, "%s.s32.s32.s32.sat" % op, "%s.s32.u32.s32.add" % op):
            for m in (".h0", ".h1"):
                f.append("%s %%0%s, %%1, %%2, %%3;" % (form, m))
    f.append("vadd2.u32.u32.u32 %0.h10, %1.h10, %2.h32, %3;")
    f.append("vmin2.s32.s32.s32.add %0.h1, %1.h02, %2.h31, %3;")
    # H. vset2
    for a in (U, S):
        for b in (U, S):
            for c in cmps:
                for v in ("", ".add"):
                    f.append("vset2.%s.%s%s%s %%0, %%1, %%2, %%3;" % (a, b, c, v))
    for m in (".h0", ".h1"):
        f.append("vset2.s32.s32.lt %%0%s, %%1, %%2, %%3;" % m)
        f.append("vset2.u32.u32.ge.add %%0%s, %%1, %%2, %%3;" % m)
    for sa, sb in ((".h01", ".h23"), (".h33", ".h00"), (".h21", ".h30")):
        f.append("vset2.s32.u32.ne %%0, %%1%s, %%2%s, %%3;" % (sa, sb))
        f.append("vset2.u32.s32.le.add %%0, %%1%s, %%2%s, %%3;" % (sa, sb))
    # I. four-way SIMD
    simd4 = ["vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4"]
    for op in simd4:
        for t in TYPES3:
            for v in ("", ".sat", ".add"):
                f.append("%s%s%s %%0, %%1, %%2, %%3;" % (op, t3(t), v))
    bsel = [".b3210", ".b7654", ".b0123", ".b4567", ".b0000", ".b7777", ".b3715", ".b6240", ".b1357", ".b0246",
            ".b5544", ".b2367"]
    for s in bsel:
        f.append("vadd4.u32.u32.u32 %%0, %%1%s, %%2, %%3;" % s)
        f.append("vmin4.s32.s32.s32 %%0, %%1, %%2%s, %%3;" % s)
    for sa, sb in ((".b7654", ".b3210"), (".b0415", ".b2637"), (".b1111", ".b6666")):
        f.append("vsub4.s32.s32.s32.sat %%0, %%1%s, %%2%s, %%3;" % (sa, sb))
        f.append("vavrg4.u32.s32.u32 %%0, %%1%s, %%2%s, %%3;" % (sa, sb))
    masks4 = [".b0", ".b1", ".b10", ".b2", ".b20", ".b21", ".b210", ".b3", ".b30", ".b31", ".b310", ".b32",
              ".b320", ".b321", ".b3210"]
    for m in masks4:
        f.append("vadd4.u32.u32.u32 %%0%s, %%1, %%2, %%3;" % m)
        f.append("vsub4.s32.s32.s32.add %%0%s, %%1, %%2, %%3;" % m)
    for op in simd4:
        for form in ("%s.s32.s32.s32.sat" % op, "%s.u32.s32.u32.add" % op):
            for m in (".b0", ".b21", ".b310", ".b3"):
                f.append("%s %%0%s, %%1, %%2, %%3;" % (form, m))
    # J. vset4
    for a in (U, S):
        for b in (U, S):
            for c in cmps:
                for v in ("", ".add"):
                    f.append("vset4.%s.%s%s%s %%0, %%1, %%2, %%3;" % (a, b, c, v))
    for m in (".b0", ".b31", ".b210", ".b3"):
        f.append("vset4.s32.s32.gt %%0%s, %%1, %%2, %%3;" % m)
        f.append("vset4.u32.u32.le.add %%0%s, %%1, %%2, %%3;" % m)
    for sa, sb in ((".b7654", ".b3210"), (".b0415", ".b2637"), (".b1111", ".b6666")):
        f.append("vset4.s32.u32.lt %%0, %%1%s, %%2%s, %%3;" % (sa, sb))
        f.append("vset4.u32.s32.eq.add %%0, %%1%s, %%2%s, %%3;" % (sa, sb))
    assert len(set(f)) == len(f), "duplicate forms"
    return f


# Edge operands: 32-bit boundaries, shift amounts, and words whose bytes and
# half-words sit at their own signed and unsigned boundaries.
EDGE = [0x00000000, 0x00000001, 0x0000001f, 0x00000020, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff,
        0xfffffffe, 0x7f80ff01, 0x807f01ff, 0x7fff8000, 0x80007fff, 0xffff0001, 0x0001ffff, 0x00ff0080,
        0x12345678, 0xdeadbeef, 0x00010000, 0xff7f0180]
LCG_ROWS = 112

HEAD = r'''// Probe: PTX video instructions on the H100 (generated by gen_probe.py; do not edit).
// Scalar vadd/vsub/vabsdiff/vmin/vmax/vshl/vshr/vset/vmad with every type,
// .sat, secondary .add/.min/.max, byte and half-word selectors and merges;
// the SIMD vadd2 ... vmax2, vset2, vadd4 ... vmax4, vset4 with every type,
// .sat, .add, selectors and masks. Each form is one __noinline__ function
// (its SASS is listed by cuobjdump under its name). One output line per
// operand row: "a b c: d0 d1 ..." in hex, forms in the order of
// video_simd.forms.txt.
#include <cstdio>
#include <cstdlib>
'''


def cu(dropped):
    fs = [x for x in forms() if x not in dropped]
    out = [HEAD, "#define NF %d\n#define NEDGE %d\n#define NLCG %d\n" % (len(fs), len(EDGE), LCG_ROWS)]
    for i, x in enumerate(fs):
        out.append('extern "C" __device__ __noinline__ unsigned vf%04d(unsigned a, unsigned b, unsigned c) '
                   '{ unsigned d; asm volatile("%s" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }\n' % (i, x))
    out.append("__global__ void probe(const unsigned* A, const unsigned* B, const unsigned* C, unsigned* out, int rows) {\n"
               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= rows) return;\n"
               "  unsigned a = A[i], b = B[i], c = C[i];\n  unsigned* o = out + (size_t)i * NF;\n")
    for i in range(len(fs)):
        out.append("  o[%d] = vf%04d(a, b, c);\n" % (i, i))
    out.append("}\n\nstatic const unsigned edge[NEDGE] = {%s};\n\n" % ", ".join("0x%08xu" % v for v in EDGE))
    out.append(r'''int main() {
  const int rows = NEDGE * NEDGE + NLCG;
  static unsigned a[rows], b[rows], c[rows];
  for (int i = 0; i < NEDGE * NEDGE; i++) {
    a[i] = edge[i / NEDGE]; b[i] = edge[i % NEDGE]; c[i] = edge[(i * 7 + 3) % NEDGE];
  }
  unsigned long long s = 0x2545f4914f6cdd1dull;
  for (int i = NEDGE * NEDGE; i < rows; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull; a[i] = (unsigned)(s >> 32);
    s = s * 6364136223846793005ull + 1442695040888963407ull; b[i] = (unsigned)(s >> 32);
    s = s * 6364136223846793005ull + 1442695040888963407ull; c[i] = (unsigned)(s >> 32);
  }
  unsigned *dA, *dB, *dC, *dout;
  cudaMalloc(&dA, sizeof a); cudaMalloc(&dB, sizeof b); cudaMalloc(&dC, sizeof c);
  cudaMalloc(&dout, (size_t)rows * NF * 4);
  cudaMemcpy(dA, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b, sizeof b, cudaMemcpyHostToDevice);
  cudaMemcpy(dC, c, sizeof c, cudaMemcpyHostToDevice);
  probe<<<(rows + 63) / 64, 64>>>(dA, dB, dC, dout, rows);
  unsigned* h = (unsigned*)malloc((size_t)rows * NF * 4);
  cudaError_t e = cudaMemcpy(h, dout, (size_t)rows * NF * 4, cudaMemcpyDeviceToHost);
  printf("%s\n", cudaGetErrorString(e));
  for (int i = 0; i < rows; i++) {
    printf("%08x %08x %08x:", a[i], b[i], c[i]);
    for (int k = 0; k < NF; k++) printf(" %08x", h[(size_t)i * NF + k]);
    printf("\n");
  }
  return e != cudaSuccess;
}
''')
    return "".join(out)


def read_dropped(path):
    with open(path) as fh:
        return {line.split("\t")[0] for line in fh if line.strip()}


def refused(dropped, ptx, log):
    kept = [x for x in forms() if x not in dropped]
    lines = open(ptx).read().split("\n")
    owner = []  # the vfNNNN function each PTX line belongs to
    cur = -1
    for ln in lines:
        m = re.search(r"\bvf(\d{4})\s*\(", ln)
        if m and ".func" in ln:
            cur = int(m.group(1))
        owner.append(cur)
    out = {}
    for ln in open(log):
        m = re.search(r"line (\d+); error\s*:\s*(.*)", ln)
        if m:
            n = int(m.group(1)) - 1
            if 0 <= n < len(owner) and owner[n] >= 0 and kept[owner[n]] not in out:
                out[kept[owner[n]]] = m.group(2).strip()
    return out


if __name__ == "__main__":
    if sys.argv[1] == "forms":
        print("\n".join(forms()))
    elif sys.argv[1] == "kept":
        dropped = read_dropped(sys.argv[2])
        print("\n".join(x for x in forms() if x not in dropped))
    elif sys.argv[1] == "drop":
        for form, err in refused(read_dropped(sys.argv[2]), sys.argv[3], sys.argv[4]).items():
            print("%s\t%s" % (form, err))
    else:
        dropped = read_dropped(sys.argv[2]) if len(sys.argv) > 2 else set()
        sys.stdout.write(cu(dropped))
