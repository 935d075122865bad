#!/bin/bash
# racecheck on equal-value hazards: three probes and three Triton kernels (testdata/triton3), default
# detect level and --racecheck-detect-level info. Writes $OUT/sanrace.tar.gz.
set -x
H=$(pwd)
R=$H/recorded; mkdir -p $R bin
{ nvidia-smi -L; nvcc --version | tail -2; compute-sanitizer --version; date -u; } > $R/TOOLS.txt 2>&1
for p in race_waw_same race_waw_mixed race_raw_same; do
  nvcc -lineinfo -arch=sm_90 -o bin/$p $p.cu > bin/$p.nvcc.txt 2>&1 || cat bin/$p.nvcc.txt
  timeout 60 compute-sanitizer --tool racecheck ./bin/$p > $R/$p.racecheck.stdout 2> $R/$p.racecheck.stderr; echo $? > $R/$p.racecheck.status
  timeout 60 compute-sanitizer --tool racecheck --racecheck-report hazard ./bin/$p > $R/$p.racecheck-hazard.stdout 2> $R/$p.racecheck-hazard.stderr; echo $? > $R/$p.racecheck-hazard.status
  timeout 60 compute-sanitizer --tool racecheck --racecheck-detect-level info ./bin/$p > $R/$p.racecheck-info.stdout 2> $R/$p.racecheck-info.stderr; echo $? > $R/$p.racecheck-info.status
done
export PYTHONUNBUFFERED=1
for k in argmin_f32 histogram_i32 reduce_custom; do
  timeout 120 compute-sanitizer --tool racecheck python3 $H/triton/runlf.py $H/t3/$k /tmp/o_$k launch.json:x > $R/triton_$k.racecheck.stdout 2> $R/triton_$k.racecheck.stderr; echo $? > $R/triton_$k.racecheck.status
  timeout 120 compute-sanitizer --tool racecheck --racecheck-detect-level info python3 $H/triton/runlf.py $H/t3/$k /tmp/o_$k launch.json:x > $R/triton_$k.racecheck-info.stdout 2> $R/triton_$k.racecheck-info.stderr; echo $? > $R/triton_$k.racecheck-info.status
done
head -c 3000 $R/*.racecheck.stdout
tar czf $OUT/sanrace.tar.gz recorded
ls -l $OUT
