#!/usr/bin/env python3
"""h100/ncu_study.csv.gz (run.sh's Nsight Compute run over the study half) -> a table of chosen metrics.
    ncu_table.py [metric-substring ...]"""
import csv, gzip, os, sys
here = os.path.dirname(os.path.abspath(__file__))
rows = [r for r in csv.reader(gzip.open(os.path.join(here, "h100/ncu_study.csv.gz"), "rt")) if len(r) > 5]
hdr, data = rows[0], rows[2:]
order = [l.split() for l in open(os.path.join(here, "h100/order_study.txt")) if l.startswith("launch")]
keys = sys.argv[1:] or ["gpu__time_duration.sum", "smsp__inst_executed.sum"]
cols = [i for i, h in enumerate(hdr) if any(h == k or (k.endswith("*") and h.startswith(k[:-1])) for k in keys)]
print("case\tarch\t" + "\t".join(hdr[i] for i in cols))
for o, r in zip(order, data):
    print(o[2] + "\t" + o[3] + "\t" + "\t".join(r[i] for i in cols))
