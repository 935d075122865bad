#!/usr/bin/env python3
"""make_launch.py: writes launch/<name>.json for every configuration of h200/events.txt (what l2store.cu's main ran:
kernel, grid, block, arguments) over h200/l2store_nvcc.ptx (nvcc 13 -O3 -arch=sm_90 -ptx, run.sh). Arguments: a
buffer name (a, b: the configuration's footprint, kib KiB, as much as its grid touches of l2store.cu's 80 MiB
buffers; o: 8 MiB) or type:value."""
import json, os, sys

src = sys.argv[1] if len(sys.argv) > 1 else 'h200/events.txt'
os.makedirs('launch', exist_ok=True)
for line in open(src):
    if not line.startswith('cfg '):
        continue
    c = dict(kv.split('=', 1) for kv in line.split()[1:])
    bufs, args = {}, []
    for s in c['args'].split(','):
        if ':' in s:
            t, v = s.split(':', 1)
            t = {'i32': 's32'}.get(t, t)  # l2store.cu prints int parameters as i32
            args.append({t: float(v) if t.startswith('f') else int(v)})
            continue
        bufs[s] = {'bytes': (8 << 20) if s == 'o' else int(c['kib']) << 10}
        args.append({'buffer': s})
    l = {'kernel': c['kernel'], 'grid': [int(c['grid'])], 'block': [int(c['block'])],
         'shared_bytes': int(c['smem']), 'args': args}
    with open('launch/%s.json' % c['name'], 'w') as f:
        json.dump({'module': '../h200/l2store_nvcc.ptx', 'arch': 'h200', 'buffers': bufs, 'launches': [l]}, f, indent=1)
        f.write('\n')
