#!/usr/bin/env python3
"""summarize.py: h200/firstlaunch.tar.gz (run.sh's output) -> h200/summary.tsv.

One row per launch of every run: the sequence, blocks, run, launch, kernel, Nsight Compute's
gpu__time_duration (ns) and SM clock (MHz), and for k_read the first read's cycles under ncu and in
the plain run (the `second` stamp: clock64 before the first load and after the second load's address,
which needs the first load's value, is read; first.cu's header)."""
import csv, io, re, sys, tarfile

tar = tarfile.open(sys.argv[1] if len(sys.argv) > 1 else 'h200/firstlaunch.tar.gz')
files = {m.name.lstrip('./'): m for m in tar.getmembers() if m.isfile()}
read = lambda n: tar.extractfile(files[n]).read().decode()
out = open(sys.argv[2] if len(sys.argv) > 2 else 'h200/summary.tsv', 'w')
out.write('# seq\tblocks\trun\tlaunch\tkernel\tncu_ns\tclock_mhz\tfirst_read_ncu\tfirst_read_plain\n')
keys = sorted(n for n in files if n.endswith('.ncu.csv'))
order = ['read3', 'empty3', 'eread', 'other', 'twoback', 'fresh', 'stream3', 'estream']
keys.sort(key=lambda n: (int(n.split('.')[1][1:]), order.index(n.split('.')[0]), n))
for n in keys:
    seq, b, r = re.match(r'(\w+)\.b(\d+)\.(\d)\.ncu\.csv', n).groups()
    rows = list(csv.reader(io.StringIO(''.join(l for l in read(n).splitlines(True) if l.startswith('"')))))
    h = rows[0]
    it, ic, ik = h.index('gpu__time_duration.sum'), h.index('sm__cycles_elapsed.avg.per_second'), h.index('Kernel Name')
    stamps = {int(a): int(s) for a, s in re.findall(r'launch (\d+) k_read\(\w\) first \d+ second (\d+)', read(n.replace('.ncu.csv', '.ncu.txt')))}
    plain = {int(a): int(s) for a, s in re.findall(r'launch (\d+) k_read\(\w\) first \d+ second (\d+)', read(n.replace('.ncu.csv', '.plain.txt')))}
    for i, x in enumerate(rows[2:]):
        kernel = x[ik].split('(')[0]
        out.write(f"{seq}\t{b}\t{r}\t{i}\t{kernel}\t{float(x[it].replace(',', '')):.0f}\t{float(x[ic].replace(',', '')) / 1e6:.0f}\t{stamps.get(i, '')}\t{plain.get(i, '')}\n")
