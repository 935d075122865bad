#!/usr/bin/env python3
"""analyze.py: dramload's recording as a table (standard library only). For each configuration: the chase's
mean latency a step in cycles at ncu's base clock (the first interval, the first load's issue alone, left out),
its p50 and p90, the streamers' rate (their bytes over their span, events_ncu.txt), and the DRAM bytes read and
written a ns over the kernel (ncu.csv). Usage: analyze.py [h100 dir] (stamps from stamps_ncu.tar.gz)."""
import csv, io, re, statistics, sys, tarfile

d = sys.argv[1] if len(sys.argv) > 1 else 'h100'
ev = {}
for line in open(d + '/events_ncu.txt'):
    f = line.split()
    if f and '=' in line:
        ev[f[0]] = dict(kv.split('=') for kv in f[1:])
rows = list(csv.reader(l for l in open(d + '/ncu.csv') if l.startswith('"')))
c = {k: i for i, k in enumerate(rows[0])}
met = {}
for r in rows[1:]:
    met.setdefault(int(r[c['ID']]), {})[r[c['Metric Name']]] = float(r[c['Metric Value']].replace(',', ''))
names = list(ev)  # ncu's IDs follow the configurations' order
stamps = {}
with tarfile.open(d + '/stamps_ncu.tar.gz') as t:
    for m in t.getmembers():
        if m.name.endswith('.csv'):
            txt = t.extractfile(m).read().decode()
            v = [int(l.split(',')[1]) for l in txt.splitlines()[1:] if l and l[0] != '#']
            stamps[m.name.split('/')[-1][:-4]] = v[1:]
print('%-16s %7s %6s %6s %6s %7s %7s %7s %6s' % ('config', 'mean', 'sd', 'p50', 'p90', 'stream', 'dramRd', 'dramWr', 'GHz'))
for i, n in enumerate(names):
    v, m = stamps[n], met[i]
    t = m['gpu__time_duration.sum']
    print('%-16s %7.1f %6.1f %6d %6d %7s %7.0f %7.0f %6.3f' % (
        n, statistics.mean(v), statistics.pstdev(v), sorted(v)[len(v) // 2], sorted(v)[len(v) * 9 // 10],
        ev[n]['stream_gbs'], m['dram__bytes_read.sum'] / t, m['dram__bytes_write.sum'] / t,
        m['sm__cycles_elapsed.avg.per_second'] / 1e9))
