#!/bin/bash
# Records testdata/programs5 on an H100: builds every *.cu here with nvcc 13
# (-O3 -arch=sm_90 -std=c++17, plus the program's line in flags.txt), runs it
# once (stdout, stderr, exit status). Run from a folder holding the .cu files
# and flags.txt; writes programs5b.tar.gz (name.h100.txt/.stderr/.exit, GPU.txt,
# build logs) into $OUT.
set -x
R=rec
mkdir -p bin $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/GPU.txt
nvcc --version | tail -n 2 >> $R/GPU.txt
for f in *.cu; do
  n=${f%.cu}
  extra=$(awk -v n=$n '$1 == n { $1 = ""; print }' flags.txt)
  (nvcc -O3 -arch=sm_90 -std=c++17 $extra -o bin/$n $f > $R/$n.build.log 2>&1 || echo "BUILD FAIL $n") &
done
wait
for f in *.cu; do
  n=${f%.cu}
  [ -x bin/$n ] || { echo "no binary $n"; head -30 $R/$n.build.log; continue; }
  timeout 60 ./bin/$n > $R/$n.h100.txt 2> $R/$n.h100.stderr
  echo $? > $R/$n.h100.exit
  echo "== $n exit $(cat $R/$n.h100.exit)"; head -c 400 $R/$n.h100.txt; head -c 300 $R/$n.h100.stderr
done
# printf_many twice more: is its order deterministic?

tar czf $OUT/programs5b.tar.gz $R
ls -la $R | head -80
