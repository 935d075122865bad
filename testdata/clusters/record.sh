#!/bin/sh
# Records what an H100 does with the thread-block-cluster programs here:
# compiles each .cu with nvcc (-arch=sm_90a), runs it (at most TIMEOUT
# seconds, default 20), and saves its stdout as <name>.h100.txt, its stderr
# as <name>.h100.stderr and its exit status as <name>.h100.exit (124:
# stopped by the timeout). It also saves nvcc's PTX (<name>.nvcc.ptx).
# Run on a machine with an H100 and CUDA 12 or later:  sh record.sh [OUTDIR]
set -u
cd "$(dirname "$0")"
dst=${1:-.}
mkdir -p "$dst"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
for src in *.cu; do
  name=${src%.cu}
  echo "== $name"
  if ! nvcc -O3 -arch=sm_90a -o "$bin/$name" "$src" 2> "$bin/$name.nvcc.log"; then
    echo "nvcc failed:"; cat "$bin/$name.nvcc.log"; continue
  fi
  nvcc -arch=sm_90a -ptx -o "$dst/$name.nvcc.ptx" "$src" || echo "ptx failed"
  status=0
  timeout -s KILL "${TIMEOUT:-20}" "$bin/$name" > "$dst/$name.h100.txt" 2> "$dst/$name.h100.stderr" || status=$?
  [ "$status" = 137 ] && status=124
  echo "$status" > "$dst/$name.h100.exit"
  echo "exit $status"; head -c 3000 "$dst/$name.h100.txt"; cat "$dst/$name.h100.stderr"
done
if command -v compute-sanitizer > /dev/null; then
  timeout -s KILL 60 compute-sanitizer "$bin/cluster_exited" > "$dst/cluster_exited.sanitizer.txt" 2>&1
  echo "sanitizer exit $?" >> "$dst/cluster_exited.sanitizer.txt"
  tail -n 30 "$dst/cluster_exited.sanitizer.txt"
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$dst/GPU.txt"
nvcc --version | tail -n 2 >> "$dst/GPU.txt"
cat "$dst/GPU.txt"
