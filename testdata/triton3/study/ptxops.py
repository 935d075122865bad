#!/usr/bin/env python3
"""PTX instruction histograms against ptxas's SASS counts (issue 18, study half of testdata/triton3).

    ptxops.py            prints, per kernel, PTX instructions by category and SASS instructions

SASS counts: h100/sass_counts.txt here (study half, sm80.ptx through ptxas -arch=sm_90, run.sh) and
../../timing/icache/h100/triton_sass_counts.txt (the first Triton corpus)."""
import os, re, sys
from collections import Counter

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..")

INST = re.compile(r'^\s+(@!?%p\d+\s+)?([a-z][a-z0-9_.:]*)')

def cat(op):
    base = op.split('.')[0]
    if base == 'mov':
        return 'mov'
    if op.startswith('ld.param'):
        return 'ldparam'
    if base in ('div', 'rem', 'sqrt', 'rcp') and '.approx' not in op:
        return 'div:' + op
    return 'other'

def hist(path):
    c = Counter()
    in_fn = False
    for line in open(path):
        s = line.strip()
        if s.startswith('//') or s.startswith('.') or s.startswith('$') or not s or s in ('{', '}') or s.startswith('}'):
            continue
        m = INST.match(line)
        if m:
            c[cat(m.group(2))] += 1
            c['all'] += 1
    return c

def counts(path):
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 3:
            out[f[0]] = int(f[2])
    return out

def main():
    rows = []
    for corpus, f in (("triton", os.path.join(root, "timing/icache/h100/triton_sass_counts.txt")),
                      ("triton3", os.path.join(here, "h100/sass_counts.txt"))):
        for k, n in counts(f).items():
            case, arch = k.split('/')
            p = os.path.join(root, corpus, case, arch + ".ptx")
            if os.path.exists(p):
                rows.append((corpus + "/" + k, hist(p), n))
    for name, h, n in rows:
        divs = sum(v for k, v in h.items() if k.startswith('div:'))
        print("%-40s ptx %5d mov %5d ldparam %3d div %3d sass %5d ratio %.2f" % (name, h['all'], h['mov'], h['ldparam'], divs, n, n / h['all']))

if __name__ == "__main__":
    main()

def slots(op):
    """issueSlots (internal/timing/slots.go) of an expanded PTX op, from its name."""
    p = op.split('.')
    base = p[0]
    if base in ('div', 'rem'):
        if 'f64' in p: return 24
        if 'f32' in p:
            return 2 if 'approx' in p else 4 if 'full' in p else 10
        if any(t in p for t in ('u64', 's64', 'b64')): return 70
        return 19
    if base in ('sqrt', 'rcp'):
        if 'approx' in p: return 1
        return 20 if 'f64' in p else 8
    return 1

def predict(path, mov):
    n = 0.0
    for line in open(path):
        s = line.strip()
        if not s or s[0] in './$}{':
            continue
        m = INST.match(line)
        if not m: continue
        op = m.group(2)
        n += mov if op.startswith('mov.') else slots(op)
    return n
