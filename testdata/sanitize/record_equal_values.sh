#!/bin/bash
# Records compute-sanitizer's racecheck on equal-value writes to shared memory (race_waw_same.cu,
# race_waw_mixed.cu, race_raw_same.cu) on a real GPU: analysis (default), hazard and info detect level.
# Writes recorded/PROG.TAG.{stdout,stderr,status} and recorded/TOOLS-equal-values.txt into
# $OUT/sanrace.tar.gz. (The device call of 2026-11-27 also ran three Triton kernels under racecheck:
# testdata/triton3's README.) Usage: OUT=dir bash record_equal_values.sh
set -x
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/sanrace-out}
R=recorded; mkdir -p $R bin "$OUT"
{ nvidia-smi -L; nvcc --version | tail -2; compute-sanitizer --version; date -u; } > $R/TOOLS-equal-values.txt 2>&1
for p in race_waw_same race_waw_mixed race_raw_same; do
  nvcc -lineinfo -arch=sm_90 -o bin/$p $p.cu > bin/$p.nvcc.txt 2>&1 || cat bin/$p.nvcc.txt
  timeout 60 compute-sanitizer --tool racecheck ./bin/$p > $R/$p.racecheck.stdout 2> $R/$p.racecheck.stderr; echo $? > $R/$p.racecheck.status
  timeout 60 compute-sanitizer --tool racecheck --racecheck-report hazard ./bin/$p > $R/$p.racecheck-hazard.stdout 2> $R/$p.racecheck-hazard.stderr; echo $? > $R/$p.racecheck-hazard.status
  timeout 60 compute-sanitizer --tool racecheck --racecheck-detect-level info ./bin/$p > $R/$p.racecheck-info.stdout 2> $R/$p.racecheck-info.stderr; echo $? > $R/$p.racecheck-info.status
done
tar czf $OUT/sanrace.tar.gz $R/race_waw_same.* $R/race_waw_mixed.* $R/race_raw_same.* $R/TOOLS-equal-values.txt
