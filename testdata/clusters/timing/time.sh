#!/bin/sh
# Records cluster_time.cu on an H100 (how the block scheduler places
# clusters): copy cluster_time.cu and time.sh into a folder of the
# checkout the device machine receives, then: sh time.sh OUTDIR
# Writes OUTDIR/cluster_time.h100.txt (the program's output) and
# OUTDIR/cluster_time.log (GPU, nvcc, and the run's exit status).
set -x
cd "$(dirname "$0")"
out=${1:-.}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  nvcc -O3 -arch=sm_90a -o cluster_time cluster_time.cu
  echo "nvcc exit $?"
  timeout -s KILL 60 ./cluster_time > "$out/cluster_time.h100.txt"
  echo "run exit $?"
  grep '^launch' "$out/cluster_time.h100.txt"
} > "$out/cluster_time.log" 2>&1
cat "$out/cluster_time.log"
