#!/usr/bin/env python3
"""make_launch.py: writes launch/<name>.json for every configuration of h100/events.txt (what mlp.cu's main ran:
kernel, grid, block, dynamic shared memory, arguments) over h100/mlp_nvcc.ptx, the PTX of the code the H100 ran
(nvcc 13 -O3 -arch=sm_90 -ptx, run.sh). Arguments: a buffer name (a, b, c: the program's 32 MiB buffers) or
type:value."""
import json, os, sys

NMAX = 1 << 23  # floats a buffer (mlp.cu's NMAX)
src = sys.argv[1] if len(sys.argv) > 1 else 'h100/events.txt'
os.makedirs('launch', exist_ok=True)
for line in open(src):
    if not line.startswith('cfg '):
        continue
    c = dict(kv.split('=', 1) for kv in line.split()[1:])
    bufs, args = {}, []
    for s in c['args'].split(','):
        if ':' in s:
            t, v = s.split(':', 1)
            args.append({t: float(v) if t.startswith('f') else int(v)})
            continue
        bufs[s] = {'bytes': NMAX * 4}
        args.append({'buffer': s})
    l = {'kernel': c['kernel'], 'grid': [int(c['grid'])], 'block': [int(c['block'])],
         'shared_bytes': int(c['smem']), 'args': args}
    with open('launch/%s.json' % c['name'], 'w') as f:
        json.dump({'module': '../h100/mlp_nvcc.ptx', 'arch': 'h100', 'buffers': bufs, 'launches': [l]}, f, indent=1)
        f.write('\n')
