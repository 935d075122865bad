#!/usr/bin/env python3
"""Generate the wgmma/mma type probes of testdata/tensor/wgmmatypes.

For each variant this writes
  ptx/<name>.ptx  one kernel `probe(in, out)`, the same PTX on the H100 (ptxas) and in warpsim;
  in/<name>.bin   the inputs, one record per test case (one CTA):
                  16-byte header (word 0: the scale-d predicate, 1 or 0)
                  | the shared-memory image (SMEM bytes, copied verbatim to the kernel's
                    1024-byte aligned .shared array; wgmma's A and B descriptors point into it)
                  | per thread (128 for wgmma, 32 for mma.sync) NIN 32-bit words: the A
                    registers (wgmma with A in registers, mma.sync), the B registers
                    (mma.sync), then the C registers;
and variants.tsv, one line per variant: name, threads, cases, bytes in and out per case, instruction.
The kernel writes every thread's D registers (ND words) to out/<name>.bin, thread-major.

The kernel knows nothing of fragment layouts: the D/C registers and A registers are placed by this
script (the PTX ISA's wgmma and mma fragment figures), the shared-memory image too. Two kinds of
variants:
  adv   adversarial inputs (the nine families of ../gen.py: wide and narrow random, one large and many
        small terms, exact cancellations, NaN/Inf/zero/subnormal sprinkles, accumulator extremes,
        equal exponents with mixed signs, near overflow, near the subnormal range), N = 8, operands
        in the no-swizzle K-major layout, to measure the arithmetic;
  rand  the whole shared-memory image filled with narrow random elements, N from 16 to 256, every
        swizzle mode, K- and MN-major, non-canonical strides and start offsets inside a swizzle
        row, to check addressing and fragment layouts: any address the H100 and warpsim compute
        differently reads a different random element.
Seeded: a rerun makes the same files.  Usage: python3 gen.py [outdir]
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gen as G  # noqa: E402  (../gen.py: formats, families, mma fragment layouts)

FMT = {"f16": G.F16, "bf16": G.BF16, "tf32": G.TF32, "e4m3": G.E4M3, "e5m2": G.E5M2, "f32": G.F32}
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8, "b1": 8, "f32": 32, "s32": 32}
SWZ = {0: 0, 128: 1, 64: 2, 32: 3}  # swizzle width in bytes -> descriptor bits 62-63

VARIANTS = []


def W(name, dt, at, bt, N=8, aregs=False, mode="adv", cases=90, sat=False, sa=1, sb=1,
      A=None, B=None):
    """A wgmma variant. A, B: dict(swz=width (0, 32, 64, 128), trans=MN-major, lbo, sbo, start)."""
    A = {**dict(swz=0, trans=False, lbo=128, sbo=256, start=0), **(A or {})}
    B = {**dict(swz=0, trans=False, lbo=128, sbo=256, start=0), **(B or {})}
    VARIANTS.append(dict(kind="wgmma", name=name, dt=dt, at=at, bt=bt, N=N, aregs=aregs, mode=mode,
                         cases=cases, sat=sat, sa=sa, sb=sb, A=A, B=B))


def M(name, instr, var, nd, cases):
    """An mma.sync variant: var is ../gen.py's tuple (name, M, N, K, at, bt, ct, nA, nB, nC)."""
    VARIANTS.append(dict(kind="mma", name=name, instr=instr, var=var, nd=nd, cases=cases))


