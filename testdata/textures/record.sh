#!/bin/sh
# Records what an H100 prints for the texture and surface programs here:
# each NAME.cu is built with nvcc -O3 -arch=sm_90 and run; stdout goes to
# NAME.h100.txt, stderr to NAME.h100.stderr, the exit status to
# NAME.h100.exit, and nvcc's PTX to NAME.nvcc.ptx (how nvcc spells the
# texture instructions). Run on a machine with an H100 and CUDA 12 or
# later:  sh record.sh [OUTDIR]   (default: beside the sources)
set -u
cd "$(dirname "$0")"
dst=${1:-.}
mkdir -p "$dst"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for src in *.cu; do
  name=${src%.cu}
  echo "== $name" >&2
  if nvcc -O3 -arch=sm_90 -o "$tmp/$name" "$src" > "$dst/$name.nvcc.log" 2>&1; then
    status=0
    "$tmp/$name" > "$dst/$name.h100.txt" 2> "$dst/$name.h100.stderr" || status=$?
    echo "$status" > "$dst/$name.h100.exit"
    nvcc -arch=sm_90 -ptx -o "$dst/$name.nvcc.ptx" "$src" || true
  else
    echo "nvcc failed for $name:" >&2
    cat "$dst/$name.nvcc.log" >&2
  fi
done
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -n 2
} > "$dst/GPU.txt"
