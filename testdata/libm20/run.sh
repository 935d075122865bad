#!/bin/bash
# libm20's one device call: lmb.cu built twice for sm_90 (nvcc's own code,
# libdevice inlined; and clang 22's PTX, lmb.clang.ptx made here by
# `warpsim compile --std c++17 lmb.cu`, with nvcc's code of each __nv_*
# function spliced in by splice.py from libm.cu, put in place of cicc's
# output in nvcc -dryrun's commands, as ../programs3/clangcode/run.sh), the
# SASS of both, both binaries' clock64 output, and Nsight Compute's
# instruction counts per pipe of each kernel's one-warp launch (`lmb ncu`).
# Everything goes into $OUT/libm20.tar.gz.
set -x
R=${OUT:-/tmp/out}/libm20
mkdir -p "$R/ncu" bin kd
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2;
  ncu --version | tail -1; } > "$R/GPU.txt" 2>&1
timeout 90 nvcc -arch=sm_90 -rdc=true -ptx -o libm.ptx libm.cu > "$R/build_libm.txt" 2>&1
python3 splice.py lmb.clang.ptx libm.ptx s.ptx > "$R/splice.txt" 2>&1 && mv s.ptx lmb.clang.ptx
cp libm.ptx lmb.clang.ptx "$R/"
p=lmb
timeout 200 nvcc -O3 -arch=sm_90 -std=c++17 -o bin/$p.nvcc $p.cu > "$R/build_nvcc.txt" 2>&1 &
nvcc -O3 -arch=sm_90 -std=c++17 -dryrun -o bin/$p.clang $p.cu 2>&1 | sed -n 's/^#\$ //p' > kd/$p.cmds
ptx=$(grep -m1 -E '(^|/)ptxas"? ' kd/$p.cmds | grep -o '[^" ]*\.ptx' | head -1)
awk -v cp="cp $p.clang.ptx \"$ptx\"" '{ print } /(^|\/)cicc"? / && !done { print cp; done=1 }' kd/$p.cmds > kd/$p.sh
timeout 200 bash kd/$p.sh > "$R/build_clang.txt" 2>&1
wait
echo "builds done at $SECONDS s"
for c in clang nvcc; do
  [ -x bin/$p.$c ] || { echo "BUILD FAIL $c"; tail -5 "$R/build_$c.txt"; continue; }
  timeout 60 cuobjdump -sass bin/$p.$c > "$R/$p.$c.sass" 2>&1
  timeout 60 ./bin/$p.$c > "$R/$p.$c.txt" 2>&1; echo "exit $?" >> "$R/$p.$c.txt"
done
echo "runs done at $SECONDS s"
timeout 30 ncu --query-metrics > "$R/ncu/query.txt" 2>&1
M=smsp__inst_executed.sum,sm__cycles_elapsed.max
for pipe in alu fma fmaheavy fmalite fp64 xu lsu cbu adu uniform fp16; do
  grep -q "^smsp__inst_executed_pipe_$pipe " "$R/ncu/query.txt" && M=$M,smsp__inst_executed_pipe_$pipe.sum
done
echo "metrics $M"
for c in clang nvcc; do
  [ -x bin/$p.$c ] || continue
  [ $SECONDS -gt ${DEADLINE:-330} ] && { echo "out of time: no ncu for $c"; continue; }
  timeout $(( ${DEADLINE:-330} + 40 - SECONDS )) ncu --csv --page raw --metrics $M --log-file "$R/ncu/$p.$c.csv" ./bin/$p.$c ncu > /dev/null 2>&1
  echo "$c ncu rc=$? at $SECONDS s"
done
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/libm20.tar.gz" libm20 && rm -rf "$R"
ls -l "${OUT:-/tmp/out}"
