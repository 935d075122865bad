#!/bin/bash
# One device call: builds inflight_mb.cu with nvcc 13 (-O3 -arch=sm_90), keeps
# its SASS, runs it plainly (5 repetitions a row) and under Nsight Compute
# (base clock; 1 repetition a row). Results in $OUT/inflight.tar.gz (its rec/ is
# h100/ here). Ran from a copy of this folder in .dev/unroll2 (device call).
set -x
cd "$(dirname "$0")"
R=$OUT/rec; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
F="-O3 -arch=sm_90 -std=c++17"
timeout 150 nvcc $F -o inflight_mb inflight_mb.cu > $R/build.log 2>&1 || echo BUILD FAIL
timeout 30 cuobjdump -sass inflight_mb > $R/inflight_mb.sass 2>&1
timeout 30 ./inflight_mb 5 > $R/inflight_mb.h100.txt 2>&1; echo $? > $R/inflight_mb.h100.exit
cat $R/inflight_mb.h100.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max
timeout 100 ncu --csv --page raw --metrics $M --log-file $R/inflight_mb.ncu.csv ./inflight_mb 1 > $R/inflight_mb.ncu.txt 2>&1; echo "ncu rc=$?"
cat $R/inflight_mb.ncu.txt
gzip -9 $R/*.csv $R/*.sass
tar czf $OUT/inflight.tar.gz -C $OUT rec
ls -la $R
