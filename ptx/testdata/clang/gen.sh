#!/bin/sh
# Regenerates the clang PTX test corpus from the .cu files here:
#   cd ptx/testdata/clang && ./gen.sh
set -e
cd "$(dirname "$0")"
CLANG=${CLANG:-clang-22}
common="-x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_90 -Xclang -target-feature -Xclang +ptx80 -S -fdebug-compilation-dir=."
for f in basics calls globals packed; do
	$CLANG $common -O3 -o $f.ptx $f.cu
	$CLANG $common -O0 -o $f.O0.ptx $f.cu
done
$CLANG $common -O3 -fgpu-rdc -o launch.ptx launch.cu
$CLANG $common -O3 -g -o debug.ptx debug.cu
$CLANG $common -O0 -g -o debug.O0.ptx debug.cu
