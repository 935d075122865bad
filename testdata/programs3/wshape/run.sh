#!/bin/bash
# Compile-only probe: nvcc's PTX and SASS of wshape.cu for sm_90.
set -o pipefail
cd "$(dirname "$0")"
nvidia-smi -L > $OUT/GPU.txt 2>&1
nvcc --version > $OUT/nvcc.txt 2>&1
timeout 120 nvcc -O3 -arch=sm_90 -std=c++17 -cubin -o wshape.cubin wshape.cu > $OUT/build.log 2>&1 || { echo build failed; cat $OUT/build.log; exit 1; }
timeout 60 nvcc -O3 -arch=sm_90 -std=c++17 -ptx -o $OUT/wshape.ptx wshape.cu >> $OUT/build.log 2>&1
timeout 60 cuobjdump -sass wshape.cubin > $OUT/wshape.sass
timeout 60 cuobjdump -res-usage wshape.cubin > $OUT/wshape.res.txt 2>&1
ls -la $OUT
