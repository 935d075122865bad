#!/bin/bash
# record2.sh: the second device call (README.md, "the lock"): sysmem.cu's latencies on the H100, plain (boost
# clock) and under Nsight Compute at its locked base clock. Writes $OUT/sysmem_h100.tgz.
set -x
OUT=${OUT:-$PWD/out}; R=/tmp/sysmem_r; mkdir -p $R $OUT
T0=$SECONDS
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > $R/GPU.txt 2>&1
timeout 120 nvcc -O3 -arch=sm_90 -o sysmem sysmem.cu; echo "nvcc rc=$?"
cuobjdump -sass sysmem > $R/sysmem_sass.txt 2>&1
timeout 30 ./sysmem > $R/sysmem_plain.txt 2>&1; echo "plain rc=$? t=$((SECONDS-T0))"
timeout 60 ncu --cache-control all --clock-control base --csv --page raw --metrics gpu__time_duration.sum --log-file $R/sysmem_ncu.csv ./sysmem > $R/sysmem_ncu.out 2>&1
echo "ncu rc=$? t=$((SECONDS-T0))"
tar czf $OUT/sysmem_h100.tgz -C $R .
cat $R/sysmem_plain.txt $R/sysmem_ncu.out; echo "total t=$((SECONDS-T0))"
