#!/usr/bin/env python3
"""make_launch.py: writes launch/<name>.json for every configuration of h100/events.txt and events2.txt (what sbocc.cu's
main ran: kernel, grid, block, arguments) over h100/sbocc_nvcc.ptx, the PTX of the code the H100 ran
(nvcc 13 -O3 -arch=sm_90 -ptx, run.sh; its SASS in h100/sass.txt.gz), as mechanisms/ does."""
import json, os

N = 1 << 22  # floats copied
os.makedirs('launch', exist_ok=True)
for line in [l for f in ('h100/events.txt', 'h100/events2.txt') for l in open(f)]:
    if not line.startswith('cfg '):
        continue
    c = dict(kv.split('=', 1) for kv in line.split()[1:])
    grid, block, L = int(c['grid']), int(c['block']), int(c['args'])
    warps = grid * block // 32
    bufs, args = {}, []
    if c['kernel'] != 'shortcopy':
        bufs['stamps'] = {'bytes': warps * 40}
        args.append({'buffer': 'stamps'})
    if c['kernel'] == 'k_cpi':
        bufs['iters'] = {'bytes': warps * L * 8}
        args.append({'buffer': 'iters'})
    bufs['a'] = {'bytes': N * 4}
    bufs['b'] = {'bytes': N * 4}
    args += [{'buffer': 'a'}, {'buffer': 'b'}, {'u32': L}]
    l = {'kernel': c['kernel'], 'grid': [grid], 'block': [block], 'args': args}
    with open('launch/%s.json' % c['name'], 'w') as f:
        json.dump({'module': '../h100/sbocc_nvcc.ptx', 'arch': 'h100', 'buffers': bufs, 'launches': [l]}, f, indent=1)
        f.write('\n')
