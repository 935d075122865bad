#!/bin/bash
# Records, on the device machine (an H200: the H100's SM), the wmmatf32
# study family (wt.cu): nvcc 13's PTX (what warpsim runs: warpsim cc
# --device-ptx), SASS and register usage (cuobjdump -sass, -res-usage), the
# program's output (a hash a launch; stderr: clock64 cycles a k step), and
# Nsight Compute's time of every launch at the base clock with caches
# flushed (ncu's defaults), with the instructions executed, registers,
# achieved occupancy and the warp-stall breakdown (as
# ../../programs3/wmmagemm/record.sh). Run from a folder holding wt.cu;
# writes $OUT/wmmatf32.tar.gz.
set -x
R=${OUT:-/tmp/out}/wmmatf32
mkdir -p "$R" bin
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.applications.graphics --format=csv;
  nvcc --version | tail -2; ncu --version | tail -1; } > "$R/GPU.txt" 2>&1
F="-O3 -arch=sm_90a -std=c++17"
(timeout 200 nvcc $F -o bin/wt wt.cu > "$R/build.txt" 2>&1 || echo "BUILD FAIL") &
(timeout 200 nvcc $F -ptx -o "$R/wt.nvcc.ptx" wt.cu > "$R/ptx.txt" 2>&1 || echo "PTX FAIL") &
wait
echo "built at $SECONDS s"
timeout 60 cuobjdump -sass bin/wt > "$R/wt.sass" 2>&1
timeout 60 cuobjdump -res-usage bin/wt > "$R/wt.res.txt" 2>&1
timeout 60 ./bin/wt > "$R/wt.h100.txt" 2> "$R/wt.h100.stderr"; echo $? > "$R/wt.h100.exit"
timeout 60 ./bin/wt > /dev/null 2> "$R/wt.clock2.txt"
echo "run rc=$(cat $R/wt.h100.exit) at $SECONDS s"
S=long_scoreboard,short_scoreboard,wait,math_pipe_throttle,mio_throttle,lg_throttle,barrier,membar,no_instruction,branch_resolving,dispatch_stall,drain,imc_miss,misc,not_selected,selected,sleeping,tex_throttle
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__inst_executed.sum,smsp__cycles_active.max
for s in ${S//,/ }; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
timeout ${NCU_S:-150} ncu --csv --page raw --metrics $M --log-file "$R/wt.ncu.csv" ./bin/wt > /dev/null 2> "$R/wt.ncu.stderr"
echo "ncu rc=$? $(grep -c '^"[0-9]' "$R/wt.ncu.csv") launches at $SECONDS s"
gzip -9 "$R"/wt.sass "$R"/wt.nvcc.ptx "$R"/wt.ncu.csv
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/wmmatf32.tar.gz" wmmatf32 && rm -rf "$R"
ls -l "${OUT:-/tmp/out}"
