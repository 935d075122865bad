#!/usr/bin/env python3
"""Generate the inputs of the raw mma.sync probes (testdata/tensor/in/*.bin).

Each variant file holds T test cases; a test case is one warp's mma.sync:
for each of the 32 lanes, the A registers, then the B registers, then the C
registers, as little-endian 32-bit words (an f64 register is two words, low
word first). The device program (probe_mma*.cu) loads them, runs the
instruction and writes the D registers of each lane to out/<variant>.bin.

The matrices are built in matrix form and placed into registers with the
fragment layouts of the PTX ISA; the recorded ground truth is at register
level, so a layout mistake here would only permute inputs, never falsify a
recording. Families of test cases (case index mod 9) are chosen to expose
the internal arithmetic: wide exponent spreads, one huge product and many
tiny ones, exact cancellations, special values, accumulator extremes,
equal exponents with mixed signs, values near overflow, and plain random.
"""
import os
import random
import struct
import sys

T = 512  # test cases (warps) per variant, a multiple of 4


class FP:
    def __init__(self, name, ebits, mbits, kind="ieee"):
        self.name, self.ebits, self.mbits, self.kind = name, ebits, mbits, kind
        self.bias = (1 << (ebits - 1)) - 1
        self.emax = (1 << ebits) - 2 - self.bias  # largest normal exponent
        if kind == "e4m3":
            self.emax = (1 << ebits) - 1 - self.bias
        self.emin = 1 - self.bias

    def enc(self, sign, e, m):
        """sign bit, unbiased exponent e (emin-1 means subnormal/zero), mantissa bits m."""
        ef = e + self.bias if e >= self.emin else 0
        ef = max(0, min(ef, (1 << self.ebits) - 1))
        v = (sign << (self.ebits + self.mbits)) | (ef << self.mbits) | (m & ((1 << self.mbits) - 1))
        if self.kind == "e4m3" and (v & 0x7F) == 0x7F:
            v -= 1  # avoid accidental NaN
        return v

    def rnd(self, lo, hi, sub=0.0, zero=0.0):
        r = random.random()
        s = random.getrandbits(1)
        if r < zero:
            return self.enc(s, self.emin - 1, 0)
        if r < zero + sub:
            return self.enc(s, self.emin - 1, random.getrandbits(self.mbits) | 1)
        lo, hi = max(lo, self.emin), min(hi, self.emax)
        if lo > hi:
            lo = hi = min(max(lo, self.emin), self.emax)
        e = random.randint(lo, hi)
        return self.enc(s, e, random.getrandbits(self.mbits))

    def special(self):
        top = (1 << self.ebits) - 1
        s = random.getrandbits(1) << (self.ebits + self.mbits)
        c = random.randrange(6)
        if self.kind == "e4m3":
            if c == 0:
                return s | 0x7F  # NaN
            if c == 1:
                return s | 0x7E  # max finite
        else:
            if c == 0:
                return s | (top << self.mbits) | (random.getrandbits(self.mbits) | 1)  # NaN
            if c == 1:
                return s | (top << self.mbits)  # Inf
        if c == 2:
            return s  # signed zero
        if c == 3:
            return s | (random.getrandbits(self.mbits) | 1)  # subnormal
        if c == 4:
            return s | 1  # smallest subnormal
        return self.enc(s >> (self.ebits + self.mbits), self.emax, (1 << self.mbits) - 1)


F16 = FP("f16", 5, 10)
BF16 = FP("bf16", 8, 7)
TF32 = FP("tf32", 8, 10)
E4M3 = FP("e4m3", 4, 3, "e4m3")
E5M2 = FP("e5m2", 5, 2)
F32 = FP("f32", 8, 23)
F64 = FP("f64", 11, 52)
NFAM = 9


