#!/usr/bin/env python3
"""convert.py H100DIR: turns run.sh's recordings (events.txt: one `cfg name=...` line per configuration,
in launch order; ncu.csv: Nsight Compute's per-kernel metrics, one kernel per configuration in the same
order) into H100DIR/mech.csv, the table the Go test reads."""
import csv, sys

d = sys.argv[1]
cfgs = []
for line in open(f"{d}/events.txt"):
    if line.startswith("cfg "):
        kv = dict(f.split("=", 1) for f in line.split()[1:])
        cfgs.append(kv)
rows = list(csv.reader(l for l in open(f"{d}/ncu.csv") if l.startswith('"')))
h = rows[0]
c = {k: i for i, k in enumerate(h)}
ids = {}
for r in rows[1:]:
    ids.setdefault(int(r[c["ID"]]), {"kernel": r[c["Kernel Name"]]})[r[c["Metric Name"]]] = r[c["Metric Value"]].replace(",", "")
order = sorted(ids)
if len(order) != len(cfgs):
    sys.exit(f"{len(order)} profiled kernels for {len(cfgs)} configurations")
cols = ["gpu__time_duration.sum", "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__cycles_elapsed.avg.per_second",
        "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_op_write.sum", "lts__t_sectors_op_read.sum",
        "l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct", "smsp__inst_executed.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum"]
names = ["duration_ns", "achieved_occupancy_pct", "sm_clock_hz", "dram_read_bytes", "dram_write_bytes", "l2_write_sectors",
         "l2_read_sectors", "l1_hit_pct", "l2_hit_pct", "inst_executed", "l1_ld_sectors", "l1_ld_requests", "l1_ld_wavefronts"]
with open(f"{d}/mech.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["name", "kernel", "grid", "block", "event_ms"] + names)
    for cfg, i in zip(cfgs, order):
        m = ids[i]
        if not cfg["kernel"] == m["kernel"].split("(")[0]:
            sys.exit(f"{cfg['name']}: ncu kernel {m['kernel']}")
        w.writerow([cfg["name"], cfg["kernel"], cfg["grid"], cfg["block"], cfg["event_ms"]] + [m.get(k, "") for k in cols])
print(len(cfgs), "rows")
