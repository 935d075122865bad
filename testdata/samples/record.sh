#!/bin/sh
# Records what a real NVIDIA GPU prints for the regression programs here
# (the cuda-samples fixes: math out-parameters, stream and launch
# attributes, libcu++ atomics, CUB's decoupled look-back). Each program's
# stdout goes to <name>.h100.txt, stderr to <name>.h100.stderr, its exit
# status to <name>.h100.exit, beside its source; GPU.txt names the GPU and
# nvcc. Run on a machine with an H100 and CUDA 12 or later (nvcc brings its
# own CCCL):  sh record.sh
set -u
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
progs="math_outparams stream_attributes libcu_atomic cub_lookback"
for name in $progs; do
  nvcc -O3 -arch=sm_90 -o "$work/$name" "$name.cu" > "$work/$name.log" 2>&1 &
done
wait
for name in $progs; do
  echo "== $name" >&2
  if [ -x "$work/$name" ]; then
    status=0
    "$work/$name" > "$name.h100.txt" 2> "$name.h100.stderr" || status=$?
    echo "$status" > "$name.h100.exit"
  else
    echo "nvcc failed for $name:" >&2
    cat "$work/$name.log" >&2
  fi
done
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -n 2
} > GPU.txt
