#!/bin/bash
# Records testdata/contract on an H100 with nvcc 13. Run from a folder holding
# probes.cu and clang/probes.V.ptx (clang 22's PTX of probes.cu under the
# contraction settings V that were tried, made on the warpsim machine by
# gen_clang.sh). Writes contract.tar.gz into $OUT with:
#   probes.nvcc.ptx       nvcc -O3 -arch=sm_90 -std=c++17 -ptx (the oracle for the fma/mul/add pattern)
#   probes.nvcc.sass      cuobjdump -sass of nvcc's build (what ptxas made of it)
#   probes.h100.txt       nvcc's build run on the H100 (.stderr, .exit; run2 must print the same)
#   probes.fmadfalse.ptx  the same with --fmad=false (how nvcc writes an uncontracted multiply and add)
#   clang-V.h100.txt      the same nvcc build with clang's PTX V put in place of nvcc's before ptxas
#                         (the commands of nvcc -dryrun, clang's PTX copied over cicc's), run on the H100
#   clang-V.sass          its SASS
set -x
R=rec
mkdir -p bin $R kd
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -n 2; } > $R/GPU.txt 2>&1
F="-O3 -arch=sm_90 -std=c++17"
timeout 120 nvcc $F -ptx -o $R/probes.nvcc.ptx probes.cu > $R/build.log 2>&1
timeout 120 nvcc $F --fmad=false -ptx -o $R/probes.fmadfalse.ptx probes.cu >> $R/build.log 2>&1
timeout 120 nvcc $F -o bin/probes probes.cu >> $R/build.log 2>&1 || echo "BUILD FAIL nvcc"
timeout 60 cuobjdump -sass bin/probes > $R/probes.nvcc.sass 2>&1
timeout 60 ./bin/probes > $R/probes.h100.txt 2> $R/probes.h100.stderr
echo $? > $R/probes.h100.exit
timeout 60 ./bin/probes > $R/run2.txt 2>&1
cmp -s $R/probes.h100.txt $R/run2.txt && echo "run 2 same" > $R/determinism.txt || echo "run 2 DIFFERS" > $R/determinism.txt
timeout 120 nvcc $F -dryrun -o bin/probes.sub probes.cu 2>&1 | sed -n 's/^#\$ //p' > kd/cmds
ptx=$(grep -m1 -E '(^|/)ptxas"? ' kd/cmds | grep -o '[^" ]*\.ptx' | head -1)
for p in clang/probes.*.ptx; do
  v=${p#clang/probes.}; v=${v%.ptx}
  awk -v cp="cp $p \"$ptx\"" '/(^|\/)ptxas"? / && !done { print cp; done=1 } { print }' kd/cmds > kd/$v.sh
  rm -f bin/probes.sub
  timeout 120 bash kd/$v.sh > $R/build.clang-$v.log 2>&1
  [ -x bin/probes.sub ] || { echo "BUILD FAIL clang $v"; tail -20 $R/build.clang-$v.log; continue; }
  timeout 60 cuobjdump -sass bin/probes.sub > $R/clang-$v.sass 2>&1
  timeout 60 ./bin/probes.sub > $R/clang-$v.h100.txt 2>&1
  echo "clang $v exit $?"
done
cp kd/cmds $R/dryrun.txt
tar czf $OUT/contract.tar.gz $R
ls -la $R
