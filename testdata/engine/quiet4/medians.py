#!/usr/bin/env python3
"""medians.py DIR: for base.txt and new.txt in DIR (run.sh's rounds, or the
local alternations of local.sh), the median over the rounds of each
benchmark's warp-inst/cpu-s (millions) and of its ratio to the bare loop
of the same binary in the same round."""
import collections, re, statistics, sys, os
d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
def rounds(path):
    """Per benchmark, the list of rates and of ratios to the round's bare loop."""
    rate, ratio = collections.defaultdict(list), collections.defaultdict(list)
    cur = {}
    for line in open(path):
        if line.startswith('round') or line.startswith('goos'):
            cur = {}
        m = re.search(r'([\d.]+) warp-inst/cpu-s', line)
        if not (line.startswith('Benchmark') and m):
            continue
        name, v = line.split()[0], float(m.group(1)) / 1e6
        rate[name].append(v)
        cur[name] = v
        if name == 'BenchmarkBareLaneLoop':
            for k, x in cur.items():
                ratio[k].append(x / v)
    return rate, ratio
(rb, qb), (rn, qn) = rounds(f'{d}/base.txt'), rounds(f'{d}/new.txt')
med = statistics.median
print('| benchmark | main (M/cpu-s) | this branch | speed-up | of the bare loop: main → this branch | rounds |')
print('|---|---:|---:|---:|---:|---:|')
for k in sorted(rb, key=lambda k: (k != 'BenchmarkBareLaneLoop', k)):
    mb, mn = med(rb[k]), med(rn[k])
    print(f'| `{k[9:]}` | {mb:.1f} | {mn:.1f} | {mn/mb-1:+.0%} | {med(qb[k]):.0%} → {med(qn[k]):.0%} | {len(rb[k])}, {len(rn[k])} |')
