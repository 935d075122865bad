#!/bin/sh
# Records what a real NVIDIA GPU does with the cooperative-launch and
# managed-variable programs here: compiles each .cu with nvcc (-arch=sm_90),
# runs it (at most TIMEOUT seconds, default 15: grid_deadlock.cu hangs a GPU
# by design), and saves its stdout as <name>.h100.txt, its stderr as
# <name>.h100.stderr and its exit status as <name>.h100.exit (124: stopped
# by the timeout). It also saves nvcc's PTX of the cooperative kernels
# (<name>.nvcc.ptx), which `warpsim run` executes in the tests.
# Run on a machine with an H100 and CUDA 12 or later:  sh record.sh [OUTDIR]
set -eu
cd "$(dirname "$0")"
dst=${1:-.}
mkdir -p "$dst"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
for src in *.cu; do
  name=${src%.cu}
  echo "== $name" >&2
  nvcc -O3 -arch=sm_90 -o "$bin/$name" "$src"
  status=0
  timeout -s KILL "${TIMEOUT:-15}" "$bin/$name" > "$dst/$name.h100.txt" 2> "$dst/$name.h100.stderr" || status=$?
  [ "$status" = 137 ] && status=124
  echo "$status" > "$dst/$name.h100.exit"
done
for name in grid_sync coop_limits; do
  nvcc -arch=sm_90 -ptx -o "$dst/$name.nvcc.ptx" "$name.cu"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$dst/GPU.txt"
nvcc --version | tail -n 2 >> "$dst/GPU.txt"
