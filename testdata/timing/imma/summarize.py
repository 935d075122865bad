#!/usr/bin/env python3
"""Reduces h100/im.ncu{1,2,3}.csv.gz (Nsight Compute's raw CSV, three runs of
record.sh) and the program's output h100/im.h100.txt (the name of each
launch, in order) to times.tsv: one row a launch, the columns of
../wmmatf32/times.tsv (workload = the launch's name, launch = its index; ns
the median of the three runs' gpu__time_duration, runs the three), then the
first run's registers a thread, achieved occupancy (% of peak), warp
instructions executed, and the three largest stall reasons (warps a
issue)."""
import csv, gzip, os

here = os.path.dirname(os.path.abspath(__file__))
names = [l.split()[2] for l in open(os.path.join(here, "h100", "im.h100.txt")) if l.startswith("launch ")]
runs = []
for i in (1, 2, 3):
    with gzip.open(os.path.join(here, "h100", "im.ncu%d.csv.gz" % i), "rt") as g:
        r = list(csv.reader(l for l in g if not l.startswith("==")))
    runs.append((r[0], r[2:]))
h, data = runs[0]
ix = {k: h.index(k) for k in h}
st = [k for k in h if k.startswith("smsp__average_warps_issue_stalled_")]
with open(os.path.join(here, "times.tsv"), "w") as w:
    w.write("# workload\tlaunch\tkernel\tgrid\tblock\tns\truns (Nsight Compute gpu__time_duration.sum, base clock, caches flushed; ns the median of three)\tregs\tocc%\tinst\ttop stalls\n")
    for n, d in enumerate(data):
        f = lambda k, d=d: d[ix[k]].replace(",", "")
        ts = [float(rd[n][rh.index("gpu__time_duration.sum")].replace(",", "")) for rh, rd in runs]
        kern = d[ix["Kernel Name"]].split("(")[0].split("<")[0].replace("void ", "")
        s = sorted(((float(f(k)), k[len("smsp__average_warps_issue_stalled_"):-len("_per_issue_active.ratio")]) for k in st), reverse=True)[:3]
        w.write("%s\t%d\t%s\t%s\t%s\t%g\t%s\t%s\t%.1f\t%s\t%s\n" % (names[n], n, kern, d[ix["Grid Size"]].replace(" ", ""), d[ix["Block Size"]].replace(" ", ""),
                sorted(ts)[1], ",".join("%g" % t for t in ts), f("launch__registers_per_thread"),
                float(f("sm__warps_active.avg.pct_of_peak_sustained_active")), f("smsp__inst_executed.sum"), " ".join("%s=%.2f" % (k, v) for v, k in s)))
print(len(data), "rows")
