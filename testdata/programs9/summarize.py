#!/usr/bin/env python3
"""Reduces Nsight Compute's raw CSV (ncu/*.ncu.csv.gz, written by record.sh
on the H100) to times.tsv: one row per kernel launch of each program, in
launch order. Columns as testdata/timing/modern/h100/times.tsv's: workload,
launch, kernel, grid, block, ns (gpu__time_duration.sum at the base clock,
caches flushed), ns of each run (one run)."""
import csv, gzip, os

here = os.path.dirname(os.path.abspath(__file__))
out = []
for f in sorted(os.listdir(os.path.join(here, "ncu"))):
    if not f.endswith(".ncu.csv.gz"):
        continue
    prog = f[: -len(".ncu.csv.gz")]
    with gzip.open(os.path.join(here, "ncu", f), "rt") as g:
        r = list(csv.reader(l for l in g if not l.startswith("==")))
    h, data = r[0], r[2:]
    ix = {k: h.index(k) for k in ("Kernel Name", "Grid Size", "Block Size", "gpu__time_duration.sum")}
    for n, d in enumerate(data):
        ns = float(d[ix["gpu__time_duration.sum"]].replace(",", ""))
        name = d[ix["Kernel Name"]].split("(")[0].split("<")[0].replace("void ", "")
        out.append((prog, n, name, d[ix["Grid Size"]].replace(" ", ""), d[ix["Block Size"]].replace(" ", ""), ns))
with open(os.path.join(here, "times.tsv"), "w") as w:
    w.write("# workload\tlaunch\tkernel\tgrid\tblock\tns\truns (Nsight Compute gpu__time_duration.sum, base clock, caches flushed)\n")
    for prog, n, name, grid, block, ns in out:
        w.write("%s\t%d\t%s\t%s\t%s\t%g\t%g\n" % (prog, n, name, grid, block, ns, ns))
print(len(out), "rows")
