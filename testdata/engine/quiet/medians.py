#!/usr/bin/env python3
"""medians.py DIR: medians of warp-inst/cpu-s (millions) per benchmark in
DIR/base.txt and DIR/new.txt (run.sh's five rounds), each against the bare
loop of the same binary, and the placement demo's (bare.txt) rates."""
import collections, re, statistics, sys, os
d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
def rates(path, metric):
    r = collections.defaultdict(list)
    for line in open(path):
        if not line.startswith('Benchmark'):
            continue
        name = line.split()[0]
        m = re.search(r'([\d.]+) ' + re.escape(metric), line)
        if m:
            r[name].append(float(m.group(1)) / (1e6 if metric == 'warp-inst/cpu-s' else 1))
    return r
b, n = rates(f'{d}/base.txt', 'warp-inst/cpu-s'), rates(f'{d}/new.txt', 'warp-inst/cpu-s')
bare_b, bare_n = statistics.median(b['BenchmarkBareLaneLoop']), statistics.median(n['BenchmarkBareLaneLoop'])
print('| benchmark | main (M/cpu-s) | this branch | speed-up | of the bare loop: main → this branch |')
print('|---|---:|---:|---:|---:|')
for k in sorted(b):
    mb, mn = statistics.median(b[k]), statistics.median(n[k])
    print(f'| `{k[9:]}` | {mb:.1f} | {mn:.1f} | {mn/mb-1:+.0%} | {mb/bare_b:.0%} → {mn/bare_n:.0%} |')
print()
for k, v in sorted(rates(f'{d}/bare.txt', 'M/cpu-s').items()):
    print(k, ' '.join(f'{x:.1f}' for x in v))
m = rates(f'{d}/main.txt', 'warp-inst/cpu-s')
print('main.test one-lane BareLaneLoop:', ' '.join(f'{x:.1f}' for x in m['BenchmarkBareLaneLoop']))