def fmat(fmt, rows, cols, fam, role, rng_hi):
    """A float matrix (list of rows of bit patterns) for family fam; role is 'a', 'b' or 'c'."""
    lo_all, hi_all = fmt.emin - fmt.mbits, fmt.emax
    m = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        if fam == 2 and role == "a":
            big = random.randrange(cols)
            E = random.randint(max(fmt.emin + 2, -6), min(fmt.emax - 2, 6))
            d = random.randint(0, min(40, E - fmt.emin + fmt.mbits))
        for j in range(cols):
            if fam == 0:  # wide random
                v = fmt.rnd(fmt.emin, fmt.emax if role != "c" else rng_hi, sub=0.05, zero=0.02)
                if role != "c":
                    v = fmt.rnd(max(fmt.emin, -12 if fmt.ebits >= 8 else fmt.emin), min(fmt.emax, 12), sub=0.05, zero=0.02)
            elif fam == 1:  # narrow random
                v = fmt.rnd(-2, 2)
            elif fam == 2:  # spread: one big term per row of A, the rest smaller by d (+jitter)
                if role == "a":
                    if j == big:
                        v = fmt.enc(random.getrandbits(1), E, random.getrandbits(fmt.mbits))
                    else:
                        e = E - d - random.randint(0, 3)
                        v = fmt.enc(random.getrandbits(1), max(e, fmt.emin - 1), random.getrandbits(fmt.mbits)) if e >= fmt.emin else fmt.rnd(fmt.emin, fmt.emin, sub=0.5)
                elif role == "b":
                    v = fmt.rnd(0, 1)
                else:
                    v = fmt.rnd(-30, 8, zero=0.3)
            elif fam == 3:  # cancellation: filled by caller
                v = fmt.rnd(-3, 3)
            elif fam == 4:  # specials sprinkled
                v = fmt.special() if random.random() < 0.04 else fmt.rnd(-3, 3)
            elif fam == 5:  # accumulator extremes
                if role == "c":
                    c = random.randrange(8)
                    if c == 0:
                        v = fmt.rnd(20, 40)
                    elif c == 1:
                        v = fmt.rnd(-40, -20)
                    elif c == 2:
                        v = fmt.rnd(fmt.emin, fmt.emin, sub=0.9)
                    elif c == 3:
                        v = fmt.special()
                    elif c == 4:
                        v = fmt.rnd(0, 0, zero=1.0)
                    else:
                        v = fmt.rnd(-8, 8)
                else:
                    v = fmt.rnd(-3, 3)
            elif fam == 6:  # equal exponents, mixed signs
                v = fmt.rnd(0, 0) if role != "c" else fmt.rnd(-1, 4)
            elif fam == 7:  # near overflow of the format
                v = fmt.rnd(fmt.emax - 3, fmt.emax) if role != "c" else fmt.rnd(fmt.emax - 6, fmt.emax)
            else:  # tiny: products and sums near the subnormal range
                v = fmt.rnd(fmt.emin, fmt.emin + 4, sub=0.3) if role != "c" else fmt.rnd(fmt.emin - 10, fmt.emin + 10, sub=0.2)
            m[i][j] = v
    return m


def cancel(A, B, fmt):
    """Make products of pairs (k, k+1) cancel exactly in most pairs: A[i][k+1]=A[i][k], B[k+1][j]=-B[k][j]."""
    K = len(B)
    sbit = 1 << (fmt.ebits + fmt.mbits)
    for k in range(0, K - 1, 2):
        if random.random() < 0.8:
            for i in range(len(A)):
                A[i][k + 1] = A[i][k]
            for j in range(len(B[0])):
                B[k + 1][j] = B[k][j] ^ sbit


