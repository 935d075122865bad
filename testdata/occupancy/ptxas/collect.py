#!/usr/bin/env python3
"""collect.py: the registers ptxas allocated for PTX kernels of this repository, gathered from H100 recordings
already committed beside their PTX, into recorded.tsv (run from this folder: python3 collect.py > recorded.tsv).

Three kinds of truth, each recorded on the H100 machine by CUDA 13.0's ptxas (or the 580 driver's, for PTX the
driver compiled):
  ptxas-v  "Used N registers" of `ptxas -v` (ptxas_v.txt, for shortocc_nvcc.ptx).
  ncu      Nsight Compute's launch__registers_per_thread (cudaFuncAttributes.numRegs) of the kernels a recording
           profiled, where the PTX it ran is committed beside it (nvcc -ptx of the same source, or Triton's PTX, which
           the driver compiled).
  sass     the highest general register the kernel's SASS (cuobjdump -sass) names, plus 1, plus the 2 ptxas counts
           beyond them: on the 8 kernels with both SASS and an ncu count (btx_mb, merge_mb) that rule gives ncu's
           count for 7 (the 8th, merge_mb's k_st<16,32>, is left to ncu); and at least 16, the fewest any kernel
           has in the ncu recordings (ten kernels whose SASS names fewer registers have exactly 16).
  ptxas    ptxas -v's count from h100/ptxas_table.tsv (run.sh: every PTX of the repository compiled on the H100
           machine), raised to 16; it replaces every SASS-derived count it covers (83 of 83).
A kernel with an ncu or ptxas-v count is not taken from SASS or the table.
"""
import csv, gzip, os, re, sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


def rel(p):
    return os.path.relpath(p, ROOT).replace(os.sep, "/")


def read(p):
    p = os.path.join(ROOT, p)
    if p.endswith(".gz"):
        return gzip.open(p, "rt", errors="replace").read()
    return open(p, errors="replace").read()


def entries(ptx):
    return re.findall(r"\.entry\s+([A-Za-z_$][\w$]*)", read(ptx))


def ncu_rows(path):
    """The rows of an ncu --csv --page raw file: (ID, kernel name, registers per thread)."""
    lines = [l for l in read(path).splitlines() if l.startswith('"')]
    rows = list(csv.reader(lines))
    h = rows[0]
    ki, ri, ii = h.index("Kernel Name"), h.index("launch__registers_per_thread"), h.index("ID")
    out = []
    for r in rows[1:]:
        if len(r) > ri and r[ri].strip().isdigit():
            out.append((int(r[ii]), r[ki], int(r[ri])))
    return out


def match(ncu_name, names):
    """The PTX entry (mangled) an ncu kernel name (demangled, "void k_st<4, 8>(long long *, ...)") is."""
    base = re.split(r"[<(]", ncu_name.replace("void ", "", 1))[0].strip()
    if base in names:
        return base
    targs = []
    m = re.search(r"<([^>]*)>", ncu_name)
    if m:
        for a in m.group(1).split(","):
            a = a.strip()
            targs.append({"true": "1", "false": "0"}.get(a, a))
    cands = [n for n in names if f"{len(base)}{base}" in n and re.findall(r"L[a-z](\d+)E", n) == targs]
    return cands[0] if len(cands) == 1 else None


rows = {}  # (ptx, kernel) -> (regs, truth, source)


def add(ptx, kernel, regs, truth, source):
    key = (ptx, kernel)
    if key in rows and rows[key][1] != "sass":
        if rows[key][0] != regs:
            print(f"# {ptx} {kernel}: {truth} {regs} against {rows[key][1]} {rows[key][0]}", file=sys.stderr)
        return
    rows[key] = (regs, truth, source)


# ptxas -v
kernel = None
for line in read("testdata/occupancy/ptxas/ptxas_v.txt").splitlines():
    m = re.search(r"Compiling entry function '([^']+)'", line)
    if m:
        kernel = m.group(1)
    m = re.search(r"Used (\d+) registers", line)
    if m and kernel:
        add("testdata/occupancy/ptxas/shortocc_nvcc.ptx", kernel, int(m.group(1)), "ptxas-v", "testdata/occupancy/ptxas/ptxas_v.txt")
        kernel = None

# ncu, programs and microbenchmarks built by nvcc, their PTX beside.
for csvf, ptx in [
    ("testdata/timing/stmerge/h100/merge_mb.ncu.csv.gz", "testdata/timing/stmerge/h100/merge_mb.nvcc.ptx"),
    ("testdata/timing/stld/h100/stld_mb.ncu.csv.gz", "testdata/timing/stld/h100/stld_mb.nvcc.ptx"),
    ("testdata/timing/btx/h100/btx_mb.ncu.csv.gz", "testdata/timing/btx/h100/btx_mb.nvcc.ptx"),
    ("testdata/timing/icache/h100/ncu_all.csv.gz", "testdata/timing/icache/h100/icache_mb.nvcc.ptx.gz"),
    ("testdata/timing/icache/h100/jump/ncu_all.csv.gz", "testdata/timing/icache/h100/jump/icache_jump.nvcc.ptx.gz"),
    ("testdata/timing/modern/h100/cluster_sregs.ncu.csv.gz", "testdata/clusters/cluster_sregs.nvcc.ptx"),
    ("testdata/timing/modern/h100/cluster_dsmem.ncu.csv.gz", "testdata/clusters/cluster_dsmem.nvcc.ptx"),
    ("testdata/timing/modern/h100/cluster_launch.ncu.csv.gz", "testdata/clusters/cluster_launch.nvcc.ptx"),
]:
    names = entries(ptx)
    for _, name, regs in ncu_rows(csvf):
        k = match(name, names)
        if k is None:
            print(f"# {csvf}: {name!r} matches no single entry of {ptx}", file=sys.stderr)
            continue
        add(ptx, k, regs, "ncu", csvf)

