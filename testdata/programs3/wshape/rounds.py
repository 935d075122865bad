#!/usr/bin/env python3
"""Reads h200/wshape.sass.gz and prints, for each s8 kernel, the main loop
body's IMMA and LDG counts and how many times a load follows a consumer
(PRMT or IMMA) of earlier loads: with in-order issue, each such load goes
out at least one memory round trip after the loads before it."""
import gzip, re, sys, os

here = os.path.dirname(os.path.abspath(__file__))
sass = gzip.open(os.path.join(here, 'h200', 'wshape.sass.gz'), 'rt').read()
for func in re.split(r'\n\s*Function : ', sass)[1:]:
    name = func.split('\n')[0].strip()
    m = re.search(r'k(\d+x\d+x\d+)_(s8|u8)_(\w\w)', name)
    if not m or m.group(2) != 's8':
        continue
    ops = []
    for ins in re.findall(r'/\*[0-9a-f]{4}\*/\s+([^;]*);', func):
        t = ins.split()
        ops.append(t[1] if t[0].startswith('@') else t[0])
    segments, cur = [], []
    for op in ops:
        if op.startswith('BRA'):
            segments.append(cur)
            cur = []
        else:
            cur.append(op)
    segments.append(cur)
    body = max(segments, key=lambda s: sum(o.startswith('IMMA') for o in s))
    rounds, loaded, consumed = 1, False, False
    for o in body:
        if o.startswith('LDG'):
            if consumed:
                rounds, consumed = rounds + 1, False
            loaded = True
        elif loaded and (o.startswith('PRMT') or o.startswith('IMMA')):
            consumed = True
    print('%-9s %s IMMA %2d  LDG %2d  LDG.E.U8 %2d  load rounds %2d' % (
        m.group(1), m.group(3), sum(o.startswith('IMMA') for o in body),
        sum(o.startswith('LDG') for o in body),
        sum(o.startswith('LDG.E.U8') for o in body), rounds))