# ---- wgmma: arithmetic on adversarial inputs (N = 8, no swizzle, K-major) ----
W("f16acc_f16", "f16", "f16", "f16")
W("f16acc_f16_regA", "f16", "f16", "f16", aregs=True, sa=-1)
W("f32_e4m3_e5m2", "f32", "e4m3", "e5m2")
W("f32_e5m2_e4m3", "f32", "e5m2", "e4m3")
W("f16acc_e4m3_e4m3", "f16", "e4m3", "e4m3")
W("f16acc_e5m2_e5m2", "f16", "e5m2", "e5m2")
W("f16acc_e4m3_e5m2", "f16", "e4m3", "e5m2")
W("f16acc_e5m2_e4m3_regA", "f16", "e5m2", "e4m3", aregs=True)
W("f32_f16_regA", "f32", "f16", "f16", aregs=True)
W("f32_bf16_regA_nega", "f32", "bf16", "bf16", aregs=True, sa=-1)
W("f32_tf32_regA_negb", "f32", "tf32", "tf32", aregs=True, sb=-1)
W("f32_e4m3_regA", "f32", "e4m3", "e4m3", aregs=True)
W("f32_e5m2_negab", "f32", "e5m2", "e5m2", sa=-1, sb=-1)
W("f32_bf16_negab", "f32", "bf16", "bf16", sa=-1, sb=-1)
W("f32_f16_negb", "f32", "f16", "f16", sb=-1)
W("f32_e4m3_nega", "f32", "e4m3", "e4m3", sa=-1)
W("s32_u8_s8_regA_sat", "s32", "u8", "s8", aregs=True, sat=True, cases=64)
W("s32_s8_u8_regA", "s32", "s8", "u8", aregs=True, cases=64)
W("s32_u8_u8_sat", "s32", "u8", "u8", sat=True, cases=64)

# ---- wgmma: layouts (random fill; N, swizzles, MN-major, strides, start offsets) ----
R = dict(mode="rand", cases=8)
W("lay_f16_n24_strides", "f32", "f16", "f16", N=24, A=dict(lbo=1024, sbo=128), B=dict(lbo=512, sbo=128), **R)
W("lay_f16_n64_sw128_off", "f32", "f16", "f16", N=64, A=dict(swz=128, sbo=1024, start=32), B=dict(swz=128, sbo=1024, start=64), **R)
W("lay_bf16_n128_sw64_transA", "f32", "bf16", "bf16", N=128, A=dict(swz=64, trans=True, lbo=512, sbo=1024),
  B=dict(swz=64, sbo=512, start=32), **R)
W("lay_f16acc_n256_sw32_transB", "f16", "f16", "f16", N=256, A=dict(swz=32, sbo=256),
  B=dict(swz=32, trans=True, lbo=256, sbo=4096), **R)
W("lay_f16_n32_transAB", "f32", "f16", "f16", N=32, A=dict(trans=True, lbo=1024, sbo=128),
  B=dict(trans=True, lbo=512, sbo=128), **R)
W("lay_bf16_n64_sw128_transAB", "f32", "bf16", "bf16", N=64, A=dict(swz=128, trans=True, lbo=2048, sbo=1024),
  B=dict(swz=128, trans=True, lbo=2048, sbo=1024), **R)
W("lay_f16_n192_sw128_transB_sw64A", "f32", "f16", "f16", N=192, A=dict(swz=64, sbo=512, start=32),
  B=dict(swz=128, trans=True, lbo=1024, sbo=4096), **R)
W("lay_f16_n128_regA_transB", "f32", "f16", "f16", N=128, aregs=True, B=dict(trans=True, lbo=1024, sbo=128), **R)
W("lay_tf32_n64_sw128_off", "f32", "tf32", "tf32", N=64, A=dict(swz=128, sbo=1024, start=64), B=dict(swz=128, sbo=1024, start=96), **R)
W("lay_tf32_n40_sw32", "f32", "tf32", "tf32", N=40, A=dict(swz=32, sbo=256), B=dict(swz=32, sbo=512), **R)
W("lay_e4m3_e5m2_n128_sw64", "f32", "e4m3", "e5m2", N=128, A=dict(swz=64, sbo=512), B=dict(swz=64, sbo=512, start=32), **R)
W("lay_e5m2_f16acc_n256_regA_sw128", "f16", "e5m2", "e5m2", N=256, aregs=True, B=dict(swz=128, sbo=1024, start=32), **R)
W("lay_e4m3_n16_negab", "f32", "e4m3", "e4m3", N=16, sa=-1, sb=-1, A=dict(swz=128, sbo=1024), B=dict(swz=128, sbo=1024), **R)
W("lay_s8_u8_n256_sw128_sat", "s32", "s8", "u8", N=256, sat=True, A=dict(swz=128, sbo=1024, start=96), B=dict(swz=128, sbo=1024), **R)
W("lay_u8_n64_regA_sw32", "s32", "u8", "u8", N=64, aregs=True, B=dict(swz=32, sbo=256), **R)
W("lay_s8_n48_strides", "s32", "s8", "s8", N=48, A=dict(lbo=1024, sbo=128), B=dict(lbo=1024, sbo=128), **R)
W("lay_b1_n64_sw128", "s32", "b1", "b1", N=64, A=dict(swz=128, sbo=1024, start=32), B=dict(swz=128, sbo=1024), **R)
W("lay_b1_n24", "s32", "b1", "b1", N=24, **R)

