#!/bin/bash
# Records testdata/programs8 on an H100. Run from a folder holding the .cu
# files; writes programs8.tar.gz into $OUT. For each program P:
#   - builds bin/P with nvcc 13 (-O3 -arch=sm_90 -std=c++17) and writes
#     nvcc's PTX (same flags, -ptx: ptx/P.nvcc.ptx) and the binary's SASS
#     (cuobjdump -sass: sass/P.sass);
#   - runs it three times: rec/P.h100.txt, .h100.stderr, .h100.exit from the
#     first; the others must print the same bytes (rec/determinism.txt);
#   - runs it under Nsight Compute (base clock, caches flushed: ncu's
#     defaults) with testdata/programs3/record.sh's metrics and the
#     instructions executed, for its first LAUNCHES kernel launches (12):
#     rec/ncu/P.ncu.csv. No ncu run starts after DEADLINE seconds (150).
set -x
R=rec
mkdir -p bin $R/ncu $R/ptx $R/sass
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv;
  nvidia-smi -q -d CLOCK | grep -A3 -i 'default applications\|base'; nvcc --version | tail -n 2; ncu --version | tail -n 1; } > $R/GPU.txt 2>&1
F="-O3 -arch=sm_90 -std=c++17"
for f in *.cu; do
  n=${f%.cu}
  (timeout 200 nvcc $F -o bin/$n $f > $R/$n.build.log 2>&1 || echo "BUILD FAIL $n") &
  (timeout 200 nvcc $F -ptx -o $R/ptx/$n.nvcc.ptx $f > $R/$n.ptx.log 2>&1 || echo "PTX FAIL $n") &
done
wait
echo "built at $SECONDS s"
: > $R/determinism.txt
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
done
echo "ran at $SECONDS s"
M=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,smsp__inst_executed.sum
for f in *.cu; do
  n=${f%.cu}
  [ -x bin/$n ] || continue
  [ $SECONDS -gt ${DEADLINE:-150} ] && { echo "out of time: no ncu for $n"; continue; }
  timeout 40 ncu --csv --page raw --launch-count ${LAUNCHES:-12} --metrics $M --log-file $R/ncu/$n.ncu.csv ./bin/$n > /dev/null 2>&1
  echo "$n ncu rc=$? $(grep -c '^"[0-9]' $R/ncu/$n.ncu.csv) kernels at $SECONDS s"
done
gzip -9 $R/ncu/*.csv $R/sass/*.sass
tar czf $OUT/programs8.tar.gz $R
ls -la $R $OUT
