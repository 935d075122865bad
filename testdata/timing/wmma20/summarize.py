#!/usr/bin/env python3
"""Reduces the Nsight Compute CSVs of run.sh to one row a launch: the
median duration of the three cold runs (ns), the warm run's, and the cold
runs' first sector counts. Usage: summarize.py DIR (run.sh's w20 folder)."""
import csv, statistics, sys, os

def read(path):
    rows = {}
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        key = (int(r["ID"]), r["Kernel Name"].split("(")[0])
        rows.setdefault(key, {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    return rows

d = sys.argv[1]
names = {"bk": [f"bk_{t}_k{k}" for t in ("bf16", "f16") for k in (16, 32, 64, 96, 192, 384)], "wmma_bf16": ["wmma_bf16"]}
print("launch\tns\truns\twarm_ns\tdram_sectors\tl2_sectors\tl2_hits\tl1_sectors\tl1_hits\tlong_sb\tinsts")
for prog in ("wmma_bf16", "bk"):
    runs = [read(os.path.join(d, f"{prog}.ncu{i}.csv")) for i in (1, 2, 3)]
    warm = read(os.path.join(d, "bk.warm.csv")) if prog == "bk" else None
    for i, key in enumerate(sorted(runs[0])):
        ns = [r[key]["gpu__time_duration.sum"] for r in runs]
        m = runs[0][key]
        w = warm[key]["gpu__time_duration.sum"] if warm else float("nan")
        print("\t".join([names[prog][i], "%.0f" % statistics.median(ns), ",".join("%.0f" % x for x in ns), "%.0f" % w,
              "%.0f" % m["dram__sectors_read.sum"], "%.0f" % m["lts__t_sectors_srcunit_tex_op_read.sum"],
              "%.0f" % m["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"], "%.0f" % m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
              "%.0f" % m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"],
              "%.2f" % m["smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"], "%.0f" % m["smsp__inst_executed.sum"]]))
