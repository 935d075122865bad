#!/bin/sh
# Records what one grid.sync() costs on a real GPU (grid_sync_time.cu):
# grid_sync_time.h100.txt. Run on a machine with an H100 and CUDA 12+:
#   sh record.sh [OUTDIR]
set -eu
cd "$(dirname "$0")"
dst=${1:-.}
mkdir -p "$dst"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
nvcc -O3 -arch=sm_90 -o "$bin/grid_sync_time" grid_sync_time.cu
"$bin/grid_sync_time" > "$dst/grid_sync_time.h100.txt"
"$bin/grid_sync_time" >> "$dst/grid_sync_time.h100.txt"