# ncu, Triton's corpus: launch i of the profile is line i of triton_order.txt (directory, sm90 or sm80 PTX).
order = {}
for line in read("testdata/timing/modern/h100/triton_order.txt").splitlines():
    f = line.split()
    if len(f) >= 6 and f[0] == "launch":
        order[int(f[1])] = (f[2], f[3], f[5])
for i, name, regs in ncu_rows("testdata/timing/modern/h100/triton_ncu.csv.gz"):
    d, a, k = order[i]
    if k != name:
        print(f"# triton launch {i}: ncu {name}, order {k}", file=sys.stderr)
        continue
    ptx = f"testdata/triton/{d}/{a}.ptx"
    if os.path.exists(os.path.join(ROOT, ptx)):
        add(ptx, k, regs, "ncu", "testdata/timing/modern/h100/triton_ncu.csv.gz")

# SASS: the highest register named, with the width of 64- and 128-bit operands.
WIDE64 = re.compile(r"\b(IMAD\.WIDE|LDG\.E\.64|LDS\.64|LD\.E\.64|LDL\.64|LDC\.64|DADD|DMUL|DFMA|F2F\.F64|I2F\.F64|MOV\.64|SHFL.*\.64)")


def sass_counts(path):
    out, cur, hi = {}, None, -1
    for line in read(path).splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            if cur:
                out[cur] = max(16, hi + 1 + 2)
            cur, hi = m.group(1), -1
            continue
        if cur is None or not re.match(r"\s+/\*[0-9a-f]{4}\*/", line):
            continue
        ins = re.sub(r"^\s+/\*[0-9a-f]+\*/", "", line.split(";")[0])
        w = 4 if ".128" in ins else 2 if WIDE64.search(ins) else 1
        for j, r in enumerate(re.finditer(r"\bR(\d+)(\.64)?\b", ins)):
            ww = 2 if r.group(2) else 1
            if j == 0:
                ww = max(ww, w)
            hi = max(hi, int(r.group(1)) + ww - 1)
    if cur:
        out[cur] = max(16, hi + 1 + 2)
    return out


pairs = []
for b in ["atomics", "bank", "chase", "lat", "launch", "lessons_small", "occ", "stld", "stream", "tput"]:
    pairs.append((f"testdata/timing/h100/sass/sass_{b}.txt", f"testdata/timing/bench/{b}.ptx"))
for b in ["coarsen.clang", "coarsen.nvcc", "reduce.clang", "reduce.nvcc"]:
    pairs.append((f"testdata/compilers/h100/sass/{b}.sass", f"testdata/compilers/ptx/{b}.ptx"))
pairs += [
    ("testdata/timing/btx/h100/btx_mb.sass.txt.gz", "testdata/timing/btx/h100/btx_mb.nvcc.ptx"),
    ("testdata/timing/stmerge/h100/merge_mb.sass.txt.gz", "testdata/timing/stmerge/h100/merge_mb.nvcc.ptx"),
    ("testdata/timing/f16mm/h100/inflight_mb.sass.txt", "testdata/timing/f16mm/h100/inflight_mb.nvcc.ptx"),
    ("testdata/timing/tmcold/h100/tmcold_mb.sass.txt", "testdata/timing/tmcold/h100/tmcold_mb.nvcc.ptx"),
    ("testdata/timing/tmcold/h100/tmbranch_mb.sass.txt", "testdata/timing/tmcold/h100/tmbranch_mb.nvcc.ptx"),
]
for sass, ptx in pairs:
    names = set(entries(ptx))
    for k, n in sass_counts(sass).items():
        if k in names:
            add(ptx, k, n, "sass", sass)

# ptxas -v of every PTX in the repository (h100/ptxas_table.tsv, run.sh on the H100): where it has the kernel's sm_90
# build, its count replaces a SASS-derived one (raised to 16, what the five kernels with both a table row below 16 and
# an Nsight Compute count launch with); an ncu or ptxas-v count that disagrees is reported and kept.
TABLE = "testdata/occupancy/ptxas/h100/ptxas_table.tsv"
table = {}
for line in read(TABLE).splitlines()[1:]:
    f = line.split("\t")
    if f[1] in ("sm_90", "sm_90a"):
        table[(f[0], f[2])] = int(f[3])
changed = replaced = 0
for key, (regs, truth, source) in sorted(rows.items()):
    if key not in table:
        continue
    n = max(16, table[key])
    if truth != "sass":
        if n != regs:
            print(f"# {key[0]} {key[1]}: ptxas_table {table[key]} against {truth} {regs} (kept)", file=sys.stderr)
        continue
    replaced += 1
    if n != regs:
        changed += 1
        print(f"# {key[0]} {key[1]}: SASS's {regs} -> ptxas's {n}", file=sys.stderr)
    rows[key] = (n, "ptxas", TABLE)
print(f"# {replaced} SASS-derived counts replaced by ptxas_table's, {changed} changed", file=sys.stderr)

print("file\tkernel\tregs\ttruth\tsource")
for (ptx, k), (regs, truth, source) in sorted(rows.items()):
    print(f"{ptx}\t{k}\t{regs}\t{truth}\t{source}")
