#!/usr/bin/env python3
"""Reduces record.sh's Nsight Compute CSVs to compilers.tsv (the second and third calls,
h100/ncu/P.{nvcc,clang}.csv.gz): one row per kernel launch of each programs3
program, in launch order, with both builds' gpu__time_duration.sum (base
clock, caches flushed) and smsp__inst_executed.sum (warp instructions
executed), and to stalls.tsv (the first call, STALLS=1, h100/stalls/
P.nvcc.csv.gz): nvcc's build, each launch's warp-stall reasons (smsp__average_
warps_issue_stalled_*_per_issue_active: warps stalled per issued instruction).
A program without a clang build (half_bf16_math calls __nv_sinf; mma_ldmatrix's
failed to link) or whose Nsight Compute runs the call's deadline cut off has
empty columns."""
import csv, gzip, os

here = os.path.dirname(os.path.abspath(__file__))
ncu = os.path.join(here, "h100", "ncu")


def rows(path):
    if not os.path.exists(path):
        return []
    with gzip.open(path, "rt") as g:
        r = list(csv.reader(l for l in g if not l.startswith("==")))
    h = r[0]
    return [dict(zip(h, d)) for d in r[2:]]


def num(s):
    return float(s.replace(",", ""))


stl = os.path.join(here, "h100", "stalls")
progs = sorted({f.split(".")[0] for f in os.listdir(stl)})
out, stalls, reasons = [], [], None
for p in progs:
    nv = rows(os.path.join(ncu, p + ".nvcc.csv.gz"))
    cl = rows(os.path.join(ncu, p + ".clang.csv.gz"))
    st = rows(os.path.join(stl, p + ".nvcc.csv.gz"))
    for i, d in enumerate(st):
        name = d["Kernel Name"].split("(")[0].split("<")[0].replace("void ", "")
        c = cl[i] if i < len(cl) else None
        n = nv[i] if i < len(nv) else None
        out.append((p, i, name, d["Grid Size"].replace(" ", ""), d["Block Size"].replace(" ", ""),
                    num(n["gpu__time_duration.sum"]) if n else None, num(c["gpu__time_duration.sum"]) if c else None,
                    num(d["smsp__inst_executed.sum"]), num(c["smsp__inst_executed.sum"]) if c else None))
        ks = sorted(k for k in d if k.startswith("smsp__average_warps_issue_stalled_"))
        reasons = reasons or [k[len("smsp__average_warps_issue_stalled_"):-len("_per_issue_active.ratio")] for k in ks]
        stalls.append((p, i, name, [num(d[k]) for k in ks]))
f = lambda v: "" if v is None else "%g" % v
with open(os.path.join(here, "compilers.tsv"), "w") as w:
    w.write("# workload\tlaunch\tkernel\tgrid\tblock\tnvcc_ns\tclang_ns\tnvcc_inst\tclang_inst"
            " (H100, Nsight Compute at base clock, caches flushed; inst: smsp__inst_executed.sum)\n")
    for r in out:
        w.write("\t".join([r[0], str(r[1]), r[2], r[3], r[4]] + [f(v) for v in r[5:]]) + "\n")
with open(os.path.join(here, "stalls.tsv"), "w") as w:
    w.write("# workload\tlaunch\tkernel\t" + "\t".join(reasons) + " (nvcc's build; warps stalled per issue)\n")
    for p, i, name, v in stalls:
        w.write("\t".join([p, str(i), name] + ["%.2f" % x for x in v]) + "\n")
print(len(out), "rows")
