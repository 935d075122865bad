#!/bin/bash
# The second device run (H100) for testdata/timing/tmcold: stage tmbranch_mb.cu and this script in
# /work/main/.dev/tf32tma2/, then on the device machine `cd .dev/tf32tma2 && bash run2.sh`. Writes into $OUT:
# GPU2.txt, tmbranch_mb.h100.txt (the first run), tmbranch_mb.repeats.txt (two more), tmbranch_mb.nvcc.ptx
# (compute_90a) and tmbranch_mb.sass.txt (cuobjdump -sass of the sm_90a binary).
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU2.txt
(nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o tmbranch_mb tmbranch_mb.cu && \
 nvcc -O3 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/tmbranch_mb.nvcc.ptx tmbranch_mb.cu) > build2.log 2>&1
echo "build rc=$?"; tail -20 build2.log
cuobjdump -sass tmbranch_mb > $OUT/tmbranch_mb.sass.txt 2>&1
timeout 60 ./tmbranch_mb > $OUT/tmbranch_mb.h100.txt 2>&1; echo "run rc=$?"
cat $OUT/tmbranch_mb.h100.txt
for i in 1 2; do timeout 60 ./tmbranch_mb; done > $OUT/tmbranch_mb.repeats.txt 2>&1
cat $OUT/tmbranch_mb.repeats.txt
grep -c "BSSY" $OUT/tmbranch_mb.sass.txt
ls -la $OUT
