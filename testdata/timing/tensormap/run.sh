#!/bin/bash
# Builds and runs tmfence_mb.cu on the H100 (nvcc 13, sm_90a); keeps nvcc's PTX. Writes into $OUT.
set -x
nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o tmfence_mb tmfence_mb.cu && nvcc -O3 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/tmfence_mb.nvcc.ptx tmfence_mb.cu
timeout 60 ./tmfence_mb > $OUT/tmfence_mb.h100.txt 2>&1; echo "rc=$?"
cat $OUT/tmfence_mb.h100.txt
