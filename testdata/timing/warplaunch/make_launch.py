#!/usr/bin/env python3
"""make_launch.py: writes launch/<name>.json for every configuration of h200/events.txt (what warplaunch.cu's
main ran: kernel, grid, block, dynamic shared memory, arguments) over warplaunch.ptx, the h200 preset.
warplaunch.ptx is clang-22's PTX of warplaunch.cu (`warpsim cc -v` prints the command: clang-22 -x cuda
--cuda-device-only -S -O3 --cuda-gpu-arch=sm_90 with warpsim's CUDA headers, without its line tables); the
H200 ran nvcc 13's code of the same source."""
import json, os

os.makedirs('launch', exist_ok=True)
for line in open('h200/events.txt'):
    if not line.startswith('cfg '):
        continue
    c = dict(kv.split('=', 1) for kv in line.split()[1:])
    grid, block, smem = int(c['grid']), int(c['block']), int(c['smem'])
    args = [{'buffer': 'stamps'}]
    if c['kernel'] == 'k_spin':
        args.append({'s64': int(c['args'])})
    l = {'kernel': c['kernel'], 'grid': [grid], 'block': [block], 'args': args}
    if smem:
        l['shared_bytes'] = smem
    with open('launch/%s.json' % c['name'], 'w') as f:
        json.dump({'module': '../warplaunch.ptx', 'arch': 'h200', 'buffers': {'stamps': {'bytes': grid * block}},
                   'launches': [l]}, f, indent=1)
        f.write('\n')
