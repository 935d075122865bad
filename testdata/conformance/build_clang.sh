#!/bin/sh
# Compiles every case's kernel.cu to clang.ptx with Debian's clang-22, no CUDA
# installation needed (testdata/conformance/include/wcuda.h stands in for the
# CUDA headers). nvcc.ptx is made on the GPU machine by ../gpu/record_all.sh.
set -e
cd "$(dirname "$0")"
CLANG=${CLANG:-clang-22}
for d in */; do
  d=${d%/}
  [ -f "$d/kernel.cu" ] || continue
  $CLANG -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_90 \
    -Xclang -target-feature -Xclang +ptx80 -O3 -S -Iinclude "$d/kernel.cu" -o "$d/clang.ptx"
  echo "clang.ptx: $d"
done
