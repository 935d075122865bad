#!/bin/bash
# The device run (H100) for testdata/timing/stld: stld_mb.cu (epilogue-shaped global stores, Triton's masked 2-byte
# loads). Stage stld_mb.cu and this script in /work/main/.dev/mmaf16b/, then on the device machine
# `cd .dev/mmaf16b && bash run.sh`. Writes into $OUT: stld_mb.h100.txt (the first run), stld_mb.repeats.txt (two
# more), stld_mb.nvcc.ptx, stld_mb.sass.txt, stld_mb.ncu.csv (Nsight Compute, every configuration once, twice),
# stld_mb.ncu_order.txt, GPU.txt.
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
(nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o stld_mb stld_mb.cu && \
 nvcc -O3 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/stld_mb.nvcc.ptx stld_mb.cu) > build.log 2>&1
echo "build rc=$?"; tail -30 build.log
cuobjdump -sass stld_mb > $OUT/stld_mb.sass.txt 2>&1
timeout 60 ./stld_mb > $OUT/stld_mb.h100.txt 2>&1; echo "run rc=$?"
cat $OUT/stld_mb.h100.txt
for i in 1 2; do timeout 60 ./stld_mb; done > $OUT/stld_mb.repeats.txt 2>&1
M=gpu__time_duration.sum,sm__cycles_active.max,gpc__cycles_elapsed.max,smsp__average_warp_latency_issue_stalled_drain.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio
timeout 100 ncu --csv --page raw --kernel-name regex:k_ --metrics $M --log-file $OUT/stld_mb.ncu.csv bash -c './stld_mb ncu; ./stld_mb ncu' > $OUT/stld_mb.ncu_order.txt 2>&1
echo "ncu rc=$?"
tail -5 $OUT/stld_mb.ncu_order.txt
python3 - <<'PY' || true
import csv, os
rows = list(csv.reader(open(os.environ['OUT'] + '/stld_mb.ncu.csv')))
h = [i for i, r in enumerate(rows) if r and r[0] == 'ID']
if h:
    hd = rows[h[0]]
    for r in rows[h[0] + 2:]:
        if len(r) == len(hd):
            d = dict(zip(hd, r)); print(d.get('Kernel Name', '')[:20], d.get('gpu__time_duration.sum'), d.get('sm__cycles_active.max'))
PY
grep -E "STG|LDG" $OUT/stld_mb.sass.txt | head -20
ls -la $OUT
