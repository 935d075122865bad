#!/usr/bin/env python3
"""analyze.py DIR: summarises warplaunch.cu's recordings (DIR/ncu.csv, DIR/events.txt, DIR/stamps.tar.gz)
per configuration: ncu's duration, achieved occupancy (over active and over elapsed cycles), SM-active
cycles, the warp-cycles ncu counts active per launched warp, and from every warp's stamps (the ncu run's,
at the locked base clock): the stamped warp lifetime (c1 - c0, mean), the spread of a block's warp starts
(the last warp's c0 less the first's: p50 and p90 over blocks) and the mean start of warp k after warp 0
per warp (the slope over k). Standard library only."""
import csv, io, statistics as st, sys, tarfile

d = sys.argv[1] if len(sys.argv) > 1 else 'h200'
rows = list(csv.reader(l for l in open(d + '/ncu.csv') if l.startswith('"')))
h = rows[0]; c = {k: i for i, k in enumerate(h)}
ncu = {}
for r in rows[1:]:
    try:
        ncu.setdefault(int(r[c['ID']]), {})[r[c['Metric Name']]] = float(r[c['Metric Value']].replace(',', ''))
    except ValueError:
        pass
cfgs = [dict(kv.split('=', 1) for kv in l.split()[1:]) for l in open(d + '/events.txt') if l.startswith('cfg ')]
tf = None
for ext in ('xz', 'gz'):  # run.sh writes .gz; the committed recording is xz
    try:
        tf = tarfile.open(d + '/stamps.tar.' + ext)
        break
    except OSError:
        pass

def stamps(name):
    f = tf.extractfile('stamps/ncu/%s.csv' % name)
    return [{k: int(v) for k, v in r.items()} for r in csv.DictReader(io.TextIOWrapper(f))]

def q(v, p):
    v = sorted(v); return v[min(len(v) - 1, int(p * len(v)))] if v else float('nan')

print('| config | grid | block | smem | ncu ns | occ active % | occ elapsed % | SM-active cycles | warp-cycles a warp | '
      'stamped life | start spread p50 | p90 | slope a warp |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for i, cf in enumerate(cfgs):
    m = ncu.get(i, {}); name = cf['name']; grid = int(cf['grid']); block = int(cf['block'])
    g = lambda k: m.get(k, float('nan'))
    per_warp = g('sm__warps_active.sum') / max(g('smsp__warps_launched.sum'), 1)
    life = spread50 = spread90 = slope = float('nan')
    if tf is not None:
        S = stamps(name)
        blocks = {}
        for s in S: blocks.setdefault(s['block'], []).append(s)
        life = st.mean(s['c1'] - s['c0'] for s in S)
        spreads = [max(s['c0'] for s in v) - min(s['c0'] for s in v) for v in blocks.values()]
        spread50, spread90 = q(spreads, .5), q(spreads, .9)
        wpb = block // 32
        if wpb > 1:
            rel = [0.0] * wpb
            for v in blocks.values():
                c00 = min(s['c0'] for s in v if s['warp'] == 0)
                for s in v: rel[s['warp']] += s['c0'] - c00
            rel = [x / len(blocks) for x in rel]
            slope = rel[-1] / (wpb - 1)
    print('| %s | %d | %d | %s | %.0f | %.2f | %.2f | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f |' % (
        name, grid, block, cf['smem'], g('gpu__time_duration.sum'), g('sm__warps_active.avg.pct_of_peak_sustained_active'),
        g('sm__warps_active.avg.pct_of_peak_sustained_elapsed'), g('sm__cycles_active.avg'), per_warp, life,
        spread50, spread90, slope))
