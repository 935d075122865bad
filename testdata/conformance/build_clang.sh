#!/bin/sh
# Compiles every case's kernel.cu to clang.ptx with Debian's clang-22, no CUDA
# installation needed (testdata/conformance/include/wcuda.h stands in for the
# CUDA headers). nvcc.ptx is made on the GPU machine by ../gpu/record_all.sh.
#
# A case whose clang.ptx the GPU already ran (expected/clang exists) keeps its
# clang.ptx, since that is what the recording belongs to; -f rebuilds those
# too, after which the case must be recorded again.
set -e
cd "$(dirname "$0")"
CLANG=${CLANG:-clang-22}
force=${1:-}
for d in */; do
  d=${d%/}
  [ -f "$d/kernel.cu" ] || continue
  out="$d/clang.ptx"
  if [ -d "$d/expected/clang" ] && [ "$force" != "-f" ]; then
    out=$(mktemp)
  fi
  $CLANG -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_90 \
    -Xclang -target-feature -Xclang +ptx80 -O3 -S -Iinclude "$d/kernel.cu" -o "$out"
  if [ "$out" != "$d/clang.ptx" ]; then
    cmp -s "$out" "$d/clang.ptx" || echo "warning: $d/clang.ptx is stale (recorded); rebuild with -f and re-record"
    rm -f "$out"
  else
    echo "clang.ptx: $d"
  fi
done
