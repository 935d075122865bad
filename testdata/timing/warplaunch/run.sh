#!/bin/bash
# run.sh: records warplaunch.cu on the device (one call). Run from a directory holding warplaunch.cu and
# bench/bench.h (../bench/bench.h in the tree; a copy beside it in devprobe): nvcc 13 -O3 -arch=sm_90,
# CUDA events (boost clock), then Nsight Compute at its locked base clock with caches flushed and every
# warp's stamps of its last replay (stamps/ncu/). Everything goes to $OUT.
set -x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS
mkdir -p ../bench; [ -f ../bench/bench.h ] || cp bench.h ../bench/bench.h
{ date -u; nvcc --version; ncu --version; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o bin_wl warplaunch.cu >> "$OUT/env.txt" 2>&1 || echo "nvcc failed" >> "$OUT/env.txt"
echo "build t=$((SECONDS-T0))"
mkdir -p stamps/ev stamps/ncu
STAMPS=$PWD/stamps/ev timeout 60 ./bin_wl > "$OUT/events.txt" 2> "$OUT/events.err"; echo "events rc=$? t=$((SECONDS-T0))"
cat "$OUT/events.txt" "$OUT/events.err"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.avg,sm__warps_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_elapsed,sm__warps_active.sum,sm__cycles_active.avg,sm__cycles_active.sum,sm__cycles_active.max,sm__ctas_launched.sum,smsp__warps_launched.sum,launch__waves_per_multiprocessor,launch__occupancy_limit_blocks,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
export BENCH_NCU=1
STAMPS=$PWD/stamps/ncu timeout 150 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_wl > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; rc=$?
echo "ncu rc=$rc lines=$(wc -l < $OUT/ncu.csv) t=$((SECONDS-T0))"
if ! grep -q gpu__time_duration "$OUT/ncu.csv"; then
  tail -20 "$OUT/ncu.csv" "$OUT/ncu.err"
  M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg
  STAMPS=$PWD/stamps/ncu timeout 80 ncu --csv --print-units base --clock-control base --metrics "$M" ./bin_wl > "$OUT/ncu.csv" 2> "$OUT/ncu.err"; echo "ncu fallback rc=$? lines=$(wc -l < $OUT/ncu.csv)"
fi
cuobjdump -sass bin_wl | gzip -c > stamps/sass.txt.gz
tar czf "$OUT/stamps.tar.gz" stamps/ncu stamps/sass.txt.gz; ls -la "$OUT"
python3 analyze.py "$OUT" || true
echo "total t=$((SECONDS-T0))"
