#!/usr/bin/env python3
"""Prints, for each stamp of an instrumented Triton kernel (instrument.py), in
the order warp 0 of block 0 passed them, the cycles since the warp's entry
stamp (mean over the grid's warps, and the slowest warp) for one or more
stamps.bin files side by side (say the H100's and warpsim's), and the step
from the stamp before:

    analyze.py NAME.points STAMPS.bin [STAMPS.bin ...]"""
import struct, sys

SLOTS = 64
points = [l.strip() for l in open(sys.argv[1]) if l.strip()]


def load(f):
    b = open(f, "rb").read()
    n = len(b) // (8 * SLOTS)
    warps = []
    for w in range(n):
        v = struct.unpack_from("<%dI" % (2 * SLOTS), b, 8 * SLOTS * w)
        warps.append([(v[2 * i], v[2 * i + 1]) for i in range(SLOTS)])
    return warps


runs = [load(f) for f in sys.argv[2:]]
ref = runs[0][0]
nst = 64
while nst > 1 and ref[nst - 1] == (0, 0):
    nst -= 1
print("%-3s %-40s" % ("#", "after") + "".join("%24s" % ("mean  max  step  [%d]" % i) for i in range(len(runs))))
prev = [0] * len(runs)
for i in range(nst):
    cells = []
    for j, warps in enumerate(runs):
        d = [(w[i][0] - w[0][0]) & 0xffffffff for w in warps if w[i][1] == ref[i][1] and (i == 0 or w[i] != (0, 0))]
        if not d:
            cells.append("%24s" % "-")
            continue
        m = sum(d) / len(d)
        cells.append("%8.0f %7.0f %7.0f" % (m, max(d), m - prev[j]))
        prev[j] = m
    pid = ref[i][1]
    print("%-3d %-40s" % (i, points[pid] if pid < len(points) else "?") + "".join(cells))
