#!/usr/bin/env python3
"""spread.py [DIR]: how an iteration's cycles spread in the per-iteration stamps of sbocc.cu (DIR/stamps_ncu.tar.gz,
DIR defaults to h100; ncu's last replay at the base clock). An iteration of warp w of block b at j loads the
128-byte line at byte (b*256*L + (w%8)*32 + j*256)*4 of `a` and stores it; its cycles are the difference of the
warp's stamps j-1 and j (j >= 1). The eight warps of a block at one j read eight adjacent lines of one 1 KiB run
(one 4 KiB page, one L2 partition) at about the same time from one SM: their iterations' spread about their
group's mean is each request's own (within sd, corrected for the group's mean taken out: x sqrt(n/(n-1))); the
group means' spread is the page's partition, the SM and the moment. The same lines are read by i_b256_l16,
i_b256_l64 and i_b256_l16_g132 (blocks 0-131 of i_b256_l16 are g132's blocks, and l64's blocks cover the same
bytes): the correlation of a line's own part between two recordings says whether it is the line's (a bank, a row,
a channel that is slow for that address: correlated) or the request's (not). Standard library only."""
import csv, io, statistics as st, sys, tarfile, collections

d = sys.argv[1] if len(sys.argv) > 1 else 'h100'
tf = tarfile.open(d + '/stamps_ncu.tar.gz')
members = {m.name.rsplit('/', 1)[-1][:-4]: m for m in tf.getmembers() if m.name.endswith('.csv')}
WPB = 8  # warps a block (256 threads)


def own_parts(name, L):
    rows = [list(map(int, r)) for r in csv.reader(io.TextIOWrapper(tf.extractfile(members[name]))) if r[0] != 'warp']
    groups = collections.defaultdict(list)
    for r in rows:
        t = r[6:]
        for j in range(1, L):
            groups[(r[0] // WPB, j)].append(t[j] - t[j - 1])
    mean = {k: st.mean(v) for k, v in groups.items()}
    own = {}
    for r in rows:
        b, lw, t = r[0] // WPB, r[0] % WPB, r[6:]
        for j in range(1, L):
            own[(b * 256 * L + lw * 32 + j * 256) * 4] = t[j] - t[j - 1] - mean[(b, j)]
    every = [x for v in groups.values() for x in v]
    return own, st.mean(every), st.pstdev(every), st.pstdev(mean.values())


def corr(x, y):
    mx, my = st.mean(x), st.mean(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    return sxy / (sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y)) ** .5


runs = {}
print('| config | iterations | mean | sd | group means sd | own sd (within, corrected) |')
print('|---|---:|---:|---:|---:|---:|')
for name, L in (('i_b256_l16_g132', 16), ('i_b256_l64', 64), ('i_b256_l16', 16)):
    own, m, sd, gsd = own_parts(name, L)
    runs[name] = own
    print('| %s | %d | %.0f | %.0f | %.0f | %.0f |' % (name, len(own), m, sd, gsd,
          st.pstdev(own.values()) * (WPB / (WPB - 1)) ** .5))
print()
print('| lines read by both | own parts correlated |')
print('|---|---:|')
names = list(runs)
for i in range(len(names)):
    for k in names[i + 1:]:
        both = [a for a in runs[names[i]] if a in runs[k]]
        print('| %s and %s (%d) | %.3f |' % (names[i], k, len(both),
              corr([runs[names[i]][a] for a in both], [runs[k][a] for a in both])))
