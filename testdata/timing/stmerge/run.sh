#!/bin/bash
# The device run (H100) for testdata/timing/stmerge: merge_mb.cu (a lane's successive partial global stores to one
# sector). Stage merge_mb.cu and this script in /work/main/.dev/progtime/, then on the device machine
# `cd .dev/progtime && bash run.sh`. Writes into $OUT: merge_mb.h100.txt (the first run), merge_mb.repeats.txt (two
# more), merge_mb.nvcc.ptx, merge_mb.sass.txt, merge_mb.ncu.csv (Nsight Compute, every configuration once, twice),
# merge_mb.ncu_order.txt, GPU.txt.
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
(nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o merge_mb merge_mb.cu && \
 nvcc -O3 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/merge_mb.nvcc.ptx merge_mb.cu) > build.log 2>&1
echo "build rc=$?"; tail -30 build.log
cuobjdump -sass merge_mb > $OUT/merge_mb.sass.txt 2>&1
timeout 60 ./merge_mb > $OUT/merge_mb.h100.txt 2>&1; echo "run rc=$?"
cat $OUT/merge_mb.h100.txt
for i in 1 2; do timeout 60 ./merge_mb; done > $OUT/merge_mb.repeats.txt 2>&1
M=gpu__time_duration.sum,sm__cycles_active.max,gpc__cycles_elapsed.max,smsp__average_warp_latency_issue_stalled_drain.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum
timeout 120 ncu --csv --page raw --kernel-name regex:k_ --metrics $M --log-file $OUT/merge_mb.ncu.csv bash -c './merge_mb ncu; ./merge_mb ncu' > $OUT/merge_mb.ncu_order.txt 2>&1
echo "ncu rc=$?"
tail -5 $OUT/merge_mb.ncu_order.txt
python3 - <<'PY' || true
import csv, os
rows = list(csv.reader(open(os.environ['OUT'] + '/merge_mb.ncu.csv')))
h = [i for i, r in enumerate(rows) if r and r[0] == 'ID']
if h:
    hd = rows[h[0]]
    for r in rows[h[0] + 2:]:
        if len(r) == len(hd):
            d = dict(zip(hd, r))
            print(d.get('gpu__time_duration.sum'), d.get('sm__cycles_active.max'), d.get('lts__t_sectors_srcunit_tex_op_write.sum'), d.get('lts__t_requests_srcunit_tex_op_write.sum'), d.get('smsp__average_warp_latency_issue_stalled_lg_throttle.ratio'))
PY
grep -E "STG" $OUT/merge_mb.sass.txt | head -12
ls -la $OUT
