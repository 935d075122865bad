#!/usr/bin/env python3
"""analyze.py [DIR]: summarises shortocc.cu's recording (DIR/events.txt, DIR/ncu.csv, DIR/stamps_ncu.tar.gz; DIR
defaults to h100). Standard library only. Prints
  1. every configuration's Nsight Compute figures (duration, achieved occupancy, SM-active cycles, DRAM bytes);
  2. the stamped copies' block lifetimes (p25 / p75 over the blocks: the shorter- and the longer-lived half) and
     warp ends (as a fraction of their SM's span);
  3. the L2 partition fit: m_w_b64_l16's blocks each copy one 4 KiB page; a block is slow or fast (lifetime over or
     under 13 250 cycles: two clusters, 11 500 and 15 000), and slow = parity(page & MASK) xor side(SM). The fit
     tries every MASK over the page number's 12 bits, each SM taking the side that agrees best, and prints the
     best masks, the share of blocks they explain and each SM's side;
  4. with that mask and those sides, the time of each load-store iteration of the m_i_ configurations (k_cpi's
     per-iteration stamps), for lines near and far from the SM: the unloaded difference and how it grows with load.
"""
import csv, io, statistics as st, sys, tarfile
from collections import defaultdict

D = sys.argv[1] if len(sys.argv) > 1 else 'h100'
names = [l.split()[1][5:] for l in open(D + '/events.txt') if l.startswith('cfg ')]
cfg = {l.split()[1][5:]: dict(kv.split('=', 1) for kv in l.split()[1:]) for l in open(D + '/events.txt') if l.startswith('cfg ')}
rows = list(csv.reader(l for l in open(D + '/ncu.csv') if l.startswith('"')))
c = {k: i for i, k in enumerate(rows[0])}
ncu = defaultdict(dict)
for r in rows[1:]:
    ncu[names[int(r[c['ID']])]][r[c['Metric Name']]] = float(r[c['Metric Value']].replace(',', ''))

def read_stamps(path):
    out = {}
    with tarfile.open(path) as tf:
        for m in tf.getmembers():
            if m.name.endswith('.csv'):
                n = m.name.rsplit('/', 1)[-1][:-4]
                out[n] = [[int(x) for x in r] for r in list(csv.reader(io.TextIOWrapper(tf.extractfile(m))))[1:]]
    return out


stamps = read_stamps(D + '/stamps_ncu.tar.gz')


def q(v, f):
    v = sorted(v)
    return v[min(len(v) - 1, int(f * len(v)))]


print('| config | grid | block | ncu ns | occupancy % | SM-active cycles | DRAM read MB | DRAM write MB |')
print('|---|---:|---:|---:|---:|---:|---:|---:|')
for n in names:
    m = ncu[n]
    print('| %s | %s | %s | %.0f | %.2f | %.0f | %.2f | %.2f |' % (n, cfg[n]['grid'], cfg[n]['block'], m['gpu__time_duration.sum'],
          m['sm__warps_active.avg.pct_of_peak_sustained_active'], m['sm__cycles_active.avg'], m['dram__bytes_read.sum'] / 1e6,
          m['dram__bytes_write.sum'] / 1e6))