# ---- mma.sync forms not recorded by ../run.sh (adversarial, ../gen.py's families) ----
MS = "mma.sync.aligned.%s.row.col.%s"
M("mma_m16n8k8_f16_f16_f16_f16", MS % ("m16n8k8", "f16.f16.f16.f16"), ("", 16, 8, 8, G.F16, G.F16, G.F16, 2, 1, 2), 2, 256)
M("mma_m16n8k32_f32_e5m2_e4m3_f32", MS % ("m16n8k32", "f32.e5m2.e4m3.f32"), ("", 16, 8, 32, G.E5M2, G.E4M3, G.F32, 4, 2, 4), 4, 256)
M("mma_m16n8k16_s32_u8_u8_s32", MS % ("m16n8k16", "s32.u8.u8.s32"), ("", 16, 8, 16, "u8", "u8", "s32", 2, 1, 4), 4, 128)
M("mma_m16n8k16_s32_u8_s8_s32_satfinite", MS % ("m16n8k16", "satfinite.s32.u8.s8.s32"), ("", 16, 8, 16, "u8", "s8", "s32", 2, 1, 4), 4, 128)
M("mma_m8n8k16_s32_u8_s8_s32", MS % ("m8n8k16", "s32.u8.s8.s32"), ("", 8, 8, 16, "u8", "s8", "s32", 1, 1, 2), 2, 128)
M("mma_m8n8k32_s32_s4_u4_s32_satfinite", MS % ("m8n8k32", "satfinite.s32.s4.u4.s32"), ("", 8, 8, 32, "s4", "u4", "s32", 1, 1, 2), 2, 128)
M("mma_m16n8k32_s32_u4_s4_s32", MS % ("m16n8k32", "s32.u4.s4.s32"), ("", 16, 8, 32, "u4", "s4", "s32", 2, 1, 4), 4, 128)
M("mma_m16n8k64_s32_s4_u4_s32", MS % ("m16n8k64", "s32.s4.u4.s32"), ("", 16, 8, 64, "s4", "u4", "s32", 4, 2, 4), 4, 128)
M("mma_m16n8k128_s32_b1_b1_s32_xor_popc", MS % ("m16n8k128", "s32.b1.b1.s32.xor.popc"), ("", 16, 8, 128, "b1", "b1", "s32", 2, 1, 4), 4, 128)
M("mma_m8n8k128_s32_b1_b1_s32_and_popc", MS % ("m8n8k128", "s32.b1.b1.s32.and.popc"), ("", 8, 8, 128, "b1", "b1", "s32", 1, 1, 2), 2, 128)
# fp8 forms PTX 8.7 added (sm_89+): m16n8k16, and f16 accumulators; warpsim refused them before
M("mma_m16n8k16_f32_e4m3_e4m3_f32", MS % ("m16n8k16", "f32.e4m3.e4m3.f32"), ("", 16, 8, 16, G.E4M3, G.E4M3, G.F32, 2, 1, 4), 4, 256)
M("mma_m16n8k16_f16_e5m2_e4m3_f16", MS % ("m16n8k16", "f16.e5m2.e4m3.f16"), ("", 16, 8, 16, G.E5M2, G.E4M3, G.F16, 2, 1, 2), 2, 256)
M("mma_m16n8k32_f16_e4m3_e4m3_f16", MS % ("m16n8k32", "f16.e4m3.e4m3.f16"), ("", 16, 8, 32, G.E4M3, G.E4M3, G.F16, 4, 2, 2), 2, 256)
M("mma_m16n8k32_f16_e5m2_e5m2_f16", MS % ("m16n8k32", "f16.e5m2.e5m2.f16"), ("", 16, 8, 32, G.E5M2, G.E5M2, G.F16, 4, 2, 2), 2, 256)

