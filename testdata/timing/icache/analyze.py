#!/usr/bin/env python3
"""Prints the tables of README.md from the recordings in h100/ (no model involved)."""
import csv, gzip, os

H = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'h100')


def prog(path):
    rows = []
    for l in open(path):
        f = l.split()
        if f and f[0] in ('icache', 'constlat'):
            rows.append((f[0], dict(x.split('=') for x in f[1:])))
    return rows


def ncu(path):
    rows = list(csv.reader(gzip.open(path, 'rt')))
    i = [k for k, r in enumerate(rows) if r and r[0] == 'ID'][0]
    return [dict(zip(rows[i], r)) for r in rows[i + 2:]]


def table(sub):
    d = os.path.join(H, sub)
    out = {}
    for mode in ('all', 'none'):
        p, n = prog(os.path.join(d, f'ncu_{mode}.out')), ncu(os.path.join(d, f'ncu_{mode}.csv.gz'))
        for (kind, kv), r in zip(p, n):
            if kind != 'icache' or kv['launch'] != '0':
                continue
            key = (int(kv['n']), int(kv['blocks']), int(kv['warps']), int(kv['reps']))
            out.setdefault(key, {})[mode] = (int(kv['pass0']), int(kv['pass1']), float(r['gpu__time_duration.sum'].replace(',', '')))
    return out


t = table('.')
t.update(table('jump'))
sass = {}
for f in ('sass_counts.txt', 'jump/sass_counts.txt'):
    for l in open(os.path.join(H, f)):
        k, n, b = l.split()
        sass[k] = int(b)
print('one block of one warp; cycles of warp 0 (%clock64), ncu durations in ns (--cache-control all / none)')
print(f'{"kernel":12} {"SASS B":>7} {"cold pass":>9} {"warm pass":>9} {"none pass":>9} {"ns all":>7} {"ns none":>7} {"all-pass ns":>11}')
for n in sorted({k[0] for k in t}, key=lambda x: (x < 0, abs(x))):
    name = f'icache_{n}' if n > 0 else f'jump_{-n}'
    one, four = t.get((n, 1, 1, 1)), t.get((n, 1, 1, 4))
    if not one or not four:
        continue
    c0, _, nsa = one['all']
    w = four['all'][1]
    z0, _, nsn = one['none']
    print(f'{name:12} {sass[name]:7} {c0:9} {w:9} {z0:9} {nsa:7.0f} {nsn:7.0f} {nsa - c0 / 1.589:11.0f}')
xs = [128, 512, 1024, 2048]
ys = [t[(n, 1, 1, 1)]['all'][0] for n in xs]
mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
print(f'cold first pass, N = 128..2048: {my - b * mx:.0f} + {b:.3f} cycles an instruction ({8 * b:.1f} a 128-byte line)')
for d in (1024, 4096):
    c, w = t[(-d, 1, 1, 4)]['all'][0], t[(-d, 1, 1, 4)]['all'][1]
    print(f'jump_{d}: {c / 32:.0f} cycles a segment cold, {w / 32:.0f} warm')
for kind, kv in prog(os.path.join(H, 'ncu_all.out')) + prog(os.path.join(H, 'ncu_none.out')):
    if kind == 'constlat' and kv['launch'] == '0':
        print(f'constlat: 16 dependent constant loads on new lines {kv["cold16"]} cycles, again {kv["warm16"]}')
