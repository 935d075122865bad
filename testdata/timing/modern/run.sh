#!/bin/bash
# Records Nsight Compute's kernel times (base clock, cold caches: ncu's defaults) of issue 18's held-out
# workloads on an H100: every kernel of the Triton corpus (both PTX files, 3 runs each) and the nvcc-built
# tensor-core, asynchronous-copy and cluster programs. Run from a folder holding time_triton.py, this script,
# triton/ (testdata/triton), tensor/ (the .cu files of testdata/tensor) and clusters/ (testdata/clusters).
# Writes into $OUT.
set -x
H=$(pwd)
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
ncu --version | tail -n 1 >> $OUT/GPU.txt
mkdir -p bin
for p in tensor/gemm_wmma tensor/pipeline_prog tensor/bulk_prog tensor/barrier_prog tensor/barrier_tx \
         clusters/cluster_dsmem clusters/cluster_launch clusters/cluster_sregs; do
  n=$(basename $p)
  (nvcc -O3 -arch=sm_90a -std=c++17 -o bin/$n $p.cu > bin/$n.log 2>&1 || { echo "BUILD FAIL $n"; head -20 bin/$n.log; }) &
done
export PYTHONUNBUFFERED=1
timeout 300 ncu --csv --page raw --metrics $M --log-file $OUT/triton_ncu.csv python3 time_triton.py $H/triton 3 > $OUT/triton_order.txt 2> $OUT/triton_stderr.txt
echo "triton rc=$?"
tail -3 $OUT/triton_order.txt
for j in $(jobs -p); do wait $j; done
for p in gemm_wmma pipeline_prog bulk_prog barrier_prog barrier_tx cluster_dsmem cluster_launch cluster_sregs; do
  [ -x bin/$p ] || continue
  timeout 120 ncu --csv --page raw --metrics $M --log-file $OUT/$p.ncu.csv ./bin/$p > bin/$p.out 2>&1
  echo "$p rc=$?"
  tail -2 bin/$p.out
done
ls -la $OUT
