#!/bin/bash
# The TMA recordings (warpsim issue 18), run on the H100 from this folder:
#   bash run.sh        (outputs under $OUT/tma.tgz; NO_TRITON=1 skips the Triton kernels)
# Builds tma_probe.cu with nvcc 13 (sm_90a), runs every case of cases.txt in its own process (a case
# that faults cannot spoil the others) into out/NAME.bin, records the driver's encode results in
# out/log.txt, and records the Triton TMA kernels (tma_triton.py) into triton/.
set -x
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
mkdir -p out bin
nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -std=c++17 -o bin/tma_probe tma_probe.cu -lcuda > bin/build.log 2>&1 || { echo "BUILD FAIL"; head -40 bin/build.log; }
for n in $(awk '!/^#/ && NF > 1 {print $1}' cases.txt); do
  timeout 20 ./bin/tma_probe cases.txt $n out/$n.bin >> out/log.txt 2>&1 || echo "$n: exit $?" >> out/log.txt
done
cat out/log.txt | head -150
cuobjdump -sass bin/tma_probe | grep -E "UTMALDG|UTMASTG|UTMAREDG|UBLKCP" | sort | uniq -c | head
export PYTHONUNBUFFERED=1
[ -n "$NO_TRITON" ] || timeout 200 python3 tma_triton.py . > out/triton.log 2>&1
tail -30 out/triton.log
tar czf $OUT/tma.tgz out triton bin/build.log
ls -la $OUT
