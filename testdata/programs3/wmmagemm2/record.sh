#!/bin/bash
# Records, on the GPU machine, the wmmagemm2 family (wg2.cu: ptxas's order inside a wmma k step on layouts and types wg.cu did not record): nvcc 13's PTX
# (what warpsim runs: warpsim cc --device-ptx), SASS and register usage
# (cuobjdump -sass, -res-usage), the program's output (a hash a launch), and
# Nsight Compute's time of every launch at the base clock with caches flushed
# (ncu's defaults, as ../record.sh), with the instructions executed,
# registers, achieved occupancy and the warp-stall breakdown
# (../nvcc/record.sh's STALLS=1 metrics). Run on the GPU machine from a
# folder holding wg2.cu; writes $OUT/wmmagemm2.tar.gz.
set -x
R=${OUT:-/tmp/out}/wmmagemm2
mkdir -p "$R" bin
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.applications.graphics --format=csv;
  nvcc --version | tail -2; ncu --version | tail -1; } > "$R/GPU.txt" 2>&1
F="-O3 -arch=sm_90 -std=c++17"
(timeout 200 nvcc $F -o bin/wg2 wg2.cu > "$R/build.txt" 2>&1 || echo "BUILD FAIL") &
(timeout 200 nvcc $F -ptx -o "$R/wg2.nvcc.ptx" wg2.cu > "$R/ptx.txt" 2>&1 || echo "PTX FAIL") &
wait
echo "built at $SECONDS s"
timeout 60 cuobjdump -sass bin/wg2 > "$R/wg2.sass" 2>&1
timeout 60 cuobjdump -res-usage bin/wg2 > "$R/wg2.res.txt" 2>&1
timeout 60 ./bin/wg2 > "$R/wg2.h100.txt" 2> "$R/wg2.h100.stderr"; echo $? > "$R/wg2.h100.exit"
echo "run rc=$(cat $R/wg2.h100.exit) at $SECONDS s"
S=long_scoreboard,short_scoreboard,wait,math_pipe_throttle,mio_throttle,lg_throttle,barrier,membar,no_instruction,branch_resolving,dispatch_stall,drain,imc_miss,misc,not_selected,selected,sleeping,tex_throttle
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__inst_executed.sum,smsp__cycles_active.max
for s in ${S//,/ }; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
timeout ${NCU_S:-150} ncu --csv --page raw --metrics $M --log-file "$R/wg2.ncu.csv" ./bin/wg2 > /dev/null 2>&1
echo "ncu rc=$? $(grep -c '^"[0-9]' "$R/wg2.ncu.csv") launches at $SECONDS s"
gzip -9 "$R"/wg2.sass "$R"/wg2.nvcc.ptx "$R"/wg2.ncu.csv
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/wmmagemm2.tar.gz" wmmagemm2 && rm -rf "$R"
ls -l "${OUT:-/tmp/out}"
