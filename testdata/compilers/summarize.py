#!/usr/bin/env python3
"""Summarizes h100/ncu_*.csv (record.sh) into h100/summary.tsv: per run and kernel, the H100 time of
nvcc's device code and clang's (gpu__time_duration.sum, ns; the median over the kernel's launches
after the first when it was launched more than once) and their ratio clang/nvcc."""
import csv, glob, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))

def times(path):
    out = {}
    with open(path) as f:
        rows = [r for r in csv.reader(f) if len(r) > 14 and r[12] == "gpu__time_duration.sum"]
    for r in rows:
        out.setdefault(r[4], []).append(float(r[14].replace(",", "")))
    return {k: statistics.median(v[1:] if len(v) > 1 else v) for k, v in out.items()}

lines = ["run\tkernel\tnvcc_ns\tclang_ns\tclang/nvcc"]
for nv in sorted(glob.glob(os.path.join(here, "h100", "ncu_*.nvcc.csv"))):
    tag = os.path.basename(nv)[4:-len(".nvcc.csv")]
    a, b = times(nv), times(nv.replace(".nvcc.csv", ".clang.csv"))
    for k in a:
        if k in b:
            lines.append(f"{tag}\t{k}\t{a[k]:.0f}\t{b[k]:.0f}\t{b[k]/a[k]:.3f}")
open(os.path.join(here, "h100", "summary.tsv"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
