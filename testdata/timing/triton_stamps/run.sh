#!/bin/bash
# One device run (H100) for issue 18's worst held-out Triton misses: the tf32 wgmma matmuls and the TMA kernels.
# Stage (from the worktree root), then on the device machine `cd .dev/tf32tma && bash run.sh`:
#   D=/work/main/.dev/tf32tma; mkdir -p $D/triton $D/stamps
#   cp testdata/timing/triton_stamps/{run.sh,run_cases.py,instrument.py,analyze.py} testdata/timing/ldgsts/ldgsts_mb.cu $D/
#   cp testdata/triton/triton_corpus.py $D/triton/; for k in $CASES; do cp -r testdata/triton/$k $D/triton/; done
#   for k in $CASES; do python3 $D/instrument.py $D/triton/$k $D/stamps $k; done     (CASES: below, minus mm_f16_64x64x32_s3)
# Writes into $OUT: GPU.txt, ldgsts_mb.h100.txt and ldgsts_mb.nvcc.ptx (testdata/timing/ldgsts), stamps.tgz (the
# instrumented kernels' stamps: 2 runs with the L2 flushed, 1 warm), ncu.tgz (Nsight Compute --set full of the
# plain kernels, sm90 and sm80 PTX: details and raw CSV pages, SASS of ptxas -arch=sm_90a). Each step has its own
# timeout; a failed one does not stop the others.
set -x
CASES="mm_tf32_64x64x32_s2 mm_tf32_128x64x32_s3 tma_matmul_f16 tma_scale_f32 mm_f16_64x64x32_s3"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
ncu --version | tail -n 1 >> $OUT/GPU.txt
mkdir -p res/stamps res/ncu
export PYTHONUNBUFFERED=1
# 1. The cp.async microbenchmark.
(nvcc -O3 -arch=sm_90a -o ldgsts_mb ldgsts_mb.cu && nvcc -O3 -arch=sm_90a -ptx -o $OUT/ldgsts_mb.nvcc.ptx ldgsts_mb.cu) > res/build.log 2>&1
echo "build rc=$?"; tail -5 res/build.log
timeout 60 ./ldgsts_mb > $OUT/ldgsts_mb.h100.txt 2>&1; echo "ldgsts_mb rc=$?"
cat $OUT/ldgsts_mb.h100.txt
# 2. The instrumented Triton kernels.
timeout 90 python3 run_cases.py stamps stamps res/stamps 3 > res/stamps/log.txt 2>&1; echo "stamps rc=$?"
tail -3 res/stamps/log.txt
cp stamps/*.points res/stamps/
for f in stamps/*.points; do k=$(basename $f .points)
  python3 analyze.py $f res/stamps/$k.r0.stamps.bin res/stamps/$k.r1.stamps.bin res/stamps/$k.r2.stamps.bin > res/stamps/$k.txt 2>&1
  echo "== $k"; cat res/stamps/$k.txt
done
tar czf $OUT/stamps.tgz res/stamps
# 3. SASS of the sm90 PTX.
for k in $CASES; do
  timeout 60 ptxas -arch=sm_90a -v triton/$k/sm90.ptx -o res/ncu/$k.cubin > res/ncu/$k.ptxas.txt 2>&1 && \
    cuobjdump -sass res/ncu/$k.cubin > res/ncu/$k.sass.txt 2>&1; echo "sass $k rc=$?"
done
# 4. Nsight Compute, every section, of the plain kernels.
timeout 150 ncu --set full -f -o res/ncu/full python3 run_cases.py plain triton $CASES > res/ncu/ncu_log.txt 2>&1
echo "ncu rc=$?"; grep -v "^==PROF==" res/ncu/ncu_log.txt | tail -12
ncu -i res/ncu/full.ncu-rep --page details --csv > res/ncu/details.csv 2> res/ncu/details.err
ncu -i res/ncu/full.ncu-rep --page raw --csv > res/ncu/raw.csv 2> res/ncu/raw.err
timeout 60 ncu -i res/ncu/full.ncu-rep --page source --csv --print-source sass > res/ncu/source.csv 2> res/ncu/source.err
ls -la res/ncu; rm -f res/ncu/*.cubin
grep -E '"(Duration|Elapsed Cycles|L1/TEX Hit Rate|Mem Pipes Busy|Issue Slots Busy|Warp Cycles Per Issued Instruction|L1/TEX Cache Throughput|Shared Memory|Bank)' res/ncu/details.csv | cut -c1-400 | head -80
tar czf $OUT/ncu.tgz res/ncu
ls -la $OUT
