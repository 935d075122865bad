#!/bin/bash
# Records testdata/programs3 on an H100: builds every *.cu here with nvcc 13
# (-arch=sm_90a -std=c++17 -O3), runs it (stdout, stderr, exit status), then
# runs it under Nsight Compute (base clock, cold caches: ncu's defaults) with
# testdata/timing/modern/run.sh's metrics. Run from a folder holding the .cu
# files; writes programs3.tar.gz (name.h100.txt/.stderr/.exit, name.ncu.csv,
# GPU.txt, build logs) into $OUT.
set -x
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
R=rec
mkdir -p bin $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/GPU.txt
nvcc --version | tail -n 2 >> $R/GPU.txt
ncu --version | tail -n 1 >> $R/GPU.txt
for f in *.cu; do
  n=${f%.cu}
  (nvcc -O3 -arch=sm_90a -std=c++17 -o bin/$n $f > $R/$n.build.log 2>&1 || echo "BUILD FAIL $n") &
done
wait
for f in *.cu; do
  n=${f%.cu}
  [ -x bin/$n ] || { echo "no binary $n"; head -30 $R/$n.build.log; continue; }
  timeout 60 ./bin/$n > $R/$n.h100.txt 2> $R/$n.h100.stderr
  echo $? > $R/$n.h100.exit
  echo "$n exit $(cat $R/$n.h100.exit)"; head -c 300 $R/$n.h100.txt; head -c 300 $R/$n.h100.stderr
done
for f in *.cu; do
  n=${f%.cu}
  [ -x bin/$n ] || continue
  timeout 90 ncu --csv --page raw --metrics $M --log-file $R/$n.ncu.csv ./bin/$n > /dev/null 2>&1
  echo "$n ncu rc=$? $(grep -c '^"[0-9]' $R/$n.ncu.csv) kernels"
done
tar czf $OUT/programs3.tar.gz $R
ls -la $R
