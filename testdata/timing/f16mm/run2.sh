#!/bin/bash
# The second device run (H100) for testdata/timing/f16mm: inflight_mb.cu (16-byte cp.async.cg issued back to back,
# reading or zero-filling, L2 flushed and warm). Stage inflight_mb.cu and this script in /work/main/.dev/mmaf16/,
# then on the device machine `cd .dev/mmaf16 && bash run2.sh`. Writes into $OUT: inflight_mb.h100.txt (the first
# run), inflight_mb.repeats.txt (two more), inflight_mb.nvcc.ptx, inflight_mb.sass.txt.
set -x
(nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o inflight_mb inflight_mb.cu && \
 nvcc -O3 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/inflight_mb.nvcc.ptx inflight_mb.cu) > build2.log 2>&1
echo "build rc=$?"; tail -20 build2.log
cuobjdump -sass inflight_mb > $OUT/inflight_mb.sass.txt 2>&1
timeout 60 ./inflight_mb > $OUT/inflight_mb.h100.txt 2>&1; echo "run rc=$?"
cat $OUT/inflight_mb.h100.txt
for i in 1 2; do timeout 60 ./inflight_mb; done > $OUT/inflight_mb.repeats.txt 2>&1
cat $OUT/inflight_mb.repeats.txt
grep -E "LDGSTS|CS2R|DEPBAR" $OUT/inflight_mb.sass.txt | head -40
ls -la $OUT
