#!/usr/bin/env python3
"""Reduces Nsight Compute's raw CSVs of the fourth Triton batch (h100/ncu[2]_sm90.csv.gz and
h100/ncu[2]_sm80.csv.gz, one ncu run per arch and device call; h100/order[2]_<arch>.txt maps ncu's IDs to cases,
as time_triton4.py printed them) to h100/times.tsv in ../timing/modern's layout: one row
per kernel, "triton4/<case>/<arch>", launch 0, the median of its 3 runs and each run."""
import csv, gzip, os, statistics, sys

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "h100")
out = []
# run.sh wrote ncu_<arch>.csv.gz and order_<arch>.txt, run2.sh ncu2_<arch>.csv.gz and order2_<arch>.txt
# (quant_fp8_token, whose first recording failed: sm90 only, so order2_sm80.txt names no launch).
for run, arch in (("", "sm90"), ("", "sm80"), ("2", "sm90"), ("2", "sm80")):
    order = {}
    for line in open(os.path.join(here, "order%s_%s.txt" % (run, arch))):
        p = line.split()
        if p and p[0] == "launch":
            order[int(p[1])] = (p[2], p[3], p[5])
    if not order:
        continue
    with gzip.open(os.path.join(here, "ncu%s_%s.csv.gz" % (run, arch)), "rt") as f:
        r = list(csv.reader(l for l in f if not l.startswith("==")))
    h, data = r[0], r[2:]
    ix = {k: h.index(k) for k in ("ID", "Kernel Name", "Grid Size", "Block Size", "gpu__time_duration.sum")}
    groups = {}
    for d in data:
        ns = d[ix["gpu__time_duration.sum"]].replace(",", "")
        if ns == "nan":
            continue
        i, name = int(d[ix["ID"]]), d[ix["Kernel Name"]]
        case, a, kernel = order[i]
        if kernel != name or a != arch:
            sys.exit("%s%s ID %d: order says %s/%s, ncu %s" % (run, arch, i, kernel, a, name))
        groups.setdefault(case, (name, d[ix["Grid Size"]], d[ix["Block Size"]], []))[3].append(float(ns))
    for case, (name, grid, block, v) in sorted(groups.items()):
        out.append(("triton4/%s/%s" % (case, arch), 0, name, grid, block, statistics.median(v), v))
out.sort()
with open(os.path.join(here, "times.tsv"), "w") as w:
    w.write("# workload\tlaunch\tkernel\tgrid\tblock\tns\truns (Nsight Compute gpu__time_duration.sum, base clock, caches flushed)\n")
    for wl, n, name, grid, block, ns, v in out:
        w.write("%s\t%d\t%s\t%s\t%s\t%g\t%s\n" % (wl, n, name, grid.replace(" ", ""), block.replace(" ", ""), ns,
                                             ",".join("%g" % x for x in v)))
print(len(out), "rows")
