#!/usr/bin/env python3
"""h100/mb/ncu_mb.csv.gz and order_mb.txt (run_mb.sh) -> h100/mb/times.tsv: per case the median of its 3 runs
(Nsight Compute's gpu__time_duration.sum, base clock, caches flushed), as ../summarize3.py does."""
import csv, gzip, os, statistics
here = os.path.dirname(os.path.abspath(__file__))
rows = [r for r in csv.reader(gzip.open(os.path.join(here, "h100/mb/ncu_mb.csv.gz"), "rt")) if len(r) > 5]
hdr, data = rows[0], rows[2:]
order = [l.split() for l in open(os.path.join(here, "h100/mb/order_mb.txt")) if l.startswith("launch")]
t = hdr.index("gpu__time_duration.sum")
groups = {}
for o, r in zip(order, data):
    groups.setdefault((o[2], o[3]), []).append(float(r[t].replace(",", "")))
with open(os.path.join(here, "h100/mb/times.tsv"), "w") as f:
    f.write("# workload\tlaunch\tkernel\tgrid\tblock\tns\truns (Nsight Compute gpu__time_duration.sum, base clock, caches flushed)\n")
    for (case, arch), v in sorted(groups.items()):
        f.write("mb/%s/%s\t0\tk\t(1,1,1)\t(32,1,1)\t%.0f\t%s\n" % (case, arch, statistics.median(v), ",".join("%.0f" % x for x in v)))
