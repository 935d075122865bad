#!/bin/sh
# Regenerates kernels.ptx from kernels.cu with Debian's clang-22 and warpsim's CUDA headers.
set -e
cd "$(dirname "$0")"
clang-22 -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_90 \
  -Xclang -target-feature -Xclang +ptx80 -O2 -I../../../../cuda/include -S -o kernels.ptx kernels.cu
