#!/bin/bash
# Records the ITS barrier probes (its.cu) and the barrier-misuse probes
# (../../sanitize/probe4, through ../../sanitize/record.sh) on a real GPU.
# Usage: OUT=dir bash record.sh, from a folder holding its.cu and record.sh,
# with sanitize/record.sh and sanitize/probe4 beside it (or under ../../).
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/its-out}
export PATH=/usr/local/cuda/bin:$PATH
S=${SANITIZE:-../../sanitize}
R=recorded
rm -rf "$R" bin && mkdir -p "$R" bin "$OUT"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  nvcc --version | tail -2; compute-sanitizer --version; date -u; } > "$R/TOOLS.txt" 2>&1
(OUT="$OUT" timeout 200 bash "$S/record.sh" probe4 > "$OUT/probe4.log" 2>&1) &
timeout 120 nvcc -arch=sm_90 -lineinfo -o bin/its its.cu > "$R/nvcc.txt" 2>&1
timeout 60 nvcc -arch=sm_90 -lineinfo -ptx -o "$R/its.ptx" its.cu
timeout 60 cuobjdump -sass bin/its > "$R/its.sass" 2>&1
for i in $(seq 0 12); do
  for k in 1 2; do
    timeout 20 ./bin/its $i > "$R/its.$i.run$k.stdout" 2> "$R/its.$i.run$k.stderr"
    echo $? > "$R/its.$i.run$k.status"
  done
done
seq 0 12 | timeout 150 xargs -P 8 -I{} sh -c \
  "timeout 60 compute-sanitizer --tool synccheck ./bin/its {} > $R/its.{}.synccheck.stdout 2> $R/its.{}.synccheck.stderr; echo \$? > $R/its.{}.synccheck.status"
wait
tar czf "$OUT/its.tar.gz" "$R"
ls -l "$OUT"
