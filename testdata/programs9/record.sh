#!/bin/bash
# Records testdata/programs9 on an H100 in one call. Run from a folder
# holding the .cu files and, for each program P, P.clang.ptx (clang 22's PTX
# as `warpsim cc` runs it, made here by clangptx.py). Writes programs9.tar.gz
# into $OUT. For each program P:
#   - builds bin/P with nvcc 13 (-O3 -arch=sm_90 -std=c++17), writes nvcc's
#     PTX (same flags, -ptx: ptx/P.nvcc.ptx) and the binary's SASS
#     (cuobjdump -sass: sass/P.sass);
#   - builds bin/P.clang: nvcc's own build, its commands from -dryrun run one
#     by one, with P.clang.ptx copied over cicc's output right after cicc, so
#     only the device code differs (as programs8/record2.sh);
#   - runs bin/P three times: rec/P.h100.txt, .h100.stderr, .h100.exit from
#     the first; the others must print the same bytes (rec/determinism.txt);
#     runs bin/P.clang once and says whether it printed the same
#     (rec/clang/outputs.txt);
#   - runs both under Nsight Compute (base clock, caches flushed: ncu's
#     defaults) with programs8's metrics, for the first LAUNCHES (12) kernel
#     launches: rec/ncu/P.ncu.csv, rec/clang/ncu/P.clang.csv. No nvcc ncu run
#     starts after DEADLINE1 seconds (140), no clang one after DEADLINE2 (190).
set -x
R=rec
mkdir -p bin kd $R/ncu $R/ptx $R/sass $R/clang/ncu $R/clang/sass $R/clang/builds
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv;
  nvidia-smi -q -d CLOCK | grep -A3 -i 'default applications\|base'; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
F="-O3 -arch=sm_90 -std=c++17"
clangbuild() {
  local p=$1 ptx
  nvcc $F -dryrun -o bin/$p.clang $p.cu 2>&1 | sed -n 's/^#\$ //p' > kd/$p.cmds
  ptx=$(grep -m1 -E '(^|/)ptxas"? ' kd/$p.cmds | grep -o '[^" ]*\.ptx' | head -1)
  [ -n "$ptx" ] || { echo "no ptxas line for $p"; return; }
  awk -v cp="cp $p.clang.ptx \"$ptx\"" '{ print } /(^|\/)cicc"? / && !done { print cp; done=1 }' kd/$p.cmds > kd/$p.sh
  grep -q "^cp $p.clang.ptx" kd/$p.sh || { echo "no cicc line for $p"; return; }
  timeout 200 bash kd/$p.sh > $R/clang/$p.clang.build.log 2>&1 || echo "BUILD FAIL clang $p"
  cp kd/$p.sh $R/clang/builds/$p.clang.build.sh
}
for f in *.cu; do
  n=${f%.cu}
  (timeout 200 nvcc $F -o bin/$n $f > $R/$n.build.log 2>&1 || echo "BUILD FAIL $n") &
  (timeout 200 nvcc $F -ptx -o $R/ptx/$n.nvcc.ptx $f > $R/$n.ptx.log 2>&1 || echo "PTX FAIL $n") &
  [ -f $n.clang.ptx ] && clangbuild $n &
done
wait
echo "built at $SECONDS s"
: > $R/determinism.txt
: > $R/clang/outputs.txt
for f in *.cu; do
  n=${f%.cu}
  [ -x bin/$n ] || { echo "no binary $n"; head -30 $R/$n.build.log; continue; }
  timeout 30 cuobjdump -sass bin/$n > $R/sass/$n.sass 2>&1
  timeout 60 ./bin/$n > $R/$n.h100.txt 2> $R/$n.h100.stderr
  echo $? > $R/$n.h100.exit
  echo "== $n exit $(cat $R/$n.h100.exit)"; head -c 200 $R/$n.h100.txt; head -c 300 $R/$n.h100.stderr
  for i in 2 3; do
    timeout 60 ./bin/$n > $R/$n.run$i.txt 2> $R/$n.run$i.stderr; e=$?
    if cmp -s $R/$n.h100.txt $R/$n.run$i.txt && [ $e = $(cat $R/$n.h100.exit) ]; then echo "$n run $i same" >> $R/determinism.txt; rm $R/$n.run$i.*; else echo "$n run $i DIFFERS" | tee -a $R/determinism.txt; fi
  done
  [ -x bin/$n.clang ] || { echo "no clang binary $n"; tail -20 $R/clang/$n.clang.build.log; continue; }
  timeout 30 cuobjdump -sass bin/$n.clang > $R/clang/sass/$n.clang.sass 2>&1
  timeout 60 ./bin/$n.clang > $R/clang/$n.clang.txt 2> $R/clang/$n.clang.stderr; echo $? > $R/clang/$n.clang.exit
  if cmp -s $R/clang/$n.clang.txt $R/$n.h100.txt; then echo "$n clang build prints what nvcc's printed" >> $R/clang/outputs.txt; else echo "$n clang build DIFFERS from nvcc's" | tee -a $R/clang/outputs.txt; diff $R/$n.h100.txt $R/clang/$n.clang.txt | head -8; fi
done
echo "ran at $SECONDS s"
cat $R/determinism.txt $R/clang/outputs.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,smsp__inst_executed.sum
for f in *.cu; do
  n=${f%.cu}
  [ -x bin/$n ] || continue
  [ $SECONDS -gt ${DEADLINE1:-140} ] && { echo "out of time: no ncu for $n"; continue; }
  timeout 30 ncu --csv --page raw --launch-count ${LAUNCHES:-12} --metrics $M --log-file $R/ncu/$n.ncu.csv ./bin/$n > /dev/null 2>&1
  echo "$n ncu rc=$? $(grep -c '^"[0-9]' $R/ncu/$n.ncu.csv) kernels at $SECONDS s"
done
for f in *.cu; do
  n=${f%.cu}
  [ -x bin/$n.clang ] || continue
  [ $SECONDS -gt ${DEADLINE2:-190} ] && { echo "out of time: no clang ncu for $n"; continue; }
  timeout 30 ncu --csv --page raw --launch-count ${LAUNCHES:-12} --metrics $M --log-file $R/clang/ncu/$n.clang.csv ./bin/$n.clang > /dev/null 2>&1
  echo "$n clang ncu rc=$? $(grep -c '^"[0-9]' $R/clang/ncu/$n.clang.csv) kernels at $SECONDS s"
done
gzip -9 $R/ncu/*.csv $R/sass/*.sass $R/clang/ncu/*.csv $R/clang/sass/*.sass
tar czf $OUT/programs9.tar.gz $R
ls -la $OUT
echo "done at $SECONDS s"
