#!/usr/bin/env python3
"""Reduce cx's device call (DIR: cx.sass, cx.ptx, cx.ncu.csv) to a table:
per launch, the PTX's wmma.mma count and loop trip count, the SASS's
hardware MMA count (HMMA/IMMA) and whether it has a backward branch,
the chains the SASS computes (MMAs / (steps x MMAs a step)) and the ncu
time. Usage: summarize.py DIR > times.tsv (testenv.ReadNCUTimes's columns first)"""
import csv, re, sys

d = sys.argv[1]
TN = ["f16", "bf16", "tf32", "s8"]
HW = {"f16": 2, "bf16": 2, "tf32": 4, "s8": 2}  # hardware MMAs a wmma.mma


def name_of(mangled):
    m = re.match(r"_Z2cxILi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)E", mangled)
    if not m:
        return None
    t, a, n, u = map(int, m.groups())
    return "cx_%s_a%d_n%d_u%d" % (TN[t], a, n, u)


def split(text, head):
    out, cur, body = {}, None, []
    for line in text.splitlines():
        m = re.search(head, line)
        if m:
            if cur:
                out[cur] = body
            cur, body = name_of(m.group(1)), []
        elif cur:
            body.append(line)
    if cur:
        out[cur] = body
    return out


sass = split(open(d + "/cx.sass").read(), r"Function : (\S+)")
ptx = split(open(d + "/cx.ptx").read(), r"^\.visible \.entry (\S+)\(")
times = {}
rows = list(csv.reader(l for l in open(d + "/cx.ncu.csv") if l.startswith('"')))
hdr = rows[0]
for r in rows[1:]:
    rec = dict(zip(hdr, r))
    if rec.get("Metric Name") == "gpu__time_duration.sum":
        times[int(rec["ID"])] = float(rec["Metric Value"].replace(",", ""))
order = [l.split()[2] for l in open(d + "/cx.out") if l.startswith("launch")]
print("# workload\tlaunch\tkernel\tgrid\tblock\tns (Nsight Compute gpu__time_duration.sum, base clock, caches flushed, one run)\tptx_mma\tptx_loop\tsass_mma\tsass_loop\tchains")
for i, nm in enumerate(order):
    s, p = sass[nm], ptx[nm]
    mma = sum(1 for l in s if re.search(r"\b[HI]MMA\.", l))
    loop = any(re.search(r"\bBRA\b", l) and "@" in l for l in s)
    pm = sum(1 for l in p if "wmma.mma" in l)
    ploop = any(re.search(r"@%p\d+ bra", l) for l in p)
    t, a, n = nm.split("_")[1], int(nm.split("_")[2][1:]), int(nm.split("_")[3][1:])
    chains = "%.2f" % (mma / (n * HW[t])) if not loop else "loop"
    print("%s\t%d\tcx\t(1,1,1)\t(32,1,1)\t%.0f\t%d\t%s\t%d\t%s\t%s" % (nm, i, times.get(i, 0), pm, "loop" if ploop else "straight", mma, "loop" if loop else "straight", chains))
