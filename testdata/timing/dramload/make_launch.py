#!/usr/bin/env python3
"""make_launch.py: writes launch/<name>.json for every configuration of h100/events_ncu.txt (what dramload.cu's main
ran under Nsight Compute: grid, block, shared memory, the chase's start and steps, the streamers' iterations and
mode) over h100/dramload_nvcc.ptx (nvcc 13 -O3 -arch=sm_90 -ptx, run.sh): init_chain builds the chase's table (the
random or the sequential one, as the mode says), then ld_probe runs; its stamps are the buffer S."""
import json, os

os.makedirs('launch', exist_ok=True)
for line in open('h100/events_ncu.txt'):
    f = line.split()
    if not f or '=' not in line:
        continue
    c = dict(kv.split('=', 1) for kv in f[1:])
    mode, steps, grid = int(c['mode']), int(c['steps']), int(c['grid'])
    seq = 1 if mode & 4 else 0
    bufs = {'chain': {'bytes': 64 << 20}, 'S': {'bytes': 8 * (steps + 1 + 2 * grid)},
            'a': {'bytes': 256 << 20}, 'b': {'bytes': 256 << 20}}
    init = {'kernel': 'init_chain', 'grid': [2048], 'block': [256], 'args': [{'buffer': 'chain'}, {'u32': seq}]}
    probe = {'kernel': 'ld_probe', 'grid': [grid], 'block': [int(c['block'])], 'shared_bytes': int(c['smem']),
             'args': [{'buffer': 'chain'}, {'u32': int(c['start'])}, {'u32': steps}, {'buffer': 'S'},
                      {'buffer': 'a'}, {'buffer': 'b'}, {'u32': (1 << 19) - 1}, {'u32': int(c['iters'])},
                      {'u32': mode}]}
    with open('launch/%s.json' % f[0], 'w') as o:
        json.dump({'module': '../h100/dramload_nvcc.ptx', 'arch': 'h100', 'buffers': bufs, 'launches': [init, probe]}, o,
                  indent=1)
        o.write('\n')
