#!/usr/bin/env python3
"""Reduces Nsight Compute's raw CSV (h100/*.ncu.csv.gz) to h100/times.tsv:
one row per kernel launch of a workload, with the median of its repetitions.
Triton rows: "triton/<case>/<arch>" and launch index 0 (time_triton.py ran
each launch file 3 times; triton_order.txt maps ncu's IDs to cases).
Program rows: "<program>" and the launch's index in the program (each ran once).
Columns: workload, launch, kernel, grid, block, ns (median), ns of each run."""
import csv, gzip, os, statistics, sys

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "h100")


def rows(path):
    with gzip.open(path, "rt") as f:
        r = list(csv.reader(l for l in f if not l.startswith("==")))
    h, data = r[0], r[2:]
    ix = {k: h.index(k) for k in ("ID", "Kernel Name", "Grid Size", "Block Size", "gpu__time_duration.sum")}
    for d in data:
        ns = d[ix["gpu__time_duration.sum"]].replace(",", "")
        if ns == "nan":  # a launch that failed under ncu
            continue
        yield int(d[ix["ID"]]), d[ix["Kernel Name"]], d[ix["Grid Size"]], d[ix["Block Size"]], float(ns)


out = []
order = {}
for line in open(os.path.join(here, "triton_order.txt")):
    p = line.split()
    if p and p[0] == "launch":
        order[int(p[1])] = (p[2], p[3], p[5])
groups = {}
for i, name, grid, block, ns in rows(os.path.join(here, "triton_ncu.csv.gz")):
    case, arch, kernel = order[i]
    if kernel != name:
        sys.exit("ID %d: order says %s, ncu %s" % (i, kernel, name))
    groups.setdefault((case, arch), (name, grid, block, []))[3].append(ns)
for (case, arch), (name, grid, block, v) in sorted(groups.items()):
    out.append(("triton/%s/%s" % (case, arch), 0, name, grid, block, statistics.median(v), v))
for f in sorted(os.listdir(here)):
    if not f.endswith(".ncu.csv.gz") or f.startswith("triton"):
        continue
    prog = f[: -len(".ncu.csv.gz")]
    for n, (i, name, grid, block, ns) in enumerate(rows(os.path.join(here, f))):
        out.append((prog, n, name, grid, block, ns, [ns]))
with open(os.path.join(here, "times.tsv"), "w") as w:
    w.write("# workload\tlaunch\tkernel\tgrid\tblock\tns\truns (Nsight Compute gpu__time_duration.sum, base clock, caches flushed)\n")
    for wl, n, name, grid, block, ns, v in out:
        w.write("%s\t%d\t%s\t%s\t%s\t%g\t%s\n" % (wl, n, name, grid.replace(" ", ""), block.replace(" ", ""), ns,
                                             ",".join("%g" % x for x in v)))
print(len(out), "rows")
