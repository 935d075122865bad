#!/bin/bash
# Times the programs of record.sh in warpsim: each built by `warpsim cc` twice, with clang's device code
# (P.clang) and with nvcc's PTX linked in its place (P.nvcc: `warpsim cc --device-ptx ptx/P.nvcc.ptx`),
# then profiled with `warpsim prof --print-gpu-trace --csv` (timing mode, the default). Writes
# warpsim/prof_RUN.{clang,nvcc}.csv. Usage: testdata/compilers/warpsim.sh WARPSIM [RUN…] from the repo root.
set -u
W=$(realpath "$1"); shift
cd "$(dirname "$0")"
mkdir -p warpsim bin
[ -d src ] || ./sources.sh src
build() { # program
  local p=$1 rdc=""
  [ "$p" = nested ] && rdc="-rdc=true"
  [ -x "bin/$p.clang" ] || "$W" cc $rdc -Isrc "src/$p.cu" -o "bin/$p.clang" 2>/dev/null
  [ -x "bin/$p.nvcc" ] || "$W" cc $rdc -Isrc --device-ptx "ptx/$p.nvcc.ptx" "src/$p.cu" -o "bin/$p.nvcc"
}
runs=${*:-reduce_512_20 reduce_1024_20 divergence_64_64 divergence_256_65536 matmul_shared transpose reduce_shfl histogram coarsen_256 reduce_512_24 reduce_1024_24 nested}
for r in $runs; do
  case $r in
    reduce_shfl) p=$r; args="";;
    reduce_*) p=reduce; args=$(echo "${r#reduce_}" | tr _ ' ');;
    divergence_*) p=divergence; args=$(echo "${r#divergence_}" | tr _ ' ');;
    coarsen_*) p=coarsen; args=${r#coarsen_};;
    *) p=$r; args="";;
  esac
  build "$p"
  for c in clang nvcc; do
    s=$(date +%s)
    "$W" prof --print-gpu-trace --csv "bin/$p.$c" $args > "warpsim/run_$r.$c.txt" 2> "warpsim/prof_$r.$c.csv"
    echo "$r $c rc=$? $(( $(date +%s) - s ))s"
  done
done
