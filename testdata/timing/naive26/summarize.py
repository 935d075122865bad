#!/usr/bin/env python3
"""Summarize naive26's device call (standard library only).

Usage: summarize.py REC_DIR [STAMPS.bin[.gz] ...]
  REC_DIR: rec/ from h200/rec.tar.gz (ncu_raw_reg.csv, ncu_raw_var.csv, plain.txt).
Writes to stdout:
  rows: one line a profiled launch, in the program's order (naive_mb.cu's ncu
        mode): kern, N, rot, gpu__time_duration (ns), sm__cycles_elapsed.max,
        long-scoreboard stall an issue, L1 sectors missed to the L2, the L2's
        tex read sectors, lrc__xbar2gpc read sectors.
  bodies: for each stamps file, each body's cycles (stamp to stamp) by
        position in the walk: mean and median over the warps.
"""
import csv, gzip, statistics, struct, sys


def ncu_rows(rec):
    order = []
    for line in open(rec + "/plain.txt"):
        pass
    # The ncu runs' own logs list the launches in order (naive_mb ncu).
    out = []
    for part in ("reg", "var"):
        cfgs = [l.split()[1:6] for l in open(f"{rec}/ncu_{part}.log") if l.startswith("cfg ")]
        want = "mm_reg_" if part == "reg" else ("mm_ns_", "mm_ld_")
        cfgs = [c for c in cfgs if c[0].split("=")[1].startswith(want)]
        rows = list(csv.reader(open(f"{rec}/ncu_raw_{part}.csv")))
        ix = {h: i for i, h in enumerate(rows[0])}
        data = rows[2:]
        if len(data) != len(cfgs):
            sys.exit(f"{part}: {len(data)} ncu rows, {len(cfgs)} cfg lines")
        for c, r in zip(cfgs, data):
            kv = dict(x.split("=") for x in c)
            if not r[ix["Kernel Name"]].startswith(kv["kern"]):
                sys.exit(f"{part}: {r[ix['Kernel Name']]} against {kv['kern']}")
            g = lambda m: float(r[ix[m]].replace(",", ""))
            out.append((kv["kern"], int(kv["N"]), int(kv["rot"]), g("gpu__time_duration.sum"), g("sm__cycles_elapsed.max"),
                        g("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"),
                        g("l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum"), g("lts__t_sectors_srcunit_tex_op_read.sum"),
                        g("lrc__xbar2gpc_sectors_op_read.sum")))
    return out


def bodies(fn):
    b = gzip.open(fn).read() if fn.endswith(".gz") else open(fn, "rb").read()
    N, f64, rot, bx, by, warps = struct.unpack_from("6i", b, 0)
    S = N // 16 + 1
    sp = struct.unpack_from(f"{warps * S}I", b, 24 + warps * 32)
    per = []
    for k in range(S - 1):
        d = [(sp[w * S + k + 1] - sp[w * S + k]) & 0xFFFFFFFF for w in range(warps)]
        per.append((statistics.mean(d), statistics.median(d)))
    return N, f64, rot, per


def main():
    rec = sys.argv[1]
    print("kern\tN\trot\tns\tcycles\tlong_sb\tl1_to_l2_sectors\tl2_tex_read_sectors\tlrc_xbar2gpc_sectors")
    for r in ncu_rows(rec):
        print("\t".join(str(x) if not isinstance(x, float) else f"{x:.6g}" for x in r))
    for fn in sys.argv[2:]:
        N, f64, rot, per = bodies(fn)
        print(f"# bodies f{64 if f64 else 32} N={N} rot={rot}: position mean/median cycles")
        print(" ".join(f"{k}:{m:.0f}/{md:.0f}" for k, (m, md) in enumerate(per)))


main()
