#!/usr/bin/env python3
"""Summarizes the recordings into summary.tsv: per run and kernel, the H100's time for nvcc's device code
and for clang's (h100/ncu_RUN.{nvcc,clang}.csv from record.sh: gpu__time_duration.sum, clocks locked to
base) and warpsim's (warpsim/prof_RUN.{nvcc,clang}.csv from warpsim.sh: prof's GPU trace), in ns: the
median over a kernel's launches after its first when it was launched more than once. For nested's
kernels that launch grids from the device, ncu's time covers those grids and warpsim's does not: compare
only nested's reduceNeighbored."""
import csv, glob, os, re, statistics

here = os.path.dirname(os.path.abspath(__file__))

def key(name):
    """A kernel's name without its return type and parameters: ncu and warpsim spell those apart."""
    name = re.sub(r"^void ", "", name)
    return name.split("(")[0].replace(" ", "")

def med(d):
    return {k: statistics.median(v[1:] if len(v) > 1 else v) for k, v in d.items()}

def ncu(path):
    out = {}
    if os.path.exists(path):
        for r in csv.reader(open(path)):
            if len(r) > 14 and r[12] == "gpu__time_duration.sum":
                out.setdefault(key(r[4]), []).append(float(r[14].replace(",", "")))
    return med(out)

def prof(path):
    out = {}
    if os.path.exists(path):
        for r in csv.reader(open(path)):
            # Host launches only: ncu times a host launch with the grids its device code launched
            # (dynamic parallelism), warpsim's trace lists those grids apart ("[device]"), so the
            # recursive kernels of nested are not compared.
            if len(r) >= 13 and r[0].isdigit() and "[device" not in r[-1]:
                out.setdefault(key(r[-1]), []).append(float(r[1]))
    return med(out)

def f(v):
    return "-" if v is None else f"{v:.0f}"

lines = ["run\tkernel\th100_nvcc_ns\th100_clang_ns\th100_clang/nvcc\twarpsim_nvcc_ns\twarpsim_clang_ns\twarpsim_clang/nvcc"]
for nv in sorted(glob.glob(os.path.join(here, "h100", "ncu_*.nvcc.csv"))):
    run = os.path.basename(nv)[4:-len(".nvcc.csv")]
    hn, hc = ncu(nv), ncu(nv.replace(".nvcc.csv", ".clang.csv"))
    wn = prof(os.path.join(here, "warpsim", f"prof_{run}.nvcc.csv"))
    wc = prof(os.path.join(here, "warpsim", f"prof_{run}.clang.csv"))
    for k in hn:
        a, b, c, d = hn[k], hc.get(k), wn.get(k), wc.get(k)
        r1 = "-" if b is None else f"{b/a:.3f}"
        r2 = "-" if c is None or d is None else f"{d/c:.3f}"
        lines.append(f"{run}\t{k}\t{f(a)}\t{f(b)}\t{r1}\t{f(c)}\t{f(d)}\t{r2}")
open(os.path.join(here, "summary.tsv"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
