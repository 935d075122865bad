#!/usr/bin/env python3
"""printf_fit.py: the H100 preset's PrintfCost (internal/timing/presets.go, [PRINTF]) from SPLIT.md's study
rows alone: Nsight Compute's durations of launch 1 (h100/ncu_time.csv.gz with h100/ncu_time_markers.out.gz),
the no_instruction stall of single calls (h100/ncu_mem.csv.gz with h100/ncu_mem.out) and sysmem.cu's
host-memory atomic and system fence (h100/sysmem_ncu.out, under ncu: 1.589 GHz). Run from this directory."""
import csv, gzip, io, re, statistics

def ncu(path, markers):
    r = list(csv.reader(io.StringIO(gzip.open(path, 'rt').read())))
    h = next(i for i, x in enumerate(r) if 'ID' in x and 'Kernel Name' in x)
    return r[h], list(zip(markers, r[h + 2:]))

def marks(lines):
    return [dict(x.split('=') for x in l.split()) for l in lines if l.startswith('row=')]

num = lambda s: float(s.replace(',', ''))
hdr, rows = ncu('h100/ncu_time.csv.gz', marks(gzip.open('h100/ncu_time_markers.out.gz', 'rt')))
c = hdr.index('gpu__time_duration.sum')
T = {(m['row'], int(m['grid']), int(m['block']), int(m['nthr'])): num(d[c]) for m, d in rows if m['launch'] == '1' and m['reps'] == '1'}
base = T[('none', 1, 32, 32)]
fmt = {'i1': 3, 'a0': 3, 'i4': 12, 'i8': 24, 'd1': 3}
L1 = {k: T[(k, 1, 32, 1)] - base for k in list(fmt) + ['s1']}
L32 = {k: T[(k, 1, 32, 32)] - base for k in list(fmt) + ['s1']}
xs, ys = [fmt[k] for k in fmt], [L1[k] for k in fmt]
mx, my = statistics.mean(xs), statistics.mean(ys)
byte = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
call = my - byte * mx
lane = statistics.mean([(L32[k] - L1[k]) / 31 for k in fmt])
# s1: "%s\n"; lane 0's string "alpha" (5 bytes), the longest of 32 lanes "delta-epsilon" (13)
e1, e32 = L1['s1'] - (call + 3 * byte), L32['s1'] - (call + 3 * byte + 31 * lane)
sbyte = (e32 - e1) / 8
sfix = e1 - 5 * sbyte
w1 = T[('i1', 1, 32, 32)]
per = [(T[k] - w1) / (n - 1) for n, k in [(4, ('i1', 1, 128, 128)), (32, ('i1', 1, 1024, 1024)), (132, ('i1', 132, 32, 32))]]
s32 = statistics.mean(per)
sy = {m.group(1): float(m.group(2)) for m in re.finditer(r'mem=sysmem op=(\w+) launch=1 \S+ mean=(\d+)', open('h100/sysmem_ncu.out').read())}
handoff = (sy['atomicCAS'] + sy['store_fence_system']) / 1.589
h2, rows2 = ncu('h100/ncu_mem.csv.gz', marks(open('h100/ncu_mem.out')))
ni = h2.index('smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio')
ie = h2.index('smsp__inst_executed.sum')
cold = statistics.mean([num(d[ni]) * num(d[ie]) / 1.589 for m, d in rows2
                        if (m['grid'], m['block'], m['nthr']) == ('1', '32', '1') and m['row'] in list(fmt) + ['s1']])
print(f'single call, no format: {call:.0f} ns; format byte {byte:.1f}; lane {lane:.1f}; %s {sfix:.0f} + {sbyte:.0f} a byte')
print(f'cold code fetch {cold:.0f} ns -> CallNS {call - cold:.0f}')
print(f'each warp more: {", ".join(f"{p:.0f}" for p in per)} ns, mean {s32:.0f}; handoff {handoff:.0f}; lock lane {(s32 - handoff) / 32:.1f}')
