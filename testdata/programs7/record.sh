#!/bin/bash
# Records testdata/programs7 on an H100: builds every *.cu here with nvcc 13
# (-O3 -arch=sm_90 -std=c++17, plus the program's line in flags.txt), runs it
# once (stdout, stderr, exit status), twice more to check determinism. Then
# the diagnostics in diag/: limits_probe built three ways (sm_90; compute_80
# JIT-compiled by the driver; -rdc=true -lcudadevrt) and const_probe. Run
# from a folder holding the .cu files, flags.txt and diag/; writes
# programs7.tar.gz (name.h100.txt/.stderr/.exit, GPU.txt, build logs) into $OUT.
set -x
R=rec
mkdir -p bin $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/GPU.txt
nvcc --version | tail -n 2 >> $R/GPU.txt
for f in *.cu; do
  n=${f%.cu}
  extra=$(awk -v n=$n '$1 == n { $1 = ""; print }' flags.txt)
  (timeout 300 nvcc -O3 -arch=sm_90 -std=c++17 $extra -o bin/$n $f > $R/$n.build.log 2>&1 || echo "BUILD FAIL $n") &
done
(cd diag && timeout 300 nvcc -O3 -arch=sm_90 -std=c++17 -o ../bin/limits_sm90 limits_probe.cu > ../$R/limits_sm90.build.log 2>&1) &
(cd diag && timeout 300 nvcc -O3 -gencode arch=compute_80,code=compute_80 -std=c++17 -o ../bin/limits_c80 limits_probe.cu > ../$R/limits_c80.build.log 2>&1) &
(cd diag && timeout 300 nvcc -O3 -arch=sm_90 -std=c++17 -rdc=true -o ../bin/limits_rdc limits_probe.cu -lcudadevrt > ../$R/limits_rdc.build.log 2>&1) &
(cd diag && timeout 300 nvcc -O3 -arch=sm_90 -std=c++17 -o ../bin/const_probe const_probe.cu -lcuda > ../$R/const_probe.build.log 2>&1) &
wait
for f in *.cu; do
  n=${f%.cu}
  [ -x bin/$n ] || { echo "no binary $n"; head -30 $R/$n.build.log; continue; }
  timeout 60 ./bin/$n > $R/$n.h100.txt 2> $R/$n.h100.stderr
  echo $? > $R/$n.h100.exit
  echo "== $n exit $(cat $R/$n.h100.exit)"; head -c 300 $R/$n.h100.txt; head -c 300 $R/$n.h100.stderr
  for i in 2 3; do timeout 60 ./bin/$n > $R/$n.run$i.txt 2>&1; cmp -s $R/$n.h100.txt $R/$n.run$i.txt && rm $R/$n.run$i.txt || echo "$n run $i differs"; done
done
for n in limits_sm90 limits_c80 limits_rdc const_probe; do
  [ -x bin/$n ] || { echo "no binary $n"; head -30 $R/$n.build.log; continue; }
  timeout 60 ./bin/$n > $R/diag_$n.txt 2>&1; echo "exit $?" >> $R/diag_$n.txt
  echo "== $n"; cat $R/diag_$n.txt
done
tar czf $OUT/programs7.tar.gz $R
ls -la $R | head -80
