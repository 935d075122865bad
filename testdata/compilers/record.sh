#!/bin/bash
# Records how long nvcc 13's device code and clang 22's device code (the PTX `warpsim cc` runs) take on
# the H100 for the same programs, with the same host code.
#
# Run on the GPU machine from a folder holding src/ (the .cu files, common.h, check.h, which sources.sh
# gathers from examples/lessons and testdata/programs, and, for each
# program P, P.clang.ptx made on the warpsim machine with `warpsim compile P.cu -o P.clang.ptx`,
# `--rdc` for nested). For each program it builds
#   bin/P.nvcc   nvcc -O3 -arch=sm_90 (nested: -rdc=true), as the lessons were built;
#   bin/P.clang  the same nvcc build, with clang's PTX put in place of nvcc's: the commands of
#                `nvcc -dryrun` are run one by one and clang's PTX is copied over the .ptx that cicc wrote,
#                just before ptxas assembles it (so ptxas 13, the fatbinary and the host stub are nvcc's, and
#                only the device code differs);
# and also writes nvcc's PTX (ptx/P.nvcc.ptx). Each binary runs under Nsight Compute with the clocks locked
# to base (--clock-control base, as testdata/timing/bench/record.sh), one metric: gpu__time_duration.sum.
# Results go to $OUT/compilers.tar.gz (ncu_*.csv, run_*.txt, build logs, env.txt, ptx/, sass/).
set -x
R=${OUT:-/tmp/out}/compilers
mkdir -p "$R/ptx" "$R/sass" bin kd
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version; ncu --version;
  echo "clang on this machine:"; which clang clang-18 clang-19 clang-20 clang-21 clang-22; } > "$R/env.txt" 2>&1

flags() { case $1 in nested) echo "-O3 -arch=sm_90 -rdc=true -lcudadevrt";; *) echo "-O3 -arch=sm_90";; esac; }

build() { # $1 program
  local p=$1 f; f=$(flags "$p")
  nvcc $f -Isrc -o "bin/$p.nvcc" "src/$p.cu" > "$R/build_$p.nvcc.txt" 2>&1 || echo "BUILD FAIL nvcc $p"
  local ptxflags=${f/ -lcudadevrt/}
  nvcc $ptxflags -Isrc -ptx -o "$R/ptx/$p.nvcc.ptx" "src/$p.cu" >> "$R/build_$p.nvcc.txt" 2>&1
  # The clang build: nvcc's own commands, clang's PTX before ptxas.
  nvcc $f -Isrc -dryrun -o "bin/$p.clang" "src/$p.cu" 2>&1 | sed -n 's/^#\$ //p' > "kd/$p.cmds"
  local ptx
  ptx=$(grep -m1 -E '(^|/)ptxas"? ' "kd/$p.cmds" | grep -o '[^" ]*\.ptx' | head -1)
  if [ -z "$ptx" ]; then echo "no ptxas line for $p"; cat "kd/$p.cmds"; return; fi
  awk -v cp="cp src/$p.clang.ptx \"$ptx\"" '/(^|\/)ptxas"? / && !done { print cp; done=1 } { print }' "kd/$p.cmds" > "kd/$p.sh"
  bash "kd/$p.sh" > "$R/build_$p.clang.txt" 2>&1 ; [ -x "bin/$p.clang" ] || { echo "BUILD FAIL clang $p"; tail -20 "$R/build_$p.clang.txt"; }
  cp "kd/$p.sh" "$R/build_$p.clang.sh"
}

for p in reduce divergence coarsen nested matmul_shared transpose reduce_shfl histogram; do build $p & done
wait
ls -l bin

for p in reduce coarsen; do
  for c in nvcc clang; do cuobjdump -sass "bin/$p.$c" > "$R/sass/$p.$c.sass" 2>&1; done
done

prof() { # $1 tag, $2 binary, rest: args
  local tag=$1 b=$2; shift 2
  for c in nvcc clang; do
    [ -x "bin/$b.$c" ] || { echo "missing bin/$b.$c"; continue; }
    timeout 90 "bin/$b.$c" "$@" > "$R/run_${tag}.$c.txt" 2>&1
    timeout 120 ncu --csv --print-units base --clock-control base --metrics gpu__time_duration.sum \
      "bin/$b.$c" "$@" > "$R/ncu_${tag}.$c.csv" 2> "$R/ncu_${tag}.$c.err"
    echo "$tag $c rc=$? $(grep -c gpu__time_duration "$R/ncu_${tag}.$c.csv") kernels"
  done
}
prof reduce_512_24 reduce 512 24
prof reduce_1024_24 reduce 1024 24
prof reduce_512_20 reduce 512 20
prof reduce_1024_20 reduce 1024 20
prof divergence_64_64 divergence 64 64
prof divergence_256_4194304 divergence 256 4194304
prof divergence_256_65536 divergence 256 65536
prof coarsen_2048 coarsen 2048
prof coarsen_256 coarsen 256
prof nested nested
prof matmul_shared matmul_shared
prof transpose transpose
prof reduce_shfl reduce_shfl
prof histogram histogram
grep -h 'gpu__time_duration' "$R"/ncu_reduce_512_24.*.csv
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/compilers.tar.gz" compilers && rm -rf "$R"
ls -l "${OUT:-/tmp/out}"
