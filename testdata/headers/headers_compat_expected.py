#!/usr/bin/env python3
"""Writes headers_compat.expected.txt: what headers_compat.cu must print,
computed here from the CUDA documentation's definitions of each function
(min/max overloads, umin … ullmax, the SIMD intrinsics, norm/hypot), not
by warpsim. The device properties are an H100's (CUDA's documented
limits for compute capability 9.0). Run: python3 headers_compat_expected.py"""
import math
import struct
import os

M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def lanes(v, bits, n):
    m = (1 << bits) - 1
    return [(v >> (bits * i)) & m for i in range(n)]


def pack(ls, bits):
    return sum((x & ((1 << bits) - 1)) << (bits * i) for i, x in enumerate(ls))


def signed(x, bits):
    return x - (1 << bits) if x >> (bits - 1) else x


def vadd2(a, b):
    return pack([x + y for x, y in zip(lanes(a, 16, 2), lanes(b, 16, 2))], 16)


def vsub4(a, b):
    return pack([x - y for x, y in zip(lanes(a, 8, 4), lanes(b, 8, 4))], 8)


def vmaxs2(a, b):
    return pack([max(signed(x, 16), signed(y, 16)) for x, y in zip(lanes(a, 16, 2), lanes(b, 16, 2))], 16)


def vcmpgtu4(a, b):
    return pack([0xFF if x > y else 0 for x, y in zip(lanes(a, 8, 4), lanes(b, 8, 4))], 8)


out = ["launch: cudaSuccess"]
for t in range(32):
    x, y = f32(1.5 * t), 2.25 * t
    hd = max(x, y) + min(y, x) * 10 + max(t, 3) * 100
    hu = (min(t, 5) + 10 * max(t, 7) + 1000 * (min(-t, 2) & M32)) & M32
    ll = min(-t, 3) * 100 + max(t, 4) + min(1 << 40, 1 << (t + 30)) + max(2, t)
    s1 = vadd2((0x00010002 * t) & M32, 0xFFFE0003) ^ vsub4((0x01020304 * t) & M32, 0x04030201)
    s2 = (vmaxs2((0x7FFF8000 + t) & M32, (0x00010001 * t) & M32) + vcmpgtu4(0x10203040, (0x01020304 * t) & M32)) & M32
    hf = f32(f32(f32(f32(5) + f32(math.sqrt(t * t + 16 + 144))) + f32(math.sqrt(9 + t * t))) + t)
    tag = chr(ord("a") + t % 26) * 3
    out.append("%2d: %d %.1f %s(%d) | %.2f %u %d | %08x %08x | %.4f" % (t, t + 1000, t * 0.5, tag, 3, hd, hu, ll, s1, s2, hf))
out.append("sm_90 warpSize 32 maxThreadsPerBlock 1024 block [1024 1024 64] grid [2147483647 65535 65535] regsPerBlock 65536")
out.append("Test PASSED")
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "headers_compat.expected.txt"), "w") as f:
    f.write("\n".join(out) + "\n")