# ---- wmma sub-byte forms (m8n8k32 s4/u4, m8n8k128 b1), at matrix level: A row-major and B
# column-major in global memory with strides wider than the matrices, C and D row-major ----
def WM(name, t, bitop="", sat=False, cases=128):
    VARIANTS.append(dict(kind="wmma", name=name, t=t, bitop=bitop, sat=sat, cases=cases))


WM("wmma_m8n8k32_s32_s4_s4_s32", "s4")
WM("wmma_m8n8k32_s32_u4_u4_s32_satfinite", "u4", sat=True)
WM("wmma_m8n8k32_s32_s4_s4_s32_satfinite", "s4", sat=True)
WM("wmma_m8n8k128_s32_b1_b1_s32_xor_popc", "b1", bitop="xor")
WM("wmma_m8n8k128_s32_b1_b1_s32_and_popc", "b1", bitop="and")
WMMA_HDR, WMMA_A, WMMA_B = 32, 256, 384  # bytes: header, A (8 rows), B (8 columns)


def wmma_case(v, tc):
    """header | A: 8 rows of 32 bytes (stride 64 s4 / 256 b1 elements) | B: 8 columns of 48 bytes
    (stride 96 / 384) | C: 8x8 s32 row-major; the bytes beyond the matrices are random too."""
    fam = tc % 4
    a = bytearray(random.getrandbits(8) for _ in range(WMMA_A))
    b = bytearray(random.getrandbits(8) for _ in range(WMMA_B))
    if fam == 1 and v["t"] != "b1":  # four-bit extremes: -8/7 or 15
        ext = [0x88, 0x77, 0x87, 0x78] if v["t"] == "s4" else [0xff]
        a = bytearray(random.choice(ext) for _ in range(WMMA_A))
        b = bytearray(random.choice(ext) for _ in range(WMMA_B))
    C = G.imat("s32", 8, 8, 1 if fam in (1, 2) else fam)
    c = b"".join(struct.pack("<I", C[i][j]) for i in range(8) for j in range(8))
    return struct.pack("<8I", 1, 0, 0, 0, 0, 0, 0, 0) + bytes(a) + bytes(b) + c


def wmma_ptx(v, casein):
    t = v["t"]
    shape = "m8n8k32" if t != "b1" else "m8n8k128"
    sa, sb = (64, 96) if t != "b1" else (256, 384)
    op = "wmma.mma.%s.popc" % v["bitop"] if v["bitop"] else "wmma.mma"
    instr = "%s.sync.aligned.row.col.%s.s32.%s.%s.s32%s" % (op, shape, t, t, ".satfinite" if v["sat"] else "")
    L = [PTX_HEAD % instr]
    L.append(""".visible .entry probe(.param .u64 pin, .param .u64 pout)
{
	.reg .b32 %%r<16>;
	.reg .b64 %%rd<16>;
	.reg .b32 %%a<2>;
	.reg .b32 %%b<2>;
	.reg .b32 %%c<2>;
	.reg .b32 %%d<2>;
	ld.param.u64 %%rd1, [pin];
	ld.param.u64 %%rd2, [pout];
	cvta.to.global.u64 %%rd1, %%rd1;
	cvta.to.global.u64 %%rd2, %%rd2;
	mov.u32 %%r2, %%ctaid.x;
	mul.wide.u32 %%rd3, %%r2, %d;
	add.s64 %%rd3, %%rd1, %%rd3;
	add.s64 %%rd4, %%rd3, %d;
	add.s64 %%rd5, %%rd3, %d;
	add.s64 %%rd6, %%rd3, %d;
	mov.u32 %%r3, %d;
	mov.u32 %%r4, %d;
	mov.u32 %%r5, 8;
	wmma.load.a.sync.aligned.row.%s.global.%s {%%a0}, [%%rd4], %%r3;
	wmma.load.b.sync.aligned.col.%s.global.%s {%%b0}, [%%rd5], %%r4;
	wmma.load.c.sync.aligned.row.%s.global.s32 {%%c0, %%c1}, [%%rd6], %%r5;
	%s {%%d0, %%d1}, {%%a0}, {%%b0}, {%%c0, %%c1};
	mul.wide.u32 %%rd7, %%r2, 256;
	add.s64 %%rd7, %%rd2, %%rd7;
	wmma.store.d.sync.aligned.row.%s.global.s32 [%%rd7], {%%d0, %%d1}, %%r5;
	ret;
}
""" % (casein, WMMA_HDR, WMMA_HDR + WMMA_A, WMMA_HDR + WMMA_A + WMMA_B, sa, sb, shape, t, shape, t, shape, instr, shape))
    return instr, "\n".join(L)


