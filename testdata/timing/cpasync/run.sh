#!/bin/bash
# Builds and runs cpasync_mb.cu on the H100 (nvcc 13, sm_90a); keeps nvcc's PTX. Writes into $OUT.
set -x
nvcc -O3 -arch=sm_90a -o cpasync_mb cpasync_mb.cu && nvcc -O3 -arch=sm_90a -ptx -o $OUT/cpasync_mb.nvcc.ptx cpasync_mb.cu
timeout 60 ./cpasync_mb > $OUT/cpasync_mb.h100.txt 2>&1; echo "rc=$?"
cat $OUT/cpasync_mb.h100.txt
