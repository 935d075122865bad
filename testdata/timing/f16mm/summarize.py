#!/usr/bin/env python3
"""Reduces run2.sh's Nsight Compute CSVs (ncu2.tgz: res2/ncu/<dir>.csv and <dir>.order.txt) to h100/times.tsv:
one line per instrumented launch file, its gpu__time_duration.sum in each run (ns, base clock, caches flushed).

    summarize.py RES2_NCU_DIR > h100/times.tsv"""
import csv, os, sys

d = sys.argv[1]
times = {}
for name in ("stamps", "stamps2"):
    rows = list(csv.reader(l for l in open(os.path.join(d, name + ".csv")) if not l.startswith("==")))
    h = {k: i for i, k in enumerate(rows[0])}
    order = [l.split()[2] for l in open(os.path.join(d, name + ".order.txt")) if l.startswith("launch")]
    for r, f in zip(rows[2:], order):
        times.setdefault(f[:-5], []).append(int(r[h["gpu__time_duration.sum"]].replace(",", "")))
print("# launch file (ptx/)\tns, each run (Nsight Compute gpu__time_duration.sum, base clock, caches flushed)")
for k in sorted(times):
    print("%s\t%s" % (k, ",".join(str(t) for t in times[k])))
