#!/usr/bin/env python3
"""[h100|h100_long]/{ncu_dot.csv.gz,order_dot.txt} -> times.tsv there: each case's median duration and cycles (3 runs) and its
SASS instructions executed; then per operation (the case less its none_ twin's, over the operations a lane: 32,
mma.sync and wgmma 16; the long chains 256 and 64): SASS instructions and cycles."""
import csv, gzip, statistics, sys

H = sys.argv[1] if len(sys.argv) > 1 else "h100"  # h100 (mb) or h100_long (mb_long)
LONG = H.endswith(("long", "shfl"))

rows = [r for r in csv.reader(gzip.open(H + "/ncu_dot.csv.gz", "rt")) if len(r) > 5]
h = rows[0]
order = [l.split() for l in open(H + "/order_dot.txt") if l.startswith("launch")]
runs = {}
for o, r in zip(order, rows[2:]):
    v = lambda k: float(r[h.index(k)].replace(",", ""))
    runs.setdefault(o[2], []).append((v("gpu__time_duration.sum"), v("sm__cycles_elapsed.max"), v("smsp__inst_executed.sum")))
med = {c: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), v[0][2]) for c, v in runs.items()}

def base(c):
    kind = c.rsplit("_", 1)[1]
    if c.startswith("mma_"):
        return "none_mma_" + kind, 64 if LONG else 16
    if c.startswith("wgmma_"):
        return "none_wgmma_" + kind, 64 if LONG else 16
    if c.startswith(("argmin_", "shfl_argmin")):
        return "none_idx_" + kind, 256 if LONG else 32
    return "none_f32_" + kind, 256 if LONG else 32

with open(H + "/times.tsv", "w") as f:
    f.write("# case\tns\tcycles\tsass_inst\truns_ns (medians of 3; Nsight Compute, base clock, caches flushed)\n")
    for c in sorted(med):
        f.write("%s\t%d\t%d\t%d\t%s\n" % (c, med[c][0], med[c][1], med[c][2], ",".join("%d" % x[0] for x in runs[c])))
    f.write("# per operation (less its none_ twin, over the operations a lane): case\tsass_a_op\tcycles_a_op\n")
    for c in sorted(med):
        if c.startswith(("none", "bare")):
            continue
        b, n = base(c)
        f.write("#op\t%s\t%.1f\t%.1f\n" % (c, (med[c][2] - med[b][2]) / n, (med[c][1] - med[b][1]) / n))
