#!/usr/bin/env python3
"""Reduces the Nsight Compute CSVs (clang/ncu/P.clang.csv.gz:
nvcc's build of P with clang 22's PTX in place of nvcc's, record.sh) and
those of nvcc's own build (ncu/P.ncu.csv.gz) to clang/compilers.tsv:
per kernel launch, both builds' times (gpu__time_duration.sum, base clock,
caches flushed) and instructions executed."""
import csv, gzip, os

here = os.path.dirname(os.path.abspath(__file__))


def read(path):
    with gzip.open(path, "rt") as g:
        r = list(csv.reader(l for l in g if not l.startswith("==")))
    h, data = r[0], r[2:]
    ix = {k: h.index(k) for k in ("Kernel Name", "gpu__time_duration.sum", "smsp__inst_executed.sum")}
    return [(d[ix["Kernel Name"]].split("(")[0].replace("void ", ""), float(d[ix["gpu__time_duration.sum"]].replace(",", "")),
             float(d[ix["smsp__inst_executed.sum"]].replace(",", ""))) for d in data]


rows = []
for f in sorted(os.listdir(os.path.join(here, "clang", "ncu"))):
    prog = f[: -len(".clang.csv.gz")]
    nv = read(os.path.join(here, "ncu", prog + ".ncu.csv.gz"))
    cl = read(os.path.join(here, "clang", "ncu", f))
    for n, (a, b) in enumerate(zip(nv, cl)):
        rows.append((prog, n, a[0], a[1], b[1], a[2], b[2]))
with open(os.path.join(here, "clang", "compilers.tsv"), "w") as w:
    w.write("# workload\tlaunch\tkernel\tnvcc ns\tclang ns\tnvcc insts\tclang insts (Nsight Compute, base clock, caches flushed)\n")
    for r in rows:
        w.write("%s\t%d\t%s\t%g\t%g\t%g\t%g\n" % r)
print(len(rows), "rows")
