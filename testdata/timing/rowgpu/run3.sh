#!/bin/bash
# The next device call (not made yet; README, "Next"): block shape against ptxas's load order, and which SMs are
# slow. As run.sh: copy rowgpu_mb.cu and this script to /work/main/devprobe/rowgpu/, then on the device machine
# `cd devprobe/rowgpu && bash run3.sh`. Writes $OUT/rowgpu3.tar.gz (rec3/: GPU.txt, build.log, shape.txt.gz: the
# `shape` configurations with 5 launches each and every block's SM and cycles for DD and LL at 132 SMs).
set -x
cd "$(dirname "$0")"
T0=$SECONDS
R=$OUT/rec3; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; } > $R/GPU.txt 2>&1
timeout 120 nvcc -O3 -arch=sm_90 -o rowgpu_mb rowgpu_mb.cu > $R/build.log 2>&1; echo "build rc=$? t=$((SECONDS-T0))"
timeout 120 ./rowgpu_mb 5 shape > $R/shape.txt 2>&1; echo "shape rc=$? t=$((SECONDS-T0))"
grep -v "^sm " $R/shape.txt
gzip -9 $R/shape.txt
tar czf $OUT/rowgpu3.tar.gz -C $OUT rec3
echo "total t=$((SECONDS-T0))"
