#!/bin/bash
# One device call (clang15, nineteenth round): ptxas (sm_90) on clang 22's PTX
# of the two programs3 programs that had no clang build in nvcc/record.sh
# (half_bf16_math: calls __nv_sinf/__nv_cosf; mma_ldmatrix: .version 8.0
# with an e4m3 mma.sync), the SASS of both builds, and Nsight Compute's time
# of both builds (twice each). As ../nvcc/record.sh: bin/P.nvcc is
# `nvcc -O3 -arch=sm_90a -std=c++17`, bin/P.clang the same program built from
# nvcc -arch=sm_90 -dryrun's commands with clang's PTX (splice.py) copied over
# cicc's output. Run from a folder holding this folder's files, ../half_bf16_math.cu,
# ../mma_ldmatrix.cu, their ../*.h100.txt, and P.clang.ptx for both programs
# (`warpsim compile --std c++17 ../P.cu -o P.clang.ptx`). Everything goes into
# $OUT/clangcode.tar.gz.
set -x
R=${OUT:-/tmp/out}/clangcode
mkdir -p "$R/sass" "$R/ncu" bin kd
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2;
  ncu --version | tail -1; } > "$R/GPU.txt" 2>&1
F="-O3 -arch=sm_90a -std=c++17"
timeout 60 nvcc -arch=sm_90 -rdc=true -ptx -o libm.ptx libm.cu > "$R/build_libm.txt" 2>&1
cp libm.ptx "$R/" 2>/dev/null
python3 splice.py half_bf16_math.clang.ptx libm.ptx h.ptx && mv h.ptx half_bf16_math.clang.ptx
python3 splice.py mma_ldmatrix.clang.ptx - m.ptx && mv m.ptx mma_ldmatrix.clang.ptx
build() { # $1 program
  local p=$1 ptx
  timeout 100 nvcc $F -o "bin/$p.nvcc" "$p.cu" > "$R/build_$p.nvcc.txt" 2>&1 || echo "BUILD FAIL nvcc $p"
  nvcc ${F/sm_90a/sm_90} -dryrun -o "bin/$p.clang" "$p.cu" 2>&1 | sed -n 's/^#\$ //p' > "kd/$p.cmds"
  ptx=$(grep -m1 -E '(^|/)ptxas"? ' "kd/$p.cmds" | grep -o '[^" ]*\.ptx' | head -1)
  awk -v cp="cp $p.clang.ptx \"$ptx\"" '{ print } /(^|\/)cicc"? / && !done { print cp; done=1 }' "kd/$p.cmds" > "kd/$p.sh"
  timeout 100 bash "kd/$p.sh" > "$R/build_$p.clang.txt" 2>&1
  [ -x "bin/$p.clang" ] || { echo "BUILD FAIL clang $p"; tail -5 "$R/build_$p.clang.txt"; }
}
for p in half_bf16_math mma_ldmatrix; do build $p & done
wait
cp half_bf16_math.clang.ptx mma_ldmatrix.clang.ptx "$R/"
for p in half_bf16_math mma_ldmatrix; do for c in nvcc clang; do
  [ -x "bin/$p.$c" ] || continue
  timeout 30 cuobjdump -sass "bin/$p.$c" > "$R/sass/$p.$c.sass" 2>&1
  timeout 30 ./bin/$p.$c > "$R/run_$p.$c.txt" 2>&1; echo "exit $?" >> "$R/run_$p.$c.txt"
  cmp <(head -n -1 "$R/run_$p.$c.txt") $p.h100.txt && echo "$p $c: output as the H100's"
done; done
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__cycles_active.max
for rep in 1 2; do for p in half_bf16_math mma_ldmatrix; do for c in nvcc clang; do
  [ -x "bin/$p.$c" ] || continue
  [ $SECONDS -gt ${DEADLINE:-140} ] && { echo "out of time: no ncu for $p $c $rep"; continue; }
  timeout 40 ncu --csv --page raw --metrics $M --log-file "$R/ncu/$p.$c.$rep.csv" ./bin/$p.$c > /dev/null 2>&1
  echo "$p $c $rep ncu rc=$?"
done; done; done
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/clangcode.tar.gz" clangcode && rm -rf "$R"
ls -l "${OUT:-/tmp/out}"
