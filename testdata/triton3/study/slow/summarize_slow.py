#!/usr/bin/env python3
"""h100/ncu_slow.csv.gz and order_slow.txt (run_slow.sh) -> h100/times.tsv: per case the median of its 3 runs of
Nsight Compute's gpu__time_duration.sum (ns), sm__cycles_elapsed.max, smsp__inst_executed.sum (SASS) and
lts__t_requests_op_atom.sum (base clock, caches flushed), as ../summarize_mb.py does."""
import csv, gzip, os, statistics
here = os.path.dirname(os.path.abspath(__file__))
rows = [r for r in csv.reader(gzip.open(os.path.join(here, "h100/ncu_slow.csv.gz"), "rt")) if len(r) > 5]
hdr, data = rows[0], rows[2:]
order = [l.split() for l in open(os.path.join(here, "h100/order_slow.txt")) if l.startswith("launch")]
keys = ["gpu__time_duration.sum", "sm__cycles_elapsed.max", "smsp__inst_executed.sum", "lts__t_requests_op_atom.sum"]
groups = {}
for o, r in zip(order, data):
    groups.setdefault(o[2], []).append([float(r[hdr.index(k)].replace(",", "")) for k in keys])
with open(os.path.join(here, "h100/times.tsv"), "w") as f:
    f.write("# case\tns\tcycles\tsass_inst\tl2_atom_requests\truns_ns (medians of 3; Nsight Compute, base clock, caches flushed)\n")
    for case, v in sorted(groups.items()):
        med = [statistics.median(x[i] for x in v) for i in range(len(keys))]
        f.write("%s\t%.0f\t%.0f\t%.0f\t%.0f\t%s\n" % (case, *med, ",".join("%.0f" % x[0] for x in v)))
