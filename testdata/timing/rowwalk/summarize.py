#!/usr/bin/env python3
"""Pairs each profiled launch of h200/ncu.csv.gz (rw_ kernels) and ncu2.csv.gz (the rest) with its `cfg` line
(the program's stdout under ncu, ncu.txt and ncu2.txt: launches in order) and writes h200/rows.tsv: the cfg's
fields, Nsight Compute's duration (ns), the slowest SM's cycles, and the counters the README discusses."""
import csv, gzip, io, os, sys

H = os.path.join(os.path.dirname(os.path.abspath(__file__)), "h200")
COLS = [
    ("ns", "gpu__time_duration.sum"), ("cyc", "sm__cycles_elapsed.max"), ("inst", "smsp__inst_executed.sum"),
    ("dram_rd", "dram__bytes_read.sum"), ("dram_wr", "dram__bytes_write.sum"),
    ("l2_rd", "lts__t_sectors_srcunit_tex_op_read.sum"), ("l2_rd_hit", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"),
    ("l2_wr", "lts__t_sectors_srcunit_tex_op_write.sum"),
    ("ld_req", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), ("ld_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("ld_hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"), ("st_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("wavefronts", "l1tex__data_pipe_lsu_wavefronts.sum"), ("shatom", "smsp__inst_executed_op_shared_atom.sum"),
    ("st_lsb", "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"),
    ("st_lgt", "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio"),
    ("st_mio", "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio"),
    ("st_math", "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio"),
]


def rows(csvname, txtname):
    text = gzip.open(os.path.join(H, csvname), "rt").read()
    lines = [l for l in text.splitlines() if not l.startswith("==")]
    rd = list(csv.reader(io.StringIO("\n".join(lines))))
    head, data = rd[0], [r for r in rd[2:] if r]
    cfgs = [l.split(" ", 1)[1].rsplit(" event_ms=", 1)[0] for l in open(os.path.join(H, txtname)) if l.startswith("cfg ")]
    return head, data, cfgs


out = ["\t".join(["cfg"] + [c for c, _ in COLS])]
for c, t, pat in (("ncu.csv.gz", "ncu.txt", "rw_"), ("ncu2.csv.gz", "ncu2.txt", None)):
    head, data, cfgs = rows(c, t)
    cfgs = [x for x in cfgs if (x.startswith("kern=rw_") if pat else not x.startswith("kern=rw_"))]
    if len(cfgs) != len(data):
        sys.exit(f"{c}: {len(data)} kernels, {len(cfgs)} cfg lines")
    for cfg, r in zip(cfgs, data):
        kern = cfg.split()[0][5:]
        if not r[head.index("Kernel Name")].startswith(kern):
            sys.exit(f"{c}: {r[head.index('Kernel Name')]} against {cfg}")
        out.append("\t".join([cfg] + [r[head.index(m)].replace(",", "") for _, m in COLS]))
head, data, _ = rows("ncu_ch.csv.gz", "ncu_ch.txt")
for r in data:
    out.append("\t".join(["kern=cluster_hist." + r[head.index("Kernel Name")].split("(")[0]] + [r[head.index(m)].replace(",", "") for _, m in COLS]))
open(os.path.join(H, "rows.tsv"), "w").write("\n".join(out) + "\n")
