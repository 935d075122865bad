#!/bin/bash
# Records the wgmma and TMA/bulk-copy microbenchmarks, and the tensor lesson's
# mmaAsync with clock stamps (mmaclk.cu) and under Nsight Compute, on the
# H100: copy wgmma.ptx, mb.cu, mmaclk.cu, run.sh, examples/lessons/tensor.cu
# and examples/lessons/common.h into .dev/wgmmatime2/ of the checkout the
# device machine receives, then `cd .dev/wgmmatime2 && bash run.sh` (the
# `run` tool's kind nvidia-h100-x1; results into $OUT). Every step has its
# own timeout and a failed one does not stop the others.
set -x
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv
nvcc --version | tail -2
T() { timeout "$@" || echo "STEP FAILED rc=$?: $*"; }
T 150 ptxas -arch=sm_90a -O3 -o wgmma.cubin wgmma.ptx > ptxas.txt 2>&1 & p1=$!
T 150 nvcc -O3 -arch=sm_90 -o mb mb.cu -lcuda & p2=$!
T 150 nvcc -O3 -arch=sm_90 -o mmaclk mmaclk.cu & p3=$!
T 150 nvcc -O3 -arch=sm_90 -ptx -o $OUT/mmaclk.sm90.ptx mmaclk.cu & p4=$!
T 150 nvcc -O3 -arch=sm_90 -o tensor tensor.cu & p5=$!
wait $p1 $p2 $p3 $p4 $p5  # not a bare wait: it would wait for tee
grep -v C7519 ptxas.txt | head -20
ls -la
M=wgmma.cubin; [ -s wgmma.cubin ] || M=wgmma.ptx
for t in f16 bf16 tf32 e4m3 s8; do T 40 ./mb $M wg $t >> $OUT/mb_stdout.txt 2>&1; done
for s in bulk tile cpmbar; do T 40 ./mb $M $s >> $OUT/mb_stdout.txt 2>&1; done
cat $OUT/mb_stdout.txt
( for n in 256 512; do T 30 ./mmaclk $n; done ) > $OUT/mmaclk_stdout.txt 2>&1
grep mean $OUT/mmaclk_stdout.txt
T 30 ./tensor 256
T 120 ncu --clock-control base --set full -k regex:mmaAsync -c 1 -o mma ./tensor 256 1
T 30 ncu -i mma.ncu-rep --page details --csv > ncu_mma_details.csv
T 30 ncu -i mma.ncu-rep --page source --csv --print-source sass > ncu_mma_source.csv
T 30 ncu -i mma.ncu-rep --page raw --csv > ncu_mma_raw.csv
grep -i -E "stall|duration|elapsed" ncu_mma_details.csv | head -60
head -c 3000 ncu_mma_source.csv
tar czf $OUT/ncu_mma.tgz ncu_mma_*.csv mma.ncu-rep
( T 40 cuobjdump -sass wgmma.cubin; T 40 cuobjdump -sass mmaclk; T 40 cuobjdump -sass tensor ) > sass.txt
grep -E "Function|HGMMA|IGMMA|QGMMA|WARPGROUP|UBLKCP|UTMALDG|SYNCS|LDGSTS|LDSM|HMMA|DEPBAR|BAR|CS2R" sass.txt | grep -v -E "HGMMA|IGMMA|QGMMA" | head -80
gzip -c sass.txt > $OUT/sass.txt.gz
ls -la $OUT
