#!/bin/bash
# The TMA interleaved-layout recordings (warpsim isagaps), run on the H100 from this folder:
#   bash run_il.sh        (outputs under $OUT/il.tgz)
# Builds tma_probe.cu with nvcc 13 (sm_90a) and runs every case of il_cases.txt in its own process into
# out/NAME.bin (kind I: the measured transaction bytes in the "done" word), the log in out/log_il_h100.txt.
set -x
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
mkdir -p out bin
[ -x bin/tma_probe ] || nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -std=c++17 -o bin/tma_probe tma_probe.cu -lcuda > bin/build.log 2>&1 || { echo "BUILD FAIL"; head -40 bin/build.log; }
for n in $(awk '!/^#/ && NF > 1 {print $1}' il_cases.txt); do
  timeout 10 ./bin/tma_probe il_cases.txt $n out/$n.bin >> out/log_il_h100.txt 2>&1 || echo "$n: exit $?" >> out/log_il_h100.txt
done
cat out/log_il_h100.txt
tar czf $OUT/il.tgz out/iv* out/log_il_h100.txt bin/build.log
