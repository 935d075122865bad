#!/usr/bin/env bash
# Records the runtime's occupancy answers and launch errors at the per-block
# limits on the GPU this runs on (h100_occupancy_limits.txt was made on an
# H100 with CUDA 13.0):  bash record.sh > h100_occupancy_limits.txt
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$tmp/occupancy_limits" occupancy_limits.cu
echo "# $(nvcc --version | tail -n 1); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
"$tmp/occupancy_limits"
rm -rf "$tmp"
