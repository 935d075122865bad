#!/bin/bash
# Builds and runs the syncmem microbenchmarks on the H100 (nvcc 13, sm_90a), keeping nvcc's PTX (which the model
# runs) and SASS; also keeps the SASS of the held-out programs these mechanisms come from (barrier_tx.cu,
# barrier_prog.cu, cluster_dsmem.cu, copied beside this script). Writes into $OUT.
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
mkdir -p sass ptx
for f in mbar_mb clus_mb red_mb const_mb; do
  (nvcc -O3 -arch=sm_90a -o $f $f.cu > $f.build.log 2>&1 && nvcc -O3 -arch=sm_90a -ptx -o ptx/$f.nvcc.ptx $f.cu &&
   cuobjdump -sass $f > sass/$f.sass) || { echo "BUILD FAIL $f"; cat $f.build.log | head -20; } &
done
for f in barrier_tx barrier_prog cluster_dsmem; do
  (nvcc -O3 -arch=sm_90a -std=c++17 -cubin -o $f.cubin $f.cu > $f.build.log 2>&1 && cuobjdump -sass $f.cubin > sass/$f.sass) ||
    { echo "BUILD FAIL $f"; head -20 $f.build.log; } &
done
wait
ls -la sass ptx
for f in mbar_mb clus_mb red_mb const_mb; do
  [ -x $f ] || continue
  timeout 100 ./$f > $OUT/$f.h100.txt 2>&1
  echo "$f rc=$?"
  cat $OUT/$f.h100.txt
done
tar czf $OUT/build.tgz ptx sass *.build.log
ls -la $OUT
