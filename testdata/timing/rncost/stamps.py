#!/usr/bin/env python3
"""Prints a stamps file's per-step cycles (the mean over warps, and the
last warp's): stamps.py FILE.bin W [NSTEPS]"""
import struct, sys
b = open(sys.argv[1], "rb").read()
n = len(b) // 128
rows = [struct.unpack_from("<16Q", b, 128 * i) for i in range(n)]
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 15
out = []
for i in range(1, steps + 1):
    d = [r[i] - r[i - 1] for r in rows if r[i] >= r[i - 1] and r[i] != 0]
    if not d:
        break
    out.append(sum(d) / len(d))
tot = [r[len(out)] - r[0] for r in rows]
print("total %.0f  steps %s" % (sum(tot) / len(tot), " ".join("%.0f" % x for x in out)))
