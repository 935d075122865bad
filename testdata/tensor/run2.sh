#!/bin/bash
# Second device call: raw wgmma probes (in/wgmma_*.bin from `python3 gen.py in wgmma`),
# the cuda_pipeline/awbarrier program and the cp.async.bulk program. Outputs under $OUT.
set -x
ARCH="-gencode=arch=compute_90a,code=sm_90a -O2"
mkdir -p out bin
for v in 0 1 2 3 4; do
  nvcc $ARCH -DVAR=$v -o bin/wgmma$v wgmma_probe.cu > bin/wgmma$v.log 2>&1 || { echo "BUILD FAIL wgmma$v"; head -20 bin/wgmma$v.log; } &
done
nvcc $ARCH -o bin/pipeline_prog pipeline_prog.cu > bin/pipeline_prog.log 2>&1 || { echo "BUILD FAIL pipeline"; head -30 bin/pipeline_prog.log; } &
nvcc $ARCH -o bin/bulk_prog bulk_prog.cu > bin/bulk_prog.log 2>&1 || { echo "BUILD FAIL bulk"; head -30 bin/bulk_prog.log; } &
wait
for v in 0 1 2 3 4; do ./bin/wgmma$v || echo "RUN FAIL wgmma$v"; done
./bin/pipeline_prog > out/pipeline_prog.txt || echo "RUN FAIL pipeline"
./bin/bulk_prog > out/bulk_prog.txt || echo "RUN FAIL bulk"
head -2 out/pipeline_prog.txt out/bulk_prog.txt
cuobjdump -sass bin/wgmma3 | grep -E "GMMA" | head -3
cuobjdump -sass bin/wgmma0 | grep -E "GMMA" | head -3
ls -la out
tar czf $OUT/rec2.tgz out bin/*.log
