#!/bin/bash
# sfugolden.sh: run on a machine with CUDA and an sm_90 GPU; builds and runs
# sfugolden.cu, writing $OUT/sfu_golden.bin.gz and $OUT/log.txt.
set -u
cd "$(dirname "$0")"
W=/tmp/sfugolden
mkdir -p "$W"
{ nvcc --version; nvidia-smi -L; } >"$OUT/log.txt" 2>&1
nvcc -O3 -arch=sm_90 -o "$W/sfugolden" sfugolden.cu >>"$OUT/log.txt" 2>&1 || { cat "$OUT/log.txt"; exit 1; }
( time "$W/sfugolden" "$W/sfu_golden.bin" ) >>"$OUT/log.txt" 2>&1
gzip -9c "$W/sfu_golden.bin" >"$OUT/sfu_golden.bin.gz"
cat "$OUT/log.txt"
