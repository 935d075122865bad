#!/bin/bash
# Builds ptx_wrappers.cu (CUDA 13's <cuda/ptx>) and cache_hints.cu with nvcc
# 13 for sm_90a on the H100, runs them, and keeps their output, exit status
# and nvcc's PTX in $OUT/cudaptx.tar.gz (recorded/). Usage: OUT=dir bash run.sh
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/cudaptx-out}
export PATH=/usr/local/cuda/bin:$PATH
R=recorded
rm -rf "$R" bin && mkdir -p "$R" bin "$OUT"
{ nvidia-smi -L; nvcc --version | tail -2; date -u; } > "$R/TOOLS.txt" 2>&1
for p in ptx_wrappers cache_hints; do
  (
    F=
    if ! nvcc -arch=sm_90a -O2 -std=c++17 -o bin/$p $p.cu -lcuda > $R/$p.nvcc.txt 2>&1 && [ $p = cache_hints ]; then
      F=-DSAFE_ONLY=1
      nvcc -arch=sm_90a -O2 -std=c++17 $F -o bin/$p $p.cu -lcuda >> $R/$p.nvcc.txt 2>&1
    fi
    echo "flags: $F" > $R/$p.level
    nvcc -arch=sm_90a -O2 -std=c++17 $F -ptx -o $R/$p.ptx $p.cu >> $R/$p.nvcc.txt 2>&1
    timeout 30 ./bin/$p > $R/$p.stdout 2> $R/$p.stderr
    echo $? > $R/$p.status
  ) &
done
wait
tar czf "$OUT/cudaptx.tar.gz" recorded
ls -l "$OUT"
