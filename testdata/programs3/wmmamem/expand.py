#!/usr/bin/env python3
# Prints, for each mb3.cu kernel kind, the SASS memory instructions (and
# MOVMs) between its two clock reads: the expansion of one wmma.load (D
# kernels: one a loop iteration) or of the store loop's body (st_ kinds,
# D: one store, I: four). Reads h100/mb3.P.sass.gz (cuobjdump -sass).
import collections, gzip, re

rows = []
for p in range(4):
    txt = gzip.open(f'h100/mb3.{p}.sass.gz', 'rt').read()
    for fn in re.split(r'\n\s*Function : ', txt)[1:]:
        name = fn.split('\n', 1)[0].strip()
        m = re.match(r'_Z\d+(\w+?)ILi(\d)ELi(\d+)ELi(\d)EE', name)
        if not m:
            continue
        k, sh, cl, dep = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        ins = re.findall(r'/\*[0-9a-f]{4}\*/\s+([^;]*);', fn)
        clk = [i for i, s in enumerate(ins) if 'SR_CLOCKLO' in s]
        c = collections.Counter()
        for s in ins[clk[0] + 1:clk[-1]]:
            s = re.sub(r'^@!?U?P\w+\s+', '', s.strip())
            op = s.split()[0]
            if re.match(r'(LDG|LDS|LD|STG|STS|ST|LDSM|STSM|MOVM)(\.|$)', op):
                c[re.sub(r'\.E(?=\.|$)', '', op)] += 1
        var = ('S' if sh else 'G') + ('C' if cl else '')
        rows.append((k, var, 'D' if dep else 'I', c))
for k, var, d, c in sorted(rows):
    if d == 'D' or k.startswith('st_'):
        print(f'{k:24s} {var:2s} {d} ' + ' '.join(f'{o}x{n}' for o, n in sorted(c.items())))
