#!/bin/bash
# The device run (H100) for testdata/timing/btx: btx_mb.cu (barrier_tx's and barrier_prog's k_barrier with
# %clock64 stamps). Stage btx_mb.cu and this script in /work/main/.dev/progtime/, then on the device machine
# `cd .dev/progtime && bash run.sh`. Writes into $OUT: btx_mb.h100.txt (the first run), btx_mb.repeats.txt (two more),
# btx_mb.nvcc.ptx (what the model runs), btx_mb.sass.txt, btx_mb.ncu.csv (Nsight Compute, each kernel once, twice),
# GPU.txt.
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
(nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o btx_mb btx_mb.cu && \
 nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/btx_mb.nvcc.ptx btx_mb.cu) > build.log 2>&1
echo "build rc=$?"; tail -30 build.log
cuobjdump -sass btx_mb > $OUT/btx_mb.sass.txt 2>&1
timeout 60 ./btx_mb > $OUT/btx_mb.h100.txt 2>&1; echo "run rc=$?"
cat $OUT/btx_mb.h100.txt
for i in 1 2; do timeout 60 ./btx_mb; done > $OUT/btx_mb.repeats.txt 2>&1
grep total $OUT/btx_mb.repeats.txt
M=gpu__time_duration.sum,sm__cycles_active.max,gpc__cycles_elapsed.max
timeout 100 ncu --csv --page raw --kernel-name regex:k_[tbg] --metrics $M --log-file $OUT/btx_mb.ncu.csv bash -c './btx_mb ncu; ./btx_mb ncu' > $OUT/btx_mb.ncu_order.txt 2>&1
echo "ncu rc=$?"
grep -o '"k_[a-z_]*[^"]*","[^"]*"' $OUT/btx_mb.ncu.csv | head; grep -c . $OUT/btx_mb.ncu.csv
python3 - <<'PY' || true
import csv, os
rows = list(csv.reader(open(os.environ['OUT'] + '/btx_mb.ncu.csv')))
h = [i for i, r in enumerate(rows) if r and r[0] == 'ID']
if h:
    hd = rows[h[0]]
    for r in rows[h[0] + 2:]:
        if len(r) == len(hd):
            d = dict(zip(hd, r))
            print(d.get('Kernel Name', '')[:30], d.get('gpu__time_duration.sum'), d.get('sm__cycles_active.max'), d.get('gpc__cycles_elapsed.max'))
PY
grep -E "SYNCS|LDGSTS|UBLKCP|GLOBALTIMER|NANOSLEEP|YIELD" $OUT/btx_mb.sass.txt | head -40
ls -la $OUT
