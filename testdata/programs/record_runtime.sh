#!/bin/sh
# Records the runtime helper's programs on an H100 (nvcc 13): the sample
# programs through record_gpu.sh, and the copy-timing calibration behind
# internal/cudart/timing.go into calibration/copy_timing.h100.csv.
#   sh record_runtime.sh
set -eu
cd "$(dirname "$0")"
sh record_gpu.sh async_streams mapped_memory managed_memory graphs memory_info runtime_api
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
nvcc -O3 -arch=sm_90 -o "$out/copy_timing" calibration/copy_timing.cu
"$out/copy_timing" > calibration/copy_timing.h100.csv
nvcc -O3 -arch=sm_90 -o "$out/kernel_overlap" calibration/kernel_overlap.cu
"$out/kernel_overlap" > calibration/kernel_overlap.h100.csv
