#!/bin/bash
# Writes clang 22's PTX of probes.cu under each contraction setting tried,
# with the flags `warpsim cc` passes to clang for device code (printed by
# `warpsim cc -v`), into $1/probes.V.ptx, for record.sh.
set -e
out=${1:-clang}
mkdir -p "$out"
inc=$(dirname "$(warpsim cc -v -ptx -o /dev/null "$(dirname "$0")/probes.cu" 2>&1 | grep -o -- '-isystem [^ ]*' | head -1 | cut -d' ' -f2)")/include
cl() { # $1 name, rest: extra flags
  local v=$1; shift
  clang-22 -x cuda --cuda-device-only -S -nocudainc -nocudalib --cuda-gpu-arch=sm_90 -Xclang -target-sdk-version=12.0 \
    -isystem "$inc" -include cuda_runtime.h -std=c++17 -Xclang -target-feature -Xclang +ptx80 \
    -Xclang -no-enable-noundef-analysis -O3 "$@" -o "$out/probes.$v.ptx" "$(dirname "$0")/probes.cu"
}
cl fast                                    # clang's default for CUDA (warpsim cc before this change)
cl on1 -ffp-contract=on -mllvm --nvptx-fma-level=1
cl off1 -ffp-contract=off -mllvm --nvptx-fma-level=1
