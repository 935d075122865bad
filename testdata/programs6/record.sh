#!/bin/bash
# Records testdata/programs6 on an H100: builds every *.cu here with nvcc 13
# (-O3 -arch=sm_90 -std=c++17, plus the program's line in flags.txt), runs it
# twice (stdout, stderr, exit status of the first run; the second run is
# compared with the first to find programs whose output is not
# deterministic). Run from a folder holding the .cu files and flags.txt;
# writes programs6.tar.gz (name.h100.txt/.stderr/.exit, GPU.txt, build logs,
# diag/) into $OUT.
set -x
R=rec
mkdir -p bin $R $R/diag
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/GPU.txt
nvcc --version | tail -n 2 >> $R/GPU.txt
for f in *.cu; do
  n=${f%.cu}
  extra=$(awk -v n=$n '$1 == n { $1 = ""; print }' flags.txt)
  (timeout 300 nvcc -O3 -arch=sm_90 -std=c++17 $extra -o bin/$n $f > $R/$n.build.log 2>&1 || echo "BUILD FAIL $n") &
done
wait
for f in *.cu; do
  n=${f%.cu}
  [ -x bin/$n ] || { echo "no binary $n"; head -30 $R/$n.build.log; continue; }
  timeout 20 ./bin/$n > $R/$n.h100.txt 2> $R/$n.h100.stderr
  echo $? > $R/$n.h100.exit
  timeout 20 ./bin/$n > $R/diag/$n.run2.txt 2>&1
  cmp -s $R/$n.h100.txt $R/diag/$n.run2.txt && echo "$n run 2 same" >> $R/diag/determinism.txt || echo "$n run 2 DIFFERS" >> $R/diag/determinism.txt
  echo "== $n exit $(cat $R/$n.h100.exit)"; head -c 400 $R/$n.h100.txt; head -c 300 $R/$n.h100.stderr
done
cat $R/diag/determinism.txt
tar czf $OUT/programs6.tar.gz $R
ls -la $R | head -80
