#!/bin/bash
# Compiles each .cu with warpsim cc's device flags, without and with the
# DWARF flags, and compares the PTX with .loc, comments, sections, .file
# and .target lines removed.
I=${WARPSIM_INCLUDE:?set it to the tree's cuda/include}
F="-x cuda --cuda-device-only -S -nocudainc -nocudalib --cuda-gpu-arch=sm_90 -Xclang -target-sdk-version=12.0 -isystem $I -include cuda_runtime.h -Xclang -target-feature -Xclang +ptx80 -Xclang -no-enable-noundef-analysis -O3 -gline-tables-only -ffp-contract=off -mllvm --nvptx-fma-level=1 -w"
strip() { awk '/^[ \t]*\.section/{s=1} s==0' "$1" | grep -v '^\s*\.loc\|^\s*//\|^\s*\.file\|^\.target' | sed 's,\s*//.*,,'; }
for f in "$@"; do
  b=$(echo $f | tr / _)
  clang-22 $F -I $(dirname $f) -o a_$b.ptx $f 2>/dev/null || { echo "SKIP $f"; continue; }
  clang-22 $F -Xclang -debug-info-kind=line-tables-only -Xclang -fdebug-info-for-profiling -I $(dirname $f) -o b_$b.ptx $f 2>/dev/null || { echo "FAILNEW $f"; continue; }
  if diff <(strip a_$b.ptx) <(strip b_$b.ptx) >/dev/null; then echo "SAME $f $(grep -c '^\s*[a-z@]' a_$b.ptx)"; else echo "DIFF $f"; fi
done