def kdim(t):
    return {"f16": 16, "bf16": 16, "tf32": 8, "e4m3": 32, "e5m2": 32, "s8": 32, "u8": 32, "b1": 256}[t]


def ebytes(t):
    return {"tf32": 4, "f16": 2, "bf16": 2}.get(t, 1)


def opaddr(op, mn, k, eb):
    """Byte offset of element (mn, k) of an operand (k in elements; b1: in bytes) from the image
    base (1024-aligned), following the PTX ISA's canonical wgmma layouts for the descriptor's
    swizzle mode, K-major or MN-major (trans)."""
    w, lbo, sbo = op["swz"], op["lbo"], op["sbo"]
    if not op["trans"]:
        kb = k * eb
        if w == 0:
            off = (mn % 8) * 16 + (mn // 8) * sbo + kb % 16 + (kb // 16) * lbo
        else:
            off = (mn % 8) * w + (mn // 8) * sbo + kb
    else:
        mb = mn * eb
        if w == 0:
            off = mb % 16 + (mb // 16) * sbo + (k % 8) * 16 + (k // 8) * lbo
        else:
            off = mb % w + (mb // w) * lbo + (k % 8) * w + (k // 8) * sbo
    a = op["start"] + off
    if w == 128:
        a ^= ((a >> 7) & 7) << 4
    elif w == 64:
        a ^= ((a >> 7) & 3) << 4
    elif w == 32:
        a ^= ((a >> 7) & 1) << 4
    return a


def region(op, rows, K, eb):
    hi = 0
    for mn in range(rows):
        for k in range(K):
            hi = max(hi, opaddr(op, mn, k, eb) + eb)
    return (hi + 1023) // 1024 * 1024 + 1024  # a spare 1 KiB: random too


def desc_hi(op):
    return ((op["lbo"] >> 4) & 0x3FFF) << 16 | ((op["sbo"] >> 4) & 0x3FFF) << 32 | SWZ[op["swz"]] << 62


def rand_elem(t, fam=1):
    if t in ("s8", "u8", "b1"):
        return random.getrandbits(8)
    f = FMT[t]
    v = f.rnd(-2, 2) if fam == 1 else f.rnd(-6, 6, sub=0.02, zero=0.02)
    if t == "tf32":
        v = v << 13 | random.getrandbits(13)
    return v


def mat(t, rows, cols, fam, role, hi=40):
    """rows x cols elements of type t for family fam (../gen.py)."""
    if t in ("s8", "u8"):
        return G.imat(t, rows, cols, fam)
    if t == "b1":
        return [[random.getrandbits(8) for _ in range(cols)] for _ in range(rows)]
    if t == "s32":
        return G.imat("s32", rows, cols, fam)
    f = FMT[t]
    return G.fmat(f, rows, cols, fam, role, hi)


def dpos(lane, i):
    """wgmma D/C fragment (per warp: 16 rows): element i of a lane -> (row, col)."""
    g, t = lane >> 2, lane & 3
    return g + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * t + (i & 1)


def wgmma_case(v, tc):
    dt, at, bt, N = v["dt"], v["at"], v["bt"], v["N"]
    K, eb = kdim(at), ebytes(at)
    Kel = K if at != "b1" else 32  # elements (b1: bytes) along K
    fam = tc % G.NFAM
    rand = v["mode"] == "rand"
    sA = 0 if v["aregs"] else region(v["A"], 64, Kel, eb)
    sB = region(v["B"], N, Kel, eb)
    img = bytearray(sA + sB)
    # matrices: A[m][k], B[k][n], C[m][n]
    if rand:
        A = [[rand_elem(at) for _ in range(Kel)] for _ in range(64)]
        Bm = [[rand_elem(bt) for _ in range(N)] for _ in range(Kel)]
        if dt == "s32":
            C = G.imat("s32", 64, N, 2 + tc % 2)
        else:
            C = [[FMT[dt].rnd(-3, 3) for _ in range(N)] for _ in range(64)]
        # fill the whole image with random elements, then place the operands
        for o in range(0, len(img), eb):
            img[o:o + eb] = rand_elem(at if o < sA else bt).to_bytes(eb, "little")
    else:
        A = mat(at, 64, Kel, fam, "a")
        Bm = mat(bt, Kel, N, fam, "b")
        if dt == "s32":
            C = G.imat("s32", 64, N, fam)
        else:
            cf = FMT[dt]
            C = G.fmat(cf, 64, N, fam, "c", min(40 if fam != 7 else cf.emax, cf.emax))
        if fam == 3 and at == bt and at in FMT:
            G.cancel(A, Bm, FMT[at])
        if at == "tf32":
            for X in (A, Bm):
                for row in X:
                    for j in range(len(row)):
                        row[j] = row[j] << 13 | (random.getrandbits(13) if fam % 2 else 0)
    if not v["aregs"]:
        for m in range(64):
            for k in range(Kel):
                o = opaddr(v["A"], m, k, eb)
                img[o:o + eb] = A[m][k].to_bytes(eb, "little")
    for n in range(N):
        for k in range(Kel):
            o = sA + opaddr(v["B"], n, k, eb)
            img[o:o + eb] = Bm[k][n].to_bytes(eb, "little")
    # per-thread words: A registers (m16 fragment of mma.m16n8kK for the warp's 16 rows), C registers
    words = []
    abits = BITS[at]
    per_d = 2 if dt == "f16" else 1
    nd = N // 2 // per_d
    lay = G.layout_A(16, Kel if at != "b1" else Kel, abits, 4)
    for th in range(128):
        w, lane = th // 32, th % 32
        if v["aregs"]:
            regs = [0] * 4
            for (r, h, i, j) in lay(lane):
                regs[r] |= (A[16 * w + i][j] & ((1 << abits) - 1)) << (h * abits)
            words += regs
        cb = 16 if dt == "f16" else 32
        for j in range(nd):
            x = 0
            for h in range(per_d):
                r, c = dpos(lane, j * per_d + h)
                x |= (C[16 * w + r][c] & ((1 << cb) - 1)) << (16 * h)
            words.append(x)
    scaled = 0 if tc % 8 == 7 else 1
    return struct.pack("<4I", scaled, 0, 0, 0) + bytes(img) + struct.pack("<%dI" % len(words), *words), sA, sB, nd


PTX_HEAD = """//
// Generated by testdata/tensor/wgmmatypes/gen.py: %s
// (the same PTX runs on the H100 through ptxas and in warpsim)
//
.version 8.7
.target sm_90a
.address_size 64

"""


def wgmma_ptx(v, smem, sA, nin, nd, casein):
    dt, at, bt, N = v["dt"], v["at"], v["bt"], v["N"]
    K = kdim(at)
    sat = ".satfinite" if v["sat"] else ""
    pop = ".and.popc" if at == "b1" else ""
    instr = "wgmma.mma_async.sync.aligned.m64n%dk%d%s.%s.%s.%s%s" % (N, K, sat, dt, at, bt, pop)
    dreg = "%f" if dt == "f32" else "%d"
    L = [PTX_HEAD % instr]
    L.append(".visible .entry probe(.param .u64 pin, .param .u64 pout)\n{")
    L.append("\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b32 %a<4>;\n\t.reg .b64 %rd<16>;")
    L.append("\t.reg .%s %s<%d>;" % ("f32" if dt == "f32" else "b32", dreg, nd))
    L.append("\t.shared .align 1024 .b8 smem[%d];" % smem)
    L.append("""	ld.param.u64 %%rd1, [pin];
	ld.param.u64 %%rd2, [pout];
	cvta.to.global.u64 %%rd1, %%rd1;
	cvta.to.global.u64 %%rd2, %%rd2;
	mov.u32 %%r1, %%tid.x;
	mov.u32 %%r2, %%ctaid.x;
	mul.wide.u32 %%rd3, %%r2, %d;
	add.s64 %%rd3, %%rd1, %%rd3;
	ld.global.u32 %%r3, [%%rd3];
	setp.ne.u32 %%p1, %%r3, 0;
	mov.u32 %%r4, smem;
	shl.b32 %%r5, %%r1, 4;
$Lcopy:
	setp.ge.u32 %%p2, %%r5, %d;
	@%%p2 bra $Ldone;
	cvt.u64.u32 %%rd4, %%r5;
	add.s64 %%rd5, %%rd3, %%rd4;
	ld.global.v4.u32 {%%r6, %%r7, %%r8, %%r9}, [%%rd5+16];
	add.s32 %%r10, %%r4, %%r5;
	st.shared.v4.u32 [%%r10], {%%r6, %%r7, %%r8, %%r9};
	add.s32 %%r5, %%r5, 2048;
	bra.uni $Lcopy;
$Ldone:
	mul.wide.u32 %%rd6, %%r1, %d;
	add.s64 %%rd6, %%rd6, %%rd3;""" % (casein, smem, nin * 4))
    base = 16 + smem
    na = 4 if v["aregs"] else 0
    for i in range(na):
        L.append("\tld.global.b32 %%a%d, [%%rd6+%d];" % (i, base + 4 * i))
    for i in range(nd):
        L.append("\tld.global.%s %s%d, [%%rd6+%d];" % ("f32" if dt == "f32" else "b32", dreg, i, base + 4 * (na + i)))
    L.append("\tfence.proxy.async.shared::cta;\n\tbar.sync 0;")
    L.append("\tcvt.u64.u32 %rd7, %r4;")

    def desc(reg, off, op):
        L.append("\tadd.s64 %%rd8, %%rd7, %d;" % (off + op["start"]))
        L.append("\tand.b64 %rd8, %rd8, 262143;\n\tshr.u64 %rd8, %rd8, 4;")
        L.append("\tor.b64 %s, %%rd8, 0x%016x;" % (reg, desc_hi(op)))
    if not v["aregs"]:
        desc("%rd9", 0, v["A"])
    desc("%rd10", sA, v["B"])
    dl = "{" + ", ".join("%s%d" % (dreg, i) for i in range(nd)) + "}"
    aop = "{%a0, %a1, %a2, %a3}" if v["aregs"] else "%rd9"
    args = [dl, aop, "%rd10", "%p1"]
    if dt != "s32":
        args += [str(v["sa"]), str(v["sb"])]
        if at in ("f16", "bf16"):
            if not v["aregs"]:
                args.append("1" if v["A"]["trans"] else "0")
            args.append("1" if v["B"]["trans"] else "0")
    L.append("\twgmma.fence.sync.aligned;")
    L.append("\t%s %s;" % (instr, ", ".join(args)))
    L.append("\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;")
    L.append("\tmad.lo.u32 %%r11, %%r2, 128, %%r1;\n\tmul.wide.u32 %%rd11, %%r11, %d;\n\tadd.s64 %%rd11, %%rd2, %%rd11;" % (nd * 4))
    for i in range(nd):
        L.append("\tst.global.%s [%%rd11+%d], %s%d;" % ("f32" if dt == "f32" else "b32", 4 * i, dreg, i))
    L.append("\tret;\n}\n")
    return instr, "\n".join(L)


def mma_ptx(v, nin, nd, casein):
    name, Mm, N, K, at, bt, ct, nA, nB, nC = v["var"]
    instr = v["instr"]
    cf = ct is G.F32
    df = instr.split(".row.col.")[1].split(".")
    dfl = df[0] == "f32" or (df[0] == "satfinite" and False)
    L = [PTX_HEAD % instr]
    L.append(".visible .entry probe(.param .u64 pin, .param .u64 pout)\n{")
    L.append("\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n\t.reg .b32 %a<8>;\n\t.reg .b32 %b<4>;")
    L.append("\t.reg .b32 %c<4>;\n\t.reg .f32 %fc<4>;\n\t.reg .b32 %d<4>;\n\t.reg .f32 %fd<4>;")
    L.append("""	ld.param.u64 %%rd1, [pin];
	ld.param.u64 %%rd2, [pout];
	cvta.to.global.u64 %%rd1, %%rd1;
	cvta.to.global.u64 %%rd2, %%rd2;
	mov.u32 %%r1, %%tid.x;
	mov.u32 %%r2, %%ctaid.x;
	mul.wide.u32 %%rd3, %%r2, %d;
	add.s64 %%rd3, %%rd1, %%rd3;
	mul.wide.u32 %%rd6, %%r1, %d;
	add.s64 %%rd6, %%rd6, %%rd3;""" % (casein, nin * 4))
    o = 16
    for i in range(nA):
        L.append("\tld.global.b32 %%a%d, [%%rd6+%d];" % (i, o))
        o += 4
    for i in range(nB):
        L.append("\tld.global.b32 %%b%d, [%%rd6+%d];" % (i, o))
        o += 4
    cr = "%fc" if cf else "%c"
    for i in range(nC):
        L.append("\tld.global.%s %s%d, [%%rd6+%d];" % ("f32" if cf else "b32", cr, i, o))
        o += 4
    dr = "%fd" if dfl else "%d"

    def vec(r, n):
        return "{" + ", ".join("%s%d" % (r, i) for i in range(n)) + "}"
    L.append("\t%s %s, %s, %s, %s;" % (instr, vec(dr, nd), vec("%a", nA), vec("%b", nB), vec(cr, nC)))
    L.append("\tmad.lo.u32 %%r11, %%r2, 32, %%r1;\n\tmul.wide.u32 %%rd11, %%r11, %d;\n\tadd.s64 %%rd11, %%rd2, %%rd11;" % (nd * 4))
    for i in range(nd):
        L.append("\tst.global.%s [%%rd11+%d], %s%d;" % ("f32" if dfl else "b32", 4 * i, dr, i))
    L.append("\tret;\n}\n")
    return instr, "\n".join(L)


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for d in ("ptx", "in"):
        os.makedirs(os.path.join(outdir, d), exist_ok=True)
    man = []
    for v in VARIANTS:
        random.seed("wgmmatypes/" + v["name"])
        data = bytearray()
        if v["kind"] == "wgmma":
            for tc in range(v["cases"]):
                rec, sA, sB, nd = wgmma_case(v, tc)
                data += rec
            smem = sA + sB
            nin = (4 if v["aregs"] else 0) + nd
            casein = 16 + smem + 128 * nin * 4
            assert len(data) == casein * v["cases"]
            instr, ptx = wgmma_ptx(v, smem, sA, nin, nd, casein)
            threads = 128
        elif v["kind"] == "wmma":
            casein = WMMA_HDR + WMMA_A + WMMA_B + 256
            for tc in range(v["cases"]):
                data += wmma_case(v, tc)
            instr, ptx = wmma_ptx(v, casein)
            threads, nd = 32, 2  # the output: 8x8 s32 per case, 2 words a thread
        else:
            name, Mm, N, K, at, bt, ct, nA, nB, nC = v["var"]
            nin, nd = nA + nB + nC, v["nd"]
            casein = 16 + 32 * nin * 4
            for tc in range(v["cases"]):
                lanes = G.gen_case(v["var"], tc % G.NFAM)
                data += struct.pack("<4I", 1, 0, 0, 0)
                for w in lanes:
                    data += struct.pack("<%dI" % nin, *w)
            assert len(data) == casein * v["cases"]
            instr, ptx = mma_ptx(v, nin, nd, casein)
            threads = 32
        with open(os.path.join(outdir, "ptx", v["name"] + ".ptx"), "w") as f:
            f.write(ptx)
        with open(os.path.join(outdir, "in", v["name"] + ".bin"), "wb") as f:
            f.write(data)
        man.append("%s\t%d\t%d\t%d\t%d\t%s" % (v["name"], threads, v["cases"], casein, threads * nd * 4, instr))
    with open(os.path.join(outdir, "variants.tsv"), "w") as f:
        f.write("# name\tthreads\tcases\tbytes in per case\tbytes out per case\tinstruction\n")
        f.write("\n".join(man) + "\n")


if __name__ == "__main__":
    main()
