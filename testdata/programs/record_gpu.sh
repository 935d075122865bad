#!/bin/sh
# Records what a real NVIDIA GPU prints for each sample program: compiles
# every .cu here with nvcc, runs it, and saves its stdout beside it as
# <name>.h100.txt, its stderr as <name>.h100.stderr and its exit status as
# <name>.h100.exit (the tests compare warpsim's output with these files).
# Run on a machine with an H100 and CUDA 12 or later:  sh record_gpu.sh
# Name programs to record only those:  sh record_gpu.sh symbols error_config
set -eu
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ $# -eq 0 ]; then
  set -- *.cu
fi
for src in "$@"; do
  name=${src%.cu}
  src=$name.cu
  [ -f "$src" ] || { echo "no program $src" >&2; exit 2; }
  echo "== $name" >&2
  nvcc -O3 -arch=sm_90 -o "$out/$name" "$src"
  status=0
  "$out/$name" > "$name.h100.txt" 2> "$name.h100.stderr" || status=$?
  echo "$status" > "$name.h100.exit"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > GPU.txt
nvcc --version | tail -n 2 >> GPU.txt
