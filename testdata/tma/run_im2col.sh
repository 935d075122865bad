#!/bin/bash
# The TMA im2col and interleave recordings (warpsim issue 18), run on the H100 from this folder:
#   bash run_im2col.sh        (outputs under $OUT/im2col.tgz)
# Builds im2col_probe.cu and tma_probe.cu with nvcc 13 (sm_90a), runs every case of im2col_cases.txt and
# il_cases.txt in its own process (a case that faults cannot spoil the others) into out/NAME.bin, and
# records the driver's verdicts and the runs in out/log_im2col.txt and out/log_il.txt.
set -x
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
mkdir -p out bin
nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -std=c++17 -o bin/im2col_probe im2col_probe.cu -lcuda > bin/build_im2col.log 2>&1 &
nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -std=c++17 -o bin/tma_probe tma_probe.cu -lcuda > bin/build.log 2>&1 &
wait
head -40 bin/build_im2col.log bin/build.log
for n in $(awk '!/^#/ && NF > 1 {print $1}' im2col_cases.txt); do
  timeout 10 ./bin/im2col_probe im2col_cases.txt $n out/$n.bin >> out/log_im2col.txt 2>&1 || echo "$n: exit $?" >> out/log_im2col.txt
done
for n in $(awk '!/^#/ && NF > 1 {print $1}' il_cases.txt); do
  timeout 10 ./bin/tma_probe il_cases.txt $n out/$n.bin >> out/log_il.txt 2>&1 || echo "$n: exit $?" >> out/log_il.txt
done
cat out/log_im2col.txt out/log_il.txt
cuobjdump -sass bin/im2col_probe | grep -E "UTMALDG|UTMAPF" | sort | uniq -c | head
tar czf $OUT/im2col.tgz out bin/build_im2col.log bin/build.log
ls -la $OUT
