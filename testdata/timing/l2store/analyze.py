#!/usr/bin/env python3
"""analyze.py: prints h200/ncu.csv.gz and h200/ncu2.csv.gz a row a configuration (Nsight Compute at base clock,
L2 flushed): duration, the SMs' L2 write sectors and requests, the write sectors that crossed to the far partition
(lts__t_sectors_srcunit_ltcfabric_op_write), the sectors the L2 filled from DRAM, DRAM bytes read and written."""
import csv, gzip

def load(f):
    rows = list(csv.reader(l for l in gzip.open(f, 'rt') if l.startswith('"')))
    c = {k: i for i, k in enumerate(rows[0])}
    v = {}
    for r in rows[1:]:
        try:
            v.setdefault(int(r[c['ID']]), {})[r[c['Metric Name']]] = float(r[c['Metric Value']].replace(',', ''))
        except ValueError:
            pass
    return v

a, b = load('h200/ncu.csv.gz'), load('h200/ncu2.csv.gz')
names = [l.split()[1].split('=')[1] for l in open('h200/events.txt') if l.startswith('cfg ')]
print('| row | ns | GHz | L2 write sectors | requests | crossed | filled | DRAM read MB | DRAM written MB |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
for k in sorted(a):
    d, e = a[k], b.get(k, {})
    print('| %s | %.0f | %.3f | %.0f | %.0f | %.0f | %.0f | %.1f | %.1f |' % (
        names[k], d['gpu__time_duration.sum'], d['gpc__cycles_elapsed.avg.per_second'] / 1e9,
        e.get('lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum', 0) + e.get('lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum', 0),
        d['lts__t_requests_srcunit_tex_op_write.sum'] + d['lts__t_requests_srcunit_tex_op_read.sum'],
        e.get('lts__t_sectors_srcunit_ltcfabric_op_write.sum', 0), e.get('lts__d_sectors_fill_device.sum', 0),
        d['dram__bytes_read.sum'] / 1e6, d['dram__bytes_write.sum'] / 1e6))
