#!/usr/bin/env python3
"""Pairs each profiled launch of h200/ncu.csv.gz with its `cfg` line (the program's stdout under ncu, h200/ncu.txt:
launches in order) and writes h200/rows.tsv: the cfg's fields, Nsight Compute's duration (ns), the slowest SM's
cycles, and the counters the README discusses."""
import csv, gzip, io, os, sys

H = os.path.join(os.path.dirname(os.path.abspath(__file__)), "h200")
COLS = [
    ("ns", "gpu__time_duration.sum"), ("cyc", "sm__cycles_elapsed.max"), ("inst", "smsp__inst_executed.sum"),
    ("fp64_inst", "smsp__inst_executed_pipe_fp64.sum"), ("fp64_active", "sm__pipe_fp64_cycles_active.sum"),
    ("fma_inst", "smsp__inst_executed_pipe_fma.sum"), ("alu_inst", "smsp__inst_executed_pipe_alu.sum"),
    ("lsu_inst", "smsp__inst_executed_pipe_lsu.sum"), ("dram_rd", "dram__bytes_read.sum"),
    ("l2_rd", "lts__t_sectors_srcunit_tex_op_read.sum"), ("l2_rd_hit", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"),
    ("ld_req", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), ("ld_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("ld_hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"), ("wavefronts", "l1tex__data_pipe_lsu_wavefronts.sum"),
] + [("st_" + s, "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % s) for s in (
    "long_scoreboard", "lg_throttle", "mio_throttle", "math_pipe_throttle", "wait", "short_scoreboard", "dispatch_stall",
    "branch_resolving", "not_selected", "selected", "no_instruction", "tex_throttle")]

text = gzip.open(os.path.join(H, "ncu.csv.gz"), "rt").read()
rd = list(csv.reader(io.StringIO("\n".join(l for l in text.splitlines() if not l.startswith("==")))))
head, data = rd[0], [r for r in rd[2:] if r]
cfgs = [l.split(" ", 1)[1].rsplit(" event_ms=", 1)[0] for l in open(os.path.join(H, "ncu.txt")) if l.startswith("cfg ")]
if len(cfgs) != len(data):
    sys.exit(f"{len(data)} kernels, {len(cfgs)} cfg lines")
out = ["\t".join(["cfg"] + [c for c, _ in COLS])]
for cfg, r in zip(cfgs, data):
    kern = cfg.split()[0][5:]
    if not r[head.index("Kernel Name")].startswith(kern):
        sys.exit(f"{r[head.index('Kernel Name')]} against {cfg}")
    out.append("\t".join([cfg] + [r[head.index(m)].replace(",", "") for _, m in COLS]))
open(os.path.join(H, "rows.tsv"), "w").write("\n".join(out) + "\n")
