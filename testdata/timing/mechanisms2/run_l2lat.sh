#!/bin/bash
# run_l2lat.sh: records l2lat.cu on the GPU machine (from this directory; bench.h is ../bench/bench.h):
# nvcc 13 -O3 -arch=sm_90, SASS, then one run; everything to $OUT.
set -x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"; export OUT
{ date -u; nvcc --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > "$OUT/l2lat_env.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o bin_l2lat l2lat.cu > "$OUT/l2lat_build.txt" 2>&1 || echo "nvcc failed" >> "$OUT/l2lat_build.txt"
cat "$OUT/l2lat_build.txt"
cuobjdump -sass -fun l2lat bin_l2lat 2>&1 | grep -E 'CS2R|LDG|STS|LDS' | head -20
timeout 60 ./bin_l2lat > "$OUT/l2lat.txt" 2>&1; echo "rc=$?"
cat "$OUT/l2lat.txt"
