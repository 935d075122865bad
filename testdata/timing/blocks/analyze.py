#!/usr/bin/env python3
"""analyze.py DIR: summarises blocks.cu's recordings (DIR/ncu.csv, DIR/stamps.tar.gz) per configuration:
ncu's achieved occupancy, SM-active cycles, drain and membar stalls per warp, and from every block's stamps
(the ncu run's, at the locked base clock) its lifetime, the replacement gap on its SM (a block's first
clock64 less the end of the block whose place it took: per SM, the k-th block after the first wave
replaces the k-th earliest end) and the first wave's spread (%globaltimer at entry). Standard library only."""
import csv, io, statistics as st, sys, tarfile

d = sys.argv[1] if len(sys.argv) > 1 else 'h100'
RUN = sys.argv[2] if len(sys.argv) > 2 else 'ncu'  # ncu: base clock; ev: the events run, boost clock
rows = list(csv.reader(l for l in open(d + '/ncu.csv') if l.startswith('"')))
h = rows[0]; c = {k: i for i, k in enumerate(h)}
ncu = {}
for r in rows[1:]:
    ncu.setdefault(int(r[c['ID']]), {})[r[c['Metric Name']]] = float(r[c['Metric Value']].replace(',', ''))
cfgs = [dict(kv.split('=', 1) for kv in l.split()[1:]) for l in open(d + '/events.txt') if l.startswith('cfg ')]
tf = tarfile.open(d + '/stamps.tar.gz')

def stamps(name):
    f = tf.extractfile('stamps/%s/%s.csv' % (RUN, name))
    return [{k: int(v) for k, v in r.items()} for r in csv.DictReader(io.TextIOWrapper(f))]

def q(v, p):
    v = sorted(v); return v[min(len(v) - 1, int(p * len(v)))] if v else float('nan')

print('| config | grid | block | ncu ns | occupancy % | SM-active cycles | drain/warp | membar/warp | life p50 | gap p10 | gap p50 | gap p90 | first wave ns |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for i, cf in enumerate(cfgs):
    m = ncu[i]; name = cf['name']; grid = int(cf['grid']); block = int(cf['block'])
    S = stamps(name)
    per = {}
    for s in S: per.setdefault(s['sm'], []).append(s)
    life = [s['c1'] - s['c0'] for s in S]
    gaps, first = [], []
    # resident blocks per SM: the most blocks whose [c0, c1] overlap on one SM
    Rm = 0
    for v in per.values():
        ev = sorted([(s['c0'], 1) for s in v] + [(s['c1'], -1) for s in v], key=lambda e: (e[0], e[1]))
        n = 0
        for _, e in ev: n += e; Rm = max(Rm, n)
    for v in per.values():
        v.sort(key=lambda s: s['c0'])
        first += [s['g0'] for s in v[:Rm]]
        ends = sorted(s['c1'] for s in v)
        for k, s in enumerate(v[Rm:]):
            gaps.append(s['c0'] - ends[k])
    print('| %s | %d | %d | %.0f | %.2f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |' % (
        name, grid, block, m['gpu__time_duration.sum'], m['sm__warps_active.avg.pct_of_peak_sustained_active'],
        m['sm__cycles_active.avg'], m['smsp__average_warp_latency_issue_stalled_drain.ratio'],
        m['smsp__average_warp_latency_issue_stalled_membar.ratio'], q(life, .5), q(gaps, .1), q(gaps, .5), q(gaps, .9),
        max(first) - min(first)))
