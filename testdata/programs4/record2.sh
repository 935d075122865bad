#!/bin/bash
# Second call: re-records the programs changed after the first recording
# (cdp_tail, printf_formats, tex_surf; cpp17_lambda, which nvcc refused) and
# a diagnostic for cuda_std (diag/cuda_std_ops.cu), same flags as record.sh.
set -x
R=rec2
mkdir -p bin $R
for n in cdp_tail printf_formats tex_surf cpp17_lambda diag/cuda_std_ops; do
  b=$(basename $n)
  extra=$(awk -v n=$b '$1 == n { $1 = ""; print }' flags.txt)
  (nvcc -O3 -arch=sm_90 -std=c++17 $extra -o bin/$b $n.cu > $R/$b.build.log 2>&1 || echo "BUILD FAIL $b") &
done
wait
for b in cdp_tail printf_formats tex_surf cpp17_lambda cuda_std_ops; do
  [ -x bin/$b ] || { echo "no binary $b"; head -30 $R/$b.build.log; continue; }
  timeout 60 ./bin/$b > $R/$b.h100.txt 2> $R/$b.h100.stderr
  echo $? > $R/$b.h100.exit
  echo "== $b exit $(cat $R/$b.h100.exit)"; head -c 600 $R/$b.h100.txt; head -c 300 $R/$b.h100.stderr
done
tar czf $OUT/programs4b.tar.gz $R
