#!/usr/bin/env python3
"""analyze.py [DIR]: summarises sbocc.cu's recordings (DIR/events.txt, DIR/ncu.csv, DIR/stamps_ncu.tar.gz;
DIR defaults to h100) per configuration: ncu's duration, achieved occupancy and SM-active cycles, and from
the warps' stamps (ncu's last replay, at the locked base clock) the warps' lifetimes, the median spread
between the first and the last warp of a block to exit, the share of a block's residence its warps are
active, and for the per-iteration configurations (i_*) one load-store iteration's mean and standard
deviation (cycles between a warp's consecutive stamps, the first iteration left out). Standard library only."""
import csv, io, statistics as st, sys, tarfile

d = sys.argv[1] if len(sys.argv) > 1 else 'h100'
rows = list(csv.reader(l for l in open(d + '/ncu.csv') if l.startswith('"')))
h = rows[0]; c = {k: i for i, k in enumerate(h)}
ncu = {}
for r in rows[1:]:
    ncu.setdefault(int(r[c['ID']]), {})[r[c['Metric Name']]] = float(r[c['Metric Value']].replace(',', ''))
cfgs = [dict(kv.split('=', 1) for kv in l.split()[1:]) for l in open(d + '/events.txt') if l.startswith('cfg ')]
tf = tarfile.open(d + '/stamps_ncu.tar.gz')
names = {m.name.rsplit('/', 1)[-1][:-4]: m for m in tf.getmembers() if m.name.endswith('.csv')}

def q(v, p):
    v = sorted(v); return v[min(len(v) - 1, int(p * len(v)))] if v else float('nan')

print('| config | grid | block | ncu ns | occupancy % | SM-active cycles | warp life p10 | p50 | p90 | block end spread p50 | active share | iteration mean | sd |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for i, cf in enumerate(cfgs):
    m = ncu[i]; name = cf['name']; wpb = int(cf['block']) // 32
    cells = ['', '', '', '', '', '', '']
    if name in names:
        R = [list(map(int, r)) for r in csv.reader(io.TextIOWrapper(tf.extractfile(names[name]))) if r[0] != 'warp']
        life = [r[3] - r[2] for r in R]
        blk = {}
        for r in R: blk.setdefault(r[0] // wpb, []).append(r)
        spread = [max(x[3] for x in b) - min(x[3] for x in b) for b in blk.values()]
        share = st.mean(sum(x[3] - x[2] for x in b) / (len(b) * max(1, max(x[3] for x in b) - min(x[2] for x in b))) for b in blk.values())
        cells[:5] = ['%d' % q(life, .1), '%d' % q(life, .5), '%d' % q(life, .9), '%d' % q(spread, .5), '%.3f' % share]
        if len(R[0]) > 6:
            it = [t[j + 1] - t[j] for t in (r[6:] for r in R) for j in range(len(t) - 1)]
            cells[5:] = ['%.0f' % st.mean(it), '%.0f' % st.pstdev(it)]
    print('| %s | %s | %s | %.0f | %.2f | %.0f | %s |' % (name, cf['grid'], cf['block'], m['gpu__time_duration.sum'],
          m['sm__warps_active.avg.pct_of_peak_sustained_active'], m['sm__cycles_active.avg'], ' | '.join(cells)))
