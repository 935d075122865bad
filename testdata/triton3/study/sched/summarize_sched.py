#!/usr/bin/env python3
"""h200/ncu_sched.csv.gz + h200/order_sched.txt -> h200/times.tsv: each case's medians over its 3 runs.

    python3 summarize_sched.py h200"""
import csv, gzip, os, statistics, sys

d = sys.argv[1]
rows = [r for r in csv.reader(gzip.open(os.path.join(d, "ncu_sched.csv.gz"), "rt")) if len(r) > 5]
h = rows[0]
order = [l.split() for l in open(os.path.join(d, "order_sched.txt")) if l.startswith("launch")]
runs = {}
for o, r in zip(order, rows[2:]):
    num = lambda k: float(r[h.index(k)].replace(",", ""))
    runs.setdefault(o[2], []).append((num("gpu__time_duration.sum"), num("sm__cycles_elapsed.max"), num("smsp__inst_executed.sum")))
with open(os.path.join(d, "times.tsv"), "w") as f:
    f.write("# case\tns\tcycles\tsass_inst\truns_cycles (medians of 3; Nsight Compute, --clock-control none, one H200)\n")
    for c in sorted(runs):
        ns, cy, inst = (statistics.median(x) for x in zip(*runs[c]))
        f.write("%s\t%.0f\t%.0f\t%.0f\t%s\n" % (c, ns, cy, inst, ",".join("%.0f" % x[1] for x in runs[c])))
print(open(os.path.join(d, "times.tsv")).read())
