#!/usr/bin/env python3
"""Writes launch/<name>.json for every configuration of mech.cu (the table mirrors main() there):
the same kernel, grid, block and arguments as the H100 ran, on mech.ptx (nvcc 13's PTX, recorded on
the device). Buffers hold what the kernel touches; their values do not change the timing."""
import json, os

SMS = 132
cfgs = []
def add(name, kernel, grid, block, buffers, args):
    cfgs.append((name, kernel, grid, block, buffers, args))

for s in (1, 2, 4, 8, 16, 32):
    n = 1 << 20
    add(f"st_stride_s{s}", "st_stride", SMS * 4, 256, {"p": n * s * 4}, [{"buffer": "p"}, {"u32": n}, {"u32": s}])
for s in (1, 4, 32):
    n = 1 << 17
    add(f"st_full_s{s}", "st_full", SMS * 4, 256, {"p": n * s * 32}, [{"buffer": "p"}, {"u32": n}, {"u32": s}])
for mode, suffix in ((0, ""), (1, "_nc"), (2, "_cg"), (3, "_bc")):
    for K in (32, 128):
        N = 1 << 16
        rows = N // 32 if mode == 3 else N
        add(f"l1_rowreuse{suffix}_k{K}", "rowreuse" + suffix, N // 256, 256,
            {"A": rows * K * 4, "B": K * N * 4, "C": N * 4},
            [{"buffer": "A"}, {"buffer": "B"}, {"buffer": "C"}, {"u32": K}, {"u32": N}])
for F in (32, 64, 128, 192, 256):
    add(f"l1_reread_f{F}k", "reread", SMS, 1024, {"A": SMS * F * 1024, "C": SMS * 1024 * 4},
        [{"buffer": "A"}, {"buffer": "C"}, {"u32": F * 1024 // 4}, {"u32": 4}])
def sb(name, block, L):
    N = 1 << 22
    add(name, "shortcopy", N // (block * L), block, {"a": N * 4, "b": N * 4}, [{"buffer": "a"}, {"buffer": "b"}, {"u32": L}])
for L in (1, 2, 4, 8, 16, 64):
    sb(f"sb_b256_l{L}", 256, L)
sb("sb_b64_l4", 64, 4)
sb("sb_b1024_l1", 1024, 1)
sb("sb_b128_l1", 128, 1)

os.makedirs("launch", exist_ok=True)
for name, kernel, grid, block, buffers, args in cfgs:
    lf = {"module": "../h100/mech.ptx", "arch": "h100",
          "buffers": {k: {"bytes": v} for k, v in buffers.items()},
          "launches": [{"kernel": kernel, "grid": [grid], "block": [block], "args": args}]}
    with open(f"launch/{name}.json", "w") as f:
        json.dump(lf, f, indent=1)
        f.write("\n")
print(len(cfgs), "launch files")
