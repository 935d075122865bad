#!/bin/bash
# Records the wgmma and TMA/bulk-copy microbenchmarks on the H100: copy
# wgmma.ptx, mb.cu and run.sh into .dev/wgmmatime/ of the checkout the device
# machine receives, then `cd .dev/wgmmatime && bash run.sh` (results into $OUT).
set -x
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv
nvcc --version | tail -2
T() { timeout "$@" || echo "STEP FAILED rc=$?: $*"; }
T 120 ptxas -arch=sm_90a -O3 -o wgmma.cubin wgmma.ptx > ptxas.txt 2>&1 & p1=$!
T 120 nvcc -O3 -arch=sm_90 -o mb mb.cu -lcuda & p2=$!
wait $p1 $p2; sort ptxas.txt | uniq -c | head -20  # not a bare wait: it would wait for tee
ls -la
M=wgmma.cubin; [ -s wgmma.cubin ] || M=wgmma.ptx
T 120 ./mb $M > $OUT/mb_stdout.txt 2>&1
cat $OUT/mb_stdout.txt
T 40 cuobjdump -sass wgmma.cubin > sass.txt
grep -E "Function|HGMMA|IGMMA|QGMMA|WARPSYNC|WARPGROUP|DEPBAR|UBLKCP|UTMALDG|SYNCS" sass.txt | head -150
gzip -c sass.txt > $OUT/sass.txt.gz
ls -la $OUT
