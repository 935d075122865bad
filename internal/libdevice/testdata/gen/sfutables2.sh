#!/bin/bash
# sfutables2.sh: run on a machine with CUDA and an sm_90 GPU; builds and runs
# sfutables2.cu and writes its tables, gzipped, into $OUT (with log.txt and the
# SASS of the approximate instructions).
set -u
cd "$(dirname "$0")"
W=/tmp/sfu2
mkdir -p "$W"
{ nvcc --version; nvidia-smi -L; } >"$OUT/log.txt" 2>&1
nvcc -O3 -arch=sm_90 -o "$W/sfutables2" sfutables2.cu >>"$OUT/log.txt" 2>&1 || { cat "$OUT/log.txt"; exit 1; }
( time "$W/sfutables2" "$W" ) >>"$OUT/log.txt" 2>&1
cuobjdump -sass "$W/sfutables2" 2>&1 | gzip -6 >"$OUT/sass.txt.gz"
for f in rsqrt lg2 sin; do gzip -6c "$W/$f.bin" >"$OUT/$f.bin.gz" & done
( cd "$W" && tar czf "$OUT/misc.tgz" lg2exc.bin lg2s.bin rsq64.bin sinexc.bin ) &
wait
ls -la "$OUT" >>"$OUT/log.txt"
cat "$OUT/log.txt"
