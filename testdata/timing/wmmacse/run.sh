#!/bin/bash
# tensor23's one device call: SASS, PTX and Nsight Compute times of cx.cu.
# Everything lands in $OUT/cx.tar.gz.
set -x
W=$OUT/cx; mkdir -p $W
F="-O3 -arch=sm_90a -std=c++17"
nvidia-smi -q | grep -E "Product Name|Driver Version|CUDA Version" > $W/GPU.txt
nvcc --version >> $W/GPU.txt; ncu --version >> $W/GPU.txt
nvcc $F -ptx -o $W/cx.ptx cx.cu || exit 1
nvcc $F -o cx cx.cu -Xptxas -v 2> $W/cx.ptxas.txt || exit 1
cuobjdump -sass cx > $W/cx.sass
./cx > $W/cx.out
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum
timeout 150 ncu --metrics $M --csv ./cx > $W/cx.ncu.csv 2> $W/cx.ncu.err
cd $OUT && tar czf cx.tar.gz cx && rm -rf cx
ls -la $OUT
