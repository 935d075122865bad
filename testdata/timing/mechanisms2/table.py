#!/usr/bin/env python3
"""table.py DIR: the l1wave table from DIR/ncu.csv (run.sh's Nsight Compute run): per kernel the
requests, sectors and data-stage wavefronts per request, and the SM cycles per request (each of the
132 SMs runs one block of 1024 threads)."""
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1] + '/ncu.csv') if l.startswith('"')))
c = {k: i for i, k in enumerate(rows[0])}
v = {}
for r in rows[1:]:
    v.setdefault((int(r[c['ID']]), r[c['Kernel Name']]), {})[r[c['Metric Name']]] = float(r[c['Metric Value']].replace(',', ''))
print('| kernel | sectors/request | wavefronts/request | SM cycles/request |')
print('|---|---:|---:|---:|')
for (i, k), d in sorted(v.items()):
    req = d['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum']
    print('| %s | %.1f | %.2f | %.2f |' % (k.split('(')[0].replace('void ', ''), d['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'] / req,
          d['l1tex__data_pipe_lsu_wavefronts.sum'] / req, d['sm__cycles_elapsed.avg'] / (req / 132)))