# ---- fragment layouts (PTX ISA "Matrix fragments for mma.m16n8kK") ----
def layout_A(M, K, bits, nregs):
    """list of (reg, sub, row, col) for lane -> A element."""
    e = 32 // bits

    def f(lane):
        g, t = lane >> 2, lane & 3
        out = []
        for r in range(nregs):
            for h in range(e):
                if M == 16:
                    out.append((r, h, g + 8 * (r & 1), e * t + h + (K // 2) * (r >> 1)))
                else:  # m8nNkK
                    out.append((r, h, g, e * t + h + (K // 2) * r))
        return out
    return f


def layout_B(K, bits, nregs):
    e = 32 // bits

    def f(lane):
        g, t = lane >> 2, lane & 3
        return [(r, h, e * t + h + (K // 2) * r if nregs > 1 else e * t + h, g) for r in range(nregs) for h in range(e)]
    return f


def layout_C(M, bits, nregs):
    def f(lane):
        g, t = lane >> 2, lane & 3
        out = []
        if M == 16 and bits == 32:
            for r in range(4):
                out.append((r, 0, g + 8 * (r >> 1), 2 * t + (r & 1)))
        elif M == 16 and bits == 16:
            for r in range(2):
                for h in range(2):
                    out.append((r, h, g + 8 * r, 2 * t + h))
        else:  # m8n8, 32-bit elements, 2 regs
            for r in range(2):
                out.append((r, 0, g, 2 * t + r))
        return out
    return f


def pack(mat, lay, nregs, bits):
    """registers[lane][reg] as 32-bit words (bits<=32)."""
    regs = [[0] * nregs for _ in range(32)]
    mask = (1 << bits) - 1
    for lane in range(32):
        for (r, h, i, j) in lay(lane):
            regs[lane][r] |= (mat[i][j] & mask) << (h * bits)
    return regs


def f32_of(fmt, v):
    """widen a tf32 pattern (kept as 32-bit f32 layout) - tf32 values are stored as f32 words."""
    return v


VARIANTS = []


def V(name, M, N, K, at, bt, ct, nA, nB, nC):
    VARIANTS.append((name, M, N, K, at, bt, ct, nA, nB, nC))


# float variants
V("m16n8k16_f32_f16_f16_f32", 16, 8, 16, F16, F16, F32, 4, 2, 4)
V("m16n8k16_f16_f16_f16_f16", 16, 8, 16, F16, F16, F16, 4, 2, 2)
V("m16n8k16_f32_f16_f16_f16", 16, 8, 16, F16, F16, F16, 4, 2, 2)
V("m16n8k16_f16_f16_f16_f32", 16, 8, 16, F16, F16, F32, 4, 2, 4)
V("m16n8k16_f32_bf16_bf16_f32", 16, 8, 16, BF16, BF16, F32, 4, 2, 4)
V("m16n8k8_f32_f16_f16_f32", 16, 8, 8, F16, F16, F32, 2, 1, 4)
V("m16n8k8_f32_bf16_bf16_f32", 16, 8, 8, BF16, BF16, F32, 2, 1, 4)
V("m16n8k8_f32_tf32_tf32_f32", 16, 8, 8, TF32, TF32, F32, 4, 2, 4)
V("m16n8k4_f32_tf32_tf32_f32", 16, 8, 4, TF32, TF32, F32, 2, 1, 4)
V("m16n8k32_f32_e4m3_e4m3_f32", 16, 8, 32, E4M3, E4M3, F32, 4, 2, 4)
V("m16n8k32_f32_e5m2_e5m2_f32", 16, 8, 32, E5M2, E5M2, F32, 4, 2, 4)
V("m16n8k32_f32_e4m3_e5m2_f32", 16, 8, 32, E4M3, E5M2, F32, 4, 2, 4)
V("m8n8k4_f64_f64_f64_f64", 8, 8, 4, F64, F64, F64, 2, 2, 4)
# integer variants
for nm, at, bt in (("s8_s8", "s8", "s8"), ("u8_u8", "u8", "u8"), ("s8_u8", "s8", "u8")):
    V("m16n8k32_s32_%s_s32" % nm, 16, 8, 32, at, bt, "s32", 4, 2, 4)
    V("m16n8k32_s32_%s_s32_satfinite" % nm, 16, 8, 32, at, bt, "s32", 4, 2, 4)
V("m16n8k16_s32_s8_s8_s32", 16, 8, 16, "s8", "s8", "s32", 2, 1, 4)
V("m8n8k16_s32_s8_s8_s32", 8, 8, 16, "s8", "s8", "s32", 1, 1, 2)
V("m16n8k64_s32_s4_s4_s32", 16, 8, 64, "s4", "s4", "s32", 4, 2, 4)
V("m16n8k64_s32_u4_u4_s32_satfinite", 16, 8, 64, "u4", "u4", "s32", 4, 2, 4)
V("m16n8k256_s32_b1_b1_s32_xor_popc", 16, 8, 256, "b1", "b1", "s32", 4, 2, 4)
V("m16n8k256_s32_b1_b1_s32_and_popc", 16, 8, 256, "b1", "b1", "s32", 4, 2, 4)


def bits_of(t):
    if isinstance(t, FP):
        return {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "f32": 32, "f64": 64}[t.name]
    return {"s8": 8, "u8": 8, "s4": 4, "u4": 4, "b1": 1, "s32": 32}[t]


def imat(t, rows, cols, fam):
    m = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        for j in range(cols):
            if t in ("s8", "u8"):
                m[i][j] = random.getrandbits(8) if fam % 3 else random.choice([0, 0x7F, 0x80, 0xFF, 1])
            elif t in ("s4", "u4"):
                m[i][j] = random.getrandbits(4)
            elif t == "b1":
                m[i][j] = random.getrandbits(1)
            else:  # s32 accumulator
                c = fam % 4
                if c == 0:
                    v = random.randint(-1000, 1000)
                elif c == 1:
                    v = random.choice([0x7FFFFFFF, -0x80000000]) - random.randint(-20000, 20000) * (1 if random.random() < 0.5 else 0)
                else:
                    v = random.getrandbits(32)
                m[i][j] = v & 0xFFFFFFFF
    return m


def gen_case(var, fam):
    name, M, N, K, at, bt, ct, nA, nB, nC = var
    if at is F64:
        A = fmat(F64, M, K, fam, "a", 0)
        B = fmat(F64, K, N, fam, "b", 0)
        C = fmat(F64, M, N, fam, "c", 30)
        if fam == 3:
            cancel(A, B, F64)
        lanes = []
        for lane in range(32):
            g, t = lane >> 2, lane & 3
            a, b = A[g][t], B[t][g]
            c0, c1 = C[g][2 * t], C[g][2 * t + 1]
            w = []
            for v in (a, b, c0, c1):
                w += [v & 0xFFFFFFFF, v >> 32]
            lanes.append(w)
        return lanes
    if isinstance(at, FP):
        A = fmat(at, M, K, fam, "a", 0)
        B = fmat(bt, K, N, fam, "b", 0)
        hi = 40 if fam != 7 else ct.emax
        C = fmat(ct, M, N, fam, "c", min(hi, ct.emax))
        if fam == 3 and at is bt:
            cancel(A, B, at)
        if at is TF32:
            for X in (A, B):
                for row in X:
                    for j in range(len(row)):
                        row[j] = row[j] << 13
                        if fam % 2 == 1:  # odd families: garbage below the tf32 mantissa
                            row[j] |= random.getrandbits(13)
    else:
        A = imat(at, M, K, fam)
        B = imat(bt, K, N, fam)
        C = imat(ct, M, N, fam)
    ab, bb, cb = bits_of(at), bits_of(bt), bits_of(ct)
    ra = pack(A, layout_A(M, K, ab, nA), nA, ab)
    rb = pack(B, layout_B(K, bb, nB), nB, bb)
    rc = pack(C, layout_C(M, cb, nC), nC, cb)
    return [ra[l] + rb[l] + rc[l] for l in range(32)]


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "in"
    os.makedirs(outdir, exist_ok=True)
    random.seed(20261126)
    for var in VARIANTS:
        words = []
        ncase = T if isinstance(var[4], FP) else T // 2
        for tc in range(ncase):
            for lane in gen_case(var, tc % NFAM):
                words += lane
        with open(os.path.join(outdir, var[0] + ".bin"), "wb") as f:
            f.write(struct.pack("<%dI" % len(words), *words))
        print(var[0], len(words) * 4)


if __name__ == "__main__" and not (len(sys.argv) > 2 and sys.argv[2] == "wgmma"):
    main()


# ---- wgmma probes (wgmma_probe.cu): matrix-form inputs per test case ----
# A: 64 x K elements row-major, B: 8 x K elements (N x K, K-major), C: 64 x 8 f32,
# each element in its own width (f16/bf16: 2 bytes, tf32: 4, fp8: 1); cases contiguous.
WG = [("m64n8k16_f32_f16_f16", F16, 16), ("m64n8k16_f32_bf16_bf16", BF16, 16),
      ("m64n8k8_f32_tf32_tf32", TF32, 8), ("m64n8k32_f32_e4m3_e4m3", E4M3, 32),
      ("m64n8k32_f32_e5m2_e5m2", E5M2, 32)]


def gen_wgmma(outdir, ncase=128):
    os.makedirs(outdir, exist_ok=True)
    random.seed(20261127)
    for name, fmt, K in WG:
        eb = {16: 2, 8: 1}.get(fmt.ebits + fmt.mbits + 1, 4)
        if fmt is TF32:
            eb = 4
        data = bytearray()
        for tc in range(ncase):
            fam = tc % NFAM
            A = fmat(fmt, 64, K, fam, "a", 0)
            B = fmat(fmt, K, 8, fam, "b", 0)
            C = fmat(F32, 64, 8, fam, "c", 40 if fam != 7 else 127)
            if fam == 3:
                cancel(A, B, fmt)
            sh = 13 if fmt is TF32 else 0
            for i in range(64):
                for k in range(K):
                    v = A[i][k] << sh
                    if sh and fam % 2 == 1:
                        v |= random.getrandbits(13)
                    data += v.to_bytes(eb, "little")
            for n in range(8):
                for k in range(K):
                    v = B[k][n] << sh
                    if sh and fam % 2 == 1:
                        v |= random.getrandbits(13)
                    data += v.to_bytes(eb, "little")
            for i in range(64):
                for n in range(8):
                    data += C[i][n].to_bytes(4, "little")
        with open(os.path.join(outdir, "wgmma_" + name + ".bin"), "wb") as f:
            f.write(data)
        print("wgmma_" + name, len(data))


if __name__ == "__main__" and len(sys.argv) > 2 and sys.argv[2] == "wgmma":
    gen_wgmma(sys.argv[1])
