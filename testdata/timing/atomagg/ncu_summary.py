#!/usr/bin/env python3
"""ncu_summary.py: one line per k_time kernel and grid from h100/ncu.csv (the second of each pair of launches):
duration, SASS global atomic/red instructions, L2 atomic/red requests, per loop iteration of the grid."""
import csv, collections
rows = [r for r in csv.reader(open("h100/ncu.csv")) if len(r) == 15 and r[0] != "ID"]
by = collections.OrderedDict()
for r in rows:
    by.setdefault(r[0], {"kernel": r[4].split("(")[0].replace("void ", ""), "grid": r[8]})[r[12]] = float(r[14].replace(",", ""))
seen = {}
for i, m in by.items():
    key = (m["kernel"], m["grid"])
    seen[key] = m  # keep the last (second) launch of each kind
print(f"{'kernel':16s} {'grid':12s} {'us':>8s} {'ATOM inst':>10s} {'RED inst':>9s} {'ATOMS inst':>10s} {'L2 atom req':>12s} {'L2 red req':>11s}")
for (k, g), m in seen.items():
    print(f"{k:16s} {g:12s} {m['gpu__time_duration.sum']/1000:8.1f} {m['smsp__sass_inst_executed_op_global_atom.sum']:10.0f} "
          f"{m['smsp__sass_inst_executed_op_global_red.sum']:9.0f} {m['smsp__sass_inst_executed_op_shared_atom.sum']:10.0f} "
          f"{m['lts__t_requests_srcunit_tex_op_atom.sum']:12.0f} {m['lts__t_requests_srcunit_tex_op_red.sum']:11.0f}")
