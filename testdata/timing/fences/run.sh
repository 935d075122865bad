#!/bin/bash
# Builds and runs fence_mb.cu on the H100 (nvcc 13, sm_90a); keeps nvcc's PTX and SASS. Writes into $OUT.
set -x
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
nvcc -O3 -arch=sm_90a -o fence_mb fence_mb.cu && nvcc -O3 -arch=sm_90a -ptx -o $OUT/fence_mb.nvcc.ptx fence_mb.cu
cuobjdump -sass fence_mb | gzip > $OUT/fence_mb.sass.gz
timeout 120 ./fence_mb > $OUT/fence_mb.h100.txt 2>&1; echo "rc=$?"
cat $OUT/fence_mb.h100.txt
