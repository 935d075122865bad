#!/bin/bash
# The first device run (H100) for testdata/timing/f16mm: coldcp_mb.cu (copy stages with the L2 flushed and warm),
# %clock64 stamps of Triton's f16/bf16/fp8 matmuls (instrument.py, sm_90 and sm_80 PTX; twice with the L2 flushed,
# once warm) and of their ablations (variants.py), and Nsight Compute's times of every instrumented launch file.
# Staged from the worktree root (D=/work/main/.dev/mmaf16):
#   mkdir -p $D/triton $D/stamps; cp testdata/triton/triton_corpus.py $D/triton/
#   cp -r testdata/triton/{mm_f16_64x64x32_s3,mm_f16_128x128x64_s4,mm_f16_masked_s2,mm_fp8e4m3_64x64x64_s3,grouped_gemm_f16,mm_bf16_64x128x32_s3} $D/triton/
#   cp testdata/timing/f16mm/{run.sh,coldcp_mb.cu,instrument.py,variants.py,analyze.py,run_cases.py} $D/
#   stage.sh (beside this script) makes $D/stamps
# then on the device machine `cd .dev/mmaf16 && bash run.sh`. Writes into $OUT: GPU.txt, coldcp_mb.h100.txt,
# coldcp_mb.nvcc.ptx, stamps.tgz (res/stamps: <name>.r<rep>.stamps.bin, r0 r1 flushed, r2 warm; analyze.py's
# tables), ncu.tgz (res/ncu: stamps.csv, stamps.order.txt).
set -x
export PYTHONUNBUFFERED=1
mkdir -p res/stamps res/ncu
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/GPU.txt
nvcc --version | tail -n 2 >> $OUT/GPU.txt
(nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o coldcp_mb coldcp_mb.cu && \
 nvcc -O3 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/coldcp_mb.nvcc.ptx coldcp_mb.cu) > res/build.log 2>&1
echo "build rc=$?"; tail -20 res/build.log
timeout 60 ./coldcp_mb > $OUT/coldcp_mb.h100.txt 2>&1; echo "coldcp_mb rc=$?"
cat $OUT/coldcp_mb.h100.txt
timeout 120 python3 run_cases.py stamps stamps res/stamps 3 > res/stamps/log.txt 2>&1; echo "stamps rc=$?"
grep -v "^ok" res/stamps/log.txt | tail -5
cp stamps/*.points res/stamps/
for f in stamps/*.points; do k=$(basename $f .points)
  python3 analyze.py $f res/stamps/$k.r0.stamps.bin res/stamps/$k.r1.stamps.bin res/stamps/$k.r2.stamps.bin > res/stamps/$k.txt 2>&1
  echo "== $k"; cat res/stamps/$k.txt
done
tar czf $OUT/stamps.tgz res/stamps
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.max
timeout 150 ncu --csv --page raw --metrics $M --log-file res/ncu/stamps.csv python3 run_cases.py files stamps $(cd stamps && ls *.json) $(cd stamps && ls *.json) > res/ncu/stamps.order.txt 2>&1
echo "ncu rc=$?"; tail -3 res/ncu/stamps.order.txt
grep -v "^==" res/ncu/stamps.csv | cut -c1-200 | tail -4
tar czf $OUT/ncu.tgz res/ncu
ls -la $OUT
