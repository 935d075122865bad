#!/bin/bash
# Records, on the device machine (an H200: the H100's SM), the imma study
# family (im.cu): nvcc 13's PTX (what warpsim runs: warpsim cc
# --device-ptx), SASS and register usage (cuobjdump -sass, -res-usage), the
# program's output (a hash a launch; stderr: clock64 cycles of each launch's
# timed region), two more runs' clock64 lines, and Nsight Compute's time of
# every launch at the base clock with caches flushed (ncu's defaults), three
# times, with the instructions executed, registers, achieved occupancy and
# the warp-stall breakdown (as ../wmmatf32/record.sh). Run from a folder
# holding im.cu; writes $OUT/imma.tar.gz.
set -x
R=${OUT:-/tmp/out}/imma
mkdir -p "$R" bin
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.applications.graphics --format=csv;
  nvcc --version | tail -2; ncu --version | tail -1; } > "$R/GPU.txt" 2>&1
F="-O3 -arch=sm_90a -std=c++17"
(timeout 240 nvcc $F -o bin/im im.cu > "$R/build.txt" 2>&1 || echo "BUILD FAIL") &
(timeout 240 nvcc $F -ptx -o "$R/im.nvcc.ptx" im.cu > "$R/ptx.txt" 2>&1 || echo "PTX FAIL") &
wait
echo "built at $SECONDS s"
timeout 60 cuobjdump -sass bin/im > "$R/im.sass" 2>&1
timeout 60 cuobjdump -res-usage bin/im > "$R/im.res.txt" 2>&1
timeout 60 ./bin/im > "$R/im.h100.txt" 2> "$R/im.h100.stderr"; echo $? > "$R/im.h100.exit"
for i in 2 3; do timeout 60 ./bin/im > /dev/null 2> "$R/im.clock$i.txt"; done
echo "run rc=$(cat $R/im.h100.exit) at $SECONDS s"
S=long_scoreboard,short_scoreboard,wait,math_pipe_throttle,mio_throttle,lg_throttle,barrier,membar,no_instruction,branch_resolving,dispatch_stall,drain,imc_miss,misc,not_selected,selected,sleeping,tex_throttle
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__inst_executed.sum,smsp__cycles_active.max
for s in ${S//,/ }; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
for i in 1 2 3; do
  timeout ${NCU_S:-100} ncu --csv --page raw --metrics $M --log-file "$R/im.ncu$i.csv" ./bin/im > /dev/null 2> "$R/im.ncu$i.stderr"
  echo "ncu $i rc=$? $(grep -c '^"[0-9]' "$R/im.ncu$i.csv") launches at $SECONDS s"
done
gzip -9 "$R"/im.sass "$R"/im.nvcc.ptx "$R"/im.ncu*.csv
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/imma.tar.gz" imma && rm -rf "$R"
ls -l "${OUT:-/tmp/out}"
