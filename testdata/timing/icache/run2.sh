#!/bin/bash
# The second recording: icache_jump.cu (made by gen.py; jump_1024, jump_4096: 32 forward branches over 1 or 4 KiB
# of code that never runs; icache_3072), built and run as run.sh does: nvcc 13 -O3 sm_90, nvcc's PTX, SASS counts,
# the program plain, under Nsight Compute with --cache-control all and with none. Writes $OUT/icache_jump_h100.tgz.
set -x
cd "$(dirname "$0")"
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/icache_jump_h100.tgz -C $R .; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/GPU.txt 2>&1
nvcc -O3 -arch=sm_90 -o icache_jump icache_jump.cu; echo "nvcc rc=$?"
nvcc -O3 -arch=sm_90 -ptx -o $R/icache_jump.nvcc.ptx icache_jump.cu; echo "ptx rc=$?"; pack
cuobjdump -sass icache_jump | awk '/Function :/ {f=$3} /\/\*[0-9a-f]+\*\// {n[f]++} END {for (k in n) print k, n[k], 16*n[k]}' | sort > $R/sass_counts.txt
cat $R/sass_counts.txt
cuobjdump -sass -fun jump_1024 icache_jump | grep -m 40 "BRA\|ISETP" > $R/sass_jump_1024_branches.txt 2>&1
timeout 60 ./icache_jump > $R/plain.txt 2>&1; echo "plain rc=$?"; pack
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio
for cc in all none; do
  timeout 120 ncu --cache-control $cc --csv --page raw --metrics $M --log-file $R/ncu_$cc.csv ./icache_jump > $R/ncu_$cc.out 2>&1; echo "ncu $cc rc=$?"; pack
done
grep "launch=0" $R/ncu_all.out | grep -v "warps=32"; grep "launch=0" $R/ncu_none.out | grep -v "warps=32"
pack; rm -rf $R; ls -la $OUT
