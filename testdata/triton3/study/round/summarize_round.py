#!/usr/bin/env python3
"""h100/{ncu_round.csv.gz,order_round.txt} -> h100/times.tsv: each case's median duration and cycles (3 runs) and
its SASS instructions executed; then per operation (the case less none_<type>'s, over 16): SASS instructions and
cycles of the independent case, cycles of the dependent chain (the sequence's latency)."""
import csv, gzip, statistics

rows = [r for r in csv.reader(gzip.open("h100/ncu_round.csv.gz", "rt")) if len(r) > 5]
h = rows[0]
order = [l.split() for l in open("h100/order_round.txt") if l.startswith("launch")]
runs = {}
for o, r in zip(order, rows[2:]):
    v = lambda k: float(r[h.index(k)].replace(",", ""))
    runs.setdefault(o[2], []).append((v("gpu__time_duration.sum"), v("sm__cycles_elapsed.max"), v("smsp__inst_executed.sum")))
med = {c: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), v[0][2]) for c, v in runs.items()}
with open("h100/times.tsv", "w") as f:
    f.write("# case\tns\tcycles\tsass_inst\truns_ns (medians of 3; Nsight Compute, base clock, caches flushed)\n")
    for c in sorted(med):
        f.write("%s\t%d\t%d\t%d\t%s\n" % (c, med[c][0], med[c][1], med[c][2], ",".join("%d" % x[0] for x in runs[c])))
    f.write("# per operation (less none_<type>, over 16): op\tsass_a_op\tind_cycles_a_op\tdep_cycles_a_op\n")
    for c in sorted(med):
        if not c.endswith("_ind") or c.startswith("none"):
            continue
        op = c[:-4]
        t = "f64" if "f64" in op and not op.startswith("cvt") else "f32"
        base_i, base_d = med["none_%s_ind" % t], med["none_%s_dep" % t]
        dep = med.get(op + "_dep")
        f.write("#op\t%s\t%.1f\t%.1f\t%s\n" % (op, (med[c][2] - base_i[2]) / 16, (med[c][1] - base_i[1]) / 16,
                "%.1f" % ((dep[1] - base_d[1]) / 16) if dep else "-"))
