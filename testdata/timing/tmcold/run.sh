#!/bin/bash
# One device run (H100) for testdata/timing/tmcold: stage tmcold_mb.cu and this script in /work/main/.dev/tf32tma2/,
# then on the device machine `cd .dev/tf32tma2 && bash run.sh`. Writes into $OUT: GPU.txt, tmcold_mb.h100.txt (the
# first run's lines, which TestTensormapColdMicrobenchmarks reads), tmcold_mb.repeats.txt (two more runs),
# tmcold_mb.nvcc.ptx (nvcc's PTX, compute_90a) and tmcold_mb.sass.txt (cuobjdump -sass of the sm_90a binary).
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
(nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o tmcold_mb tmcold_mb.cu && \
 nvcc -O3 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/tmcold_mb.nvcc.ptx tmcold_mb.cu) > build.log 2>&1
echo "build rc=$?"; tail -20 build.log
cuobjdump -sass tmcold_mb > $OUT/tmcold_mb.sass.txt 2>&1
timeout 60 ./tmcold_mb > $OUT/tmcold_mb.h100.txt 2>&1; echo "run rc=$?"
cat $OUT/tmcold_mb.h100.txt
for i in 1 2; do timeout 60 ./tmcold_mb; done > $OUT/tmcold_mb.repeats.txt 2>&1
cat $OUT/tmcold_mb.repeats.txt
grep -E "ATOMG|DEPBAR|UTMA|CS2R|MEMBAR|FENCE|CCTL|ERRBAR|SYNCS|BAR" $OUT/tmcold_mb.sass.txt | head -80
ls -la $OUT
