#!/usr/bin/env python3
"""make_launch.py: writes launch/<name>.json for every configuration of h100/events.txt (what shortocc.cu's main
ran: kernel, grid, block, arguments) over h100/shortocc_nvcc.ptx, the PTX of the code the H100 ran (nvcc 13 -O3
-arch=sm_90 -ptx, run.sh; its SASS in h100/sass.txt.gz). Arguments: a buffer name (stamps: 40 bytes a warp;
iters: 8 bytes a warp and iteration; a, b, c: the program's 32 MiB buffers) or type:value."""
import json, os, sys

NMAX = 1 << 23  # floats a buffer (shortocc.cu's NMAX)
src = sys.argv[1] if len(sys.argv) > 1 else 'h100/events.txt'
os.makedirs('launch', exist_ok=True)
for line in open(src):
    if not line.startswith('cfg '):
        continue
    c = dict(kv.split('=', 1) for kv in line.split()[1:])
    grid, block = int(c['grid']), int(c['block'])
    warps = grid * block // 32
    spec = c['args'].split(',')
    L = next((int(s[4:]) for s in spec if s.startswith('u32:')), 0)
    if c['kernel'] in ('k_cpw', 'k_cpi'):
        L = int(spec[-1][4:])
    bufs, args = {}, []
    for s in spec:
        if ':' in s:
            t, v = s.split(':', 1)
            args.append({t: float(v) if t.startswith('f') else int(v)})
            continue
        size = {'stamps': warps * 40, 'iters': warps * L * 8}.get(s, NMAX * 4)
        bufs[s] = {'bytes': size}
        args.append({'buffer': s})
    l = {'kernel': c['kernel'], 'grid': [grid], 'block': [block], 'args': args}
    with open('launch/%s.json' % c['name'], 'w') as f:
        json.dump({'module': '../h100/shortocc_nvcc.ptx', 'arch': 'h100', 'buffers': bufs, 'launches': [l]}, f, indent=1)
        f.write('\n')
