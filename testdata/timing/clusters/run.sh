#!/bin/bash
# Builds and runs cluster_mb.cu on the H100 (nvcc 13, sm_90a), writing $OUT/cluster_mb.h100.txt and the log.
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
nvcc --version | tail -n 2
nvcc -O3 -arch=sm_90a -o cluster_mb cluster_mb.cu 2>&1 | head -30
timeout 120 ./cluster_mb > $OUT/cluster_mb.h100.txt 2>&1
echo "run rc=$?"
cat $OUT/cluster_mb.h100.txt
cuobjdump -sass cluster_mb | grep -E "Function|ATOMS|ATOM|UCGABAR|CCTL|LD|MEMBAR" | head -80 > $OUT/sass_excerpt.txt
