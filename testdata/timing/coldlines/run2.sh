#!/bin/bash
# The second device run (H100) for testdata/timing/coldlines: the fresh held-out bursts of FRESH.md, written down
# before this ran. Stage coldlines_mb.cu and this script in /work/main/.dev/mmtime/, then on the device machine
# `cd .dev/mmtime && bash run2.sh`. Writes into $OUT: GPU2.txt, coldlines_mb.fresh.txt (two plain runs of
# `./coldlines_mb fresh`), coldlines_mb.fresh.nvcc.ptx (nvcc's PTX of this build: its kernels are the first run's).
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU2.txt
nvcc --version | tail -n 2 >> $OUT/GPU2.txt
(nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o coldlines_mb coldlines_mb.cu && \
 nvcc -O3 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/coldlines_mb.fresh.nvcc.ptx coldlines_mb.cu) > build.log 2>&1
echo "build rc=$?"; tail -20 build.log
for i in 1 2; do timeout 60 ./coldlines_mb fresh; echo "run $i rc=$?"; done > $OUT/coldlines_mb.fresh.txt 2>&1
cat $OUT/coldlines_mb.fresh.txt
ls -la $OUT
