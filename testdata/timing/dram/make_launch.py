#!/usr/bin/env python3
"""make_launch.py: writes launch/<name>.json for every configuration of h100/events.txt (what dram.cu's main ran:
kernel, grid, block, arguments) over h100/dram_nvcc.ptx, the PTX of the code the H100 ran (nvcc 13 -O3 -arch=sm_90
-ptx, run.sh). Arguments: a buffer name (a, b: the configuration's footprint, mib MiB each, as much as its grid
touches of dram.cu's 256 MiB buffers; o: 4 MiB) or type:value."""
import json, os, sys

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
        bufs[s] = {'bytes': (4 << 20) if s == 'o' else int(c['mib']) << 20}
        args.append({'buffer': s})
    l = {'kernel': c['kernel'], 'grid': [int(c['grid'])], 'block': [int(c['block'])],
         'shared_bytes': int(c['smem']), 'args': args}
    with open('launch/%s.json' % c['name'], 'w') as f:
        json.dump({'module': '../h100/dram_nvcc.ptx', 'arch': 'h100', 'buffers': bufs, 'launches': [l]}, f, indent=1)
        f.write('\n')
