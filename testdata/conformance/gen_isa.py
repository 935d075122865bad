#!/usr/bin/env python3
"""Writes the inputs, launch.json and meta.json of the issue-18 ISA cases
fp8_packed and sm90_ops, with gen.py's Case class (run gen.py for the rest):

    python3 testdata/conformance/gen_isa.py
"""

import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402


def f16_to_f32_bits(h):
    return struct.unpack("<I", struct.pack("<f", struct.unpack("<e", struct.pack("<H", h))[0]))[0]


def targeted_f32(rng):
    """An f32 near the rounding boundaries of e4m3, e5m2, bf16, f16 and tf32."""
    s = rng.getrandbits(1) << 31
    e = rng.randint(127 - 30, 127 + 20)
    k = rng.randrange(6)
    if k == 0:
        m = rng.getrandbits(23)
    else:
        rb = rng.choice([19, 20, 15, 12, 12])  # round bit of e4m3, e5m2, bf16, f16/tf32
        m = rng.getrandbits(23) & ~((1 << (rb + 1)) - 1)
        m |= 1 << rb  # a tie
        if k == 2:
            m += 1
        elif k == 3:
            m -= 1
        elif k == 4:
            m ^= 1 << (rb + 1)  # other parity
        m &= (1 << 23) - 1
    if rng.randrange(20) == 0:
        e = rng.choice([0, 255, 1, 254, 127 + 8, 127 + 15, 127 + 16, 127 - 6, 127 - 9, 127 - 14, 127 - 16, 127 - 24])
    return s | (e << 23) | m


def fp8_packed():
    c = gen.Case("fp8_packed")
    rng = random.Random(1801)
    n32 = 32768
    a = [f16_to_f32_bits(h) for h in range(0, 65536, 8)]  # every 8th f16 value, widened
    while len(a) < n32:
        a.append(targeted_f32(rng))
    b = [a[(k * 7919 + 13) % n32] for k in range(n32)]
    c.input("a", "f32", a)
    c.input("b", "f32", b)
    h = list(range(65536))
    g = [(k * 40503 + 7) & 0xffff for k in range(65536)]
    c.input("h", "u16", h)
    c.input("g", "u16", g)
    rows, _ = gen.kernel_rows("fp8_packed")
    c.output("f32_out16", "u16", n32 * len(rows["from_f32"]["out16"]))
    c.output("f32_out32", "u32", n32 * len(rows["from_f32"]["out32"]))
    c.output("h_out16", "u16", 65536 * len(rows["from_16"]["out16"]))
    c.output("h_out32", "u32", 65536 * len(rows["from_16"]["out32"]))
    c.launch("from_f32", (n32 // 256, 1, 1), (256, 1, 1), ["a", "b", "f32_out16", "f32_out32", gen.n_arg(n32)])
    c.launch("from_16", (65536 // 256, 1, 1), (256, 1, 1), ["h", "g", "h_out16", "h_out32", gen.n_arg(65536)])
    c.save()


def sm90_ops():
    c = gen.Case("sm90_ops")
    rng = random.Random(1802)
    n = 8192
    a, b, cc = [], [], []
    for k in range(n):
        a.append(gen.rand_i32(rng) & 0xffffffff)
        if k < 4096:
            b.append(k & 63)
            cc.append(k >> 6)
        else:
            b.append(rng.choice([rng.getrandbits(32), rng.randint(0, 40)]))
            cc.append(rng.choice([rng.getrandbits(32), rng.randint(0, 40)]))
    c.input("a", "u32", a)
    c.input("b", "u32", b)
    c.input("c", "u32", cc)
    rows, _ = gen.kernel_rows("sm90_ops")
    c.output("bits_out", "u32", n * len(rows["bits"]["out"]))
    nw = 1024
    v = []
    for k in range(nw):
        w = k // 32
        if w // 8 == 0:
            v.append(rng.getrandbits(32))
        elif w // 8 == 1:
            v.append(gen.s32(rng.randint(-5, 5)))
        elif w // 8 == 2:
            v.append(gen.s32(rng.choice(gen.I32_SPECIAL)))
        else:
            v.append(rng.getrandbits(4) << rng.randint(0, 28))
    c.input("v", "u32", v)
    c.output("warp_out", "u32", nw * len(rows["warp_ops"]["out"]))
    c.launch("bits", (n // 256, 1, 1), (256, 1, 1), ["a", "b", "c", "bits_out", gen.n_arg(n)])
    c.launch("warp_ops", (nw // 256, 1, 1), (256, 1, 1), ["v", "warp_out", gen.n_arg(nw)])
    c.save()


if __name__ == "__main__":
    fp8_packed()
    sm90_ops()
    print("wrote fp8_packed, sm90_ops")
