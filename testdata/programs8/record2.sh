#!/bin/bash
# Second call: clang's device code on the H100. Run from a folder holding
# the programs8 .cu files, P.h100.txt (the first call's outputs) and, for
# each program P that has one, P.clang.ptx (made here by clangptx.py: the
# PTX `warpsim cc` runs). For each such P it builds bin/P.clang: nvcc's own
# build (-O3 -arch=sm_90 -std=c++17, its commands from -dryrun run one by
# one) with clang's PTX copied over cicc's output right after cicc, so only
# the device code differs (as testdata/programs3/nvcc/record.sh); drops a
# build whose SASS equals nvcc's; runs it once (rec2/P.clang.txt, .exit; and
# says whether it printed what nvcc's build printed) and under Nsight Compute
# as record.sh does (rec2/ncu/P.clang.csv). Writes programs8-clang.tar.gz
# into $OUT.
set -x
R=rec2
mkdir -p bin kd $R/ncu $R/sass
export PATH=/usr/local/cuda/bin:$PATH
F="-O3 -arch=sm_90 -std=c++17"
build() {
  local p=$1 ptx
  nvcc $F -dryrun -o bin/$p.clang $p.cu 2>&1 | sed -n 's/^#\$ //p' > kd/$p.cmds
  ptx=$(grep -m1 -E '(^|/)ptxas"? ' kd/$p.cmds | grep -o '[^" ]*\.ptx' | head -1)
  [ -n "$ptx" ] || { echo "no ptxas line for $p"; return; }
  awk -v cp="cp $p.clang.ptx \"$ptx\"" '{ print } /(^|\/)cicc"? / && !done { print cp; done=1 }' kd/$p.cmds > kd/$p.sh
  grep -q "^cp $p.clang.ptx" kd/$p.sh || { echo "no cicc line for $p"; return; }
  timeout 200 bash kd/$p.sh > $R/$p.clang.build.log 2>&1 || echo "BUILD FAIL clang $p"
  cp kd/$p.sh $R/$p.clang.build.sh
}
for f in *.clang.ptx; do build ${f%.clang.ptx} & done
wait
echo "built at $SECONDS s"
: > $R/outputs.txt
for f in *.clang.ptx; do
  p=${f%.clang.ptx}
  [ -x bin/$p.clang ] || { echo "no clang binary $p"; tail -20 $R/$p.clang.build.log; continue; }
  timeout 30 cuobjdump -sass bin/$p.clang > $R/sass/$p.clang.sass 2>&1
  grep -q 'FFMA\|IMAD\|LDG' $R/sass/$p.clang.sass || echo "$p: no SASS?"
  timeout 60 ./bin/$p.clang > $R/$p.clang.txt 2> $R/$p.clang.stderr; echo $? > $R/$p.clang.exit
  if cmp -s $R/$p.clang.txt $p.h100.txt; then echo "$p clang build prints what nvcc's printed" >> $R/outputs.txt; else echo "$p clang build DIFFERS from nvcc's" >> $R/outputs.txt; diff $p.h100.txt $R/$p.clang.txt | head -8; fi
done
cat $R/outputs.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,smsp__inst_executed.sum
for f in *.clang.ptx; do
  p=${f%.clang.ptx}
  [ -x bin/$p.clang ] || continue
  [ $SECONDS -gt ${DEADLINE:-75} ] && { echo "out of time: no ncu for $p"; continue; }
  timeout 30 ncu --csv --page raw --launch-count ${LAUNCHES:-12} --metrics $M --log-file $R/ncu/$p.clang.csv ./bin/$p.clang > /dev/null 2>&1
  echo "$p ncu rc=$? $(grep -c '^"[0-9]' $R/ncu/$p.clang.csv) kernels at $SECONDS s"
done
gzip -9 $R/ncu/*.csv $R/sass/*.sass
tar czf $OUT/programs8-clang.tar.gz $R
ls -la $OUT