def blocks_of(n):
    wpb = int(cfg[n]['block']) // 32
    b = {}
    for r in stamps[n]:
        w, sm, c0, c1 = r[0], r[1], r[2], r[3]
        x = b.setdefault(w // wpb, [sm, c0, c1])
        x[1], x[2] = min(x[1], c0), max(x[2], c1)
    return b


print('\n| config | block life p25 | p75 | warp end p10 (of SM span) | p50 | p90 |')
print('|---|---:|---:|---:|---:|---:|')
for n in names:
    if n not in stamps or not n.startswith(('m_w_', 'm_i_')):
        continue
    life = [x[2] - x[1] for x in blocks_of(n).values()]
    sm = defaultdict(list)
    for r in stamps[n]:
        sm[r[1]].append((r[2], r[3]))
    ends = []
    for ws in sm.values():
        span = max(e for s, e in ws) - min(s for s, e in ws)
        ends += [e / span for s, e in ws]
    print('| %s | %d | %d | %.2f | %.2f | %.2f |' % (n, q(life, .25), q(life, .75), q(ends, .1), q(ends, .5), q(ends, .9)))

# 3. the partition fit
par = [bin(i).count('1') & 1 for i in range(1 << 12)]
blk = blocks_of('m_w_b64_l16')  # block b copies page b of the buffer
slow = {b: int(x[2] - x[1] > 13250) for b, x in blk.items()}
bysm = defaultdict(list)
for b, x in blk.items():
    bysm[x[0]].append(b)
fits = []
for mask in range(1, 1 << 12):
    ok = 0
    for sm, bs in bysm.items():
        a = sum(1 for b in bs if par[b & mask] == slow[b])
        ok += max(a, len(bs) - a)
    fits.append((ok / len(blk), mask))
fits.sort(reverse=True)
print('\nL2 partition fit on m_w_b64_l16 (page bits 0-11 = address bits 12-23):')
for acc, mask in fits[:3]:
    print('  mask %s (address bits %s): %.1f%% of the blocks' % (bin(mask), [i + 12 for i in range(12) if mask >> i & 1], 100 * acc))
MASK = fits[0][1]
# slow (far) = parity == side: an SM's side is 1 where its slow blocks are those of odd parity
side = {sm: int(sum(1 for b in bs if par[b & MASK] == slow[b]) * 2 > len(bs)) for sm, bs in bysm.items()}
print('  SM sides by %%smid: %s (%d and %d)' % (''.join(str(side[s]) for s in sorted(side)), list(side.values()).count(0), list(side.values()).count(1)))
mis = defaultdict(lambda: [0, 0])
for b in blk:
    mis[b >> 6][0] += 1
    mis[b >> 6][1] += int(par[b & MASK] == side[blk[b][0]]) != slow[b]
bad = [k for k, (n, m) in sorted(mis.items()) if m > n / 2]
print('  256 KiB ranges the mask gets wrong: %s' % (', '.join('pages %d-%d' % (64 * k, 64 * k + 63) for k in bad) or 'none'))

# 4. near and far iterations (Nsight Compute's run: caches flushed, DRAM misses; the events run: the L2 warm, hits)
for title, S in (('ncu', stamps), ('events (L2 warm)', read_stamps(D + '/stamps_ev.tar.gz'))):
    print('\n%s:\n| config | near: iterations | mean | p10 | p50 | p90 | far: mean | p10 | p50 | p90 | far - near (mean) |' % title)
    print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for n in names:
        if not n.startswith('m_i_') or n not in S:
            continue
        B, L = int(cfg[n]['block']), int(cfg[n]['args'].split('u32:')[-1])
        wpb = B // 32
        near, far = [], []
        for r in S[n]:
            w, sm, c0, t = r[0], r[1], r[2], r[6:]
            b, k = divmod(w, wpb)
            for j in range(1, L):
                page = (b * B * L + j * B + k * 32) * 4 >> 12
                (far if par[page & 0xfff & MASK] == side[sm] else near).append(t[j] - t[j - 1])
        print('| %s | %d | %.0f | %d | %d | %d | %.0f | %d | %d | %d | %.0f |' % (n, len(near), st.mean(near), q(near, .1), q(near, .5),
              q(near, .9), st.mean(far), q(far, .1), q(far, .5), q(far, .9), st.mean(far) - st.mean(near)))

# 5. blocks retiring together: on each SM, the second wave's blocks' starts, sorted, and how far apart they come
print('\n| config | blocks an SM | 2nd wave: start spacing on an SM (median over SMs, cycles) |')
print('|---|---:|---:|')
for n in names:
    if not n.startswith('m_s') or n.endswith('_x1'):
        continue
    per = defaultdict(list)
    for b, (sm, c0, c1) in blocks_of(n).items():
        per[sm].append(c0)
    R = min(32, 2048 // int(cfg[n]['block']))
    sp = []
    for v in per.values():
        v.sort()
        w2 = v[R:2 * R]
        if len(w2) > 1:
            sp.append((w2[-1] - w2[0]) / (len(w2) - 1))
    print('| %s | %d | %.1f |' % (n, R, st.median(sp)))
