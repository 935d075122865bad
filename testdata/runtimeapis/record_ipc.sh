#!/bin/bash
# Records ipc_procs.cu (CUDA IPC between processes: README.md) on the GPU
# into ipc_procs.h200.txt. Usage: bash record_ipc.sh OUTFILE.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/ipc_procs.h200.txt}
bin=$(mktemp -d)
exec > "$out" 2>&1
echo "== GPU"
nvidia-smi --query-gpu=name,driver_version,compute_mode --format=csv,noheader
nvcc --version | tail -n 2
cd "$here"
nvcc -O2 -arch=sm_90 -o "$bin/ipc_procs" ipc_procs.cu > "$bin/nvcc.txt" 2>&1 || { echo "== nvcc"; cat "$bin/nvcc.txt"; }
for i in 1 2; do
  echo "== ipc_procs (run $i)"
  timeout -s KILL 60 "$bin/ipc_procs" 2>&1
  echo "exit $?"
done
