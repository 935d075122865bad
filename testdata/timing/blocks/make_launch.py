#!/usr/bin/env python3
"""make_launch.py: writes launch/<name>.json for every configuration of h100/events.txt (what blocks.cu's
main ran: kernel, grid, block, dynamic shared memory, arguments) over blocks.ptx. blocks.ptx is clang-22's
PTX of blocks.cu (`warpsim cc -v` prints the command: clang-22 -x cuda --cuda-device-only -S -O3
--cuda-gpu-arch=sm_90 with warpsim's CUDA headers); the H100 ran nvcc 13's code of the same source."""
import json, os

kernels = {'k_spinst<0>': '_Z8k_spinstILb0EEvP5StampPjxjj', 'k_spinst<1>': '_Z8k_spinstILb1EEvP5StampPjxjj'}
os.makedirs('launch', exist_ok=True)
for line in open('h100/events.txt'):
    if not line.startswith('cfg '):
        continue
    c = dict(kv.split('=', 1) for kv in line.split()[1:])
    grid, block, smem = int(c['grid']), int(c['block']), int(c['smem'])
    kernel = kernels.get(c['kernel'], c['kernel'])
    a = [x for x in c['args'].split(',') if x != '-']
    bufs = {'stamps': {'bytes': grid * 48}}
    args = [{'buffer': 'stamps'}]
    if c['kernel'] == 'k_spin':
        args.append({'s64': int(a[0])})
    elif c['kernel'].startswith('k_spinst'):
        spin, n, s = map(int, a)
        bufs['p'] = {'bytes': grid * block * n * s * 4}
        args += [{'buffer': 'p'}, {'s64': spin}, {'u32': n}, {'u32': s}]
    elif c['kernel'] == 'k_st':
        n, s = map(int, a)
        bufs['p'] = {'bytes': n * s * 4}
        args += [{'buffer': 'p'}, {'u32': n}, {'u32': s}]
    elif c['kernel'] == 'k_copy':
        bufs['a'] = {'bytes': grid * block * 4}
        bufs['b'] = {'bytes': grid * block * 4}
        args += [{'buffer': 'a'}, {'buffer': 'b'}]
    l = {'kernel': kernel, 'grid': [grid], 'block': [block], 'args': args}
    if smem:
        l['shared_bytes'] = smem
    with open('launch/%s.json' % c['name'], 'w') as f:
        json.dump({'module': '../blocks.ptx', 'arch': 'h100', 'buffers': bufs, 'launches': [l]}, f, indent=1)
        f.write('\n')
