#!/bin/bash
# The second device run (H100): bulkwait_mb.cu (testdata/timing/bulkwait) and ablations of the instrumented Triton
# kernels (variants.py: mm_tf32_64x64x32_s2 without its 4-byte B copies, without any copy, without its wgmma;
# tma_scale_f32 without its TMA store), stamps as in run.sh, and Nsight Compute's times of every instrumented
# launch file (stamps/ and stamps2/). Stage as run.sh says, plus (from the worktree root):
#   cp testdata/timing/triton_stamps/{run2.sh,variants.py} testdata/timing/bulkwait/bulkwait_mb.cu $D/; mkdir $D/stamps2
#   for k in mm_tf32_64x64x32_s2 tma_scale_f32; do python3 $D/instrument.py $D/triton/$k $D/stamps2 $k; done
#   python3 $D/variants.py $D/stamps2 mm_tf32_64x64x32_s2 nocopyB 'cp\.async\.ca\.shared\.global' \
#     nocopy 'cp\.async\.c[ag]\.shared\.global' nowgmma 'wgmma\.mma_async'
#   python3 $D/variants.py $D/stamps2 tma_scale_f32 nostore 'cp\.async\.bulk\.tensor\.2d\.global\.shared::cta\.bulk_group'
#   rm $D/stamps2/mm_tf32_64x64x32_s2.* $D/stamps2/tma_scale_f32.{ptx,json,points}
# then `cd .dev/tf32tma && bash run2.sh`. Writes into $OUT: bulkwait_mb.h100.txt, bulkwait_mb.nvcc.ptx,
# stamps2.tgz, ncu2.tgz.
set -x
export PYTHONUNBUFFERED=1
mkdir -p res2/stamps res2/ncu
(nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o bulkwait_mb bulkwait_mb.cu && \
 nvcc -O3 -gencode arch=compute_90a,code=compute_90a -ptx -o $OUT/bulkwait_mb.nvcc.ptx bulkwait_mb.cu) > res2/build.log 2>&1
echo "build rc=$?"; tail -5 res2/build.log
timeout 60 ./bulkwait_mb > $OUT/bulkwait_mb.h100.txt 2>&1; echo "bulkwait_mb rc=$?"
cat $OUT/bulkwait_mb.h100.txt
timeout 90 python3 run_cases.py stamps stamps2 res2/stamps 3 > res2/stamps/log.txt 2>&1; echo "stamps rc=$?"
tail -3 res2/stamps/log.txt
cp stamps2/*.points res2/stamps/
for f in stamps2/*.points; do k=$(basename $f .points)
  python3 analyze.py $f res2/stamps/$k.r0.stamps.bin res2/stamps/$k.r2.stamps.bin > res2/stamps/$k.txt 2>&1
  echo "== $k"; cat res2/stamps/$k.txt
done
tar czf $OUT/stamps2.tgz res2/stamps
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__cycles_active.avg
for d in stamps stamps2; do
  timeout 100 ncu --csv --page raw --metrics $M --log-file res2/ncu/$d.csv python3 run_cases.py files $d $(cd $d && ls *.json) $(cd $d && ls *.json) > res2/ncu/$d.order.txt 2>&1
  echo "ncu $d rc=$?"; cat res2/ncu/$d.order.txt | tail -12
  grep -v "^==" res2/ncu/$d.csv | cut -c1-300 | tail -12
done
tar czf $OUT/ncu2.tgz res2/ncu
ls -la $OUT
