#!/bin/bash
# run.sh: records kstart.cu on the H100 (one device call; README.md). Run from this directory on the GPU
# machine: nvcc 13 -O3 -arch=sm_90 (the binary, nvcc's PTX, cuobjdump's SASS), the program plain (boost clock),
# then under Nsight Compute at its locked base clock with caches flushed before each kernel (--cache-control
# all, the held-out recordings' setting) and kept (--cache-control none). Writes $OUT/kstart_h100.tgz.
set -x
OUT=${OUT:-$PWD/out}; R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/kstart_h100.tgz -C $R .; }
T0=$SECONDS
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
timeout 120 nvcc -O3 -arch=sm_90 -o kstart kstart.cu; echo "nvcc rc=$?"
timeout 60 nvcc -O3 -arch=sm_90 -ptx -o $R/kstart.nvcc.ptx kstart.cu; echo "ptx rc=$?"
cuobjdump -sass kstart > $R/sass.txt 2>&1; echo "build t=$((SECONDS-T0))"; pack
timeout 30 ./kstart > $R/plain.txt 2>&1; echo "plain rc=$? t=$((SECONDS-T0))"; pack
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.max,smsp__inst_executed.sum
for s in imc_miss no_instruction short_scoreboard long_scoreboard branch_resolving wait; do
  M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
done
for cc in all none; do
  timeout 150 ncu --cache-control $cc --clock-control base --csv --page raw --metrics $M --log-file $R/ncu_$cc.csv ./kstart > $R/ncu_$cc.out 2>&1
  echo "ncu $cc rc=$? t=$((SECONDS-T0))"; pack
done
gzip -f $R/ncu_all.csv $R/ncu_none.csv $R/sass.txt; pack
cat $R/plain.txt; grep kstart $R/ncu_all.out | head -40
grep -E "gpu__time_duration" -m1 $R/GPU.txt; ls -la $OUT; echo "total t=$((SECONDS-T0))"
