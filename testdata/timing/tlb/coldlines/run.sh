#!/bin/bash
# One device run (H100) for testdata/timing/coldlines: stage coldlines_mb.cu and this script in /work/main/.dev/mmtime/,
# then on the device machine `cd .dev/mmtime && bash run.sh`. Writes into $OUT: GPU.txt, coldlines_mb.h100.txt (the
# plain run's lines, boost clock; TestColdLinesMicrobenchmarks reads it), coldlines_mb.repeats.txt (one more plain
# run), coldlines_mb.ncu.txt (the program's lines under Nsight Compute: base clock, caches flushed before every
# launch, one launch a configuration), coldlines_mb.ncu.csv (its gpu__time_duration.sum and sm__cycles_active.max,
# launch by launch), coldlines_mb.nvcc.ptx (nvcc's PTX, compute_90a) and coldlines_mb.sass.txt (cuobjdump -sass).
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
(nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o coldlines_mb coldlines_mb.cu && \
 nvcc -O3 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/coldlines_mb.nvcc.ptx coldlines_mb.cu) > build.log 2>&1
echo "build rc=$?"; tail -20 build.log
cuobjdump -sass coldlines_mb > $OUT/coldlines_mb.sass.txt 2>&1
timeout 60 ./coldlines_mb > $OUT/coldlines_mb.h100.txt 2>&1; echo "run rc=$?"
cat $OUT/coldlines_mb.h100.txt
timeout 60 ./coldlines_mb > $OUT/coldlines_mb.repeats.txt 2>&1; echo "repeat rc=$?"
M=gpu__time_duration.sum,sm__cycles_active.max
timeout 200 ncu --csv --page raw --metrics $M --log-file $OUT/coldlines_mb.ncu.csv ./coldlines_mb ncu > $OUT/coldlines_mb.ncu.txt 2>&1
echo "ncu rc=$?"
grep -v "^==" $OUT/coldlines_mb.ncu.txt | head -140
grep -c k_ $OUT/coldlines_mb.ncu.csv
# the chase's step and the burst's wait, as ptxas scheduled them
awk '/Function : .*k_chase/{f=1} f&&/CS2R|LDG|LDS|IADD/{print; if(++n>24) exit}' $OUT/coldlines_mb.sass.txt
awk '/Function : .*k_burstILi4/{f=1} f&&/CS2R|LDG|LDS|IADD|BAR/{print; if(++n>30) exit}' $OUT/coldlines_mb.sass.txt
ls -la $OUT
